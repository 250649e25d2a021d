/**
 * Two builds' journal cost with collections counted, alternated in one sitting (issue 26): per
 * round, each build's `journal-cost.js --child` with the journal on and off, the four processes
 * in random order; per build µs per entry = (on − off) / entries per call, and per round the
 * paired difference (B − A) of `on − off`, µs per call. Medians with distribution-free 95%
 * intervals (order statistics), and means with bootstrap 95% intervals (each child's measured
 * window starts at a random point of the kept heap's growth, so the mean amortizes collections). Run built, each build a `dist/` with its node_modules:
 *
 *   node dist/bench/journal-ab.js <distA> <distB> <row, e.g. modern-client> [rounds=12] [calls=20000]
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

const [A, B, ROW] = process.argv.slice(2);
const ROUNDS = Number(process.argv[5] ?? 12);
const CALLS = Number(process.argv[6] ?? 20000);
if (A === undefined || B === undefined || ROW === undefined) {
  console.error('usage: node dist/bench/journal-ab.js <distA> <distB> <era-side> [rounds] [calls]');
  process.exit(2);
}
const [era, side] = ROW.split('-');

interface Child {
  us: number;
  entries: number;
  gcUs: number;
}

function child(dist: string, on: boolean): Child {
  const script = resolve(dist, 'bench/journal-cost.js');
  // As journal-cost.ts's process pass: the measured window starts at a random point of the heap's growth.
  const warm = CALLS + Math.floor(Math.random() * (CALLS + 1));
  const r = spawnSync(process.execPath, ['--expose-gc', script, '--child', era!, side!, on ? 'on' : 'off', String(CALLS), String(warm)], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`child failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').at(-1)!) as Child;
}

function medianCi(xs: number[]): string {
  const s = [...xs].sort((x, y) => x - y);
  const n = s.length;
  const k = Math.max(0, Math.floor(n / 2 - 0.98 * Math.sqrt(n)));
  const mid = n % 2 === 1 ? s[(n - 1) / 2]! : (s[n / 2 - 1]! + s[n / 2]!) / 2;
  return `${mid.toFixed(2)} [${s[k]!.toFixed(2)}, ${s[n - 1 - k]!.toFixed(2)}]`;
}

function mean(xs: number[]): string {
  const m = (ys: number[]) => ys.reduce((sum, y) => sum + y, 0) / ys.length;
  const means: number[] = [];
  for (let b = 0; b < 2000; b++) means.push(m(xs.map(() => xs[Math.floor(Math.random() * xs.length)]!)));
  means.sort((x, y) => x - y);
  return `mean ${m(xs).toFixed(2)} [${means[50]!.toFixed(2)}, ${means[1949]!.toFixed(2)}]`;
}

const perEntry: Record<'A' | 'B', number[]> = { A: [], B: [] };
const gcPerEntry: Record<'A' | 'B', number[]> = { A: [], B: [] };
const paired: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  const runs: ['A' | 'B', boolean][] = [['A', true], ['A', false], ['B', true], ['B', false]];
  // Fisher–Yates: each round's four processes in a random order.
  for (let i = runs.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [runs[i], runs[j]] = [runs[j]!, runs[i]!];
  }
  const got: Record<string, Child> = {};
  for (const [b, on] of runs) got[`${b}${on ? 'on' : 'off'}`] = child(b === 'A' ? A : B, on);
  const less: Record<'A' | 'B', number> = { A: 0, B: 0 };
  for (const b of ['A', 'B'] as const) {
    const on = got[`${b}on`]!;
    const off = got[`${b}off`]!;
    const entries = on.entries / CALLS;
    less[b] = (on.us - off.us) / CALLS;
    perEntry[b].push(less[b] / entries);
    gcPerEntry[b].push((on.gcUs - off.gcUs) / CALLS / entries);
  }
  paired.push(less.B - less.A);
  process.stderr.write(`round ${r + 1}: A ${perEntry.A.at(-1)!.toFixed(2)} B ${perEntry.B.at(-1)!.toFixed(2)} µs/entry\n`);
}
console.log(`${ROW}: ${ROUNDS} rounds of ${CALLS} calls measured after ${CALLS}-${2 * CALLS} unmeasured, each build's on and off in random order`);
console.log(`  A ${A}: ${medianCi(perEntry.A)} µs/entry (${mean(perEntry.A)}); collector pauses ${medianCi(gcPerEntry.A)}`);
console.log(`  B ${B}: ${medianCi(perEntry.B)} µs/entry (${mean(perEntry.B)}); collector pauses ${medianCi(gcPerEntry.B)}`);
console.log(`  paired B − A: ${medianCi(paired)} µs/call (${mean(paired)})`);
