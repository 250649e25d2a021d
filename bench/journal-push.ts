/**
 * What keeping one journal entry costs, alone: the entries of real echo calls (our
 * client and server in memory, in each era; the client's journal and the server's) are captured
 * once (recorded unredacted), then pushed into a redacting journal (the default) again and again. CPU
 * time per entry, no I/O, the rest of the call left out: the in-memory cost of `journal: true`.
 * A redacting journal writes (and redacts) an entry's text only when it is read or saved: that
 * cost, paid once per saved journal and not on the frame path, is printed apart (`save`).
 *
 *   npx tsx bench/journal-push.ts [entries per round, default 200000] [rounds, default 5]
 */
import { Client } from '../lib/client.js';
import type { JournalEntry } from '../lib/journal/entry.js';
import { Journal } from '../lib/journal/journal.js';
import { createMcpServer } from '../lib/mcp-server.js';
import { createMemoryPair } from '../streams/memory.js';

const N = Number(process.argv[2] ?? 200_000);
const ROUNDS = Number(process.argv[3] ?? 5);

/** The entries of 20 echo calls, as recorded (before redaction). */
async function capture(era: 'modern' | 'legacy', side: 'client' | 'server'): Promise<JournalEntry[]> {
  // Recorded as they came (`redact: false`): the entries a redacting journal is then given.
  const plain = { redact: false };
  const mcp = createMcpServer({ info: { name: 'echo', version: '1' }, journal: side === 'server' ? plain : false });
  mcp.registerTool('echo', { description: 'echo' }, (args) => String(args.text));
  const [a, b] = createMemoryPair();
  const session = await mcp.connect(a);
  const client = new Client({ info: { name: 'bench', version: '1' }, era, eraCache: false, journal: side === 'client' ? plain : false });
  await client.connect(b);
  const journal = side === 'client' ? client.journal : era === 'modern' ? mcp.journal : session.journal;
  const before = journal!.entries.length;
  for (let i = 0; i < 20; i++) await client.request('tools/call', { name: 'echo', arguments: { text: 'hello' } });
  const entries = journal!.entries.slice(before);
  await client.close();
  await mcp.close();
  return entries;
}

const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;

for (const [era, side] of [['modern', 'client'], ['legacy', 'client'], ['modern', 'server'], ['legacy', 'server']] as const) {
  const entries = await capture(era, side);
  if (entries.length === 0) throw new Error(`no entries captured (${era} ${side})`);
  const times: number[] = [];
  const saves: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const journal = new Journal({ redact: true });
    const c0 = process.cpuUsage();
    for (let i = 0; i < N; i++) journal.push(entries[i % entries.length]!);
    const c = process.cpuUsage(c0);
    times.push((c.user + c.system) / N);
    const s0 = process.cpuUsage();
    if (journal.toJSONL().length === 0) throw new Error('empty journal');
    const s = process.cpuUsage(s0);
    saves.push((s.user + s.system) / N);
  }
  console.log(
    `${era} ${side}: ${median(times).toFixed(2)} µs per entry kept, redacted; save ${median(saves).toFixed(2)} µs per entry ` +
      `(${entries.length} distinct entries; medians of ${ROUNDS} rounds of ${N})`,
  );
}
