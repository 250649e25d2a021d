// A client over stdio: spawns the server, initializes, and uses it. Every frame and every state
// change of the session is observable; with `journal: true` the session can be replayed.
import { fileURLToPath } from 'node:url';
import { createClient } from 'mcp-actors/client';
import { createStdioClientTransport } from 'mcp-actors/streams';

const serverFile = fileURLToPath(new URL('./server.js', import.meta.url));
const client = createClient({ info: { name: 'my-agent', version: '1.0.0' }, journal: true });
client.state$.subscribe((s) => console.error('state', JSON.stringify(s.value))); // session machine snapshots
client.frames$.subscribe((f) => console.error(f.direction, JSON.stringify(f.frame))); // every frame in and out

await client.connect(createStdioClientTransport({ command: process.execPath, args: [serverFile], name: 'notes' }));
console.log(client.protocolVersion, client.serverInfo?.name);

const tools = await client.listTools(); // every page; also `const { tools, nextCursor } = ...`
console.log(tools.map((t) => t.name).join(','));
const sum = await client.callTool('add', { a: 2, b: 3 }); // or callTool({ name: 'add', arguments: { a: 2, b: 3 } })
console.log(sum.content[0]?.type === 'text' ? sum.content[0].text : '?');

const note = await client.readResource('notes://note/1'); // or readResource({ uri })
console.log('text' in note.contents[0]! ? note.contents[0].text : '?');
const prompt = await client.getPrompt('review', { id: '2' }); // or getPrompt({ name, arguments })
console.log(prompt.messages.length);
const { completion } = await client.complete({ type: 'ref/resource', uri: 'notes://note/{id}' }, { name: 'id', value: '' });
console.log(completion.values.join(','));

// Under them, every request, with its options:
const result = await client.request('tools/call', { name: 'add', arguments: { a: 1, b: 1 } }, {
  timeout: 10_000, // idle timeout; the default is 60 s
  resetTimeoutOnProgress: true, // works without an onprogress callback
  maxTotalTimeout: 60_000,
  signal: AbortSignal.timeout(30_000),
  onprogress: (p) => console.error(p.progress, p.total, p.message),
});
console.log(JSON.stringify(result.content));
await client.close();
