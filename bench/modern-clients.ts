/**
 * Client against client in the 2026-07-28 era over Streamable HTTP, on the same server: our
 * `Client` with default options (`new Client({ info })`: it finds the era by itself) and the SDK v2
 * `Client` pinned to the revision, each in its own worker process with its own server child of
 * the same kind, on our server and on the SDK v2's `createMcpHandler`. Sequential and pipelined
 * (32 in flight), warm-up, then interleaved repetitions; the table gives each client's throughput,
 * latency and CPU per call, and ours over the SDK v2 client's on each server.
 *
 *   npm run build && node dist/bench/modern-clients.js
 *
 * Environment: BENCH_MODERN_CALLS (1500), BENCH_MODERN_WINDOW (32), BENCH_MODERN_REPS (5),
 * BENCH_MODERN_SERVERS (ours,sdk2).
 */
import { fork, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { median, type FromWorker, type ModernClient, type ModernServer, type RunResult, type ToWorker, type WorkloadName } from './common.js';

const CALLS = Number(process.env.BENCH_MODERN_CALLS ?? 1500);
const WINDOW = Number(process.env.BENCH_MODERN_WINDOW ?? 32);
const REPS = Number(process.env.BENCH_MODERN_REPS ?? 5);
const SERVERS = (process.env.BENCH_MODERN_SERVERS ?? 'ours,sdk2').split(',') as ModernServer[];
const CLIENTS: ModernClient[] = ['ours', 'sdk2'];
const WORKLOADS: WorkloadName[] = ['sequential', 'pipelined'];
const SERVER_LABEL: Record<ModernServer, string> = { ours: 'ours', sdk2: 'sdk v2 createMcpHandler' };
const CLIENT_LABEL: Record<string, string> = { ours: 'our Client (defaults)', sdk2: 'sdk v2 Client (pinned)' };

class Worker {
  private readonly child: ChildProcess;
  private waiting: ((m: FromWorker) => void) | undefined;
  constructor(readonly client: ModernClient) {
    this.child = fork(fileURLToPath(new URL('./worker.js', import.meta.url)), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.child.on('message', (m: FromWorker) => {
      const w = this.waiting;
      this.waiting = undefined;
      w?.(m);
    });
  }
  async ask(msg: ToWorker): Promise<FromWorker> {
    const reply = await new Promise<FromWorker>((resolve) => {
      this.waiting = resolve;
      this.child.send(msg);
    });
    if (reply.type === 'error') throw new Error(`[${this.client}] ${reply.message}`);
    return reply;
  }
  async run(workload: WorkloadName, warmup: boolean): Promise<RunResult> {
    const r = await this.ask({ cmd: 'run', workload, calls: CALLS, window: WINDOW, warmup });
    if (r.type !== 'result') throw new Error(`[${this.client}] unexpected reply ${r.type}`);
    return r.result;
  }
}

interface Row {
  server: ModernServer;
  workload: WorkloadName;
  client: ModernClient;
  callsPerSec: number;
  spreadPct: number;
  p50us: number;
  p99us: number;
  cpuUsPerCall: number;
  serverCpuUsPerCall: number | undefined;
}

const rows: Row[] = [];
for (const server of SERVERS) {
  const workers: Worker[] = [];
  for (const client of CLIENTS) {
    const w = new Worker(client);
    const r = await w.ask({ cmd: 'modern-setup', server, client });
    if (r.type !== 'ready') throw new Error(`${client} → ${server}: ${r.type === 'unavailable' ? r.reason : r.type}`);
    workers.push(w);
  }
  for (const workload of WORKLOADS) {
    process.stderr.write(`  ${SERVER_LABEL[server]} ${workload}: warm-up`);
    for (const w of workers) for (let k = 0; k < (workload === WORKLOADS[0] ? 2 : 1); k++) await w.run(workload, true);
    const reps = new Map<ModernClient, RunResult[]>(CLIENTS.map((c) => [c, []]));
    for (let rep = 0; rep < REPS; rep++) {
      process.stderr.write(` ${rep + 1}`);
      for (let k = 0; k < workers.length; k++) {
        const w = workers[(k + rep) % workers.length]!;
        reps.get(w.client)!.push(await w.run(workload, false));
      }
    }
    process.stderr.write('\n');
    for (const client of CLIENTS) {
      const rs = reps.get(client)!;
      const thr = rs.map((r) => r.callsPerSec);
      const callsPerSec = median(thr);
      rows.push({
        server,
        workload,
        client,
        callsPerSec,
        spreadPct: ((Math.max(...thr) - Math.min(...thr)) / callsPerSec) * 100,
        p50us: median(rs.map((r) => r.p50us)),
        p99us: median(rs.map((r) => r.p99us)),
        cpuUsPerCall: median(rs.map((r) => r.cpuUsPerCall)),
        serverCpuUsPerCall: rs.every((r) => r.serverCpuUsPerCall !== undefined) ? median(rs.map((r) => r.serverCpuUsPerCall!)) : undefined,
      });
    }
  }
  for (const w of workers) await w.ask({ cmd: 'close' });
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const x = (n: number) => `${n.toFixed(2)}x`;
const out: string[] = [];
out.push('| server | workload | client | calls/s | ±% | p50 µs | p99 µs | thr ours/sdk2 | p99 ours/sdk2 | cpu µs/call (client+server) |');
out.push('|---|---|---|---:|---:|---:|---:|---:|---:|---:|');
for (const r of rows) {
  const sdk = rows.find((o) => o.server === r.server && o.workload === r.workload && o.client === 'sdk2')!;
  const ours = r.client === 'ours';
  out.push(
    `| ${SERVER_LABEL[r.server]} | ${r.workload} | ${CLIENT_LABEL[r.client]} | ${fmt(r.callsPerSec)} | ${r.spreadPct.toFixed(0)} | ${fmt(r.p50us)} | ${fmt(r.p99us)} | ` +
      `${ours ? `**${x(r.callsPerSec / sdk.callsPerSec)}**` : '1'} | ${ours ? x(r.p99us / sdk.p99us) : '1'} | ${r.cpuUsPerCall.toFixed(1)}${r.serverCpuUsPerCall === undefined ? '' : `+${r.serverCpuUsPerCall.toFixed(1)}`} |`,
  );
}
console.log(`\n${os.cpus().length} x ${os.cpus()[0]?.model.trim()}, Node ${process.version}, load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}; ${CALLS} calls per run, window ${WINDOW}, ${REPS} repetitions\n`);
console.log(out.join('\n'));
for (const server of SERVERS) {
  for (const workload of WORKLOADS) {
    const ours = rows.find((r) => r.server === server && r.workload === workload && r.client === 'ours')!;
    const sdk = rows.find((r) => r.server === server && r.workload === workload && r.client === 'sdk2')!;
    const ratio = ours.callsPerSec / sdk.callsPerSec;
    console.log(`  ${SERVER_LABEL[server].padEnd(24)} ${workload.padEnd(10)} our client vs sdk v2 client: throughput ${x(ratio)} (budget >= 3x: ${ratio >= 3 ? 'ok' : 'MISS'})`);
  }
}
