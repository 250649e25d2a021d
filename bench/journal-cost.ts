/**
 * What `journal: true` costs per journal entry, in memory (issue 26): the same echo tool calls
 * through our client and server on an in-memory pair, journal on and off (on the client, then on
 * the server: its request journal in 2026-07-28, its session's in the legacy era), in interleaved
 * rounds (so machine noise falls on both alike), in each era. Prints the time per call either way
 * (CPU time of the process: client and server), the entries a call adds, and CPU time and heap
 * per entry. Redaction is on, the default.
 *
 *   npx tsx --expose-gc bench/journal-cost.ts [calls per round, default 2000] [rounds, default 5] [only, e.g. modern-server]
 */
import { Client } from '../lib/client.js';
import { createMcpServer } from '../lib/mcp-server.js';
import { createMemoryPair } from '../streams/memory.js';

const CALLS = Number(process.argv[2] ?? 2000);
const ROUNDS = Number(process.argv[3] ?? 5);
/** One row only (`modern-client`, `legacy-server`, ...): a longer run of the row being worked on. */
const ONLY = process.argv[4];

type Side = 'client' | 'server';

async function run(era: 'modern' | 'legacy', side: Side, journal: boolean): Promise<{ usPerCall: number; entries: number; heapBytes: number }> {
  const mcp = createMcpServer({ info: { name: 'echo', version: '1' }, journal: side === 'server' && journal });
  mcp.registerTool('echo', { description: 'echo' }, (args) => String(args.text));
  const [a, b] = createMemoryPair();
  const session = await mcp.connect(a);
  const client = new Client({ info: { name: 'bench', version: '1' }, era, journal: side === 'client' && journal, eraCache: false });
  await client.connect(b);
  for (let i = 0; i < 200; i++) await client.request('tools/call', { name: 'echo', arguments: { text: 'warm' } });
  // (Counted without reading `entries`, which would make the objects the journal keeps as text until then.)
  const count = () => {
    const j = side === 'client' ? client.journal : era === 'modern' ? mcp.journal : session.journal;
    return j === undefined ? 0 : j.toJSONL().split('\n').length - 2;
  };
  const before = count();
  global.gc?.();
  const heap0 = process.memoryUsage().heapUsed;
  // CPU time, not wall time: on a shared machine the wall clock measures the neighbours.
  const c0 = process.cpuUsage();
  for (let i = 0; i < CALLS; i++) await client.request('tools/call', { name: 'echo', arguments: { text: 'hello' } });
  const c = process.cpuUsage(c0);
  const ms = (c.user + c.system) / 1000;
  global.gc?.();
  const heapBytes = process.memoryUsage().heapUsed - heap0;
  const entries = count() - before;
  await client.close();
  await mcp.close();
  return { usPerCall: (ms * 1000) / CALLS, entries, heapBytes };
}

const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;

for (const [era, side] of [['modern', 'client'], ['legacy', 'client'], ['modern', 'server'], ['legacy', 'server']] as const) {
  if (ONLY !== undefined && ONLY !== `${era}-${side}`) continue;
  const on: number[] = [];
  const off: number[] = [];
  const heap: number[] = [];
  let entriesPerCall = 0;
  for (let r = 0; r < ROUNDS; r++) {
    // Interleaved, the order alternating.
    const first = r % 2 === 0;
    const x = await run(era, side, first);
    const y = await run(era, side, !first);
    const [j, n] = first ? [x, y] : [y, x];
    on.push(j.usPerCall);
    off.push(n.usPerCall);
    entriesPerCall = j.entries / CALLS;
    heap.push(j.heapBytes / j.entries);
  }
  const perEntry = (median(on) - median(off)) / entriesPerCall;
  console.log(
    `${era} ${side}: ${median(off).toFixed(1)} µs/call journal off, ${median(on).toFixed(1)} µs/call on; ` +
      `${entriesPerCall.toFixed(1)} entries/call; ${perEntry.toFixed(2)} µs and ${median(heap).toFixed(0)} heap bytes per entry ` +
      `(medians of ${ROUNDS} interleaved rounds of ${CALLS} calls)`,
  );
}
