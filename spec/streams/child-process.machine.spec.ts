import { expect } from 'chai';
import sinon from 'sinon';
import { createActor, SimulatedClock } from 'xstate';
import { childProcessMachine } from '../../machines/child-process.machine.js';

function setupActor(input: { closeTimeout?: number; termTimeout?: number } = {}) {
  const io = {
    spawnProcess: sinon.spy(),
    closeStdin: sinon.spy(),
    sendSigterm: sinon.spy(),
    sendSigkill: sinon.spy(),
  };
  const clock = new SimulatedClock();
  const actor = createActor(childProcessMachine.provide({ actions: io }), { input, clock });
  actor.start();
  return { io, clock, actor };
}

describe('childProcessMachine', () => {
  it('spawns on start and runs once SPAWNED', () => {
    const { io, actor } = setupActor();
    expect(io.spawnProcess.calledOnce).to.equal(true);
    expect(actor.getSnapshot().value).to.equal('starting');
    actor.send({ type: 'SPAWNED', pid: 42 });
    expect(actor.getSnapshot().value).to.equal('running');
    expect(actor.getSnapshot().context.pid).to.equal(42);
  });

  it('ends in crashed with the error when the spawn fails', () => {
    const { actor } = setupActor();
    const error = Object.assign(new Error('spawn nope ENOENT'), { code: 'ENOENT' });
    actor.send({ type: 'SPAWN_FAILED', error });
    expect(actor.getSnapshot().value).to.equal('crashed');
    expect(actor.getSnapshot().status).to.equal('done');
    expect(actor.getSnapshot().context.spawnError).to.equal(error);
  });

  it('ends in crashed with code and signal when the process exits on its own', () => {
    const { actor } = setupActor();
    actor.send({ type: 'SPAWNED', pid: 1 });
    actor.send({ type: 'EXITED', code: 3, signal: null });
    const s = actor.getSnapshot();
    expect(s.value).to.equal('crashed');
    expect(s.context.code).to.equal(3);
    expect(s.context.signal).to.equal(null);
  });

  it('[LIFE-018] [LIFE-019] [LIFE-020] [LIFE-104] escalates close: stdin, then SIGTERM after closeTimeout, then SIGKILL after termTimeout', () => {
    const { io, clock, actor } = setupActor();
    actor.send({ type: 'SPAWNED', pid: 1 });
    actor.send({ type: 'CLOSE' });
    expect(actor.getSnapshot().value).to.deep.equal({ closing: 'stdinClosed' });
    expect(io.closeStdin.calledOnce).to.equal(true);

    clock.increment(1999);
    expect(io.sendSigterm.called).to.equal(false);
    clock.increment(1);
    expect(actor.getSnapshot().value).to.deep.equal({ closing: 'terminating' });
    expect(io.sendSigterm.calledOnce).to.equal(true);

    clock.increment(1999);
    expect(io.sendSigkill.called).to.equal(false);
    clock.increment(1);
    expect(actor.getSnapshot().value).to.deep.equal({ closing: 'killing' });
    expect(io.sendSigkill.calledOnce).to.equal(true);

    actor.send({ type: 'EXITED', code: null, signal: 'SIGKILL' });
    expect(actor.getSnapshot().value).to.equal('exited');
    expect(actor.getSnapshot().context.signal).to.equal('SIGKILL');
  });

  it('stops escalating when the process exits after stdin closes', () => {
    const { io, clock, actor } = setupActor();
    actor.send({ type: 'SPAWNED', pid: 1 });
    actor.send({ type: 'CLOSE' });
    actor.send({ type: 'EXITED', code: 0, signal: null });
    clock.increment(60_000);
    expect(actor.getSnapshot().value).to.equal('exited');
    expect(io.sendSigterm.called).to.equal(false);
    expect(io.sendSigkill.called).to.equal(false);
  });

  it('takes the timeouts from input', () => {
    const { io, clock, actor } = setupActor({ closeTimeout: 10, termTimeout: 50 });
    actor.send({ type: 'SPAWNED', pid: 1 });
    actor.send({ type: 'CLOSE' });
    clock.increment(10);
    expect(io.sendSigterm.calledOnce).to.equal(true);
    clock.increment(49);
    expect(io.sendSigkill.called).to.equal(false);
    clock.increment(1);
    expect(io.sendSigkill.calledOnce).to.equal(true);
  });

  it('can be closed before the spawn is confirmed', () => {
    const { io, actor } = setupActor();
    actor.send({ type: 'CLOSE' });
    expect(io.closeStdin.calledOnce).to.equal(true);
    actor.send({ type: 'SPAWNED', pid: 7 });
    expect(actor.getSnapshot().value).to.deep.equal({ closing: 'stdinClosed' });
    actor.send({ type: 'EXITED', code: 0, signal: null });
    expect(actor.getSnapshot().value).to.equal('exited');
  });

  it('ignores CLOSE once the process is gone', () => {
    const { io, actor } = setupActor();
    actor.send({ type: 'SPAWNED', pid: 1 });
    actor.send({ type: 'EXITED', code: 1, signal: null });
    actor.send({ type: 'CLOSE' });
    expect(actor.getSnapshot().value).to.equal('crashed');
    expect(io.closeStdin.called).to.equal(false);
  });
});
