/**
 * An example MCP server over stdio: an echo tool, a slow tool that reports progress, and a tool
 * that never answers unless cancelled. Only MCP frames go to stdout; logs go to stderr.
 *
 *   node dist/examples/echo-server.js
 */
import { createServer } from '../lib/server.js';
import { McpError } from '../lib/errors.js';
import { ErrorCode } from '../lib/jsonrpc/error-codes.js';
import { createStdioServerTransport } from '../streams/stdio-server.js';

const TOOLS = [
  {
    name: 'echo',
    description: 'Echoes the text back.',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  },
  {
    name: 'slow',
    description: 'Counts to `steps`, one progress notification per step, then answers.',
    inputSchema: { type: 'object', properties: { steps: { type: 'number' }, delayMs: { type: 'number' } } },
  },
  {
    name: 'hang',
    description: 'Never answers; ends only when cancelled.',
    inputSchema: { type: 'object', properties: {} },
  },
];

const server = createServer({
  info: { name: 'mcp-actors-echo', version: '0.1.0' },
  capabilities: { tools: {} },
  instructions: 'Call "echo" to hear yourself, "slow" to watch progress, "hang" to try cancellation.',
});

server.onRequest('tools/list', () => ({ tools: TOOLS }));
server.onRequest('tools/call', async (params, ctx) => {
  const name = params?.name;
  const args = (params?.arguments ?? {}) as Record<string, unknown>;
  switch (name) {
    case 'echo':
      return { content: [{ type: 'text', text: String(args.text ?? '') }] };
    case 'slow': {
      const steps = Number(args.steps ?? 3);
      const delayMs = Number(args.delayMs ?? 20);
      for (let i = 1; i <= steps; i++) {
        await new Promise((r) => setTimeout(r, delayMs));
        if (ctx.signal.aborted) throw new McpError(ErrorCode.InternalError, 'cancelled');
        ctx.sendProgress(i, steps, `step ${i} of ${steps}`);
      }
      return { content: [{ type: 'text', text: `counted to ${steps}` }] };
    }
    case 'hang':
      await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
      process.stderr.write(`hang: cancelled (${String(ctx.signal.reason)})\n`);
      return { content: [] };
    default:
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${String(name)}`);
  }
});

const session = await server.connect(createStdioServerTransport());
session.state$.subscribe({ complete: () => process.exit(0) });
