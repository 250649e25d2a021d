/**
 * Shared by the bench orchestrator, its workers and the bench servers: names, the echo payload,
 * the IPC message shapes and the statistics.
 */
import { fileURLToPath } from 'node:url';

/** `modern`: Streamable HTTP in the 2026-07-28 era (stateless), the SDK v2 client against each server. */
export type TransportName = 'memory' | 'stdio' | 'http' | 'modern';
/**
 * `ours`: our `createMcpServer` + `Client`; `sdk1`: `@modelcontextprotocol/sdk` 1.32.2's `McpServer`
 * + `Client`; `sdk2`: SDK v2 2.4.0 (`@modelcontextprotocol/server` `McpServer` +
 * `@modelcontextprotocol/client` `Client`); `bare`: JSON-RPC with no MCP (the ceiling).
 */
export type ImplName = 'ours' | 'ours-serialize' | 'sdk1' | 'sdk2' | 'bare';
/** The 2026-07-28 (modern, stateless) rows: the SDK v2 client against this server. */
export type ModernServer = 'ours' | 'sdk2';
/**
 * The client of the modern rows: the SDK v2 `Client` (as a user calls a server), or `undici`: the
 * same requests (headers and `_meta` envelope) written by hand on a keep-alive undici Agent, which
 * costs the client far less, so that the server's own speed shows.
 */
export type ModernClient = 'sdk2' | 'undici' | 'native' | 'ours';
/** The revision the modern rows speak. */
export const MODERN_REVISION = '2026-07-28';
export type WorkloadName = 'sequential' | 'pipelined';
/** How the Streamable HTTP servers answer a POST with a request: a JSON body or an SSE stream. */
export type HttpMode = 'json' | 'sse';

/** The tool name and the text every call echoes. */
export const TOOL = 'echo';
export const TEXT = 'hello, bench';
export const SERVER_INFO = { name: 'bench-server', version: '1.0.0' };
export const CLIENT_INFO = { name: 'bench-client', version: '1.0.0' };

/**
 * Node arguments that run a bench server: the compiled dist/bench/servers/<name>.js, or, when
 * this module runs from source (the smoke spec under tsx), the .ts file through tsx.
 */
export function serverArgs(name: ServerName): string[] {
  const { path, execArgv } = serverModule(name);
  return [...execArgv, path];
}

export type ServerName =
  | 'ours-stdio'
  | 'sdk-stdio'
  | 'sdk2-stdio'
  | 'bare-stdio'
  | 'ours-http'
  | 'sdk-http'
  | 'sdk2-http'
  | 'sdk2-modern-http'
  | 'bare-http';

/** A bench server's module path and the node arguments it needs (tsx when running from source), for `fork`. */
export function serverModule(name: ServerName): { path: string; execArgv: string[] } {
  const fromSource = import.meta.url.endsWith('.ts');
  const path = fileURLToPath(new URL(`./servers/${name}.${fromSource ? 'ts' : 'js'}`, import.meta.url));
  return { path, execArgv: fromSource ? ['--import', 'tsx'] : [] };
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

/** Server memory per idle Streamable HTTP session (heap and RSS of the server process after GC). */
export interface IdleResult {
  /** Sessions measured (opened after the warm-up ones). */
  sessions: number;
  /** Sessions opened (and kept) before the baseline, so that lazy code and JIT are not counted. */
  warmup: number;
  /** Heap used / RSS / external of the server after GC, per session, bytes. */
  heapPerSession: number;
  rssPerSession: number;
  externalPerSession: number;
  /** Heap used after GC at the baseline and at the end, bytes. */
  heapBase: number;
  heapEnd: number;
  /** Time to open the measured sessions, ms. */
  openMs: number;
  /** Each session also holds its standalone GET (SSE) stream open, as real clients do. */
  getStream: boolean;
}

/** Server memory per answered modern request: heap after `calls` requests minus before, after GC. */
export interface RequestMemoryResult {
  calls: number;
  /** (heap used after − before) / calls, bytes; RSS the same way. */
  heapPerRequest: number;
  rssPerRequest: number;
  heapBefore: number;
  heapAfter: number;
}

export type ToWorker =
  | { cmd: 'setup'; impl: ImplName; transport: TransportName; serverExecArgv?: string[] }
  | { cmd: 'run'; workload: WorkloadName; calls: number; window: number; warmup: boolean }
  /** HTTP: start the server child of `impl` answering in `mode`. */
  | { cmd: 'http-setup'; impl: ImplName; mode: HttpMode }
  /** HTTP: close the open client sessions, open `sessions` new ones (each echoes once). */
  | { cmd: 'http-open'; sessions: number }
  /** HTTP: every open session makes `perSession` sequential calls, all sessions at once. */
  | { cmd: 'http-run'; perSession: number }
  /** HTTP: a fresh server of `impl` (with --expose-gc), `warmup` + `sessions` idle sessions opened by raw requests. */
  | { cmd: 'http-idle'; impl: ImplName; sessions: number; warmup: number; getStream: boolean }
  /**
   * Modern: start `server` (with --expose-gc) and connect the SDK v2 client in the 2026-07-28 era;
   * then `run` as for memory/stdio. Replies `unavailable` when the server does not serve that era.
   */
  | { cmd: 'modern-setup'; server: ModernServer; client: ModernClient }
  /**
   * HTTP, one client with any workload (ab.js's `http` rows): `impl`'s own high-level client and
   * server, default options (ours in the era of BENCH_ERA; sdk1 answering in `mode`; sdk2 pinned to
   * 2026-07-28 against its `createMcpHandler`); then `run` as for memory/stdio.
   */
  | { cmd: 'http-call-setup'; impl: 'ours' | 'sdk1' | 'sdk2'; mode: HttpMode }
  /** Modern: the server's heap growth per request over `calls` sequential requests, after GC. */
  | { cmd: 'modern-memory'; calls: number }
  | { cmd: 'close' };

export type FromWorker =
  | { type: 'ready'; label: string }
  | { type: 'result'; result: RunResult }
  | { type: 'idle'; result: IdleResult }
  | { type: 'unavailable'; reason: string }
  | { type: 'memory-per-request'; result: RequestMemoryResult }
  | { type: 'closed' }
  | { type: 'error'; message: string };

/** Between an HTTP bench server (forked) and its parent. */
export type ToHttpServer = { cmd: 'memory' } | { cmd: 'exit' };
export type FromHttpServer =
  | { type: 'listening'; url: string }
  /** After GC: process.memoryUsage() and the sessions the server holds. */
  | { type: 'memory'; heapUsed: number; heapTotal: number; rss: number; external: number; sessions: number };

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
