import { expect } from 'chai';
import { createActor, createMachine } from 'xstate';
import { ManualClock } from '../../lib/clock.js';
import { machineConfigJSON } from '../../scripts/export-machines.js';
import { hostServerMachine, restartDelay, DEFAULT_RESTART_OPTIONS, type HostServerInput } from '../../machines/host-server.machine.js';

/** The machine with recording I/O actions, on a ManualClock. */
function run(input: HostServerInput = {}) {
  const clock = new ManualClock();
  const calls: string[] = [];
  const actor = createActor(
    hostServerMachine.provide({
      actions: {
        connect: () => void calls.push('connect'),
        releaseClient: () => void calls.push('release'),
        disconnect: () => void calls.push('disconnect'),
      },
    }),
    { input, clock },
  );
  actor.start();
  const state = () => actor.getSnapshot().value;
  const ctx = () => actor.getSnapshot().context;
  const crash = (sample = 0) => {
    actor.send({ type: 'CRASHED', error: new Error('boom'), sample });
    actor.send({ type: 'RELEASED' });
  };
  return { clock, calls, actor, state, ctx, crash };
}

describe('hostServerMachine', () => {
  it('restartDelay: exponential, capped, jitter takes up to its share off', () => {
    const o = { initialDelayMs: 1000, maxDelayMs: 5000, factor: 2, jitter: 0.5 };
    expect([0, 1, 2, 3, 4].map((a) => restartDelay(o, a, 0))).to.deep.equal([1000, 2000, 4000, 5000, 5000]);
    expect(restartDelay(o, 1, 0.5)).to.equal(1500);
    expect(restartDelay(o, 0, 0.999)).to.be.within(500, 501);
    expect(restartDelay({ ...o, jitter: 0 }, 0, 0.9)).to.equal(1000);
  });

  it('idle → connecting → ready; defaults from DEFAULT_RESTART_OPTIONS', () => {
    const m = run();
    expect(m.state()).to.equal('idle');
    expect(m.ctx()).to.include(DEFAULT_RESTART_OPTIONS);
    m.actor.send({ type: 'START' });
    expect(m.state()).to.equal('connecting');
    expect(m.calls).to.deep.equal(['connect']);
    m.actor.send({ type: 'CONNECTED', protocolVersion: '2025-11-25' });
    expect(m.state()).to.equal('ready');
    expect(m.ctx().protocolVersion).to.equal('2025-11-25');
  });

  it('crash → crashed (release) → waiting the backoff (delayed event "restart") → connecting, attempts counted', () => {
    const m = run({ maxAttempts: 3, initialDelayMs: 1000, factor: 2, jitter: 0.5, maxDelayMs: 60_000 });
    m.actor.send({ type: 'START' });
    m.actor.send({ type: 'CONNECTED' });
    m.actor.send({ type: 'CRASHED', error: new Error('exit 3'), sample: 0.5 });
    expect(m.state()).to.equal('crashed');
    expect(m.calls).to.deep.equal(['connect', 'release']);
    m.actor.send({ type: 'RELEASED' });
    expect(m.state()).to.equal('waiting');
    expect(m.ctx()).to.include({ delayMs: 750, attempts: 0 });
    expect(m.ctx().error?.message).to.equal('exit 3');
    m.clock.advance(749);
    expect(m.state()).to.equal('waiting');
    m.clock.advance(1);
    expect(m.state()).to.equal('connecting');
    expect(m.ctx().attempts).to.equal(1);
    expect(m.calls).to.deep.equal(['connect', 'release', 'connect']);
    // A failed connection is a crash as well; the wait grows.
    m.actor.send({ type: 'CONNECT_FAILED', error: new Error('spawn'), sample: 0 });
    m.actor.send({ type: 'RELEASED' });
    expect(m.ctx()).to.include({ delayMs: 2000, attempts: 1 });
    m.clock.advance(2000);
    m.actor.send({ type: 'CONNECTED' });
    expect(m.state()).to.equal('ready');
    expect(m.ctx().error).to.equal(undefined);
    expect(m.ctx().attempts).to.equal(2);
  });

  it('fails after maxAttempts restarts in a row, keeping the last error', () => {
    const m = run({ maxAttempts: 2, initialDelayMs: 100, jitter: 0 });
    m.actor.send({ type: 'START' });
    for (let i = 0; i < 2; i++) {
      m.actor.send({ type: 'CONNECTED' });
      m.crash();
      expect(m.state()).to.equal('waiting');
      m.clock.advance(m.clock.nextDue() - m.clock.now());
      expect(m.state()).to.equal('connecting');
    }
    m.actor.send({ type: 'CONNECTED' });
    m.actor.send({ type: 'CRASHED', error: new Error('third'), sample: 0 });
    m.actor.send({ type: 'RELEASED' });
    expect(m.state()).to.equal('failed');
    expect(m.actor.getSnapshot().status).to.equal('done');
    expect(m.ctx()).to.include({ attempts: 2 });
    expect(m.ctx().error?.message).to.equal('third');
    expect(m.clock.pending).to.equal(0);
  });

  it('maxAttempts 0: the first crash fails the server', () => {
    const m = run({ maxAttempts: 0 });
    m.actor.send({ type: 'START' });
    m.actor.send({ type: 'CONNECTED' });
    m.crash();
    expect(m.state()).to.equal('failed');
  });

  it('resets the attempt count after resetAfterMs ready (delayed event "stable"), not before', () => {
    const m = run({ maxAttempts: 2, initialDelayMs: 100, jitter: 0, resetAfterMs: 60_000 });
    m.actor.send({ type: 'START' });
    m.actor.send({ type: 'CONNECTED' });
    m.crash();
    m.clock.advance(100);
    m.actor.send({ type: 'CONNECTED' });
    expect(m.ctx().attempts).to.equal(1);
    m.clock.advance(59_999);
    expect(m.ctx().attempts).to.equal(1);
    m.clock.advance(1);
    expect(m.ctx().attempts).to.equal(0);
    expect(m.state()).to.equal('ready');
    // A crash before the stable time cancels the timer: the count stays.
    m.crash();
    m.clock.advance(100);
    m.actor.send({ type: 'CONNECTED' });
    m.clock.advance(30_000);
    m.crash();
    expect(m.ctx().attempts).to.equal(1);
    expect(m.ctx().delayMs).to.equal(200);
  });

  it('STOP: from ready through stopping (disconnect, CLOSED); from waiting at once, its timer cancelled', () => {
    const a = run();
    a.actor.send({ type: 'START' });
    a.actor.send({ type: 'CONNECTED' });
    a.actor.send({ type: 'STOP' });
    expect(a.state()).to.equal('stopping');
    expect(a.clock.pending).to.equal(0);
    a.actor.send({ type: 'CRASHED', error: new Error('late'), sample: 0 });
    expect(a.state()).to.equal('stopping');
    a.actor.send({ type: 'CLOSED' });
    expect(a.state()).to.equal('stopped');
    expect(a.calls).to.deep.equal(['connect', 'disconnect']);

    const b = run({ initialDelayMs: 5000 });
    b.actor.send({ type: 'START' });
    b.actor.send({ type: 'CONNECTED' });
    b.crash();
    expect(b.state()).to.equal('waiting');
    b.actor.send({ type: 'STOP' });
    expect(b.state()).to.equal('stopped');
    expect(b.clock.pending).to.equal(0);
    b.clock.advance(10_000);
    expect(b.calls).to.deep.equal(['connect', 'release']);

    const c = run();
    c.actor.send({ type: 'STOP' });
    expect(c.state()).to.equal('stopped');
    expect(c.calls).to.deep.equal([]);
  });

  it('is a literal config Stately can draw (no inline functions), timers as named delays', () => {
    const json = JSON.stringify(machineConfigJSON(hostServerMachine));
    expect(json).to.include('"startRestartTimer"').and.include('"cancelRestartTimer"').and.include('"startStableTimer"');
    expect(createMachine(JSON.parse(json)).id).to.equal('hostServer');
  });
});
