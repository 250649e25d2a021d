/**
 * The two workloads and what is measured around them: wall time, per-call latency, heap and
 * RSS change, bytes allocated (from GC statistics) and GC time.
 */
import { readFileSync } from 'node:fs';
import { GCProfiler } from 'node:v8';
import { quantile, type RunResult, type WorkloadName } from './common.js';
import type { Driver } from './drivers.js';
import type { HttpDriver } from './http-drivers.js';

/** `calls` calls, each awaited before the next. */
async function sequential(driver: Driver, calls: number, lat: Float64Array): Promise<void> {
  for (let i = 0; i < calls; i++) {
    const t = performance.now();
    await driver.call();
    lat[i] = performance.now() - t;
  }
}

/** `calls` calls with at most `window` in flight; a call starts as soon as one finishes. */
function pipelined(driver: Driver, calls: number, window: number, lat: Float64Array): Promise<void> {
  return new Promise((resolve, reject) => {
    let started = 0;
    let done = 0;
    const launch = (): void => {
      const i = started++;
      const t = performance.now();
      driver.call().then(() => {
        lat[i] = performance.now() - t;
        if (++done === calls) resolve();
        else if (started < calls) launch();
      }, reject);
    };
    for (let k = 0; k < Math.min(window, calls); k++) launch();
  });
}

interface GcStat {
  cost: number;
  beforeGC: { heapStatistics: { usedHeapSize: number } };
  afterGC: { heapStatistics: { usedHeapSize: number } };
}

/** CPU time (user + system) of another process in µs, from /proc (Linux); undefined elsewhere. */
function cpuOf(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of the line, in clock ticks (100 per second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return undefined;
  }
}

/** Runs one workload and measures it. */
export function measure(driver: Driver, workload: WorkloadName, calls: number, window: number): Promise<RunResult> {
  return measured(calls, driver.serverPid, (lat) => (workload === 'sequential' ? sequential(driver, calls, lat) : pipelined(driver, calls, window, lat)));
}

/**
 * Every open session of `driver` makes `perSession` calls, each awaited before the next, all
 * sessions at once; calls/s is the total across sessions.
 */
export function measureSessions(driver: HttpDriver, perSession: number): Promise<RunResult> {
  const n = driver.sessions;
  return measured(n * perSession, driver.serverPid, async (lat) => {
    const one = async (s: number): Promise<void> => {
      for (let i = 0; i < perSession; i++) {
        const t = performance.now();
        await driver.call(s);
        lat[s * perSession + i] = performance.now() - t;
      }
    };
    await Promise.all(Array.from({ length: n }, (_, s) => one(s)));
  });
}

/** Wall time, latencies, CPU (this process and the server's), heap, allocation and GC around `body`. */
async function measured(calls: number, pid: number | undefined, body: (lat: Float64Array) => Promise<void>): Promise<RunResult> {
  const lat = new Float64Array(calls);
  const m0 = process.memoryUsage();
  const gc = new GCProfiler();
  const serverCpu0 = cpuOf(pid);
  const cpu0 = process.cpuUsage();
  gc.start();
  const t0 = performance.now();
  await body(lat);
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const serverCpu1 = cpuOf(pid);
  const stats = gc.stop().statistics as unknown as GcStat[];
  const m1 = process.memoryUsage();
  let freed = 0;
  let gcUs = 0;
  for (const s of stats) {
    freed += s.beforeGC.heapStatistics.usedHeapSize - s.afterGC.heapStatistics.usedHeapSize;
    gcUs += s.cost;
  }
  lat.sort();
  return {
    calls,
    ms,
    callsPerSec: (calls * 1000) / ms,
    p50us: quantile(lat, 0.5) * 1000,
    p99us: quantile(lat, 0.99) * 1000,
    heapDelta: m1.heapUsed - m0.heapUsed,
    rssDelta: m1.rss - m0.rss,
    allocPerCall: (m1.heapUsed - m0.heapUsed + freed) / calls,
    gcMs: gcUs / 1000,
    cpuUsPerCall: (cpu.user + cpu.system) / calls,
    serverCpuUsPerCall: serverCpu0 === undefined || serverCpu1 === undefined ? undefined : (serverCpu1 - serverCpu0) / calls,
  };
}
