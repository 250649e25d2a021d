import { expect } from 'chai';
import { firstValueFrom, filter, take, toArray } from 'rxjs';
import { ManualClock } from '../../lib/clock.js';
import { connectRedis, type RedisClient } from '../../lib/redis/redis-connection.js';
import { RedisHttpSessions } from '../../lib/redis/http-sessions.js';
import { PROCESS_ENDED_MESSAGE } from '../../lib/redis/stream-event-store.js';
import type { Follow, SessionRecord } from '../../lib/server-bindings/http-cluster.js';
import { startRedis, type RunningRedis } from '../../scripts/real-parts/redis-server.js';

/** Poll `check` until it holds (real time: Redis works in real time), or fail after `ms`. */
async function eventually(check: () => boolean | Promise<boolean>, ms = 3000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

function record(over: Partial<SessionRecord> = {}): SessionRecord {
  return {
    tag: 't1',
    identity: null,
    revision: '2025-11-25',
    clientCapabilities: { elicitation: {} },
    clientInfo: { name: 'c', version: '1' },
    serverCapabilities: { tools: { listChanged: true }, resources: { subscribe: true }, logging: {} },
    logLevel: null,
    initialized: true,
    standaloneOpened: false,
    standaloneSeq: 0,
    ...over,
  };
}

/** Collects what a follow delivers. */
function collect(f: Follow): { events: [number, string][]; ended: boolean } {
  const out = { events: f.backlog.map((e) => [e.seq, e.data] as [number, string]), ended: f.ended };
  f.start({ event: (seq, data) => out.events.push([seq, data]), end: () => (out.ended = true) });
  return out;
}

describe('Redis HTTP sessions (the store behind many processes; a real redis-server)', function () {
  this.timeout(20_000);
  let redis: RunningRedis;
  const clients: RedisClient[] = [];
  const stores: RedisHttpSessions[] = [];
  let n = 0;

  before(async () => {
    redis = await startRedis();
  });
  after(async () => {
    await Promise.all(stores.map((s) => s.close()));
    await Promise.all(clients.map((c) => c.quit().catch(() => undefined)));
    await redis.stop();
  });

  /** A "process": its own connection and store, all of one test on one prefix. */
  async function processes(count: number, options: { clock?: ManualClock } = {}): Promise<RedisHttpSessions[]> {
    const prefix = `t${++n}`;
    const out: RedisHttpSessions[] = [];
    for (let i = 0; i < count; i++) {
      const client = await connectRedis(redis.url);
      clients.push(client);
      const s = await RedisHttpSessions.create(client, { prefix, ...(options.clock && { clock: options.clock }) });
      stores.push(s);
      out.push(s);
    }
    return out;
  }

  it('a session created by one process is read by another; stream numbers are unique across processes', async () => {
    const [a, b] = await processes(2);
    await a.create('s1', record({ identity: 'alice' }), 60_000);
    const touched = await b.touch('s1', 60_000, { stream: true });
    expect(touched?.record).to.deep.include({ tag: 't1', identity: 'alice', revision: '2025-11-25', initialized: true });
    expect(touched?.record.clientCapabilities).to.deep.equal({ elicitation: {} });
    const numbers = await Promise.all([a, b, a, b].map((p) => p.touch('s1', 60_000, { stream: true }).then((t) => t!.streamNo)));
    expect(new Set([touched!.streamNo, ...numbers]).size).to.equal(5);
    expect(await b.touch('nope', 60_000)).to.equal(undefined);
  });

  it('a session expires everywhere at once when no process renews it (its TTL is in Redis)', async () => {
    const [a, b] = await processes(2);
    await a.create('s1', record(), 150);
    expect(await b.touch('s1', 150)).to.not.equal(undefined);
    await a.appendStandalone('s1', 'x');
    // Watched without renewing it (a touch would).
    await eventually(async () => (await clients[0]!.exists([a.keys.session('s1'), a.keys.events('s1', '0')])) === 0);
    expect(await a.touch('s1', 150)).to.equal(undefined);
    expect(await b.touch('s1', 150)).to.equal(undefined);
  });

  it('the standalone stream: messages appended by any process reach a follower elsewhere once each, in order, after its last event', async () => {
    const [a, b, c] = await processes(3);
    await a.create('s1', record(), 60_000);
    await a.appendStandalone('s1', 'early-1');
    await b.appendStandalone('s1', 'early-2');
    // The client saw event 1 only: it follows from there on process C.
    const follow = (await c.follow('s1', '0', 1))!;
    const got = collect(follow);
    const sends: Promise<void>[] = [];
    for (let i = 0; i < 50; i++) sends.push((i % 2 ? a : b).appendStandalone('s1', `live-${i}`));
    await Promise.all(sends);
    await eventually(() => got.events.length === 51);
    expect(got.events.map(([seq]) => seq)).to.deep.equal(Array.from({ length: 51 }, (_, i) => i + 2));
    expect(got.events[0]![1]).to.equal('early-2');
    follow.close();
    expect(c.following).to.equal(0);
  });

  it('a follower that starts while the previous one of the same stream is still unsubscribing hears what comes (node-redis drops listeners added then)', async () => {
    const [a] = await processes(1);
    await a.create('s1', record(), 60_000);
    for (let i = 1; i <= 20; i++) {
      const before = (await a.follow('s1', '0', i - 1))!;
      // Closed and followed again at once: the UNSUBSCRIBE is not answered yet when the SUBSCRIBE goes.
      before.close();
      const follow = (await a.follow('s1', '0', i - 1))!;
      const got = collect(follow);
      await a.appendStandalone('s1', `m${i}`);
      await eventually(() => got.events.length === 1, 2000);
      expect(got.events[0]).to.deep.equal([i, `m${i}`]);
      follow.close();
    }
  });

  it('a request stream written by its process is followed elsewhere to its end; an unknown stream is undefined', async () => {
    const [a, b] = await processes(2);
    await a.create('s1', record(), 60_000);
    await a.events.streamOpened('s1', '3', [7]);
    await a.events.append('s1', '3', 1, '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}');
    const follow = (await b.follow('s1', '3', 0))!;
    const got = collect(follow);
    await a.events.append('s1', '3', 2, '{"jsonrpc":"2.0","id":7,"result":{}}');
    await a.events.streamEnded('s1', '3', 2);
    await eventually(() => got.ended);
    expect(got.events.map(([seq]) => seq)).to.deep.equal([1, 2]);
    const again = (await b.follow('s1', '3', 2))!;
    expect(again.ended).to.equal(true);
    expect(again.backlog).to.deep.equal([]);
    expect(await b.follow('s1', '9', 0)).to.equal(undefined);
  });

  it('a request stream whose process died ends with a JSON-RPC error for each unanswered request once its lease runs out (on the clock)', async () => {
    const clock = new ManualClock(1_000_000);
    const [a, b] = await processes(2, { clock });
    await a.create('s1', record(), 60_000);
    await b.events.streamOpened('s1', '1', [5, 'x']);
    await b.events.append('s1', '1', 1, '{"jsonrpc":"2.0","id":"x","result":{}}');
    await b.kill();
    const follow = (await a.follow('s1', '1', 1))!;
    const got = collect(follow);
    // The lease still runs: nothing more comes, the stream stays open.
    clock.advance(1000);
    await new Promise((r) => setTimeout(r, 50));
    expect(got.events).to.deep.equal([]);
    expect(got.ended).to.equal(false);
    // Past the lease: the next heartbeat finds the owner dead.
    clock.advance(3000);
    await eventually(() => got.ended);
    expect(got.events).to.have.length(1);
    const error = JSON.parse(got.events[0]![1]) as { id: unknown; error: { code: number; message: string } };
    expect(error.id).to.equal(5);
    expect(error.error.code).to.equal(-32603);
    expect(error.error.message).to.equal(PROCESS_ENDED_MESSAGE);
    // Whoever resumes later gets the same end.
    const later = (await a.follow('s1', '1', 0))!;
    expect(later.ended).to.equal(true);
    expect(later.backlog.map((e) => e.seq)).to.deep.equal([1, 2]);
  });

  it('fan-outs: each concerned session gets one copy, whichever process sends it; gone sessions none', async () => {
    const [a, b] = await processes(2);
    await a.create('s1', record(), 60_000);
    await a.create('s2', record({ serverCapabilities: { logging: {} }, logLevel: 'error' }), 60_000);
    await a.create('gone', record(), 60_000);
    await b.end('gone');
    const f1 = collect((await a.follow('s1', '0', 0))!);
    const f2 = collect((await b.follow('s2', '0', 0))!);
    // The shared view needs a replica to name the session.
    const fake = {} as never;
    a.bind(fake, 's1', record());
    await a.subscribe(fake, 'file:///x', 10);
    b.listChanged('tools');
    a.resourceUpdated('file:///x');
    a.resourceUpdated('file:///not-subscribed');
    b.log('info', { level: 'info', data: 'hello' }, { requireAccess: false, defaultLevel: 'debug' });
    b.log('error', { level: 'error', data: 'bad' }, { requireAccess: false, defaultLevel: 'debug' });
    await eventually(() => f1.events.length === 4 && f2.events.length === 1);
    await new Promise((r) => setTimeout(r, 50));
    const methods = (f: typeof f1) => f.events.map(([, d]) => (JSON.parse(d) as { method: string; params?: { data?: unknown } }).method);
    // Two processes wrote: each one's own messages are in order, the two interleave.
    expect(methods(f1).sort()).to.deep.equal(['notifications/message', 'notifications/message', 'notifications/resources/updated', 'notifications/tools/list_changed']);
    expect(methods(f2)).to.deep.equal(['notifications/message']);
    expect(JSON.parse(f2.events[0]![1]).params.data).to.equal('bad');
  });

  it('with a log access rule, server-wide log messages reach only the sessions it admitted', async () => {
    const [a] = await processes(1);
    const follows: ReturnType<typeof collect>[] = [];
    for (const [id, allowed] of [['in', true], ['out', false], ['unknown', undefined]] as const) {
      await a.create(id, record(), 60_000);
      const copy = {} as never;
      a.bind(copy, id, record());
      if (allowed !== undefined) a.setLogAccess(copy, allowed);
      follows.push(collect((await a.follow(id, '0', 0))!));
    }
    await new Promise((r) => setTimeout(r, 50));
    a.log('info', { level: 'info', data: 'for operators' }, { requireAccess: true, defaultLevel: 'debug' });
    await eventually(() => follows[0]!.events.length === 1);
    await new Promise((r) => setTimeout(r, 50));
    expect(follows.map((f) => f.events.length)).to.deep.equal([1, 0, 0]);
  });

  it('routes a frame to one process, broadcasts to the others, and an end reaches every process', async () => {
    const [a, b, c] = await processes(3);
    await a.create('s1', record(), 60_000);
    const atB = firstValueFrom(b.messages$.pipe(take(2), toArray()));
    const atC = firstValueFrom(c.messages$.pipe(filter((m) => m.kind === 'ended')));
    a.route(b.processId, 's1', { jsonrpc: '2.0', id: `${b.processId}.1`, result: {} });
    await a.end('s1');
    expect(await atB).to.deep.equal([
      { kind: 'frame', sessionId: 's1', frame: { jsonrpc: '2.0', id: `${b.processId}.1`, result: {} }, from: a.processId },
      { kind: 'ended', sessionId: 's1' },
    ]);
    expect(await atC).to.deep.equal({ kind: 'ended', sessionId: 's1' });
    expect(await b.touch('s1', 60_000)).to.equal(undefined);
  });
});
