/**
 * The server of the soak runs (scripts/robustness.ts): an McpServer with `echo` and `heap`
 * (the heap in use after a full collection; run with --expose-gc), over stdio, or over
 * Streamable HTTP on a free port when given `--http` (it prints the URL on stdout).
 */
import { listen } from '../../lib/http/listen-port.js';
import { createMcpServer } from '../../lib/mcp-server.js';
import { createStdioServerTransport } from '../../streams/stdio-server.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';

const mcp = createMcpServer({ info: { name: 'soak', version: '1.0.0' } });
mcp.registerTool('echo', { description: 'returns its text' }, (args: Record<string, unknown> | undefined) => String(args?.text ?? ''));
mcp.registerTool('heap', { description: 'heap in use after a full GC, in bytes' }, () => {
  (globalThis as { gc?: () => void }).gc?.();
  return String(process.memoryUsage().heapUsed);
});

if (process.argv.includes('--http')) {
  const listening = await listen(createStreamableHttpHandler(mcp.server, { responseMode: 'json' }), { port: 0, logger: false });
  process.stdout.write(`${listening.url}\n`);
  process.on('SIGTERM', () => void listening.close().then(() => process.exit(0)));
} else {
  await mcp.connect(createStdioServerTransport());
}
