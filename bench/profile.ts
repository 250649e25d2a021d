/**
 * A focused run of one implementation for the profiler: no workers, no table, just the calls.
 *
 *   npm run build
 *   node --cpu-prof --cpu-prof-dir=bench/results/prof dist/bench/profile.js stdio sequential
 *   node dist/bench/cpuprofile-top.js bench/results/prof/<file>.cpuprofile
 *
 * Arguments: <memory|stdio|http> <sequential|pipelined> [runs=10] [impl=ours|ours-serialize|sdk1|sdk2|bare] [--server-prof]
 * `--server-prof` also profiles the stdio server child (its profile lands in the same folder,
 * written when it exits, named after its pid). Each run is BENCH_CALLS calls (10000); the first run is a warm-up.
 */
import { resolve } from 'node:path';
import type { ImplName, ModernClient, ModernServer, TransportName, WorkloadName } from './common.js';
import { createDriver } from './drivers.js';
import { createHttpCallDriver } from './http-drivers.js';
import { createModernDriver } from './modern-drivers.js';
import { measure } from './measure.js';

const positional = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const transport = (positional[0] ?? 'memory') as TransportName;
const workload = (positional[1] ?? 'sequential') as WorkloadName;
const runs = Number(positional[2] ?? 10);
const impl = (positional[3] ?? 'ours') as ImplName;
const calls = Number(process.env.BENCH_CALLS ?? 10_000);
const window = Number(process.env.BENCH_WINDOW ?? 256);

const execArgv: string[] = [];
if (process.argv.includes('--server-prof')) {
  const dirFlag = process.execArgv.find((a) => a.startsWith('--cpu-prof-dir='));
  const dir = dirFlag ? resolve(dirFlag.slice('--cpu-prof-dir='.length)) : resolve('bench/results/prof');
  execArgv.push('--cpu-prof', `--cpu-prof-dir=${dir}`);
}

// `modern <workload> <runs> <client: ours|sdk2|undici> [server: ours|sdk2]`: one client of the
// 2026-07-28 HTTP rows against a server child (the client's CPU is what this process spends).
// `http <workload> <runs> [ours|sdk1]`: ab.js's `http` rows (ours in the era of BENCH_ERA), the
// server child profiled too with --server-prof.
const driver =
  transport === 'modern'
    ? await createModernDriver((positional[4] ?? 'ours') as ModernServer, (positional[3] ?? 'ours') as ModernClient)
    : transport === 'http'
      ? await createHttpCallDriver(impl === 'sdk1' ? 'sdk1' : 'ours', 'json', { serverExecArgv: execArgv })
      : await createDriver(impl, transport, execArgv);
if (driver.serverPid !== undefined) console.log(`server pid ${driver.serverPid} (its profile is the CPU.*.${driver.serverPid}.*.cpuprofile)`);
for (let i = 0; i < runs; i++) {
  const r = await measure(driver, workload, calls, window);
  console.log(
    `${driver.label} ${workload} run ${i}: ${Math.round(r.callsPerSec)} calls/s, p50 ${r.p50us.toFixed(0)} µs, p99 ${r.p99us.toFixed(0)} µs, ` +
      `cpu ${r.cpuUsPerCall.toFixed(1)}${r.serverCpuUsPerCall === undefined ? '' : `+${r.serverCpuUsPerCall.toFixed(1)}`} µs/call`,
  );
}
await driver.close();
