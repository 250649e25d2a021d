// Hono as a plain fetch app: `bun hono-app.js` (Bun serves a default export with `fetch`),
// `deno serve --host 127.0.0.1 hono-app.js`, or a Cloudflare Worker (no nodejs_compat needed).
import { Hono } from 'hono';
import { createMcpFetchHandler, createMcpServer, text } from 'mcp-actors/web';

const mcp = createMcpServer({ info: { name: 'hono-app', version: '1.0.0' } });
mcp.registerTool('greet', { inputSchema: { type: 'object', properties: { name: { type: 'string' } } } }, (args) => ({
  content: [text(`Hello, ${String(args['name'])}!`)],
}));

const mcpHandler = createMcpFetchHandler(mcp); // behind a public name: { allowedHosts: ['mcp.example.com'] }
const app = new Hono();
app.all('/mcp', (c) => mcpHandler(c.req.raw));
export default { fetch: app.fetch, hostname: '127.0.0.1' };
