/**
 * Where a kept journal's retained heap goes, per row (issue 26): echo calls as in
 * `journal-cost.ts`, then what the measured side's journals keep walked: objects per entry (each
 * counted once, by the path it was first met by), and the retained heap per entry from full GCs.
 *
 *   node --expose-gc dist/bench/journal-heap.js [calls, default 10000] [only, e.g. modern-server]
 */
import { Client } from '../lib/client.js';
import type { Journal } from '../lib/journal/journal.js';
import { createMcpServer } from '../lib/mcp-server.js';
import { createMemoryPair } from '../streams/memory.js';

const CALLS = Number(process.argv[2] ?? 10000);
const ONLY = process.argv[3];

type Era = 'modern' | 'legacy';
type Side = 'client' | 'server';

async function run(era: Era, side: Side): Promise<void> {
  const mcp = createMcpServer({ info: { name: 'echo', version: '1' }, journal: side === 'server' });
  mcp.registerTool('echo', { description: 'echo' }, (args) => String(args.text));
  const [a, b] = createMemoryPair();
  const session = await mcp.connect(a);
  const client = new Client({ info: { name: 'bench', version: '1' }, era, journal: side === 'client', eraCache: false });
  await client.connect(b);
  const params = { name: 'echo', arguments: { text: 'hello' } };
  const journals = (): Journal[] => (side === 'client' ? [client.journal] : [mcp.journal, session.journal]).filter((j): j is Journal => j !== undefined);
  const size = () => journals().reduce((n, j) => n + j.size, 0);
  for (let i = 0; i < 300; i++) await client.request('tools/call', params);
  const e0 = size();
  global.gc?.();
  const h0 = process.memoryUsage().heapUsed;
  for (let i = 0; i < CALLS; i++) await client.request('tools/call', params);
  global.gc?.();
  const h1 = process.memoryUsage().heapUsed;
  const added = size() - e0;
  // What the journals keep, as kept (the private lists, read without writing them): entry
  // objects, or the values of entries kept without theirs (`entry-store.ts`).
  type Kept = { parsed: unknown[]; pending: { chunks: { values: unknown[] }[] } };
  const roots = journals().flatMap((j) => [...(j as unknown as Kept).parsed, ...(j as unknown as Kept).pending.chunks.flatMap((c) => c.values)]);
  const seen = new Set<object>();
  const byPath = new Map<string, number>();
  const walk = (v: unknown, path: string): void => {
    if (v === null || typeof v !== 'object' || seen.has(v)) return;
    seen.add(v);
    byPath.set(path, (byPath.get(path) ?? 0) + 1);
    for (const [k, x] of Object.entries(v)) walk(x, Array.isArray(v) ? `${path}[]` : `${path}.${k}`);
  };
  for (const v of roots) walk(v, typeof v === 'object' && v !== null && 'kind' in v ? `${String((v as { kind: unknown }).kind)} entry` : typeof v === 'object' && v !== null && 'jsonrpc' in v ? 'frame' : 'value');
  const objects = [...byPath.values()].reduce((s, n) => s + n, 0);
  console.log(`${era} ${side}: ${(added / CALLS).toFixed(2)} entries/call; retained ${((h1 - h0) / added).toFixed(0)} B/entry; ${(objects / added).toFixed(2)} objects/entry kept (frames and entries; each object once)`);
  for (const [p, n] of [...byPath].sort((x, y) => y[1] - x[1]).slice(0, 16)) console.log(`  ${(n / added).toFixed(2)}  ${p}`);
  await client.close();
  await mcp.close();
}

for (const [era, side] of [['modern', 'client'], ['legacy', 'client'], ['modern', 'server'], ['legacy', 'server']] as const) {
  if (ONLY === undefined || ONLY === `${era}-${side}`) await run(era, side);
}
