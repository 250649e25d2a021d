// Record a session and replay it: `journal: true` keeps the session's inputs and outputs;
// replay() runs them through a fresh session on a simulated clock and compares what it sends.
import { createClient, createMcpServer, replay, text } from 'mcp-actors';
import { createMemoryPair } from 'mcp-actors/streams';

const mcp = createMcpServer({ info: { name: 'echo', version: '1.0.0' } });
mcp.registerTool('echo', { inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }, (args) => ({
  content: [text(String(args['text']))],
}));
const [serverSide, clientSide] = createMemoryPair();
await mcp.connect(serverSide);
const client = createClient({ info: { name: 'recorder', version: '1.0.0' }, journal: true });
await client.connect(clientSide);
await client.callTool('echo', { text: 'recorded' });
await client.close();

const jsonl = client.journal!.toJSONL(); // save it anywhere; it is plain text
const { matches, firstDifference } = await replay(jsonl);
console.log(matches, firstDifference ?? 'no difference');
