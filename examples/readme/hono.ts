// Hono 4 on Node: the fetch handler on a route, served by @hono/node-server.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { createMcpFetchHandler, createMcpServer, text } from 'mcp-actors/web';

const mcp = createMcpServer({ info: { name: 'hono-greeter', version: '1.0.0' } });
mcp.registerTool('greet', { inputSchema: { type: 'object', properties: { name: { type: 'string' } } } }, (args) => ({
  content: [text(`Hello, ${String(args['name'])}!`)],
}));

const mcpHandler = createMcpFetchHandler(mcp);
const app = new Hono();
app.all('/mcp', (c) => mcpHandler(c.req.raw));
const server = serve({ fetch: app.fetch, port: Number(process.env['PORT'] ?? 0), hostname: '127.0.0.1' }, (info) => {
  console.log(`http://127.0.0.1:${info.port}/mcp`);
});
process.once('SIGTERM', () => void mcpHandler.close().then(() => server.close()));
