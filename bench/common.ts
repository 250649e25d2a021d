/**
 * Shared by the bench orchestrator, its workers and the bench servers: names, the echo payload,
 * the IPC message shapes and the statistics.
 */
import { fileURLToPath } from 'node:url';

export type TransportName = 'memory' | 'stdio';
export type ImplName = 'ours' | 'ours-serialize' | 'sdk' | 'sdk-mcpserver' | 'bare';
export type WorkloadName = 'sequential' | 'pipelined';

/** The tool name and the text every call echoes. */
export const TOOL = 'echo';
export const TEXT = 'hello, bench';
export const SERVER_INFO = { name: 'bench-server', version: '1.0.0' };
export const CLIENT_INFO = { name: 'bench-client', version: '1.0.0' };

/**
 * Node arguments that run a bench server: the compiled dist/bench/servers/<name>.js, or, when
 * this module runs from source (the smoke spec under tsx), the .ts file through tsx.
 */
export function serverArgs(name: 'ours-stdio' | 'sdk-stdio' | 'bare-stdio'): string[] {
  const fromSource = import.meta.url.endsWith('.ts');
  const path = fileURLToPath(new URL(`./servers/${name}.${fromSource ? 'ts' : 'js'}`, import.meta.url));
  return fromSource ? ['--import', 'tsx', path] : [path];
}

/** One timed run of one workload on one driver. */
export interface RunResult {
  calls: number;
  ms: number;
  callsPerSec: number;
  /** Latency per call (send to answer), microseconds. */
  p50us: number;
  p99us: number;
  /** heapUsed and RSS after minus before the run, bytes (GC may make them negative). */
  heapDelta: number;
  rssDelta: number;
  /** Bytes allocated per call on this process's heap (used-heap growth plus what GC freed). */
  allocPerCall: number;
  /** Time spent in GC during the run, ms. */
  gcMs: number;
  /** CPU time (user + system) of this process per call, µs (in-memory: client and server). */
  cpuUsPerCall: number;
  /** CPU time of the stdio server child per call, µs (Linux /proc, 10 ms ticks); undefined in memory. */
  serverCpuUsPerCall: number | undefined;
}

export type ToWorker =
  | { cmd: 'setup'; impl: ImplName; transport: TransportName; serverExecArgv?: string[] }
  | { cmd: 'run'; workload: WorkloadName; calls: number; window: number; warmup: boolean }
  | { cmd: 'close' };

export type FromWorker =
  | { type: 'ready'; label: string }
  | { type: 'result'; result: RunResult }
  | { type: 'closed' }
  | { type: 'error'; message: string };

/** The q-quantile (0..1) of sorted values, nearest rank. */
export function quantile(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i]!;
}

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const n = s.length;
  if (n === 0) return NaN;
  return n % 2 === 1 ? s[(n - 1) >> 1]! : (s[n / 2 - 1]! + s[n / 2]!) / 2;
}
