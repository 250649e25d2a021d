// A Streamable HTTP server on 127.0.0.1 (Host and Origin checked). Sessions come and go on
// `sessions$`. The 2024-11-05 HTTP+SSE endpoints are off unless `legacySse: true`.
import { createMcpServer, listen, text } from 'mcp-actors';
import { createStreamableHttpHandler } from 'mcp-actors/streams';
import { z } from 'zod';

const mcp = createMcpServer({ info: { name: 'greeter', version: '1.0.0' } });
mcp.registerTool('greet', { inputSchema: { name: z.string() } }, ({ name }) => ({ content: [text(`Hello, ${name}!`)] }));

// Each session as it connects; its state$ follows it through initialize to closed.
mcp.sessions$.subscribe((session) => {
  session.state$.subscribe((s) => console.error(`session ${JSON.stringify(s.value)}, client ${session.peerInfo?.name ?? '(not yet known)'}`));
});

const handler = createStreamableHttpHandler(mcp.server, { legacySse: false /* true: also serve /sse and /messages */ });
const { url, close } = await listen(handler, { port: Number(process.env['PORT'] ?? 0), logger: false });
console.log(url); // e.g. http://127.0.0.1:3000/mcp
process.once('SIGTERM', () => void close());
process.once('SIGINT', () => void close());
