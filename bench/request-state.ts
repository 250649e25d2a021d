/**
 * What a 2026-07-28 input round's requestState costs to seal and open (HMAC-SHA-256 over the
 * base64url JSON, and SHA-256 of the params digest), with node:crypto registered (what the
 * `mcp-actors` entry does on Node) and with our portable TypeScript digests (what
 * `mcp-actors/web` uses on a Worker without nodejs_compat). Interleaved rounds, medians.
 *
 *   npx tsx bench/request-state.ts        # BENCH_STATE_OPS (20000 per round), BENCH_STATE_ROUNDS (7)
 *
 * BENCH_STATE_BASE=/path/to/other/checkout adds that checkout's lib/modern/request-state.ts as a
 * row (before/after a change).
 */
import { createHash, createHmac } from 'node:crypto';
import { useDigests, type Digests } from '../lib/crypto/digest.js';
import { RequestStateCodec, paramsDigest } from '../lib/modern/request-state.js';
import { median } from './common.js';

const OPS = Number(process.env.BENCH_STATE_OPS ?? 20_000);
const ROUNDS = Number(process.env.BENCH_STATE_ROUNDS ?? 7);

const nodeDigests: Digests = {
  sha256: (data) => createHash('sha256').update(data).digest(),
  hmacSha256: (key, data) => createHmac('sha256', key).update(data).digest(),
};
const variants: [string, Digests | undefined][] = [
  ['node:crypto', nodeDigests],
  ['portable TS', undefined],
];

type Codec = Pick<RequestStateCodec, 'seal' | 'open'>;
interface StateModule {
  RequestStateCodec: new () => Codec;
  paramsDigest: typeof paramsDigest;
}
const ours: StateModule = { RequestStateCodec, paramsDigest };
const baseDir = process.env.BENCH_STATE_BASE;
const base = baseDir === undefined ? undefined : ((await import(`${baseDir}/lib/modern/request-state.ts`)) as StateModule);
const rows: [string, StateModule, Digests | undefined][] = [
  ...variants.map(([name, digests]): [string, StateModule, Digests | undefined] => [name, ours, digests]),
  ...(base === undefined ? [] : [[`base checkout`, base, nodeDigests] as [string, StateModule, Digests | undefined]]),
];
const params = { name: 'book_flight', arguments: { from: 'CDG', to: 'SFO', date: '2026-08-01', passengers: 2 } };
const answers = { who: { action: 'accept', content: { name: 'Ada Lovelace', seat: 'window' } } };

/** µs per seal+open (with the params digest a request computes each round). */
function run(mod: StateModule): number {
  const codec = new mod.RequestStateCodec();
  const paramsDigest = mod.paramsDigest;
  const start = process.hrtime.bigint();
  for (let i = 0; i < OPS; i++) {
    const digest = paramsDigest(params);
    const token = codec.seal({ method: 'tools/call', digest, answers, round: 1 });
    codec.open(token, { method: 'tools/call', digest });
  }
  return Number(process.hrtime.bigint() - start) / 1000 / OPS;
}

const samples = new Map<string, number[]>(rows.map(([name]) => [name, []]));
for (const [, mod, digests] of rows) {
  useDigests(digests);
  run(mod); // warm-up
}
for (let r = 0; r < ROUNDS; r++) {
  for (const [name, mod, digests] of r % 2 === 0 ? rows : [...rows].reverse()) {
    useDigests(digests);
    samples.get(name)!.push(run(mod));
  }
}
const token = new RequestStateCodec().seal({ method: 'tools/call', digest: paramsDigest(params), answers, round: 1 });
console.log(`requestState seal+open (+ params digest), ${OPS} ops x ${ROUNDS} rounds, token ${token.length} chars; load ${process.env.LOAD ?? ''}`);
const reference = median(samples.get('node:crypto')!);
for (const [name, values] of samples) {
  const m = median(values);
  console.log(`  ${name.padEnd(12)} ${m.toFixed(2).padStart(7)} µs/op  (${(m / reference).toFixed(2)}x node:crypto; min ${Math.min(...values).toFixed(2)})`);
}
