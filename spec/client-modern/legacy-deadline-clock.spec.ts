// A legacy (initialize) client on the system clock runs its session's timers through the same
// deadline queue as the 2026-07-28 link (lib/client-era/deadline-clock.ts): every timer of that
// session goes there, so each kind must behave as it did on Node's timers. Timing is checked on a
// simulated clock below the queue; the Node-timer count on the real one.
import { expect } from 'chai';
import { ManualClock } from '../../lib/clock.js';
import { DeadlineClock, type BaseTimers } from '../../lib/client-era/deadline-clock.js';
import { Client } from '../../lib/entries/client.js';
import { RequestCancelledError, RequestTimeoutError } from '../../lib/errors.js';
import { CLIENT_INFO, RawPeer, SERVER_INFO, settle } from '../helpers/raw-peer.js';

/** A legacy client connected to a raw peer that answered initialize. */
async function connected(options: Partial<ConstructorParameters<typeof Client>[0]> = {}) {
  const peer = new RawPeer();
  const client = new Client({ era: 'legacy', info: CLIENT_INFO, ...options });
  const connecting = client.connect(peer.transport);
  const init = await peer.next((f) => f.method === 'initialize');
  peer.send({ jsonrpc: '2.0', id: init.id, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: SERVER_INFO } });
  await connecting;
  return { peer, client };
}

/** A DeadlineClock over a simulated clock (as the client makes one over the system clock). */
function queueOverManual() {
  const manual = new ManualClock(0);
  const base: BaseTimers = {
    now: () => manual.now(),
    setTimeout: (fn, ms) => manual.setTimeout(fn, ms),
    clearTimeout: (h) => manual.clearTimeout(h as number),
  };
  return { manual, clock: new DeadlineClock(base) };
}

const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

describe('legacy client: session timers as deadlines (system clock)', () => {
  it('200 calls waiting hold at most one more Node timer; answered, none keeps the process alive; a timeout still ends a call', async () => {
    const { peer, client } = await connected();
    const before = timers();
    const calls = Array.from({ length: 200 }, (_, i) => client.callTool('echo', { i }, { timeout: 60_000 }));
    await settle();
    const held = peer.received.filter((f) => f.method === 'tools/call');
    expect(held).to.have.length(200);
    expect(timers()).to.be.at.most(before + 1);
    for (const { id } of held) peer.send({ jsonrpc: '2.0', id, result: { content: [] } });
    await Promise.all(calls);
    expect(timers()).to.equal(before);
    // A short timeout on the real clock (20 ms) still fires through the queue, and the server is told.
    const late = await client.callTool('echo', {}, { timeout: 20 }).then(() => undefined, (e: unknown) => e);
    expect(late).to.be.instanceOf(RequestTimeoutError);
    await settle();
    expect(peer.received.some((f) => f.method === 'notifications/cancelled')).to.equal(true);
    await client.close();
  });

  it('a simulated clock is used as given: its timers, not a queue over the system clock', async () => {
    const manual = new ManualClock(0);
    const { client } = await connected({ clock: manual });
    expect(client.sessionClock).to.equal(manual);
    const call = client.callTool('echo', {}, { timeout: 500 }).then(() => undefined, (e: unknown) => e);
    await settle();
    manual.advance(500);
    expect(await call).to.be.instanceOf(RequestTimeoutError);
    await client.close();
  });

  describe('over the queue, each timer of the session behaves as on its own timer', () => {
    it('progress resets the timeout (resetTimeoutOnProgress); maxTotalTimeout still ends the call', async () => {
      const { manual, clock } = queueOverManual();
      const { peer, client } = await connected({ clock });
      const call = client.request('tools/call', { name: 'slow' }, { timeout: 1000, resetTimeoutOnProgress: true, maxTotalTimeout: 2500, onprogress: () => {} });
      const req = await peer.next((f) => f.method === 'tools/call');
      const token = req.params._meta.progressToken;
      for (let i = 1; i <= 3; i++) {
        manual.advance(800);
        peer.send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: i } });
        await settle();
      }
      // 2400 ms in: three idle timeouts of 1000 ms were each reset before they came due.
      expect(client.pendingRequests).to.equal(1);
      manual.advance(99);
      expect(client.pendingRequests).to.equal(1);
      manual.advance(1);
      const err = (await call.then(() => undefined, (e: unknown) => e)) as RequestTimeoutError;
      expect(err).to.be.instanceOf(RequestTimeoutError);
      expect(err.kind).to.equal('total');
      expect(err.elapsedMs).to.equal(2500);
      expect(clock.pending).to.equal(0);
      await client.close();
    });

    it('without resetTimeoutOnProgress the idle timeout fires at its time; an answered or aborted call leaves no deadline', async () => {
      const { manual, clock } = queueOverManual();
      const { peer, client } = await connected({ clock });
      const answered = client.request('tools/call', { name: 'a' }, { timeout: 1000 });
      const aborter = new AbortController();
      const aborted = client.request('tools/call', { name: 'b' }, { timeout: 1000, signal: aborter.signal }).then(() => undefined, (e: unknown) => e);
      const timed = client.request('tools/call', { name: 'c' }, { timeout: 1000, onprogress: () => {} }).then(() => undefined, (e: unknown) => e);
      await settle();
      const [a, , c] = peer.received.filter((f) => f.method === 'tools/call');
      peer.send({ jsonrpc: '2.0', id: a.id, result: { content: [] } });
      await answered;
      aborter.abort('no longer needed');
      expect(await aborted).to.be.instanceOf(RequestCancelledError);
      manual.advance(900);
      peer.send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: c.params._meta.progressToken, progress: 1 } });
      await settle();
      manual.advance(99);
      expect(client.pendingRequests).to.equal(1);
      manual.advance(1);
      expect(await timed).to.be.instanceOf(RequestTimeoutError);
      expect(clock.pending).to.equal(0);
      await client.close();
    });

    it('keep-alive pings each quiet interval and fails the client when a ping goes unanswered', async () => {
      const { manual, clock } = queueOverManual();
      const { peer, client } = await connected({ clock, keepAlive: { interval: 1000, timeout: 500 } });
      const pings = () => peer.received.filter((f) => f.method === 'ping');
      for (let i = 1; i <= 2; i++) {
        manual.advance(1000);
        await settle();
        expect(pings(), `after ${i} s`).to.have.length(i);
        peer.send({ jsonrpc: '2.0', id: pings()[i - 1].id, result: {} });
        await settle();
      }
      manual.advance(1000);
      await settle();
      expect(pings()).to.have.length(3);
      manual.advance(500);
      await settle();
      expect(client.currentPhase).to.not.equal('operating');
      expect(clock.pending).to.equal(0);
      await client.close();
    });
  });
});
