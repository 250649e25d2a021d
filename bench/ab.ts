/**
 * A/B: our implementation from several builds (copies of `dist/`), interleaved run by run, to
 * tell whether a change to the library helps. Each build runs in its own worker process.
 *
 *   cp -r dist /tmp/base && <change, rebuild> &&
 *   node dist/bench/ab.js memory,stdio sequential,pipelined /tmp/base/dist ./dist
 *   BENCH_CALLS=1500 node dist/bench/ab.js http-json,http-sse,modern sequential,pipelined /tmp/base/dist ./dist
 *   node dist/bench/ab.js memory,stdio sequential,pipelined ./dist@legacy ./dist@modern   # the two eras side by side
 *   BENCH_CALLS=1500 node dist/bench/ab.js http sequential,pipelined ./dist@legacy ./dist@modern ./dist@sdk1 ./dist@sdk2
 *
 * A build's tag after `@`: `legacy` / `modern` pin our client's era (BENCH_ERA; none: it finds the
 * era itself); `sdk1` / `sdk1-json` / `sdk2` run that SDK's own client and server instead of ours
 * (the SDKs as installed next to that build). The `http` rows: each implementation's high-level
 * client (`callTool`) and server over Streamable HTTP with default options, one client, the
 * workload as given: ours in the era of the tag; SDK 1.x its `Client` + `McpServer` (2025 era;
 * `sdk1` answers with SSE, its default, `sdk1-json` with `enableJsonResponse`); SDK v2 its
 * `Client` pinned to 2026-07-28 against `createMcpHandler`.
 *
 * A build dir must hold bench/worker.js (and node_modules must resolve from it: link one
 * next to a copy outside the repo). BENCH_REPS (15), BENCH_CALLS (10000), BENCH_WINDOW (256),
 * BENCH_PROCS (3): worker processes per build, taking the repetitions in turn. One process can
 * sit in a slow phase for many runs (up to 2x its own best on a loaded machine, in either era),
 * so with a single process per build that process's phase, not the build, decided the row.
 * Prints medians of calls/s and p99, and the median and minimum of CPU µs per call, which is
 * the steadier figure on a shared machine.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { median, type FromWorker, type HttpMode, type RunResult, type ToWorker, type TransportName, type WorkloadName } from './common.js';

const [transportsArg, workloadsArg, ...dists] = process.argv.slice(2);
if (!transportsArg || !workloadsArg || dists.length === 0) {
  console.error('usage: node dist/bench/ab.js <memory,stdio,http,http-json,http-sse,modern> <sequential,pipelined> <distA[@legacy|@modern|@sdk1|@sdk1-json|@sdk2]> [distB ...]');
  process.exit(2);
}
const REPS = Number(process.env.BENCH_REPS ?? 15);
const CALLS = Number(process.env.BENCH_CALLS ?? 10_000);
const WINDOW = Number(process.env.BENCH_WINDOW ?? 256);
const PROCS = Math.max(1, Number(process.env.BENCH_PROCS ?? 3));

/** One worker process of a build. */
class Worker {
  private readonly child: ChildProcess;
  private waiting: ((m: FromWorker) => void) | undefined;

  constructor(
    readonly label: string,
    dist: string,
    env: NodeJS.ProcessEnv,
  ) {
    this.child = fork(resolve(dist, 'bench/worker.js'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], env });
    this.child.on('message', (m: FromWorker) => {
      const w = this.waiting;
      this.waiting = undefined;
      w?.(m);
    });
  }

  async ask(msg: ToWorker): Promise<FromWorker> {
    const reply = await new Promise<FromWorker>((res) => {
      this.waiting = res;
      this.child.send(msg);
    });
    if (reply.type === 'error') throw new Error(`[${this.label}] ${reply.message}`);
    return reply;
  }
}

const SDK_TAGS: Record<string, { impl: 'sdk1' | 'sdk2'; mode: HttpMode }> = {
  sdk1: { impl: 'sdk1', mode: 'sse' },
  'sdk1-json': { impl: 'sdk1', mode: 'json' },
  sdk2: { impl: 'sdk2', mode: 'json' },
};

/**
 * One build (`dist@legacy` / `dist@modern`: with our client pinned to one era, BENCH_ERA;
 * `dist@sdk1` / `dist@sdk2`: that SDK instead of ours), in {@link PROCS} worker processes.
 */
class Variant {
  readonly runs: RunResult[] = [];
  /** The worker each of {@link runs} ran in. */
  readonly ranIn: number[] = [];
  readonly workers: Worker[] = [];
  /** The implementation this variant runs, and (SDK 1.x over HTTP) how its server answers. */
  readonly impl: 'ours' | 'sdk1' | 'sdk2';
  readonly mode: HttpMode;

  constructor(readonly label: string) {
    const [dist, tag] = label.split('@') as [string, string | undefined];
    const sdk = tag === undefined ? undefined : SDK_TAGS[tag];
    if (tag !== undefined && sdk === undefined && tag !== 'legacy' && tag !== 'modern') throw new Error(`${label}: unknown tag ${tag} (legacy, modern, ${Object.keys(SDK_TAGS).join(', ')})`);
    this.impl = sdk?.impl ?? 'ours';
    this.mode = sdk?.mode ?? 'json';
    const env = tag === undefined || sdk !== undefined ? process.env : { ...process.env, BENCH_ERA: tag };
    for (let i = 0; i < PROCS; i++) this.workers.push(new Worker(label, dist, env));
  }

  /** Every worker is set up alike (setup, warm-up, close). */
  async all(msg: ToWorker): Promise<FromWorker> {
    const replies = [];
    for (const w of this.workers) replies.push(await w.ask(msg));
    return replies[0]!;
  }

  /** Repetition `rep` runs in worker `rep % PROCS`. */
  ask(msg: ToWorker, rep: number): Promise<FromWorker> {
    return this.workers[rep % this.workers.length]!.ask(msg);
  }
}

const cpu = (r: RunResult): number => r.cpuUsPerCall + (r.serverCpuUsPerCall ?? 0);
/**
 * `http`: each implementation's own client and server over Streamable HTTP, one client, the
 * workload as given (see the head of this file); `http-json` / `http-sse`: our HTTP server child
 * (one 2025-era session, sequential calls, the `workload` is ignored); `modern`: the 2026-07-28
 * stateless path with the undici client.
 */
type AbTransport = TransportName | 'http-json' | 'http-sse';
// The SDK tags run where the SDKs have a row: checked before any worker is forked.
for (const d of dists) {
  const tag = d.split('@')[1];
  const bad = tag !== undefined && tag in SDK_TAGS && transportsArg.split(',').find((t) => t !== 'http' && t !== 'memory' && t !== 'stdio');
  if (bad) {
    console.error(`${d}: the ${bad} rows run ours only (the SDK tags run in the http, memory and stdio rows)`);
    process.exit(2);
  }
}
for (const transport of transportsArg.split(',') as AbTransport[]) {
  const variants: Variant[] = [];
  for (const d of dists) {
    const v = new Variant(d);
    if (transport === 'http') {
      await v.all({ cmd: 'http-call-setup', impl: v.impl, mode: v.mode });
    } else if (transport === 'http-json' || transport === 'http-sse') {
      await v.all({ cmd: 'http-setup', impl: 'ours', mode: transport === 'http-json' ? 'json' : 'sse' });
      await v.all({ cmd: 'http-open', sessions: 1 });
    } else if (transport === 'modern') {
      await v.all({ cmd: 'modern-setup', server: 'ours', client: 'undici' });
    } else {
      await v.all({ cmd: 'setup', impl: v.impl, transport });
    }
    variants.push(v);
  }
  for (const workload of workloadsArg.split(',') as WorkloadName[]) {
    const run = async (v: Variant, rep: number, warmup: boolean): Promise<RunResult> => {
      const r =
        transport === 'http-json' || transport === 'http-sse'
          ? await v.ask({ cmd: 'http-run', perSession: CALLS }, rep)
          : await v.ask({ cmd: 'run', workload, calls: CALLS, window: WINDOW, warmup }, rep);
      if (r.type !== 'result') throw new Error('unexpected reply');
      return r.result;
    };
    for (const v of variants) {
      v.runs.length = 0;
      v.ranIn.length = 0;
      for (let i = 0; i < v.workers.length; i++) await run(v, i, true);
    }
    for (let rep = 0; rep < REPS; rep++) {
      for (let k = 0; k < variants.length; k++) {
        const v = variants[(k + rep) % variants.length]!;
        v.runs.push(await run(v, rep, false));
        v.ranIn.push(rep % v.workers.length);
      }
    }
    console.log(`${transport} ${workload} (${REPS} reps over ${PROCS} processes a build):`);
    for (const v of variants) {
      const cpus = v.runs.map(cpu);
      console.log(
        `  ${v.label.padEnd(24)} ${Math.round(median(v.runs.map((r) => r.callsPerSec))).toLocaleString('en-US').padStart(9)} calls/s` +
          `  p99 ${median(v.runs.map((r) => r.p99us)).toFixed(0).padStart(5)} µs` +
          `  cpu µs/call median ${median(cpus).toFixed(2)} min ${Math.min(...cpus).toFixed(2)}` +
          `  B/call ${Math.round(median(v.runs.map((r) => r.allocPerCall)))}` +
          // Each process's own minimum: a process in a slow phase shows here, not in the row.
          (PROCS > 1 ? `  (min by process ${v.workers.map((_, i) => Math.min(...cpus.filter((_c, k) => v.ranIn[k] === i)).toFixed(2)).join(' ')})` : ''),
      );
    }
  }
  for (const v of variants) await v.all({ cmd: 'close' });
}
