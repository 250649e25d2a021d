// Long work as a task (2025-11-25): the server answers the call at once with a task; the client
// follows its status and fetches the result when it ends.
import { createClient, createMcpServer, text } from 'mcp-actors';
import { createMemoryPair } from 'mcp-actors/streams';

const mcp = createMcpServer({ info: { name: 'builder', version: '1.0.0' } });
mcp.registerTool('build', { execution: { taskSupport: 'optional' } }, async (args, ctx) => {
  await new Promise((done) => setTimeout(done, 50)); // the long part; ctx.signal aborts on tasks/cancel
  return { content: [text(`built ${String(args['target'])}${ctx.signal.aborted ? ' (cancelled)' : ''}`)] };
});
const [clientSide, serverSide] = createMemoryPair();
await mcp.server.connect(serverSide);
const client = createClient({ info: { name: 'ci', version: '1.0.0' } });
await client.connect(clientSide);

const handle = await client.callToolAsTask('build', { target: 'app' }, { ttl: 600_000 });
handle.status$.subscribe((t) => console.log(t.status));
const result = await handle.result();
console.log(result.content[0]?.type === 'text' ? result.content[0].text : '?');
await client.close();
await mcp.close();
