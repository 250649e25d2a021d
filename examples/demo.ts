/**
 * The demo behind `npm start`: spawns the example server over stdio, runs a short session
 * against it (initialize, ping, list, call, progress, a timeout, a cancellation), and prints
 * every frame and state change as it happens. Then it replays the session's journal on a
 * simulated clock and shows that the replay sends the same frames.
 */
import { fileURLToPath } from 'node:url';
import { createClient } from '../lib/entries/client.js';
import { replay } from '../lib/journal/replay.js';
import { createStdioClientTransport } from '../streams/stdio-client.js';

const color = process.stdout.isTTY ? (code: number, s: string) => `\x1b[${code}m${s}\x1b[0m` : (_: number, s: string) => s;
const serverPath = fileURLToPath(new URL('./echo-server.js', import.meta.url));
const short = (v: unknown, max = 140) => {
  const s = typeof v === 'string' ? v : preview(v);
  return s.length > max ? s.slice(0, max - 1) + '…' : s;
};
/** JSON of a value for a log line; one a peer nested too deep to print is named, not thrown. */
function preview(v: unknown): string {
  try {
    return JSON.stringify(v) ?? String(v);
  } catch (e) {
    return `[cannot show: ${(e as Error).message}]`;
  }
}

const client = createClient({ info: { name: 'mcp-actors-demo', version: '0.1.0' }, journal: true });
client.state$.subscribe((s) => console.log(color(35, `  state  ${String(s.value)}`) + (s.context.protocolVersion ? ` (revision ${s.context.protocolVersion})` : '')));
client.frames$.subscribe((f) => {
  const arrow = f.direction === 'out' ? color(36, '→ out') : color(33, '← in ');
  console.log(`${String(f.seq).padStart(3)} ${arrow} ${short(f.frame)}`);
});

const transport = createStdioClientTransport({ command: process.execPath, args: [serverPath], stderr: 'pipe' });
transport.stderr$?.subscribe((line) => console.log(color(90, `        server stderr: ${line}`)));

console.log(`Starting ${serverPath} over stdio\n`);
await client.connect(transport);
console.log(`\nConnected to ${client.serverInfo?.name} ${client.serverInfo?.version}: ${client.instructions}\n`);

await client.ping();
await client.request('tools/list');
await client.request('tools/call', { name: 'echo', arguments: { text: 'hello, actors' } });
await client.request('tools/call', { name: 'slow', arguments: { steps: 3 } }, {
  onprogress: (p) => console.log(color(32, `        progress ${p.progress}/${p.total}: ${p.message}`)),
});
await client.request('tools/call', { name: 'hang' }, { timeout: 200 }).catch((e: Error) => console.log(color(31, `        ${e.name}: ${e.message}`)));
const ac = new AbortController();
const cancelled = client.request('tools/call', { name: 'hang' }, { signal: ac.signal });
setTimeout(() => ac.abort('the user pressed stop'), 50);
await cancelled.catch((e: Error) => console.log(color(31, `        ${e.name}: ${e.message}`)));
await client.close();

const journal = client.journal!;
const result = await replay(journal.toJSONL());
console.log(
  `\nJournal: ${journal.entries.length} entries. Replayed on a simulated clock: ${result.outbound.length} frames sent, ` +
    (result.matches ? color(32, 'identical to the recording.') : color(31, `differs at frame ${result.firstDifference?.index}.`)),
);
process.exitCode = result.matches ? 0 : 1;
