// The Web-standard handler, (request: Request) => Promise<Response>, from mcp-actors/web (no
// node: built-in but node:crypto). serveFetch runs it with Bun.serve, Deno.serve, or on Node a
// node:http bridge; on Cloudflare Workers (no nodejs_compat needed) export it: `export default { fetch: handler }`.
import { createMcpFetchHandler, createMcpServer, serveFetch, text } from 'mcp-actors/web';

const mcp = createMcpServer({ info: { name: 'fetch-greeter', version: '1.0.0' } });
mcp.registerTool('greet', { inputSchema: { type: 'object', properties: { name: { type: 'string' } } } }, (args) => ({
  content: [text(`Hello, ${String(args['name'])}!`)],
}));

// Behind a public name, say which: { allowedHosts: ['mcp.example.com'] } (default: loopback names only).
const handler = createMcpFetchHandler(mcp);
const { url, close } = await serveFetch(handler, { port: Number(process.env['PORT'] ?? 0), logger: false });
console.log(url);
process.once('SIGTERM', () => void close());
