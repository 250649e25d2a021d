// Fastify 5: the node handler on the raw request and response. The route's content-type
// parsers hand the body over unread (the handler reads it under its own limit), and
// reply.hijack() tells Fastify the handler answers.
import Fastify from 'fastify';
import { createMcpServer, text } from 'mcp-actors';
import { createStreamableHttpHandler } from 'mcp-actors/streams';

const mcp = createMcpServer({ info: { name: 'fastify-greeter', version: '1.0.0' } });
mcp.registerTool('greet', { inputSchema: { type: 'object', properties: { name: { type: 'string' } } } }, (args) => ({
  content: [text(`Hello, ${String(args['name'])}!`)],
}));

const mcpHandler = createStreamableHttpHandler(mcp.server);
const app = Fastify();
await app.register(async (scope) => {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
  scope.all('/mcp', (request, reply) => {
    reply.hijack();
    mcpHandler(request.raw, reply.raw);
  });
});
const address = await app.listen({ port: Number(process.env['PORT'] ?? 0), host: '127.0.0.1' });
console.log(`${address}/mcp`);
process.once('SIGTERM', () => void mcpHandler.close().then(() => app.close()));
