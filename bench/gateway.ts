/**
 * What the gateway costs over HTTP. Our Client calls the echo tool three ways, for each upstream:
 *
 * - **direct**: the echo itself, `bench/servers/ours-http` over HTTP (`--url` rows) or
 *   `bench/servers/ours-stdio` over stdio (`--` rows: what a user runs without a gateway);
 * - **floor**: through `bench/servers/forwarder` (a bare JSON-RPC forwarder, no MCP: one hop
 *   and nothing else) in front of the same echo;
 * - **gateway**: through `mcp-actors serve --http 0` (a separate process, as users run it) in
 *   front of the same echo (`--url`, or `--` re-serving the stdio echo);
 *
 * sequentially (one call at a time: the extra hop shows fully) and pipelined (WINDOW calls in
 * flight). The paths take turns in short blocks, the order rotating every round, so the machine's
 * drift falls on all alike; the figure is the median block of each. Besides latency, the CPU time
 * (user + system, from /proc, 10 ms ticks) of the process in the middle per call: the
 * forwarder's, the gateway's, and the HTTP echo's own on the direct path, to compare the
 * gateway's own work with a hop's and a server's.
 *
 * Then the HTTP rows again with every part in this process, CPU from `process.cpuUsage()`
 * (see {@link inProcess}), and the memory an idle downstream session costs: N legacy sessions
 * opened with bare fetch requests (initialize + initialized, nothing else kept here) on the echo
 * server alone and on a gateway in this process, the heap after GC before and after, divided by N;
 * and for 2026-07-28 callers (no session), N idle listen streams the same way.
 *
 *   npm run build && node --expose-gc dist/bench/gateway.js
 * Each row runs for a 2026-07-28 downstream client and a legacy one (initialize, an HTTP session),
 * `GATEWAY_ERAS` (`modern,legacy`).
 * Settings: GATEWAY_ROUNDS (8), GATEWAY_BLOCK (400 calls), GATEWAY_WINDOW (32), GATEWAY_SESSIONS (500),
 * GATEWAY_UPSTREAMS (`http,stdio`; empty: none of the separate-process rows),
 * GATEWAY_WORKLOADS (`sequential,pipelined`), GATEWAY_IN_PROCESS (`no` skips the one-process rows;
 * 0 sessions skip the memory), GATEWAY_NODE_ARGS (node flags for the gateway process, e.g.
 * `--cpu-prof --cpu-prof-dir=/tmp/gw`), GATEWAY_BASELINE (the `lib/cli/main.js` of another build,
 * e.g. a copy of dist made before a change: its gateway runs as a fourth path, interleaved with
 * the others, for a before/after under the same load).
 */
import { spawn, fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Client } from '../lib/client.js';
import { createGateway } from '../lib/gateway/gateway.js';
import { listen } from '../lib/http/listen-port.js';
import { createStdioClientTransport } from '../streams/stdio-client.js';
import { createStreamableHttpClientTransport } from '../streams/streamable-http-client.js';
import { createStreamableHttpHandler } from '../lib/server-bindings/streamable-http-server.js';
import type { McpServer } from '../lib/mcp-server.js';
import { createOursServer } from './echo/ours.js';
import { listenForwarder, toHttp } from './servers/forwarder.js';
import { CLIENT_INFO, serverModule, TEXT, TOOL, type FromHttpServer } from './common.js';

const ROUNDS = Number(process.env.GATEWAY_ROUNDS ?? 8);
const BLOCK = Number(process.env.GATEWAY_BLOCK ?? 400);
const WINDOW = Number(process.env.GATEWAY_WINDOW ?? 32);
const SESSIONS = Number(process.env.GATEWAY_SESSIONS ?? 500);
const UPSTREAMS = (process.env.GATEWAY_UPSTREAMS ?? 'http,stdio').split(',').filter(Boolean);
const BASELINE = process.env.GATEWAY_BASELINE;
const WORKLOADS = (process.env.GATEWAY_WORKLOADS ?? 'sequential,pipelined').split(',');
const ERAS = (process.env.GATEWAY_ERAS ?? 'modern,legacy').split(',').filter((e): e is 'modern' | 'legacy' => e === 'modern' || e === 'legacy');
const NODE_ARGS = process.env.GATEWAY_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
const execArgv = ext === '.ts' ? ['--import', 'tsx'] : [];
const CLI = fileURLToPath(new URL(`../lib/cli/main${ext}`, import.meta.url));
const FORWARDER = fileURLToPath(new URL(`./servers/forwarder${ext}`, import.meta.url));

function upstream(): Promise<{ child: ChildProcess; url: string }> {
  const { path, execArgv: argv } = serverModule('ours-http');
  const child = fork(path, ['--mode', 'json'], { execArgv: argv, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.on('message', (m: FromHttpServer) => m.type === 'listening' && resolve({ child, url: m.url }));
    child.on('exit', (code) => reject(new Error(`the bench server exited with ${code}`)));
  });
}

/** A process in the middle that prints `<pattern> URL` on stderr once it listens. */
function middle(args: string[], pattern: RegExp): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (d) => {
      err += d;
      const m = pattern.exec(err);
      if (m) resolve({ child, url: m[1]! });
    });
    child.on('exit', (code) => reject(new Error(`${args.at(-1)} exited with ${code}: ${err}`)));
  });
}

/** `mcp-actors serve --http 0` in front of `upstreamArgs` (`--url URL` or `-- CMD...`). */
const gateway = (upstreamArgs: string[], cli = CLI) => middle([...execArgv, ...NODE_ARGS, cli, 'serve', '--http', '0', '--name', 'u', ...upstreamArgs], /Serving .* at (http:\/\/\S+)/);
/** The bare forwarder in front of `upstreamArgs` (`--url URL` or `-- CMD...`). */
const forwarder = (upstreamArgs: string[]) => middle([...execArgv, FORWARDER, ...upstreamArgs], /Forwarding at (http:\/\/\S+)/);

/** User + system CPU time of a process so far, in ms (Linux /proc; 10 ms ticks). */
function cpuMs(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return NaN;
  }
}

/** Milliseconds per call for `n` calls, `window` at a time. */
async function block(client: Client, tool: string, n: number, window: number): Promise<number> {
  const start = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < n) {
      next++;
      await client.callTool(tool, { text: TEXT });
    }
  };
  await Promise.all(Array.from({ length: window }, worker));
  return (performance.now() - start) / n;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

interface Path {
  label: 'direct' | 'floor' | 'gateway' | 'baseline';
  client: Client;
  tool: string;
  /** The process whose CPU per call is reported (the one in the middle, or the direct server). */
  pid: number | undefined;
  close(): Promise<void>;
}

/** How the downstream client speaks: 2026-07-28 requests, or a legacy session (initialize first). */
type Era = 'modern' | 'legacy';

async function viaHttp(label: Path['label'], url: string, tool: string, era: Era, pid: number | undefined): Promise<Path> {
  const client = new Client({ info: CLIENT_INFO, era });
  await client.connect(createStreamableHttpClientTransport(url));
  return { label, client, tool, pid, close: () => client.close() };
}

/** The processes in the middle for one upstream kind, started once and shared by both eras' clients. */
interface Middles {
  floor: { child: ChildProcess; url: string };
  gateway: { child: ChildProcess; url: string };
  baseline: { child: ChildProcess; url: string } | undefined;
  close(): void;
}

async function middles(kind: string, up: { child: ChildProcess; url: string }): Promise<Middles> {
  const stdio = serverModule('ours-stdio');
  const target = kind === 'http' ? ['--url', up.url] : ['--', process.execPath, ...stdio.execArgv, stdio.path];
  const floor = await forwarder(target);
  const gw = await gateway(target);
  const baseline = BASELINE === undefined ? undefined : await gateway(target, BASELINE);
  return {
    floor,
    gateway: gw,
    baseline,
    close() {
      for (const m of [floor, gw, baseline]) m?.child.kill('SIGTERM');
    },
  };
}

/** One client per path, all speaking `era`. */
async function paths(kind: string, up: { child: ChildProcess; url: string }, m: Middles, era: Era): Promise<Path[]> {
  const stdio = serverModule('ours-stdio');
  let direct: Path;
  if (kind === 'http') direct = await viaHttp('direct', up.url, TOOL, era, up.child.pid);
  else {
    const client = new Client({ info: CLIENT_INFO, era });
    const transport = createStdioClientTransport({ command: process.execPath, args: [...stdio.execArgv, stdio.path] });
    await client.connect(transport);
    direct = { label: 'direct', client, tool: TOOL, pid: transport.pid, close: () => client.close() };
  }
  const all = [direct, await viaHttp('floor', m.floor.url, TOOL, era, m.floor.child.pid), await viaHttp('gateway', m.gateway.url, `u__${TOOL}`, era, m.gateway.child.pid)];
  if (m.baseline !== undefined) all.push(await viaHttp('baseline', m.baseline.url, `u__${TOOL}`, era, m.baseline.child.pid));
  return all;
}

const us = (ms: number) => (Number.isNaN(ms) ? '   -' : (ms * 1000).toFixed(0).padStart(4));

/** Both workloads over `all` (direct, floor, gateway[, baseline]) in turns; one line each. */
async function measure(kind: string, era: Era, all: Path[]): Promise<void> {
  for (const [label, window] of ([['sequential', 1], ['pipelined', WINDOW]] as const).filter(([w]) => WORKLOADS.includes(w))) {
    for (const p of all) await block(p.client, p.tool, BLOCK, window);
    const times = all.map(() => [] as number[]);
    const cpu = all.map(() => 0);
    for (let round = 0; round < ROUNDS; round++) {
      for (let i = 0; i < all.length; i++) {
        const at = (i + round) % all.length;
        const p = all[at]!;
        const before = cpuMs(p.pid);
        times[at]!.push(await block(p.client, p.tool, BLOCK, window));
        cpu[at]! += cpuMs(p.pid) - before;
      }
    }
    const [d, f, g, b] = times.map(median) as [number, number, number, number | undefined];
    const [cd, cf, cg, cb] = cpu.map((c) => c / (ROUNDS * BLOCK)) as [number, number, number, number | undefined];
    const base = b === undefined ? '' : `  | baseline gateway ${us(b)} (cpu ${us(cb!)})  gateway/baseline ${(g / b).toFixed(2)}`;
    const eras = all.map((p) => p.client.era).join('/');
    console.log(
      `${kind.padEnd(5)} ${era.padEnd(6)} ${label.padEnd(10)}  direct ${us(d)}  floor ${us(f)}  gateway ${us(g)}  gateway/direct ${(g / d).toFixed(2)}  gateway/floor ${(g / f).toFixed(2)}  ` +
        `cpu: ${kind === 'http' ? `echo server ${us(cd)}` : `stdio echo ${us(cd)}`}  forwarder ${us(cf)}  gateway ${us(cg)}  eras ${eras}${base}`,
    );
  }
}

async function latency(): Promise<void> {
  if (UPSTREAMS.length === 0) return;
  const up = await upstream();
  console.log(`gateway bench: ${ROUNDS} rounds of ${BLOCK}-call blocks, pipelined ${WINDOW} in flight; µs per call (median block), cpu = µs of CPU per call of the process named`);
  try {
    for (const kind of UPSTREAMS) {
      const m = await middles(kind, up);
      try {
        for (const era of ERAS) {
          const all = await paths(kind, up, m, era);
          try {
            await measure(kind, era, all);
          } finally {
            for (const p of all) await p.close();
          }
        }
      } finally {
        m.close();
      }
    }
  } finally {
    up.child.kill();
  }
}

async function settledHeap(): Promise<number> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('run with node --expose-gc');
  let last = Infinity;
  for (let round = 0; round < 10; round++) {
    gc();
    await new Promise((r) => setImmediate(r));
    const used = process.memoryUsage().heapUsed;
    if (round >= 1 && Math.abs(last - used) < 16 * 1024) return used;
    last = used;
  }
  return last;
}

/**
 * The same calls with everything in this process (echo server, forwarder, gateway, client; real
 * HTTP on 127.0.0.1), timed by `process.cpuUsage()` per block: microsecond CPU figures that no
 * other process's scheduling blurs. What the forwarder adds to a direct call's CPU is a hop's
 * cost; what the gateway adds is its own; their ratio is how many hops the gateway costs.
 * (No baseline here: another build's gateway loaded beside ours measured 1.6x our own build's
 * added CPU when that build was a copy of ours; a second module graph in one process is not a
 * fair comparison.)
 */
async function inProcess(): Promise<void> {
  const echoHandler = createStreamableHttpHandler(createOursServer().server, { responseMode: 'json' });
  const echo = await listen(echoHandler, { port: 0, logger: false });
  const fwd = await listenForwarder(toHttp(new URL(echo.url)));
  const gw = createGateway({ servers: { u: { url: echo.url } } });
  await gw.start();
  // As `serve --http` serves it.
  const gwWeb = await listen(createStreamableHttpHandler(gw.server.server, { legacySse: true }), { port: 0, logger: false });
  const targets: { label: string; url: string; tool: string }[] = [
    { label: 'direct', url: echo.url, tool: TOOL },
    { label: 'floor', url: fwd.url, tool: TOOL },
    { label: 'gateway', url: gwWeb.url, tool: `u__${TOOL}` },
  ];
  const closers = [() => gwWeb.close(), () => gw.close(), () => fwd.close(), () => echo.close()];
  const clients = await Promise.all(
    targets.map(async (t) => {
      const client = new Client({ info: CLIENT_INFO });
      await client.connect(createStreamableHttpClientTransport(t.url));
      return client;
    }),
  );
  try {
    for (const [label, window] of ([['sequential', 1], ['pipelined', WINDOW]] as const).filter(([w]) => WORKLOADS.includes(w))) {
      for (let i = 0; i < targets.length; i++) await block(clients[i]!, targets[i]!.tool, BLOCK, window);
      const cpu = targets.map(() => [] as number[]);
      const wall = targets.map(() => [] as number[]);
      for (let round = 0; round < ROUNDS; round++) {
        for (let i = 0; i < targets.length; i++) {
          const at = (i + round) % targets.length;
          const before = process.cpuUsage();
          wall[at]!.push(await block(clients[at]!, targets[at]!.tool, BLOCK, window));
          const used = process.cpuUsage(before);
          cpu[at]!.push((used.user + used.system) / BLOCK);
        }
      }
      const c = cpu.map(median);
      const w = wall.map(median);
      const added = (i: number) => c[i]! - c[0]!;
      const cols = targets.map((t, i) => `${t.label} ${c[i]!.toFixed(0)}${i > 0 ? ` (+${added(i).toFixed(0)})` : ''} cpu, ${(w[i]! * 1000).toFixed(0)} wall`);
      console.log(`one process ${label.padEnd(10)}  µs/call: ${cols.join('  ')}  gateway added/floor added ${(added(2) / added(1)).toFixed(2)}`);
    }
  } finally {
    await Promise.all(clients.map((cl) => cl.close()));
    for (const close of closers) await close();
  }
}

/** The heap after GC per idle legacy session (initialize + initialized by bare fetch) on `server`. */
async function idleHeap(server: McpServer): Promise<{ sessions: number; kb: number }> {
  const handler = createStreamableHttpHandler(server.server);
  const web = await listen(handler, { port: 0, logger: false });
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const open = async () => {
    const init = await fetch(web.url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: CLIENT_INFO } }) });
    await init.text();
    const session = init.headers.get('mcp-session-id')!;
    const done = await fetch(web.url, { method: 'POST', headers: { ...headers, 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' }, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
    await done.text();
  };
  try {
    await open();
    const before = await settledHeap();
    for (let i = 0; i < SESSIONS; i++) await open();
    const after = await settledHeap();
    return { sessions: handler.sessionCount, kb: (after - before) / SESSIONS / 1024 };
  } finally {
    await web.close();
  }
}

/**
 * The 2026-07-28 era has no session: what an idle client holds on a server is its listen stream
 * (`subscriptions/listen` for list changes, open while it is connected). N of them opened with
 * bare fetch, the acknowledgment read and the stream held; the heap after GC per stream. The
 * figure includes the fetch side of each held stream (undici's, in this process), the same on
 * both servers, so their difference is what the gateway adds.
 */
async function idleListenHeap(server: McpServer): Promise<{ streams: number; kb: number }> {
  const web = await listen(createStreamableHttpHandler(server.server), { port: 0, logger: false });
  const stop = new AbortController();
  const held: ReadableStreamDefaultReader<Uint8Array>[] = [];
  let id = 0;
  const open = async () => {
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': CLIENT_INFO };
    const res = await fetch(web.url, {
      method: 'POST',
      signal: stop.signal,
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'subscriptions/listen' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'subscriptions/listen', params: { notifications: { toolsListChanged: true }, _meta: meta } }),
    });
    const reader = res.body!.getReader();
    const first = await reader.read();
    if (!new TextDecoder().decode(first.value).includes('notifications/subscriptions/acknowledged')) throw new Error(`listen was not acknowledged: ${res.status}`);
    held.push(reader);
  };
  try {
    await open();
    const before = await settledHeap();
    for (let i = 0; i < SESSIONS; i++) await open();
    const after = await settledHeap();
    return { streams: held.length, kb: (after - before) / SESSIONS / 1024 };
  } finally {
    stop.abort();
    await web.close();
  }
}

/**
 * The heap an idle downstream session costs: on the echo server alone (what any server of ours
 * costs per session, the legacy HTTP session's share) and on a gateway in front of it, shared and
 * perSession (an idle session has started no upstream of its own yet); the difference is what
 * the gateway adds.
 */
async function idleMemory(): Promise<void> {
  const up = await upstream();
  try {
    // Once untimed first: the first sessions of a process also pay for code and caches made once.
    await idleHeap(createOursServer());
    const plain = await idleHeap(createOursServer());
    console.log(`idle downstream sessions (legacy): echo server alone ${plain.kb.toFixed(1)} KB each (${plain.sessions} open, heap after GC)`);
    await idleListenHeap(createOursServer());
    const plainListen = await idleListenHeap(createOursServer());
    console.log(`idle downstream listen streams (2026-07-28): echo server alone ${plainListen.kb.toFixed(1)} KB each (${plainListen.streams} open, heap after GC, the fetch side included)`);
    for (const upstreams of ['shared', 'perSession'] as const) {
      const gw = createGateway({ servers: { u: { url: up.url } }, upstreams });
      await gw.start();
      try {
        const r = await idleHeap(gw.server);
        console.log(`idle downstream sessions (legacy): gateway (${upstreams}) ${r.kb.toFixed(1)} KB each (${r.sessions} open; ${(r.kb - plain.kb).toFixed(1)} KB more than the echo server's)`);
        const l = await idleListenHeap(gw.server);
        console.log(`idle downstream listen streams (2026-07-28): gateway (${upstreams}) ${l.kb.toFixed(1)} KB each (${l.streams} open; ${(l.kb - plainListen.kb).toFixed(1)} KB more than the echo server's)`);
      } finally {
        await gw.close();
      }
    }
  } finally {
    up.child.kill();
  }
}

await latency();
if (process.env.GATEWAY_IN_PROCESS !== 'no') await inProcess();
if (SESSIONS > 0) await idleMemory();
