// The plain handler in Express 5: mount it with app.all (or app.use), with or without
// express.json() before it. (node:http, Fastify's raw request and Hono's node adapter work alike.)
import express from 'express';
import { createMcpServer, text } from 'mcp-actors';
import { createStreamableHttpHandler } from 'mcp-actors/streams';

const mcp = createMcpServer({ info: { name: 'express-greeter', version: '1.0.0' } });
mcp.registerTool('greet', { inputSchema: { type: 'object', properties: { name: { type: 'string' } } } }, (args) => ({
  content: [text(`Hello, ${String(args['name'])}!`)],
}));

const mcpHandler = createStreamableHttpHandler(mcp.server, {
  allowedHosts: ['127.0.0.1', 'localhost'], // Host checks stay on behind Express too
});
const app = express();
app.use(express.json());
app.all('/mcp', mcpHandler);
const server = app.listen(Number(process.env['PORT'] ?? 0), '127.0.0.1', () => {
  const address = server.address();
  console.log(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/mcp`);
});
process.once('SIGTERM', () => void mcpHandler.close().then(() => server.close()));
