/**
 * Streamable HTTP drivers: the server runs in a child process (forked, `servers/*-http.ts`), the
 * client in this one, with any number of concurrent sessions (one client each). Ours: our
 * `Client` over `createStreamableHttpClientTransport` (default fetch: the undici Agent adapter).
 * SDK 1.x and v2: their `Client` over their `StreamableHTTPClientTransport` (default fetch: Node's
 * global fetch). Bare (the ceiling): undici `request` on a keep-alive Agent against a plain
 * node:http echo.
 *
 * Also the idle-session memory probe: a fresh server with --expose-gc, sessions opened by raw
 * requests (initialize, then notifications/initialized), server heap and RSS after GC.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as Sdk2Client, StreamableHTTPClientTransport as Sdk2StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Agent, request } from 'undici';
import { Client } from '../lib/entries/client.js';
import { createStreamableHttpClientTransport } from '../streams/streamable-http-client.js';
import {
  CLIENT_INFO,
  TEXT,
  TOOL,
  serverModule,
  type FromHttpServer,
  type HttpMode,
  type IdleResult,
  type ImplName,
  type ServerName,
  type ToHttpServer,
} from './common.js';
import type { Driver } from './drivers.js';
import { bareRequest } from './echo/bare.js';

export interface HttpDriver {
  readonly label: string;
  readonly serverPid: number;
  /** Sessions open now. */
  readonly sessions: number;
  /** Close the open sessions and open `n` new ones. */
  open(n: number): Promise<void>;
  /** One echo call on session `i`; resolves with the echoed text. */
  call(i: number): Promise<string>;
  close(): Promise<void>;
}

const PARAMS = { name: TOOL, arguments: { text: TEXT } };

// ------------------------------------------------------------------ the server child

export interface ServerChild {
  readonly url: string;
  readonly pid: number;
  /** GC the server, then its memory and session count. */
  memory(): Promise<Extract<FromHttpServer, { type: 'memory' }>>;
  close(): Promise<void>;
}

const HTTP_SERVER: Partial<Record<ImplName, ServerName>> = { ours: 'ours-http', sdk1: 'sdk-http', sdk2: 'sdk2-http', bare: 'bare-http' };

/** The 2025-era (sessionful) HTTP server of `impl`, answering in `mode`. */
export function forkHttpServer(impl: ImplName, mode: HttpMode, execArgv: string[] = []): Promise<ServerChild> {
  const name = HTTP_SERVER[impl];
  if (name === undefined) throw new Error(`No http server for ${impl}`);
  return forkServer(name, ['--mode', mode], execArgv);
}

export async function forkServer(name: ServerName, args: string[], execArgv: string[] = []): Promise<ServerChild> {
  const mod = serverModule(name);
  const child: ChildProcess = fork(mod.path, args, { execArgv: [...mod.execArgv, ...execArgv], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  let waiting: ((m: FromHttpServer | Error) => void) | undefined;
  const next = (): Promise<FromHttpServer> =>
    new Promise((resolve, reject) => {
      waiting = (m) => (m instanceof Error ? reject(m) : resolve(m));
    });
  child.on('message', (m: FromHttpServer) => {
    const w = waiting;
    waiting = undefined;
    w?.(m);
  });
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code) => {
      const w = waiting;
      waiting = undefined;
      w?.(new Error(`${name} server exited with code ${code}`));
      resolve();
    }),
  );
  const first = await next();
  if (first.type !== 'listening') throw new Error(`${name}: unexpected ${first.type}`);
  return {
    url: first.url,
    pid: child.pid!,
    async memory() {
      const reply = next();
      child.send({ cmd: 'memory' } satisfies ToHttpServer);
      const m = await reply;
      if (m.type !== 'memory') throw new Error(`${name}: unexpected ${m.type}`);
      return m;
    },
    async close() {
      if (child.exitCode === null && child.connected) child.send({ cmd: 'exit' } satisfies ToHttpServer);
      await exited;
    },
  };
}

// ------------------------------------------------------------------ drivers

/** Our client's era in ab.js's http rows (BENCH_ERA, as for memory and stdio): legacy, modern, or auto (unset). */
const OURS_ERA = process.env.BENCH_ERA as 'legacy' | 'modern' | undefined;

interface SessionOps<S> {
  connect(url: string): Promise<S>;
  call(session: S): Promise<string>;
  disconnect(session: S): Promise<void>;
}

/** Sessions are opened (and closed) 10 at a time. */
async function inBatches<T>(items: T[], size: number, f: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(f));
}

function sessionDriver<S>(label: string, server: ServerChild, ops: SessionOps<S>, shutdown: () => Promise<void> = async () => {}): HttpDriver {
  let open: S[] = [];
  const closeAll = async (): Promise<void> => {
    const old = open;
    open = [];
    await inBatches(old, 10, (s) => ops.disconnect(s));
  };
  return {
    label,
    serverPid: server.pid,
    get sessions() {
      return open.length;
    },
    async open(n) {
      await closeAll();
      const fresh: S[] = new Array<S>(n);
      await inBatches([...fresh.keys()], 10, async (i) => {
        const s = await ops.connect(server.url);
        const text = await ops.call(s);
        if (text !== TEXT) throw new Error(`${label}: echo returned ${JSON.stringify(text)}`);
        fresh[i] = s;
      });
      open = fresh;
    },
    call: (i) => ops.call(open[i]!),
    async close() {
      await closeAll();
      await shutdown();
      await server.close();
    },
  };
}

function oursOps(): SessionOps<Client> {
  return {
    async connect(url) {
      // The era of BENCH_ERA when set (ab.js's `@legacy` / `@modern` tags), as in the `http` rows.
      const client = new Client({ info: CLIENT_INFO, ...(OURS_ERA && { era: OURS_ERA }) });
      await client.connect(createStreamableHttpClientTransport(url));
      return client;
    },
    // The typed API, as the SDK rows use theirs (`callTool`).
    call: (client) => client.callTool(TOOL, PARAMS.arguments).then(textOf),
    disconnect: (client) => client.close(), // sends DELETE
  };
}

function sdkOps(): SessionOps<{ client: SdkClient; transport: StreamableHTTPClientTransport }> {
  return {
    async connect(url) {
      const transport = new StreamableHTTPClientTransport(new URL(url));
      const client = new SdkClient(CLIENT_INFO);
      await client.connect(transport);
      return { client, transport };
    },
    call: (s) => s.client.callTool(PARAMS).then(textOf),
    async disconnect(s) {
      await s.transport.terminateSession(); // DELETE
      await s.client.close();
    },
  };
}

/** SDK v2's client in its default (2025, sessionful) era. */
function sdk2Ops(): SessionOps<{ client: Sdk2Client; transport: Sdk2StreamableHTTPClientTransport }> {
  return {
    async connect(url) {
      const transport = new Sdk2StreamableHTTPClientTransport(new URL(url));
      const client = new Sdk2Client(CLIENT_INFO);
      await client.connect(transport);
      return { client, transport };
    },
    call: (s) => s.client.callTool(PARAMS).then(textOf),
    async disconnect(s) {
      await s.transport.terminateSession(); // DELETE
      await s.client.close();
    },
  };
}

/** The ceiling: undici `request` (the fastest of undici's APIs) on one keep-alive Agent; no sessions. */
function bareOps(mode: HttpMode, agent: Agent): SessionOps<{ url: string; nextId: number }> {
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  return {
    connect: async (url) => ({ url, nextId: 0 }),
    async call(s) {
      const { statusCode, body } = await request(s.url, { method: 'POST', headers, body: bareRequest(s.nextId++, PARAMS), dispatcher: agent });
      let text = await body.text();
      if (statusCode !== 200) throw new Error(`bare: HTTP ${statusCode}`);
      if (mode === 'sse') {
        const start = text.indexOf('data: ') + 6;
        text = text.slice(start, text.indexOf('\n', start));
      }
      return textOf((JSON.parse(text) as { result: unknown }).result);
    },
    disconnect: async () => {},
  };
}

export async function createHttpDriver(impl: ImplName, mode: HttpMode): Promise<HttpDriver> {
  const server = await forkHttpServer(impl, mode);
  switch (impl) {
    case 'ours':
      return sessionDriver(`ours, http ${mode}`, server, oursOps());
    case 'sdk1':
      return sessionDriver(`sdk 1.x, http ${mode}`, server, sdkOps());
    case 'sdk2':
      return sessionDriver(`sdk v2, http ${mode}`, server, sdk2Ops());
    case 'bare': {
      const agent = new Agent({ keepAliveTimeout: 30_000 });
      return sessionDriver(`bare node:http + undici, ${mode}`, server, bareOps(mode, agent), () => agent.close());
    }
    default:
      await server.close();
      throw new Error(`No http driver for ${impl}`);
  }
}

// ------------------------------------------------------------------ one client, any workload


/**
 * One high-level client against its own SDK's server over Streamable HTTP, as a user writes both
 * (default options), for the sequential and pipelined workloads of ab.js's `http` rows:
 * ours: `new Client({ info, era })` (era from BENCH_ERA) over `createStreamableHttpClientTransport(url)`
 * against `createStreamableHttpHandler(server)` (`ours-http --modern`: default options, both eras);
 * sdk1: SDK 1.x `Client` over its `StreamableHTTPClientTransport` against its sessionful server
 * (`mode`: `enableJsonResponse`, the SDK's default is `sse`); sdk2: the SDK v2 `Client` pinned to
 * 2026-07-28 against its `createMcpHandler` (see modern-drivers.ts).
 */
export async function createHttpCallDriver(
  impl: 'ours' | 'sdk1',
  mode: HttpMode,
  { era = OURS_ERA, serverExecArgv = [] }: { era?: 'legacy' | 'modern'; serverExecArgv?: string[] } = {},
): Promise<Driver> {
  const server = impl === 'ours' ? await forkServer('ours-http', ['--modern'], serverExecArgv) : await forkHttpServer(impl, mode, serverExecArgv);
  try {
    let call: () => Promise<string>;
    let disconnect: () => Promise<void>;
    let label: string;
    if (impl === 'ours') {
      const client = new Client({ info: CLIENT_INFO, ...(era && { era }) });
      await client.connect(createStreamableHttpClientTransport(server.url));
      call = () => client.callTool(TOOL, PARAMS.arguments).then(textOf);
      disconnect = () => client.close();
      label = `ours, http (${client.protocolVersion})`;
    } else {
      const s = await sdkOps().connect(server.url);
      call = () => s.client.callTool(PARAMS).then(textOf);
      disconnect = async () => {
        await s.transport.terminateSession();
        await s.client.close();
      };
      label = `sdk 1.x, http ${mode}`;
    }
    const text = await call();
    if (text !== TEXT) throw new Error(`${label}: echo returned ${JSON.stringify(text)}`);
    return {
      label,
      serverPid: server.pid,
      call,
      async close() {
        await disconnect();
        await server.close();
      },
    };
  } catch (e) {
    await server.close();
    throw e;
  }
}

// ------------------------------------------------------------------ idle sessions

/**
 * Opens one session with raw requests: POST initialize, read the result, POST
 * notifications/initialized (202); with `getStream`, also GET the standalone SSE stream and
 * leave it open. Returns the session id.
 */
export async function rawSession(url: string, agent: Agent, getStream: boolean): Promise<string> {
  const accept = 'application/json, text/event-stream';
  const init = await request(url, {
    method: 'POST',
    dispatcher: agent,
    headers: { 'content-type': 'application/json', accept },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: CLIENT_INFO } }),
  });
  const text = await init.body.text();
  const sid = init.headers['mcp-session-id'];
  if (init.statusCode !== 200 || typeof sid !== 'string') throw new Error(`initialize: HTTP ${init.statusCode} ${text.slice(0, 200)}`);
  const json = text.startsWith('{') ? text : text.slice(text.indexOf('data: ') + 6, text.indexOf('\n', text.indexOf('data: ')));
  const version = (JSON.parse(json) as { result: { protocolVersion: string } }).result.protocolVersion;
  const done = await request(url, {
    method: 'POST',
    dispatcher: agent,
    headers: { 'content-type': 'application/json', accept, 'mcp-session-id': sid, 'mcp-protocol-version': version },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  await done.body.text();
  if (done.statusCode !== 202) throw new Error(`notifications/initialized: HTTP ${done.statusCode}`);
  if (getStream) {
    // The standalone SSE stream, left open (its body is never read to the end).
    const get = await request(url, { method: 'GET', dispatcher: agent, headers: { accept: 'text/event-stream', 'mcp-session-id': sid, 'mcp-protocol-version': version } });
    if (get.statusCode !== 200) throw new Error(`GET: HTTP ${get.statusCode}`);
    get.body.on('data', () => {});
  }
  return sid;
}

/**
 * Heap and RSS of a fresh server (answering in `mode`) per idle session: baseline after `warmup`
 * sessions, then `sessions` more; with `getStream`, each session also keeps its GET stream open.
 */
export async function measureIdle(impl: ImplName, sessions: number, warmup: number, mode: HttpMode = 'json', getStream = false): Promise<IdleResult> {
  const server = await forkHttpServer(impl, mode, ['--expose-gc']);
  // With GET streams, each holds a connection of its own.
  const agent = new Agent({ keepAliveTimeout: 30_000, connections: getStream ? null : 10 });
  try {
    const open = async (n: number): Promise<void> => {
      await inBatches([...Array<number>(n).keys()], 10, async () => {
        await rawSession(server.url, agent, getStream);
      });
    };
    // Idle sessions hibernate once quiet for a second (ours; `hibernateAfterMs`): measured as they then stay.
    const quiet = (): Promise<void> => new Promise((r) => setTimeout(r, 1500));
    await open(warmup);
    await quiet();
    const base = await server.memory();
    const t0 = performance.now();
    await open(sessions);
    const openMs = performance.now() - t0;
    await quiet();
    const end = await server.memory();
    if (end.sessions !== warmup + sessions) throw new Error(`${impl}: the server holds ${end.sessions} sessions, expected ${warmup + sessions}`);
    return {
      sessions,
      warmup,
      heapPerSession: (end.heapUsed - base.heapUsed) / sessions,
      rssPerSession: (end.rss - base.rss) / sessions,
      externalPerSession: (end.external - base.external) / sessions,
      heapBase: base.heapUsed,
      heapEnd: end.heapUsed,
      openMs,
      getStream,
    };
  } finally {
    // destroy, not close: close would wait for the GET streams to end.
    await agent.destroy();
    await server.close();
  }
}

function textOf(result: unknown): string {
  const content = (result as { content?: { text?: unknown }[] }).content;
  return String(content?.[0]?.text);
}
