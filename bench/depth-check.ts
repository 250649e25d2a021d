/**
 * Micro-bench A/B of the inbound nesting-depth check (`lib/jsonrpc/depth.ts`): the parse step
 * of every text frame (stdio, WebSocket) without the check (A: JSON.parse only, as before) and
 * with it (B: `parseFrame`), and the walk alone (`nestsDeeperThan`, what an HTTP body longer
 * than twice the limit costs on top of its parse), on frames of typical shapes. Interleaved
 * rounds, median ns per frame.
 *
 *   npx tsx bench/depth-check.ts          (BENCH_ROUNDS=15, BENCH_N=200000)
 */
import { nestsDeeperThan } from '../lib/jsonrpc/depth.js';
import { parseFrame } from '../streams/parse-json.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const N = Number(process.env.BENCH_N ?? 200_000);
const LIMIT = 4 * 1024 * 1024;

const frames: Record<string, string> = {
  'ping (40 B)': '{"jsonrpc":"2.0","id":12,"method":"ping"}',
  'tools/call (300 B)': JSON.stringify({
    jsonrpc: '2.0',
    id: 1234,
    method: 'tools/call',
    params: { name: 'convert_units', arguments: { value: 100, from: 'celsius', to: 'fahrenheit', note: 'x'.repeat(150) }, _meta: { progressToken: 9 } },
  }),
  'tools/call, 100 nested args (6 KB)': JSON.stringify({
    jsonrpc: '2.0',
    id: 5,
    method: 'tools/call',
    params: { name: 'store', arguments: { rows: Array.from({ length: 100 }, (_, i) => ({ id: i, tags: ['a', 'b'], pos: { x: i, y: i * 2 }, label: `row ${i}` })) } },
  }),
  'result with 64 KB text': JSON.stringify({ jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'y'.repeat(65_536) }] } }),
};

/** A: the parse step as it was before the check. */
function before(raw: string): unknown {
  const value: unknown = JSON.parse(raw);
  return value !== null && typeof value === 'object' ? value : raw;
}

let sink = 0;
function time(f: () => unknown, n: number): number {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) if (f() !== undefined) sink++;
  return Number(process.hrtime.bigint() - t0) / n;
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

console.log(`depth check A/B: ${ROUNDS} interleaved rounds, median ns per frame`);
console.log('frame'.padEnd(40) + 'text A'.padStart(10) + 'text B'.padStart(10) + 'Δ'.padStart(8) + 'walk'.padStart(10));
for (const [name, text] of Object.entries(frames)) {
  const n = Math.max(200, Math.floor(N / Math.max(1, text.length / 300)));
  const value = JSON.parse(text) as object;
  const a: number[] = [];
  const b: number[] = [];
  const walk: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    a.push(time(() => before(text), n));
    b.push(time(() => parseFrame(text, LIMIT), n));
    walk.push(time(() => nestsDeeperThan(value, 128), n * 4));
  }
  const [ma, mb, mw] = [median(a), median(b), median(walk)];
  console.log(
    name.padEnd(40) +
      ma.toFixed(0).padStart(10) +
      mb.toFixed(0).padStart(10) +
      `${(mb - ma).toFixed(0)}`.padStart(8) +
      mw.toFixed(0).padStart(10),
  );
}
if (sink < 0) console.log(sink);
