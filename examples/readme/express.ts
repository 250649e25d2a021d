// Express 5: mount the node handler with app.all, before any body parser: it reads the body
// itself, under its own limit, and answers bad JSON with a JSON-RPC error (after express.json()
// it uses the parsed body, but Express answers malformed or large bodies with its own pages).
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
app.all('/mcp', mcpHandler);
app.use(express.json()); // for your other routes
const server = app.listen(Number(process.env['PORT'] ?? 0), '127.0.0.1', () => {
  const address = server.address();
  console.log(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/mcp`);
});
process.once('SIGTERM', () => void mcpHandler.close().then(() => server.close()));
