/**
 * What `journal: true` costs per journal entry, in memory, on the whole call (issue 26: at most
 * 1 µs per entry): echo tool calls through our client and server on an in-memory pair, in each
 * era, the journal on the client or on the server (its request journal in 2026-07-28, its
 * session's in the legacy era; every journal of that side is counted). Redaction is on, the default.
 *
 * Method (so that a shared, loaded machine cannot move the answer either way):
 * - One process, three arms built alike and kept alive side by side: `on`, `off` and a second
 *   `off` (the control). Each is warmed up first.
 * - Many short blocks (default 200 rounds of 40 calls per arm), the three arms' blocks run one
 *   after another in every round, in an order that cycles through all six orders, so machine
 *   noise, CPU frequency and neighbours fall on all three alike.
 * - CPU time of the process per block (`process.cpuUsage`, user + system: on Linux the sum is the
 *   scheduler's exact run time), not wall time, which counts the neighbours.
 * - Per round the paired differences `on − off` and `off2 − off`, per call; their medians, each
 *   with a distribution-free 95% interval (order statistics of the binomial). The control's
 *   difference is the noise floor: a cost smaller than its interval is not shown.
 * - Entries per call counted (`Journal.size` of the side's journals over the measured calls), so
 *   µs per entry = median difference / entries per call.
 * - After the run, the `on` arm's journals are saved (`toJSONL`: each kept entry written and its
 *   secrets checked, once): CPU per entry, the cost moved off the frame path (session 11).
 * The medians leave out what a round rarely pays (a major GC landing in one block); and since the
 * three arms share one heap, what the `on` arm's kept entries add to collections falls on all
 * arms alike and cancels out of the differences: this pass measures the frame path. Hence a
 * second pass, collections included: each arm alone in a process of its own (`--child`),
 * `JOURNAL_COST_TRIPLES` triples (default 16, since session 15: 6 left intervals of 1-2 µs) in
 * rotating order; each child warms up, makes `JOURNAL_COST_PROCESS_WARM` calls unmeasured plus
 * as many again at most, at random (default 20,000: shorter runs measured the heap growing from
 * nothing and the compiler's tiers, up to 8 µs per entry more; the random part puts the measured
 * window anywhere on the kept heap's growth, so a major collection lands in it as often as its
 * share says) and then `JOURNAL_COST_PROCESS_CALLS` (20,000) measured; the same paired medians,
 * control and intervals, the mean with a bootstrap interval (collections amortized), and the
 * collectors' pauses (`gc` performance entries) on less off. Retained heap bytes per entry are measured apart (full GCs).
 * Run it built (`npm run build`; `node --expose-gc dist/bench/journal-cost.js`): under tsx every
 * closure is wrapped to keep its name (`__name`), which made the 2026-07-28 rows' per-request
 * closures cost about three times as much as they do.
 *
 *   node --expose-gc dist/bench/journal-cost.js [calls per block, default 40] [rounds, default 200] [only, e.g. modern-server]
 */
import { spawnSync } from 'node:child_process';
import { PerformanceObserver } from 'node:perf_hooks';
import { Client } from '../lib/client.js';
import type { Journal } from '../lib/journal/journal.js';
import { createMcpServer } from '../lib/mcp-server.js';
import { createMemoryPair } from '../streams/memory.js';

const CHILD = process.argv[2] === '--child';
const CALLS = Number((!CHILD && process.argv[2]) || 40);
const ROUNDS = Number((!CHILD && process.argv[3]) || 200);
/** One row only (`modern-client`, `legacy-server`, ...): a longer run of the row being worked on. */
const ONLY = CHILD ? undefined : process.argv[4];
/** The whole-process pass: triples of processes (on, off, off2), calls measured in each. */
const TRIPLES = Number(process.env.JOURNAL_COST_TRIPLES ?? 16);
const PROCESS_CALLS = Number(process.env.JOURNAL_COST_PROCESS_CALLS ?? 20000);
/**
 * Calls made unmeasured in each child before its measured ones: this many, plus as many again at
 * most, at random. A kept journal grows the heap, and a major collection lands in a measured
 * window or not by where that window falls on the heap's growth (one collection: 2-5 µs a call of
 * 20,000); a window that starts at a random point has that collection in it as often as its share
 * of the calls says, so the mean over processes is the cost with collections amortized.
 */
const PROCESS_WARM = Number(process.env.JOURNAL_COST_PROCESS_WARM ?? PROCESS_CALLS);

type Era = 'modern' | 'legacy';
type Side = 'client' | 'server';

interface Arm {
  call(): Promise<unknown>;
  /** The journals of the measured side (none when off). */
  journals(): Journal[];
  close(): Promise<void>;
}

async function arm(era: Era, side: Side, journal: boolean): Promise<Arm> {
  const mcp = createMcpServer({ info: { name: 'echo', version: '1' }, journal: side === 'server' && journal });
  mcp.registerTool('echo', { description: 'echo' }, (args) => String(args.text));
  const [a, b] = createMemoryPair();
  const session = await mcp.connect(a);
  const client = new Client({ info: { name: 'bench', version: '1' }, era, journal: side === 'client' && journal, eraCache: false });
  await client.connect(b);
  const params = { name: 'echo', arguments: { text: 'hello' } };
  const call = () => client.request('tools/call', params);
  for (let i = 0; i < 300; i++) await call();
  return {
    call,
    journals: () => (side === 'client' ? [client.journal] : [mcp.journal, session.journal]).filter((j): j is Journal => j !== undefined),
    close: async () => {
      await client.close();
      await mcp.close();
    },
  };
}

/** CPU µs (user + system) of `n` calls on `arm`, one after another. */
async function block(a: Arm, n: number): Promise<number> {
  const c0 = process.cpuUsage();
  for (let i = 0; i < n; i++) await a.call();
  const c = process.cpuUsage(c0);
  return c.user + c.system;
}

const ORDERS = [
  [0, 1, 2],
  [1, 2, 0],
  [2, 0, 1],
  [0, 2, 1],
  [2, 1, 0],
  [1, 0, 2],
] as const;

/** The median of `xs` and its distribution-free 95% interval (order statistics: the binomial's normal approximation). */
function medianCi(xs: number[]): { median: number; low: number; high: number } {
  const s = [...xs].sort((x, y) => x - y);
  const n = s.length;
  const k = Math.max(0, Math.floor(n / 2 - 0.98 * Math.sqrt(n)));
  const mid = n % 2 === 1 ? s[(n - 1) / 2]! : (s[n / 2 - 1]! + s[n / 2]!) / 2;
  return { median: mid, low: s[k]!, high: s[n - 1 - k]! };
}

/** The mean of `xs` and a 95% bootstrap interval (percentiles of 2,000 resampled means). */
function meanCi(xs: number[]): { mean: number; low: number; high: number } {
  const mean = (ys: number[]) => ys.reduce((sum, y) => sum + y, 0) / ys.length;
  const means: number[] = [];
  for (let b = 0; b < 2000; b++) means.push(mean(xs.map(() => xs[Math.floor(Math.random() * xs.length)]!)));
  means.sort((x, y) => x - y);
  return { mean: mean(xs), low: means[50]!, high: means[1949]! };
}

const entriesOf = (a: Arm) => a.journals().reduce((sum, j) => sum + j.size, 0);
const fmt = (x: number, d = 2) => (x >= 0 ? ' ' : '') + x.toFixed(d);

/** Retained heap per entry: a fresh `on` arm, `n` calls, a full GC before and after (needs --expose-gc). */
async function heapPerEntry(era: Era, side: Side, n: number): Promise<number | undefined> {
  if (global.gc === undefined) return undefined;
  const a = await arm(era, side, true);
  const e0 = entriesOf(a);
  global.gc();
  const h0 = process.memoryUsage().heapUsed;
  for (let i = 0; i < n; i++) await a.call();
  global.gc();
  const bytes = process.memoryUsage().heapUsed - h0;
  const entries = entriesOf(a) - e0;
  await a.close();
  return bytes / entries;
}

/**
 * `--child era side on|off calls`: one arm alone in this process. After its warm-up, `calls`
 * more calls unmeasured (the compiler's tiers settle, the heap grows to its working size), then
 * `calls` measured: prints their CPU µs, the entries they added and the collectors' time in them.
 */
async function child(era: Era, side: Side, on: boolean, calls: number, warm: number): Promise<void> {
  const a = await arm(era, side, on);
  await block(a, warm);
  const e0 = entriesOf(a);
  let gcMs = 0;
  const gcs = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) gcMs += e.duration;
  });
  gcs.observe({ entryTypes: ['gc'] });
  const us = await block(a, calls);
  await new Promise((resolve) => setTimeout(resolve, 20));
  for (const e of gcs.takeRecords()) gcMs += e.duration;
  gcs.disconnect();
  const entries = entriesOf(a) - e0;
  await a.close();
  process.stdout.write(JSON.stringify({ us, entries, gcUs: gcMs * 1000 }) + '\n');
}

/** The same three arms, each in a process of its own (so each pays its own collections), `TRIPLES` times in rotating order. */
function processPass(era: Era, side: Side): string {
  const run = (on: boolean) => {
    const warm = PROCESS_WARM + Math.floor(Math.random() * (PROCESS_WARM + 1));
    const r = spawnSync(process.execPath, [...process.execArgv, process.argv[1]!, '--child', era, side, on ? 'on' : 'off', String(PROCESS_CALLS), String(warm)], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`child failed: ${r.stderr}`);
    return JSON.parse(r.stdout.trim().split('\n').at(-1)!) as { us: number; entries: number; gcUs: number };
  };
  const onLess: number[] = [];
  const controlLess: number[] = [];
  const gcLess: number[] = [];
  let entries = 0;
  for (let r = 0; r < TRIPLES; r++) {
    const t: { us: number; entries: number; gcUs: number }[] = [];
    for (const i of ORDERS[r % ORDERS.length]!) t[i] = run(i === 2);
    onLess.push((t[2]!.us - t[0]!.us) / PROCESS_CALLS);
    controlLess.push((t[1]!.us - t[0]!.us) / PROCESS_CALLS);
    gcLess.push((t[2]!.gcUs - (t[0]!.gcUs + t[1]!.gcUs) / 2) / PROCESS_CALLS);
    entries = t[2]!.entries / PROCESS_CALLS;
  }
  const d = medianCi(onLess);
  const c = medianCi(controlLess);
  const g = medianCi(gcLess);
  const m = meanCi(onLess);
  const mc = meanCi(controlLess);
  const per = (x: number) => x / entries;
  return (
    `  processes (${TRIPLES} triples of ${PROCESS_CALLS} calls after ${PROCESS_WARM}-${2 * PROCESS_WARM} unmeasured, collections included):\n` +
    `    mean on − off ${fmt(per(m.mean))} µs/entry [${fmt(per(m.low))}, ${fmt(per(m.high))}]; control ${fmt(per(mc.mean))} [${fmt(per(mc.low))}, ${fmt(per(mc.high))}] (collections amortized)\n` +
    `    on − off   ${fmt(d.median)} µs/call [${fmt(d.low)}, ${fmt(d.high)}] → ${fmt(per(d.median))} µs/entry [${fmt(per(d.low))}, ${fmt(per(d.high))}]\n` +
    `    off2 − off ${fmt(c.median)} µs/call [${fmt(c.low)}, ${fmt(c.high)}] → ${fmt(per(c.median))} µs/entry [${fmt(per(c.low))}, ${fmt(per(c.high))}] (control)\n` +
    `    of which collector pauses, on − off: ${fmt(per(g.median))} µs/entry [${fmt(per(g.low))}, ${fmt(per(g.high))}] (wall time of the main thread's pauses)`
  );
}

async function rows(): Promise<void> {
  console.log(`journal cost: ${ROUNDS} rounds × 3 arms × ${CALLS} calls per row; CPU time; median of paired differences [95% interval]`);
  for (const [era, side] of [['modern', 'client'], ['legacy', 'client'], ['modern', 'server'], ['legacy', 'server']] as const) {
    if (ONLY !== undefined && ONLY !== `${era}-${side}`) continue;
    // [0] off, [1] off (the control), [2] on.
    const arms = [await arm(era, side, false), await arm(era, side, false), await arm(era, side, true)];
    const entries0 = entriesOf(arms[2]!);
    const off: number[] = [];
    const onLess: number[] = [];
    const controlLess: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const t = [0, 0, 0];
      for (const i of ORDERS[r % ORDERS.length]!) t[i] = await block(arms[i]!, CALLS);
      off.push(t[0]! / CALLS);
      onLess.push((t[2]! - t[0]!) / CALLS);
      controlLess.push((t[1]! - t[0]!) / CALLS);
    }
    const perCall = (entriesOf(arms[2]!) - entries0) / (ROUNDS * CALLS);
    // The save: every kept entry written (and its secrets checked) once.
    const kept = entriesOf(arms[2]!);
    const s0 = process.cpuUsage();
    let chars = 0;
    for (const j of arms[2]!.journals()) chars += j.toJSONL().length;
    const s = process.cpuUsage(s0);
    const savePerEntry = (s.user + s.system) / kept;
    for (const a of arms) await a.close();
    const heap = await heapPerEntry(era, side, 3000);

    const base = medianCi(off);
    const d = medianCi(onLess);
    const c = medianCi(controlLess);
    const per = (x: number) => x / perCall;
    console.log(
      `${era} ${side}: off ${base.median.toFixed(1)} µs/call; ${perCall.toFixed(2)} entries/call\n` +
        `  on − off   ${fmt(d.median)} µs/call [${fmt(d.low)}, ${fmt(d.high)}] → ${fmt(per(d.median))} µs/entry [${fmt(per(d.low))}, ${fmt(per(d.high))}]\n` +
        `  off2 − off ${fmt(c.median)} µs/call [${fmt(c.low)}, ${fmt(c.high)}] → ${fmt(per(c.median))} µs/entry [${fmt(per(c.low))}, ${fmt(per(c.high))}] (control)\n` +
        `  save ${savePerEntry.toFixed(2)} µs/entry (${kept} entries, ${(chars / kept).toFixed(0)} chars each)` +
        (heap === undefined ? '' : `; heap ${heap.toFixed(0)} bytes/entry retained`),
    );
    if (TRIPLES > 0) console.log(processPass(era, side));
  }
}

if (CHILD) await child(process.argv[3] as Era, process.argv[4] as Side, process.argv[5] === 'on', Number(process.argv[6]), Number(process.argv[7] ?? process.argv[6]));
else await rows();
