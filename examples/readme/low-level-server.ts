// The low-level server: answer methods one by one, with nothing declared for you.
import { createServer } from 'mcp-actors/server';
import { createStdioServerTransport } from 'mcp-actors/streams';

const server = createServer({ info: { name: 'echo', version: '1.0.0' }, capabilities: { tools: {} } });
server.onRequest('tools/list', () => ({ tools: [{ name: 'echo', inputSchema: { type: 'object' } }] }));
server.onRequest('tools/call', async (params, ctx) => {
  ctx.sendProgress(1, 1, 'echoing'); // only if the caller asked for progress
  if (ctx.signal.aborted) return {}; // aborted by notifications/cancelled
  const args = (params?.['arguments'] ?? {}) as { text?: unknown };
  return { content: [{ type: 'text', text: String(args.text) }] };
});
await server.connect(createStdioServerTransport());
