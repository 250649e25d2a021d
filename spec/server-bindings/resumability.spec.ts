// Resumability and redelivery of the Streamable HTTP server: event ids as per-stream cursors,
// GET with Last-Event-ID, priming events and server-closed streams (SEP-1699), over real sockets.
import { expect } from 'chai';
import { ManualClock } from '../../lib/clock.js';
import { MemoryEventStore } from '../../streams/event-store.js';
import { startFixture, type Fixture } from '../fixtures/http-server/server.js';
import { callTool, getStream, openSession, post, postStream, raw, type SseStream } from '../fixtures/http-server/raw.js';

const h = (sid: string, version = '2025-11-25') => ({ 'mcp-session-id': sid, 'mcp-protocol-version': version });
const lastId = (s: SseStream): string => s.events.filter((e) => e.id !== undefined).at(-1)!.id!;

describe('Streamable HTTP server: resumability', () => {
  let fx: Fixture;
  afterEach(async () => {
    await fx?.close();
  });

  it('[HTTP-024] [HTTP-025] [HTTP-026] replays the rest of a dropped POST stream, response included, and nothing of other streams', async () => {
    fx = await startFixture({ responseMode: 'sse' });
    const sid = await openSession(fx.url);
    const get = await getStream(fx.url, h(sid));
    const s = await postStream(fx.url, callTool(21, 'slow', { steps: 2, gate: true }, 'pt'), h(sid));
    await s.waitForMessages(2);
    const cursor = s.events[1].id!; // after the priming event and the first progress
    s.close();
    await s.done;
    // Unrelated traffic meanwhile: it belongs to the GET stream, never to the replay.
    await post(fx.url, callTool(22, 'announce'), h(sid));
    await post(fx.url, callTool(23, 'release'), h(sid));
    const resumed = await getStream(fx.url, { ...h(sid), 'last-event-id': cursor });
    expect(resumed.status).to.equal(200);
    await resumed.done;
    expect(resumed.messages.map((m) => m.method ?? `response ${m.id}`)).to.deep.equal(['notifications/progress', 'response 21']);
    expect(resumed.messages[0].params.progress).to.equal(2);
    await get.waitForMessages(1);
    expect(get.messages.map((m) => m.method)).to.deep.equal(['notifications/tools/list_changed']);
    // Event ids are unique across the session's streams: one id, one event (a replay repeats both).
    const byId = new Map<string, string>();
    for (const e of [...s.events, ...resumed.events, ...get.events]) {
      if (e.id === undefined) continue;
      if (byId.has(e.id)) expect(byId.get(e.id), e.id).to.equal(e.data);
      byId.set(e.id, e.data);
    }
    expect(resumed.events.every((e) => e.id === undefined || e.id.split('.')[1] === cursor.split('.')[1])).to.equal(true);
    get.close();
  });

  it('resumes a stream that is still going: the replay, then live events, then the response', async () => {
    fx = await startFixture({ responseMode: 'sse' });
    const sid = await openSession(fx.url);
    const s = await postStream(fx.url, callTool(31, 'slow', { steps: 1, gate: true }, 'p'), h(sid));
    await s.waitFor(1); // the priming event
    const cursor = s.events[0].id!;
    expect(s.events[0].data).to.equal('');
    s.close();
    await s.done;
    const resumed = await getStream(fx.url, { ...h(sid), 'last-event-id': cursor });
    await resumed.waitForMessages(1);
    expect(resumed.messages[0].method).to.equal('notifications/progress');
    expect(resumed.ended).to.equal(false);
    await post(fx.url, callTool(32, 'release'), h(sid));
    await resumed.done;
    expect(resumed.messages.map((m) => m.id ?? m.method)).to.deep.equal(['notifications/progress', 31]);
  });

  it('answers a Last-Event-ID of another session, or of no stream, with 400 (not 404: the session is fine)', async () => {
    fx = await startFixture({ responseMode: 'sse' });
    const a = await openSession(fx.url);
    const b = await openSession(fx.url);
    const s = await postStream(fx.url, callTool(1, 'echo', { text: 'x' }), h(a));
    await s.done;
    const foreign = await raw(fx.url, { method: 'GET', headers: { accept: 'text/event-stream', ...h(b), 'last-event-id': lastId(s) } });
    expect(foreign.status).to.equal(400);
    expect(foreign.json.error.message).to.match(/not an event of this session/);
    for (const bogus of ['garbage', '1.2', `${lastId(s).split('.')[0]}.99.1`]) {
      const res = await raw(fx.url, { method: 'GET', headers: { accept: 'text/event-stream', ...h(a), 'last-event-id': bogus } });
      expect(res.status, bogus).to.equal(400);
    }
    // The session itself still works.
    expect((await post(fx.url, callTool(2, 'echo', { text: 'y' }), h(b))).status).to.equal(200);
  });

  it('answers the cursor of a finished stream with nothing left with 204 (SSE: stop reconnecting)', async () => {
    fx = await startFixture({ responseMode: 'sse' });
    const sid = await openSession(fx.url);
    const s = await postStream(fx.url, callTool(1, 'echo', { text: 'x' }), h(sid));
    await s.done;
    const res = await raw(fx.url, { method: 'GET', headers: { accept: 'text/event-stream', ...h(sid), 'last-event-id': lastId(s) } });
    expect(res.status).to.equal(204);
  });

  it('resumes the standalone GET stream from its priming event', async () => {
    fx = await startFixture();
    const sid = await openSession(fx.url);
    const get = await getStream(fx.url, h(sid));
    await get.waitFor(1);
    expect(get.events[0]).to.deep.include({ data: '' });
    const cursor = get.events[0].id!;
    get.close();
    await get.done;
    await post(fx.url, callTool(1, 'announce'), h(sid));
    await post(fx.url, callTool(2, 'announce'), h(sid));
    const resumed = await getStream(fx.url, { ...h(sid), 'last-event-id': cursor });
    await resumed.waitForMessages(2);
    expect(resumed.messages.map((m) => m.method)).to.deep.equal(['notifications/tools/list_changed', 'notifications/tools/list_changed']);
    // Live again: the next one comes straight through.
    await post(fx.url, callTool(3, 'announce'), h(sid));
    await resumed.waitForMessages(3);
    resumed.close();
  });

  it('closes a request stream early on a simulated clock (SEP-1699) and the client polls for the rest', async () => {
    const clock = new ManualClock(0);
    fx = await startFixture({ responseMode: 'sse', closeSseStreamAfterMs: 5000, retryMs: 100, keepAliveMs: false, clock });
    const sid = await openSession(fx.url);
    const s = await postStream(fx.url, callTool(41, 'slow', { steps: 1, gate: true }, 'p'), h(sid));
    await s.waitForMessages(1);
    expect(s.events[0].retry).to.equal(100);
    clock.advance(4999);
    expect(s.ended).to.equal(false);
    clock.advance(1);
    await s.done;
    expect(s.messages.map((m) => m.method)).to.deep.equal(['notifications/progress']);
    await post(fx.url, callTool(42, 'release'), h(sid));
    const poll = await getStream(fx.url, { ...h(sid), 'last-event-id': lastId(s) });
    await poll.done;
    expect(poll.messages).to.deep.equal([{ jsonrpc: '2.0', id: 41, result: { content: [{ type: 'text', text: 'done' }] } }]);
  });

  it('closeSseStream(session, requestId) closes one stream on demand', async () => {
    fx = await startFixture({ responseMode: 'sse' });
    const sid = await openSession(fx.url);
    const s = await postStream(fx.url, callTool(51, 'slow', { steps: 1, gate: true }, 'p'), h(sid));
    await s.waitForMessages(1);
    const session = [...fx.server.sessions][0];
    expect(fx.handler.closeSseStream(session, 51)).to.equal(true);
    await s.done;
    expect(fx.handler.closeSseStream(session, 999)).to.equal(false);
    fx.release();
    const rest = await getStream(fx.url, { ...h(sid), 'last-event-id': lastId(s) });
    await rest.done;
    expect(rest.messages.map((m) => m.id)).to.deep.equal([51]);
  });

  it('without an event store: no ids, no priming, Last-Event-ID → 400', async () => {
    fx = await startFixture({ responseMode: 'sse', eventStore: false });
    const sid = await openSession(fx.url);
    const s = await postStream(fx.url, callTool(1, 'slow', { steps: 1 }, 'p'), h(sid));
    await s.done;
    expect(s.events.every((e) => e.id === undefined)).to.equal(true);
    expect(s.messages).to.have.length(2);
    const res = await raw(fx.url, { method: 'GET', headers: { accept: 'text/event-stream', ...h(sid), 'last-event-id': 'x.1.1' } });
    expect(res.status).to.equal(400);
  });

  it('forgets a session’s events when it ends, and a finished stream’s once delivered', async () => {
    const store = new MemoryEventStore();
    fx = await startFixture({ responseMode: 'sse', eventStore: store });
    const sid = await openSession(fx.url);
    const get = await getStream(fx.url, h(sid));
    const s = await postStream(fx.url, callTool(1, 'slow', { steps: 2 }, 'p'), h(sid));
    await s.done;
    expect(store.size(sid)).to.equal(0);
    await post(fx.url, callTool(2, 'announce'), h(sid));
    await get.waitForMessages(1);
    expect(store.size(sid)).to.equal(1);
    await raw(fx.url, { method: 'DELETE', headers: h(sid) });
    expect(store.sessions).to.equal(0);
    await get.done;
  });
});

describe('MemoryEventStore', () => {
  it('keeps events per stream in order and evicts the oldest beyond its bounds', () => {
    const store = new MemoryEventStore({ maxEventsPerSession: 3, maxCharsPerSession: 100 });
    store.append('s', '1', 1, 'a');
    store.append('s', '2', 1, 'b');
    store.append('s', '1', 2, 'c');
    expect(store.after('s', '1', 0)).to.deep.equal([
      { seq: 1, data: 'a' },
      { seq: 2, data: 'c' },
    ]);
    expect(store.after('s', '1', 1)).to.deep.equal([{ seq: 2, data: 'c' }]);
    store.append('s', '1', 3, 'd');
    expect(store.size('s')).to.equal(3);
    expect(store.after('s', '1', 0).map((e) => e.data)).to.deep.equal(['c', 'd']);
    store.append('s', '3', 1, 'x'.repeat(99));
    expect(store.size('s')).to.equal(2);
    expect(store.after('s', '1', 0).map((e) => e.data)).to.deep.equal(['d']);
    expect(store.after('other', '1', 0)).to.deep.equal([]);
  });

  it('drops a finished stream and compacts what it leaves behind', () => {
    const store = new MemoryEventStore({ maxEventsPerSession: 1000 });
    store.append('s', '0', 1, 'keep');
    for (let n = 1; n <= 200; n++) {
      store.append('s', String(n), 1, 'x');
      store.streamDone('s', String(n));
    }
    expect(store.size('s')).to.equal(1);
    expect(store.after('s', '0', 0)).to.deep.equal([{ seq: 1, data: 'keep' }]);
    store.streamDone('s', '0');
    expect(store.sessions).to.equal(0);
  });
});
