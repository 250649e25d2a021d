/**
 * What adding a key to a spread copy costs, against a key-by-key copy: on Node 20 an object made
 * by spreading another and then given a key the source lacks takes a slow path (microseconds);
 * on Node 22 and 24 it does not. The hot paths of a request copy params and results this way.
 *
 *   node dist/bench/spread-cost.js [iterations=1000000]
 */
const iterations = Number(process.argv[2] ?? 1_000_000);
const meta = { version: '2026-07-28' };

type Params = Record<string, unknown>;
const cases: [string, (p: Params) => Params][] = [
  ['{ ...p, _meta } (a new key)', (p) => ({ ...p, _meta: meta })],
  ['{ ...p, name } (a key p has)', (p) => ({ ...p, name: 'other' })],
  ['{ ...p } only', (p) => ({ ...p })],
  ['key by key, then _meta', (p) => {
    const out: Params = {};
    for (const k of Object.keys(p)) out[k] = p[k];
    out._meta = meta;
    return out;
  }],
];

let sink: unknown;
console.log(`node ${process.version}, ${iterations.toLocaleString('en-US')} fresh { name, arguments } objects per case`);
for (const [name, copy] of cases) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) sink = copy({ name: 'echo', arguments: { text: 'x' } });
  console.log(`${name.padEnd(32)} ${(Number(process.hrtime.bigint() - start) / iterations).toFixed(0).padStart(6)} ns`);
}
if (sink === undefined) console.log('');
