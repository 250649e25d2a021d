// Many processes, one deployment (issue 13): any process serves any request of a session,
// without sticky sessions. Three "processes" in this one (each its own store connections, server
// and port) on a real redis-server; every request goes to the process the test names, as a
// round-robin balancer would send it.
import { expect } from 'chai';
import type { OutgoingHttpHeaders } from 'node:http';
import { ManualClock } from '../../lib/clock.js';
import { connectRedis } from '../../lib/redis/redis-connection.js';
import { PROCESS_ENDED_MESSAGE } from '../../lib/redis/stream-event-store.js';
import { startRedis, type RunningRedis } from '../../scripts/real-parts/redis-server.js';
import { startCluster, type ClusterProcess } from '../fixtures/cluster/in-process.js';
import { callTool, getStream, post, postStream, raw, until, type SseStream } from '../fixtures/http-server/raw.js';

const REV = '2025-11-25';
const h = (sid: string): OutgoingHttpHeaders => ({ 'mcp-session-id': sid, 'mcp-protocol-version': REV });
const lastId = (s: SseStream): string => s.events.filter((e) => e.id !== undefined).at(-1)!.id!;
const settle = () => new Promise((r) => setTimeout(r, 60));

/** initialize on `first`, notifications/initialized on `second`: the session id. */
async function openSession(first: ClusterProcess, second: ClusterProcess): Promise<string> {
  const init = await post(first.url, {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: REV, capabilities: { elicitation: {}, roots: { listChanged: true } }, clientInfo: { name: 'raw', version: '1' } },
  });
  expect(init.status).to.equal(200);
  const sid = init.headers['mcp-session-id'] as string;
  const ack = await post(second.url, { jsonrpc: '2.0', method: 'notifications/initialized' }, h(sid));
  expect(ack.status).to.equal(202);
  return sid;
}

describe('many processes, one deployment on Redis (Streamable HTTP sessions, no sticky sessions)', function () {
  this.timeout(20_000);
  let redis: RunningRedis;
  let procs: ClusterProcess[] = [];
  let n = 0;

  before(async () => {
    redis = await startRedis();
  });
  after(async () => {
    await redis.stop();
  });
  afterEach(async () => {
    await Promise.all(procs.map((p) => p.close()));
    procs = [];
  });

  async function cluster(options: { clock?: ManualClock; idleTtlMs?: number; responseMode?: 'sse' } = {}): Promise<ClusterProcess[]> {
    procs = await startCluster(redis.url, ['a', 'b', 'c'], {
      prefix: `cl${++n}`,
      ...(options.clock && { clock: options.clock }),
      http: {
        ...(options.idleTtlMs !== undefined && { sessionIdleTtlMs: options.idleTtlMs }),
        ...(options.responseMode !== undefined && { responseMode: options.responseMode }),
      },
    });
    return procs;
  }

  it('[HTTP-031] [HTTP-033] any process serves any request of a session; DELETE on one ends it everywhere (a GET stream held by another closes)', async () => {
    const [a, b, c] = await cluster();
    const sid = await openSession(a, b);
    const list = await post(c.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, h(sid));
    expect(list.status).to.equal(200);
    expect(list.json.result.tools.map((t: { name: string }) => t.name)).to.include('ask');
    const where = await post(b.url, callTool(2, 'where'), h(sid));
    expect(where.json.result.content[0].text).to.equal('b');
    const get = await getStream(b.url, h(sid));
    expect(get.status).to.equal(200);
    await get.waitFor(1);
    const del = await raw(c.url, { method: 'DELETE', headers: h(sid) });
    expect(del.status).to.equal(204);
    await get.done;
    expect(get.ended).to.equal(true);
    for (const p of [a, b, c]) expect((await post(p.url, callTool(3, 'where'), h(sid))).status, p.name).to.equal(404);
    expect((await getStream(c.url, h(sid))).status).to.equal(404);
  });

  it('an elicitation asked by a tool on one process is answered by a POST to another (routed to the process that awaits it)', async () => {
    const [a, b] = await cluster();
    // initialized went to b: a's copy, which answered initialize, learns it from the store.
    const sid = await openSession(a, b);
    const call = await postStream(a.url, callTool(7, 'ask'), h(sid));
    await call.waitForMessages(1);
    const ask = call.messages[0];
    expect(ask.method).to.equal('elicitation/create');
    expect(ask.id).to.match(new RegExp(`^${a.store.processId}\\.\\d+$`));
    const answer = await post(b.url, { jsonrpc: '2.0', id: ask.id, result: { action: 'accept', content: { name: 'Ada' } } }, h(sid));
    expect(answer.status).to.equal(202);
    await call.done;
    expect(call.messages.at(-1)).to.deep.include({ id: 7 });
    expect(call.messages.at(-1).result.content[0].text).to.equal('hello Ada from a');
    expect(a.events).to.deep.equal(['answered on a']);
  });

  it('[HTTP-021] [HTTP-023] a resource update made on one process reaches the GET stream held by another once; a list change once', async () => {
    const [a, b, c] = await cluster();
    const sid = await openSession(a, b);
    expect((await post(b.url, { jsonrpc: '2.0', id: 1, method: 'resources/subscribe', params: { uri: 'file:///r' } }, h(sid))).status).to.equal(200);
    // A second GET, on another process, replaces the first: a message goes on one stream only.
    const older = await getStream(b.url, h(sid));
    await older.waitFor(1);
    const get = await getStream(c.url, h(sid));
    await get.waitFor(1);
    await older.done;
    expect((await post(a.url, callTool(2, 'update', { uri: 'file:///r' }), h(sid))).status).to.equal(200);
    expect((await post(c.url, callTool(3, 'update', { uri: 'file:///other' }), h(sid))).status).to.equal(200);
    await get.waitForMessages(1);
    a.mcp.registerTool('new-on-a', { inputSchema: { type: 'object' } }, () => 'x');
    await get.waitForMessages(2);
    await settle();
    expect(get.messages.map((m) => m.method)).to.deep.equal(['notifications/resources/updated', 'notifications/tools/list_changed']);
    expect(get.messages[0].params).to.deep.equal({ uri: 'file:///r' });
    expect(older.messages).to.deep.equal([]);
    // Unsubscribed on another process: no more updates.
    expect((await post(a.url, { jsonrpc: '2.0', id: 4, method: 'resources/unsubscribe', params: { uri: 'file:///r' } }, h(sid))).status).to.equal(200);
    await post(b.url, callTool(5, 'update', { uri: 'file:///r' }), h(sid));
    await settle();
    expect(get.messages).to.have.length(2);
    get.close();
  });

  it('[HTTP-024] [HTTP-025] [HTTP-026] the standalone stream resumes on another process with Last-Event-ID: what was sent meanwhile, then live, once each', async () => {
    const [a, b, c] = await cluster();
    const sid = await openSession(a, b);
    await post(a.url, { jsonrpc: '2.0', id: 1, method: 'resources/subscribe', params: { uri: 'file:///r' } }, h(sid));
    const first = await getStream(c.url, h(sid));
    for (let i = 0; i < 3; i++) await post(a.url, callTool(10 + i, 'update', { uri: 'file:///r' }), h(sid));
    await first.waitForMessages(3);
    const cursor = lastId(first);
    first.close();
    await first.done;
    // Sent while nobody held the stream.
    for (let i = 0; i < 2; i++) await post(b.url, callTool(20 + i, 'update', { uri: 'file:///r' }), h(sid));
    const resumed = await getStream(a.url, { ...h(sid), 'last-event-id': cursor });
    expect(resumed.status).to.equal(200);
    await resumed.waitForMessages(2);
    await post(c.url, callTool(30, 'update', { uri: 'file:///r' }), h(sid));
    await resumed.waitForMessages(3);
    await settle();
    const ids = [...first.events, ...resumed.events].filter((e) => e.data !== '').map((e) => e.id);
    expect(new Set(ids).size).to.equal(6);
    expect(ids.map((id) => Number(id!.split('.')[2]))).to.deep.equal([1, 2, 3, 4, 5, 6]);
    resumed.close();
  });

  it('[HTTP-025] the standalone stream cut 60 times, resumed each time on the next process, while messages keep coming: each arrives once, in order', async () => {
    const procs3 = await cluster();
    const [a, b] = procs3;
    const sid = await openSession(a, b);
    await post(a.url, { jsonrpc: '2.0', id: 1, method: 'resources/subscribe', params: { uri: 'file:///r' } }, h(sid));
    const seqs: number[] = [];
    let cursor: string | undefined;
    let sent = 0;
    for (let cut = 0; cut < 60; cut++) {
      const at = procs3[cut % 3]!;
      const s = await getStream(at.url, cursor === undefined ? h(sid) : { ...h(sid), 'last-event-id': cursor });
      expect(s.status).to.equal(200);
      // Two messages sent from the other processes while this stream is open, then it is cut.
      for (let i = 0; i < 2; i++) await post(procs3[(cut + 1 + i) % 3]!.url, callTool(100 + sent++, 'update', { uri: 'file:///r' }), h(sid));
      await s.waitForMessages(2);
      for (const e of s.events) if (e.data !== '') seqs.push(Number(e.id!.split('.')[2]));
      cursor = lastId(s);
      s.close();
      await s.done;
    }
    expect(seqs).to.deep.equal(Array.from({ length: 120 }, (_, i) => i + 1));
  });

  it('[HTTP-017] a request stream cut on one process resumes on another: the rest, then the response', async () => {
    const [a, b] = await cluster();
    const sid = await openSession(a, b);
    const s = await postStream(a.url, callTool(5, 'progress', { steps: 2 }, 'tok'), h(sid));
    await s.waitForMessages(1);
    const cursor = s.events.filter((e) => e.data !== '')[0]!.id!;
    s.close();
    await s.done;
    const resumed = await getStream(b.url, { ...h(sid), 'last-event-id': cursor });
    await resumed.waitForMessages(1);
    expect(resumed.messages[0].params.progress).to.equal(2);
    await post(a.url, callTool(6, 'release'), h(sid));
    await resumed.done;
    expect(resumed.messages.map((m) => m.id ?? m.method)).to.deep.equal(['notifications/progress', 5]);
    expect(resumed.messages[1].result.content[0].text).to.equal('done on a');
    // Resumed again after its end: nothing more will come.
    expect((await getStream(b.url, { ...h(sid), 'last-event-id': lastId(resumed) })).status).to.equal(204);
  });

  it('an event of a request stream reaches the client only once Redis has it (a process killed after sending it leaves it resumable)', async () => {
    const [a, b] = await cluster({ responseMode: 'sse' });
    const sid = await openSession(a, b);
    const s = await postStream(a.url, callTool(3, 'late', {}, 'tok'), h(sid));
    await s.waitFor(1); // the priming event: the stream is known to the store
    const admin = await connectRedis(redis.url);
    try {
      // Redis holds every write for 400 ms (real time); meanwhile the tool sends its progress.
      await admin.sendCommand(['CLIENT', 'PAUSE', '400', 'WRITE']);
      const paused = Date.now();
      a.release();
      await s.waitForMessages(1);
      expect(Date.now() - paused).to.be.greaterThan(300);
      expect(s.messages[0].method).to.equal('notifications/progress');
      await s.done;
      expect(s.messages.at(-1).result.content[0].text).to.equal('late on a');
    } finally {
      await admin.quit();
    }
  });

  it('a request whose process died: the resumed stream gets what was sent, then a JSON-RPC error once the lease runs out (on the clock)', async () => {
    const clock = new ManualClock(Date.now());
    const [a, b] = await cluster({ clock });
    const sid = await openSession(a, b);
    const s = await postStream(a.url, callTool(9, 'progress', { steps: 2 }, 'tok'), h(sid));
    await s.waitForMessages(1);
    const cursor = s.events.filter((e) => e.data !== '')[0]!.id!;
    await until(() => s.messages.length === 2, 'both progress events');
    await a.kill();
    await s.done;
    const resumed = await getStream(b.url, { ...h(sid), 'last-event-id': cursor });
    await resumed.waitForMessages(1);
    expect(resumed.messages[0].params.progress).to.equal(2);
    // a's lease still runs: the request may yet be answered.
    clock.advance(1000);
    await settle();
    expect(resumed.ended).to.equal(false);
    clock.advance(3000);
    await resumed.done;
    const last = resumed.messages.at(-1);
    expect(last.id).to.equal(9);
    expect(last.error).to.deep.include({ code: -32603, message: PROCESS_ENDED_MESSAGE });
  });

  it('[CANCEL-004] [CANCEL-006] notifications/cancelled POSTed to another process reaches the request where it runs', async () => {
    const [a, b] = await cluster();
    const sid = await openSession(a, b);
    // Its answer would be JSON: the response headers come with the end.
    const pending = postStream(a.url, callTool(4, 'wait'), h(sid));
    await until(() => a.events.includes('waiting'), 'the call');
    const cancel = await post(b.url, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 4, reason: 'changed my mind' } }, h(sid));
    expect(cancel.status).to.equal(202);
    const call = await pending;
    await call.done;
    expect(a.events).to.deep.equal(['waiting', 'aborted']);
    expect(call.messages.filter((m) => m.id === 4)).to.deep.equal([]);
  });

  it('notifications/roots/list_changed POSTed to one process reaches every copy of the session once (their roots caches)', async () => {
    const [a, b, c] = await cluster();
    const sid = await openSession(a, b);
    expect((await post(c.url, callTool(1, 'where'), h(sid))).status).to.equal(200);
    expect((await post(b.url, { jsonrpc: '2.0', method: 'notifications/roots/list_changed' }, h(sid))).status).to.equal(202);
    await until(() => [a, b, c].every((p) => p.events.length > 0), 'every copy');
    await settle();
    expect([a, b, c].map((p) => p.events)).to.deep.equal([['roots changed on a'], ['roots changed on b'], ['roots changed on c']]);
  });

  it("a log level set on one process filters another process's server-wide log messages", async () => {
    const [a, b, c] = await cluster();
    const sid = await openSession(a, b);
    expect((await post(b.url, { jsonrpc: '2.0', id: 1, method: 'logging/setLevel', params: { level: 'error' } }, h(sid))).json.result).to.deep.equal({});
    const get = await getStream(c.url, h(sid));
    await get.waitFor(1);
    await post(a.url, callTool(2, 'broadcast', { level: 'info', text: 'quiet' }), h(sid));
    await post(a.url, callTool(3, 'broadcast', { level: 'error', text: 'loud' }), h(sid));
    await get.waitForMessages(1);
    await settle();
    expect(get.messages.map((m) => m.params.data)).to.deep.equal(['loud']);
    get.close();
  });

  it('[HTTP-031] a session idle everywhere expires everywhere at once (its TTL is in the store)', async () => {
    const [a, b, c] = await cluster({ idleTtlMs: 300 });
    const sid = await openSession(a, b);
    expect((await post(c.url, callTool(1, 'where'), h(sid))).status).to.equal(200);
    // Real time: Redis expires keys on its own clock (bounded wait). The last renewal may come a
    // tick after the answer, later still on a loaded machine: wait well past the TTL.
    await new Promise((r) => setTimeout(r, 800));
    for (const p of [a, b, c]) expect((await post(p.url, callTool(2, 'where'), h(sid))).status, p.name).to.equal(404);
  });

  it('a session with a stream open on one process outlives its idle TTL (that process renews it), then expires once idle', async () => {
    // Renewed every quarter of the TTL: a TTL of 1 s survives an event-loop stall of 750 ms.
    const [a, b, c] = await cluster({ idleTtlMs: 1000 });
    const sid = await openSession(a, b);
    const get = await getStream(c.url, h(sid));
    await get.waitFor(1);
    await new Promise((r) => setTimeout(r, 2200));
    expect((await post(a.url, callTool(1, 'where'), h(sid))).status).to.equal(200);
    get.close();
    await get.done;
    await new Promise((r) => setTimeout(r, 1800));
    expect((await post(b.url, callTool(2, 'where'), h(sid))).status).to.equal(404);
  });

  it('a process that stops gracefully leaves its sessions to the others', async () => {
    const [a, b] = await cluster();
    const sid = await openSession(a, a);
    await a.close();
    const res = await post(b.url, callTool(1, 'where'), h(sid));
    expect(res.status).to.equal(200);
    expect(res.json.result.content[0].text).to.equal('b');
  });
});
