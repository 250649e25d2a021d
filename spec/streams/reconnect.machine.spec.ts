import { expect } from 'chai';
import { createActor } from 'xstate';
import { ManualClock } from '../../lib/clock.js';
import { DEFAULT_RECONNECT_OPTIONS, reconnectDelay, reconnectMachine, type ReconnectInput } from '../../machines/reconnect.machine.js';

interface Log {
  opened: (string | undefined)[];
  waits: { attempt: number; delayMs: number }[];
  exhausted: number;
  failed: number;
}

function start(input: ReconnectInput) {
  const clock = new ManualClock();
  const log: Log = { opened: [], waits: [], exhausted: 0, failed: 0 };
  const actor = createActor(
    reconnectMachine.provide({
      actions: {
        openStream: ({ context }) => log.opened.push(context.lastEventId),
        reportWaiting: ({ context }) => log.waits.push({ attempt: context.attempts + 1, delayMs: context.delayMs }),
        reportExhausted: () => log.exhausted++,
        reportFailed: () => log.failed++,
      },
    }),
    { input, clock },
  );
  actor.start();
  return { actor, clock, log };
}

describe('http client: reconnectMachine', () => {
  it('computes backoff: initial × factor^attempt, capped, less up to `jitter` of it', () => {
    const o = { maxAttempts: 10, initialDelayMs: 100, maxDelayMs: 1000, factor: 2, jitter: 0.5 };
    expect([0, 1, 2, 3, 4, 5].map((a) => reconnectDelay(o, a, 0))).to.deep.equal([100, 200, 400, 800, 1000, 1000]);
    expect(reconnectDelay(o, 2, 0.5)).to.equal(300);
    expect(reconnectDelay(o, 2, 0.999)).to.be.within(200, 400);
    expect(reconnectDelay(o, 2, 0.3, 1234)).to.equal(1234);
    expect(DEFAULT_RECONNECT_OPTIONS.maxAttempts).to.be.greaterThan(0);
  });

  it('[HTTP-025] waits the backoff on the clock, then opens the stream with the last event id', () => {
    const { actor, clock, log } = start({ initialDelayMs: 100, jitter: 0, lastEventId: 'e1' });
    actor.send({ type: 'EVENT_ID', id: 'e2' });
    actor.send({ type: 'DROPPED', sample: 0.7, error: 'ended' });
    expect(actor.getSnapshot().value).to.equal('waiting');
    expect(log.waits).to.deep.equal([{ attempt: 1, delayMs: 100 }]);
    clock.advance(99);
    expect(log.opened).to.deep.equal([]);
    clock.advance(1);
    expect(log.opened).to.deep.equal(['e2']);
    expect(actor.getSnapshot().value).to.equal('connecting');
    actor.send({ type: 'CONNECTED' });
    expect(actor.getSnapshot().value).to.equal('connected');
    expect(actor.getSnapshot().context.attempts).to.equal(0);
  });

  it("honours the server's retry value over the backoff, without jitter", () => {
    const { actor, clock, log } = start({ initialDelayMs: 100, jitter: 1 });
    actor.send({ type: 'RETRY', ms: 5000 });
    actor.send({ type: 'DROPPED', sample: 0.9 });
    expect(log.waits).to.deep.equal([{ attempt: 1, delayMs: 5000 }]);
    clock.advance(4999);
    expect(log.opened).to.have.length(0);
    clock.advance(1);
    expect(log.opened).to.have.length(1);
  });

  it('grows the wait per failed attempt with jitter and gives up after maxAttempts', () => {
    const { actor, clock, log } = start({ maxAttempts: 3, initialDelayMs: 100, factor: 3, maxDelayMs: 10_000, jitter: 0.5 });
    const samples = [0, 0.5, 1];
    actor.send({ type: 'DROPPED', sample: samples[0]! });
    for (let i = 1; i <= 3; i++) {
      clock.advance(clock.nextDue() - clock.now());
      expect(log.opened).to.have.length(i);
      actor.send({ type: 'CONNECT_FAILED', retryable: true, sample: samples[i] ?? 0, error: 'HTTP 503' });
    }
    expect(log.waits.map((w) => w.delayMs)).to.deep.equal([100, 225, 450]);
    expect(actor.getSnapshot().value).to.equal('exhausted');
    expect(actor.getSnapshot().status).to.equal('done');
    expect(actor.getSnapshot().context.lastError).to.equal('HTTP 503');
    expect(log.exhausted).to.equal(1);
    expect(clock.pending).to.equal(0);
  });

  it('stops on a refusal that is not retryable', () => {
    const { actor, clock, log } = start({ initialDelayMs: 10 });
    actor.send({ type: 'DROPPED', sample: 0 });
    clock.advance(10);
    actor.send({ type: 'CONNECT_FAILED', retryable: false, sample: 0, error: 'HTTP 405' });
    expect(actor.getSnapshot().value).to.equal('failed');
    expect(log.failed).to.equal(1);
  });

  it('STOP cancels a pending wait', () => {
    const { actor, clock, log } = start({ initialDelayMs: 10 });
    actor.send({ type: 'DROPPED', sample: 0 });
    expect(clock.pending).to.equal(1);
    actor.send({ type: 'STOP' });
    expect(actor.getSnapshot().value).to.equal('stopped');
    expect(clock.pending).to.equal(0);
    clock.advance(1000);
    expect(log.opened).to.have.length(0);
  });

  it('maxAttempts 0 never reconnects', () => {
    const { actor, log } = start({ maxAttempts: 0 });
    actor.send({ type: 'DROPPED', sample: 0 });
    expect(actor.getSnapshot().value).to.equal('exhausted');
    expect(log.opened).to.have.length(0);
  });
});
