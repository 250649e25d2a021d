// Idle expiry of HTTP sessions and SSE keep-alives, on a simulated clock (no sleeps), over real sockets.
import { expect } from 'chai';
import { ManualClock } from '../../lib/clock.js';
import { IDLE_TIMER_NAME } from '../../streams/http-session.js';
import { KEEPALIVE_TIMER_NAME } from '../../streams/http-sse-sink.js';
import { startFixture, type Fixture } from '../fixtures/http-server/server.js';
import { callTool, getStream, openSession, post, raw, stream, until } from '../fixtures/http-server/raw.js';

const h = (sid: string) => ({ 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' });

describe('Streamable HTTP server: timing', () => {
  let fx: Fixture;
  let clock: ManualClock;
  afterEach(async () => {
    await fx?.close();
  });

  describe('idle sessions', () => {
    beforeEach(async () => {
      clock = new ManualClock(0);
      // Timer counts here are the idle queue's alone (hibernation has its own spec: hibernation.spec.ts).
      fx = await startFixture({ sessionIdleTtlMs: 1000, keepAliveMs: false, clock, hibernateAfterMs: false });
    });

    it('[HTTP-031] terminates a session idle for sessionIdleTtlMs (then 404) and closes its ServerSession', async () => {
      const sid = await openSession(fx.url);
      clock.advance(999);
      expect((await post(fx.url, callTool(1, 'echo', { text: 'x' }), h(sid))).status).to.equal(200);
      // That request was activity: the timer started over.
      clock.advance(999);
      expect(fx.handler.sessionCount).to.equal(1);
      clock.advance(1);
      expect(fx.handler.sessionCount).to.equal(0);
      expect((await post(fx.url, callTool(2, 'echo', { text: 'x' }), h(sid))).status).to.equal(404);
      await until(() => fx.server.sessions.size === 0, 'the ServerSession to close');
    });

    it('keeps a session with an open exchange alive; the timer starts when the last one ends', async () => {
      const sid = await openSession(fx.url);
      const get = await getStream(fx.url, h(sid));
      const call = post(fx.url, callTool(1, 'gated'), h(sid));
      await until(() => fx.events.includes('gated started 1'), 'gated to start');
      clock.advance(10_000);
      expect(fx.handler.sessionCount).to.equal(1);
      fx.release();
      expect((await call).status).to.equal(200);
      clock.advance(10_000);
      expect(fx.handler.sessionCount).to.equal(1);
      get.close();
      await get.done;
      await until(() => clock.pending === 1, 'the idle timer');
      clock.fireNamed(IDLE_TIMER_NAME);
      expect(fx.handler.sessionCount).to.equal(0);
    });

    it('one timer for all idle sessions (issue 26), each still ending sessionIdleTtlMs after it went idle; none when none is idle', async () => {
      const first = await openSession(fx.url);
      clock.advance(500);
      const second = await openSession(fx.url);
      expect(clock.pending).to.equal(1);
      clock.advance(500);
      expect(fx.handler.sessionCount).to.equal(1);
      expect((await post(fx.url, callTool(1, 'echo', { text: 'x' }), h(first))).status).to.equal(404);
      clock.advance(499);
      expect(fx.handler.sessionCount).to.equal(1);
      // Activity: the second session goes to the back of the queue, its timer starts over.
      expect((await post(fx.url, callTool(1, 'echo', { text: 'x' }), h(second))).status).to.equal(200);
      clock.advance(999);
      expect(fx.handler.sessionCount).to.equal(1);
      clock.advance(1);
      expect(fx.handler.sessionCount).to.equal(0);
      expect(clock.pending).to.equal(0);
    });
  });

  describe('keep-alive', () => {
    beforeEach(async () => {
      clock = new ManualClock(0);
      fx = await startFixture({ keepAliveMs: 1000, sessionIdleTtlMs: Infinity, clock, legacySse: true, hibernateAfterMs: false });
    });

    it('writes a comment on open streams that were quiet for an interval, with one timer for all', async () => {
      const sid = await openSession(fx.url);
      const a = await getStream(fx.url, h(sid));
      await a.waitFor(1);
      const legacy = await stream(`${fx.origin}/sse`, { headers: { accept: 'text/event-stream' } });
      await legacy.waitFor(1);
      expect(clock.pending).to.equal(1);
      // Freshly opened streams count as active for their first interval.
      clock.advance(1000);
      clock.advance(1000);
      await until(() => a.comments === 1 && legacy.comments === 1, 'keep-alive comments');
      // A stream that carried a message in the interval gets no comment.
      await post(fx.url, callTool(1, 'announce'), h(sid));
      await a.waitForMessages(1);
      clock.advance(1000);
      clock.advance(1000);
      await until(() => legacy.comments === 3, 'legacy comments');
      expect(a.comments).to.equal(2);
      a.close();
      legacy.close();
      await Promise.all([a.done, legacy.done]);
      await until(() => clock.pending === 0, 'the keep-alive timer to stop');
      expect(clock.nextDue()).to.equal(Infinity);
    });

    it('names its timer', async () => {
      const sid = await openSession(fx.url);
      const a = await getStream(fx.url, h(sid));
      await a.waitFor(1);
      expect(clock.fireNamed(KEEPALIVE_TIMER_NAME)).to.equal(true);
      a.close();
      await a.done;
      const res = await raw(fx.url, { method: 'DELETE', headers: h(sid) });
      expect(res.status).to.equal(204);
    });
  });
});
