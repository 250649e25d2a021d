/**
 * Figures for many processes serving one deployment on Redis (issue 13), all on this machine:
 *
 * 1. Throughput: `tools/call` per second from concurrent sessions, 3 processes behind HAProxy
 *    against 1 process behind it, 1 process direct, and 1 process without Redis (in memory).
 * 2. Per-request cost of the Redis path: sequential calls on one session, in memory against
 *    Redis (one store round trip per request), with Redis' own PING round trip for scale.
 * 3. Messages lost over 1,000 SSE cuts through HAProxy: a request stream (10,000 progress
 *    notifications, cut every 10 and resumed with Last-Event-ID, each time on whichever process
 *    HAProxy picks), and the standalone stream (2,000 server log messages, cut every 2).
 * 4. Messages lost over 10 SIGKILLs: the process holding the client's GET stream is killed (and
 *    restarted on its port) ten times while messages are sent; a message counts as sent once the
 *    call that sent it was answered.
 *
 *   npx tsx bench/cluster.ts   (CLUSTER_SECONDS per throughput row, default 4; CLUSTER_SESSIONS, 8;
 *                               CLUSTER_INFLIGHT per session, 4; CLUSTER_ONLY=throughput,cost,cuts,kills)
 *
 * Needs redis-server and haproxy (Debian packages). Numbers are this machine's (2 cores shared by
 * the servers, HAProxy, Redis and the load generator): ratios matter, not absolutes.
 */
import { Agent, request } from 'undici';
import { startHaproxy, type RunningHaproxy } from '../scripts/real-parts/haproxy.js';
import { startRedis, type RunningRedis } from '../scripts/real-parts/redis-server.js';
import { startServerProcess, type ServerProcess } from '../scripts/real-parts/server-process.js';

const SECONDS = Number(process.env.CLUSTER_SECONDS ?? 4);
const SESSIONS = Number(process.env.CLUSTER_SESSIONS ?? 8);
const INFLIGHT = Number(process.env.CLUSTER_INFLIGHT ?? 4);
const ONLY = process.env.CLUSTER_ONLY === undefined ? undefined : new Set(process.env.CLUSTER_ONLY.split(','));
const REV = '2025-11-25';
const SCRIPT = 'bench/servers/cluster-node.ts';
/** Events kept per stream: enough for the whole run (a client far behind loses what was trimmed). */
const RETAINED = 20_000;
const SERVER_ENV = { CLUSTER_MAX_EVENTS: String(RETAINED) };

const agent = new Agent({ keepAliveTimeout: 10_000, connections: 256, pipelining: 1 });
const log = (line: string) => process.stdout.write(line + '\n');

// ------------------------------------------------------------------------------------ raw MCP

interface Answer {
  status: number;
  json: any;
  servedBy: string | undefined;
}

async function postJson(url: string, body: unknown, sid?: string): Promise<Answer> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': REV };
  if (sid !== undefined) headers['mcp-session-id'] = sid;
  const res = await request(url, { method: 'POST', headers, body: JSON.stringify(body), dispatcher: agent });
  const text = await res.body.text();
  const type = String(res.headers['content-type'] ?? '');
  let json: unknown;
  if (type.startsWith('application/json')) json = JSON.parse(text);
  else if (type.startsWith('text/event-stream')) {
    // The last data line is the response.
    const datas = text.split('\n').filter((l) => l.startsWith('data: ') && l.length > 6);
    json = datas.length > 0 ? JSON.parse(datas[datas.length - 1]!.slice(6)) : undefined;
  }
  return { status: res.statusCode, json, servedBy: res.headers['x-served-by'] as string | undefined };
}

async function openSession(url: string): Promise<string> {
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const res = await request(url, {
    method: 'POST',
    headers,
    dispatcher: agent,
    body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: REV, capabilities: {}, clientInfo: { name: 'bench', version: '1' } } }),
  });
  await res.body.text();
  const sid = res.headers['mcp-session-id'];
  if (res.statusCode !== 200 || typeof sid !== 'string') throw new Error(`initialize: ${res.statusCode}`);
  const ack = await postJson(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, sid);
  if (ack.status !== 202) throw new Error(`initialized: ${ack.status}`);
  return sid;
}

let nextId = 1;
const call = (url: string, sid: string, name: string, args: Record<string, unknown>) => postJson(url, { jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { name, arguments: args } }, sid);

// ------------------------------------------------------------------------------------ SSE reading

interface SseEvent {
  id: string | undefined;
  data: string;
}

/**
 * Reads one SSE response: calls `onEvent` per event; resolves when it ends (or is cut).
 * Returns the response's status and x-served-by.
 */
async function readSse(
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
  onEvent: (e: SseEvent, cut: () => void) => void,
  onOpen?: (servedBy: string | undefined) => void,
): Promise<{ status: number; servedBy: string | undefined }> {
  const controller = new AbortController();
  let res;
  try {
    res = await request(url, { ...init, dispatcher: agent, signal: controller.signal });
  } catch {
    return { status: 0, servedBy: undefined };
  }
  const servedBy = res.headers['x-served-by'] as string | undefined;
  if (res.statusCode !== 200) {
    await res.body.text().catch(() => undefined);
    return { status: res.statusCode, servedBy };
  }
  onOpen?.(servedBy);
  let buffer = '';
  let cut = false;
  const doCut = () => {
    cut = true;
    controller.abort();
  };
  try {
    for await (const chunk of res.body) {
      buffer += (chunk as Buffer).toString('utf8');
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end < 0) break;
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        let id: string | undefined;
        const data: string[] = [];
        for (const line of block.split('\n')) {
          if (line.startsWith('id: ')) id = line.slice(4);
          else if (line.startsWith('data: ')) data.push(line.slice(6));
        }
        if (id === undefined && data.length === 0) continue;
        onEvent({ id, data: data.join('\n') }, doCut);
        if (cut) break;
      }
      if (cut) break;
    }
  } catch {
    // Cut by us, or the connection broke: the caller resumes.
  }
  return { status: 200, servedBy };
}

const sseHeaders = (sid: string, last?: string): Record<string, string> => ({
  accept: 'text/event-stream',
  'mcp-session-id': sid,
  'mcp-protocol-version': REV,
  ...(last !== undefined && { 'last-event-id': last }),
});

/** Until `done`, or nothing new arrived for 10 s (then what is missing counts as lost). */
async function settled(done: () => boolean, progress: () => number): Promise<void> {
  let seen = progress();
  let since = Date.now();
  while (!done()) {
    await new Promise((r) => setTimeout(r, 20));
    if (progress() !== seen) {
      seen = progress();
      since = Date.now();
    } else if (Date.now() - since > 10_000) return;
  }
}

// ------------------------------------------------------------------------------------ deployments

interface Deployment {
  url: string;
  redis?: RunningRedis;
  servers: ServerProcess[];
  haproxy?: RunningHaproxy;
  ports: number[];
  stop(): Promise<void>;
}

async function deploy(options: { processes: number; redis: boolean; haproxy: boolean }): Promise<Deployment> {
  const redis = options.redis ? await startRedis() : undefined;
  // Each process listens on port 0 and says its port: nothing is probed first, so no other
  // process can take a port between the probe and the bind.
  const servers = await Promise.all(
    Array.from({ length: options.processes }, () => startServerProcess({ script: SCRIPT, env: SERVER_ENV, ...(redis && { redisUrl: redis.url }) })),
  );
  const ports = servers.map((s) => s.port);
  const haproxy = options.haproxy ? await startHaproxy({ backends: ports }) : undefined;
  return {
    url: haproxy ? `${haproxy.url}/mcp` : servers[0]!.url,
    ...(redis && { redis }),
    servers,
    ...(haproxy && { haproxy }),
    ports,
    stop: async () => {
      await haproxy?.stop();
      await Promise.all(servers.map((s) => s.stop()));
      await redis?.stop();
    },
  };
}

// ------------------------------------------------------------------------------------ 1. throughput

interface Rate {
  rps: number;
  p50: number;
  p99: number;
  /** Failed calls by HTTP status (0: no answer). */
  errors: Map<number, number>;
}

async function throughput(url: string): Promise<Rate> {
  const sids = await Promise.all(Array.from({ length: SESSIONS }, () => openSession(url)));
  // Warm-up.
  await Promise.all(sids.map((sid) => call(url, sid, 'echo', { text: 'warm' })));
  const latencies: number[] = [];
  const errors = new Map<number, number>();
  const deadline = performance.now() + SECONDS * 1000;
  const worker = async (sid: string) => {
    while (performance.now() < deadline) {
      const t = performance.now();
      const a = await call(url, sid, 'echo', { text: 'hello' });
      if (a.status !== 200 || a.json?.result?.content?.[0]?.text !== 'hello') errors.set(a.status, (errors.get(a.status) ?? 0) + 1);
      latencies.push(performance.now() - t);
    }
  };
  const start = performance.now();
  await Promise.all(sids.flatMap((sid) => Array.from({ length: INFLIGHT }, () => worker(sid))));
  const elapsed = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  return { rps: latencies.length / elapsed, p50: latencies[Math.floor(latencies.length * 0.5)]!, p99: latencies[Math.floor(latencies.length * 0.99)]!, errors };
}

const ROUNDS = Number(process.env.CLUSTER_ROUNDS ?? 3);

async function throughputFigures(): Promise<void> {
  log(`== 1. throughput: ${SESSIONS} sessions x ${INFLIGHT} calls in flight, ${SECONDS} s per row (tools/call echo), median of ${ROUNDS} interleaved rounds`);
  const configs = [
    ['1 process, in memory, direct', { processes: 1, redis: false, haproxy: false }],
    ['1 process, Redis, direct', { processes: 1, redis: true, haproxy: false }],
    ['1 process, Redis, behind HAProxy', { processes: 1, redis: true, haproxy: true }],
    ['3 processes, Redis, behind HAProxy', { processes: 3, redis: true, haproxy: true }],
  ] as const;
  // All deployed at once, measured in turn, round after round: a load spike on this shared
  // machine then hits every row alike.
  const deployments = [];
  for (const [, options] of configs) deployments.push(await deploy(options));
  const runs: Rate[][] = configs.map(() => []);
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, d] of deployments.entries()) runs[i]!.push(await throughput(d.url));
    }
  } finally {
    await Promise.all(deployments.map((d) => d.stop()));
  }
  const median = (rs: Rate[]) => [...rs].sort((a, b) => a.rps - b.rps)[Math.floor(rs.length / 2)]!;
  const rows = runs.map(median);
  const base = rows[0]!.rps;
  for (const [i, r] of rows.entries()) {
    const errors = [...runs[i]!.flatMap((x) => [...x.errors])].map(([status, n]) => `${n}x ${status}`).join(', ');
    log(`   ${configs[i]![0].padEnd(38)} ${r.rps.toFixed(0).padStart(6)} calls/s  p50 ${r.p50.toFixed(2)} ms  p99 ${r.p99.toFixed(2)} ms  ${(r.rps / base).toFixed(2)}x${errors ? `  errors: ${errors}` : ''}`);
  }
}

// ------------------------------------------------------------------------------------ 2. cost per request

async function costFigures(): Promise<void> {
  const N = 2000;
  log(`== 2. per-request cost: ${N} sequential tools/call on one session, one process, direct; median of ${ROUNDS} interleaved rounds`);
  const memory = await deploy({ processes: 1, redis: false, haproxy: false });
  const redis = await deploy({ processes: 1, redis: true, haproxy: false });
  const { connectRedis } = await import('../lib/redis/redis-connection.js');
  const c = await connectRedis(redis.redis!.url);
  const times: [number[], number[], number[]] = [[], [], []];
  try {
    const sids = [await openSession(memory.url), await openSession(redis.url)];
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, d] of [memory, redis].entries()) {
        for (let k = 0; k < 200; k++) await call(d.url, sids[i]!, 'echo', { text: 'warm' });
        const t = performance.now();
        for (let k = 0; k < N; k++) await call(d.url, sids[i]!, 'echo', { text: 'x' });
        times[i]!.push(((performance.now() - t) * 1000) / N);
      }
      const p = performance.now();
      for (let k = 0; k < N; k++) await c.ping();
      times[2].push(((performance.now() - p) * 1000) / N);
    }
  } finally {
    await c.quit();
    await memory.stop();
    await redis.stop();
  }
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const [m, r, ping] = times.map(med) as [number, number, number];
  log(`   in memory                    ${m.toFixed(0).padStart(5)} us per request`);
  log(`   Redis store                  ${r.toFixed(0).padStart(5)} us per request`);
  log(`   (a Redis PING round trip)    ${ping.toFixed(0).padStart(5)} us`);
  log(`   the Redis path adds ${(r - m).toFixed(0)} us per request (${(r / m).toFixed(2)}x): one touch (a Lua script: renew the TTL, read the record) before serving`);
}

// ------------------------------------------------------------------------------------ 3. SSE cuts

async function requestStreamCuts(d: Deployment, messages: number, every: number): Promise<{ cuts: number; received: number; unique: number; lost: number; processes: Set<string>; answered: boolean }> {
  const sid = await openSession(d.url);
  const seen: number[] = [];
  let last: string | undefined;
  let answered = false;
  let cuts = 0;
  let sinceCut = 0;
  const processes = new Set<string>();
  const onEvent = (e: SseEvent, cut: () => void) => {
    if (e.id !== undefined) last = e.id;
    if (e.data === '') return;
    const m = JSON.parse(e.data) as { method?: string; params?: { progress: number }; id?: unknown };
    if (m.method === 'notifications/progress') seen.push(m.params!.progress);
    else if (m.id !== undefined) answered = true;
    if (++sinceCut >= every && !answered) {
      sinceCut = 0;
      cuts++;
      cut();
    }
  };
  const first = await readSse(
    d.url,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sid, 'mcp-protocol-version': REV },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'burst', method: 'tools/call', params: { name: 'burst', arguments: { count: messages }, _meta: { progressToken: 'p' } } }),
    },
    onEvent,
  );
  if (first.servedBy) processes.add(first.servedBy);
  while (!answered) {
    const r = await readSse(d.url, { method: 'GET', headers: sseHeaders(sid, last) }, onEvent);
    if (r.servedBy) processes.add(r.servedBy);
    if (r.status !== 200) throw new Error(`resumption answered ${r.status}`);
  }
  const unique = new Set(seen).size;
  return { cuts, received: seen.length, unique, lost: messages - unique, processes, answered };
}

async function standaloneCuts(d: Deployment, messages: number, every: number): Promise<{ cuts: number; received: number; unique: number; lost: number; processes: Set<string> }> {
  const sid = await openSession(d.url);
  const seen: number[] = [];
  let last: string | undefined;
  let cuts = 0;
  let sinceCut = 0;
  let done = false;
  const processes = new Set<string>();
  const reader = (async () => {
    while (!done || new Set(seen).size < messages) {
      const r = await readSse(d.url, { method: 'GET', headers: sseHeaders(sid, last) }, (e, cut) => {
        if (e.id !== undefined) last = e.id;
        if (e.data === '') return;
        const m = JSON.parse(e.data) as { method?: string; params?: { data: { n: number } } };
        if (m.method === 'notifications/message') seen.push(m.params!.data.n);
        if (++sinceCut >= every) {
          sinceCut = 0;
          cuts++;
          cut();
        }
      });
      if (r.servedBy) processes.add(r.servedBy);
      if (done && new Set(seen).size >= messages) break;
    }
  })();
  // The first GET must be open before anything is sent (a fresh stream starts at "now").
  while (last === undefined) await new Promise((r) => setTimeout(r, 5));
  for (let n = 1; n <= messages; n++) {
    const a = await call(d.url, sid, 'tick', { n });
    if (a.status !== 200) throw new Error(`tick ${n}: ${a.status}`);
  }
  done = true;
  await settled(() => new Set(seen).size >= messages, () => seen.length);
  void reader;
  const unique = new Set(seen).size;

  return { cuts, received: seen.length, unique, lost: messages - unique, processes };
}

async function cutFigures(): Promise<void> {
  log('== 3. SSE cuts through HAProxy (3 processes on Redis), each resumption on whichever process HAProxy picks');
  const d = await deploy({ processes: 3, redis: true, haproxy: true });
  try {
    const r = await requestStreamCuts(d, 10_000, 10);
    log(`   request stream: ${r.cuts} cuts, 10000 messages sent, ${r.unique} received (${r.received - r.unique} duplicates), lost ${r.lost}; answered ${r.answered}; served by ${[...r.processes].sort().join(', ')}`);
    const s = await standaloneCuts(d, 2_000, 2);
    log(`   standalone stream: ${s.cuts} cuts, 2000 messages sent, ${s.unique} received (${s.received - s.unique} duplicates), lost ${s.lost}; served by ${[...s.processes].sort().join(', ')}`);
  } finally {
    await d.stop();
  }
}

// ------------------------------------------------------------------------------------ 4. SIGKILLs

async function killFigures(kills = 10): Promise<void> {
  log(`== 4. ${kills} SIGKILLs of the process holding the client's GET stream (restarted on its port), messages sent meanwhile`);
  const d = await deploy({ processes: 3, redis: true, haproxy: true });
  try {
    const sid = await openSession(d.url);
    const received: number[] = [];
    const confirmed = new Set<number>();
    let unconfirmed = 0;
    let last: string | undefined;
    let holder: string | undefined;
    let stop = false;
    let reconnects = 0;
    const reader = (async () => {
      while (!stop) {
        await readSse(
          d.url,
          { method: 'GET', headers: sseHeaders(sid, last) },
          (e) => {
            if (e.id !== undefined) last = e.id;
            if (e.data === '') return;
            const m = JSON.parse(e.data) as { method?: string; params?: { data: { n: number } } };
            if (m.method === 'notifications/message') received.push(m.params!.data.n);
          },
          (servedBy) => {
            holder = servedBy;
            reconnects++;
          },
        );
        if (!stop) await new Promise((res) => setTimeout(res, 20));
      }
    })();
    while (last === undefined) await new Promise((r) => setTimeout(r, 5));
    let n = 0;
    const producer = (async () => {
      while (!stop) {
        const k = ++n;
        try {
          const a = await call(d.url, sid, 'tick', { n: k });
          if (a.status === 200 && a.json?.result !== undefined) confirmed.add(k);
          else unconfirmed++;
        } catch {
          unconfirmed++;
        }
      }
    })();
    const victims: string[] = [];
    for (let i = 0; i < kills; i++) {
      await new Promise((r) => setTimeout(r, 500));
      const name = holder ?? 's1';
      victims.push(name);
      const index = Number(name.slice(1)) - 1;
      const victim = d.servers[index]!;
      await victim.kill();
      // Back on its port: HAProxy's health check takes it into the rotation again.
      d.servers[index] = await startServerProcess({ script: SCRIPT, port: d.ports[index]!, redisUrl: d.redis!.url, env: SERVER_ENV });
    }
    await new Promise((r) => setTimeout(r, 500));
    stop = true;
    await producer;
    const has = () => {
      const got = new Set(received);
      for (const k of confirmed) if (!got.has(k)) return false;
      return true;
    };
    await settled(has, () => received.length);
    const got = new Set(received);
    const lost = [...confirmed].filter((k) => !got.has(k)).length;
    log(`   ${confirmed.size} messages sent (answered), ${unconfirmed} calls cut by a kill (not counted), ${got.size} received (${received.length - got.size} duplicates), lost ${lost}; ${reconnects} GET connections; killed ${victims.join(' ')}`);
    void reader;
  } finally {
    await d.stop();
  }
}

const started = Date.now();
try {
  if (!ONLY || ONLY.has('throughput')) await throughputFigures();
  if (!ONLY || ONLY.has('cost')) await costFigures();
  if (!ONLY || ONLY.has('cuts')) await cutFigures();
  if (!ONLY || ONLY.has('kills')) await killFigures();
} finally {
  await agent.close();
}
log(`(${((Date.now() - started) / 1000).toFixed(0)} s)`);
process.exit(0);
