import { expect } from 'chai';
import { createActor, createMachine } from 'xstate';
import { ManualClock } from '../../lib/clock.js';
import {
  DEFAULT_SERVER_ELICITATION_COMPLETION_TIMEOUT_MS,
  serverElicitationMachine,
  type ServerElicitationInput,
} from '../../machines/server-elicitation.machine.js';
import { machineConfigJSON } from '../../scripts/export-machines.js';

function start(input: ServerElicitationInput) {
  const clock = new ManualClock(0);
  const calls: string[] = [];
  const actor = createActor(
    serverElicitationMachine.provide({
      actions: {
        sendRequest: () => void calls.push('sendRequest'),
        sendCompleteNotification: ({ context }) => void calls.push(`complete:${context.elicitationId}`),
      },
    }),
    { input, clock },
  );
  actor.start();
  return { actor, clock, calls };
}

describe('server elicitation machine', () => {
  it('starts in requested and sends the request once', () => {
    const { actor, calls } = start({ mode: 'form' });
    expect(actor.getSnapshot().value).to.equal('requested');
    expect(calls).to.deep.equal(['sendRequest']);
  });

  it('form mode: accept → accepted.received (settled), with the content kept', () => {
    const { actor } = start({ mode: 'form' });
    actor.send({ type: 'ANSWERED', action: 'accept', content: { name: 'octocat' } });
    const s = actor.getSnapshot();
    expect(s.value).to.deep.equal({ accepted: 'received' });
    expect(s.hasTag('settled')).to.equal(true);
    expect(s.context.content).to.deep.equal({ name: 'octocat' });
  });

  for (const action of ['decline', 'cancel'] as const) {
    it(`${action} → ${action === 'decline' ? 'declined' : 'cancelled'} (final)`, () => {
      const { actor } = start({ mode: 'url', elicitationId: 'e1' });
      actor.send({ type: 'ANSWERED', action });
      const s = actor.getSnapshot();
      expect(s.value).to.equal(action === 'decline' ? 'declined' : 'cancelled');
      expect(s.status).to.equal('done');
      expect(s.context.action).to.equal(action);
    });
  }

  it('an invalid answer or a failed request → failed, keeping the error', () => {
    const a = start({ mode: 'form' }).actor;
    a.send({ type: 'ANSWER_INVALID', error: { code: -32603, message: 'bad content' } });
    expect(a.getSnapshot().value).to.equal('failed');
    expect(a.getSnapshot().context.error).to.deep.equal({ code: -32603, message: 'bad content' });
    const b = start({ mode: 'form' }).actor;
    b.send({ type: 'REQUEST_FAILED', error: { code: -32001, message: 'timed out' } });
    expect(b.getSnapshot().value).to.equal('failed');
  });

  it('URL mode: accept → accepted.awaitingCompletion → (server observes completion) completed, notification sent', () => {
    const { actor, calls, clock } = start({ mode: 'url', elicitationId: 'e42' });
    actor.send({ type: 'ANSWERED', action: 'accept' });
    expect(actor.getSnapshot().value).to.deep.equal({ accepted: 'awaitingCompletion' });
    expect(actor.getSnapshot().hasTag('settled')).to.equal(false);
    expect(clock.pending).to.equal(1);
    actor.send({ type: 'COMPLETE' });
    expect(actor.getSnapshot().value).to.deep.equal({ accepted: 'completed' });
    expect(actor.getSnapshot().hasTag('settled')).to.equal(true);
    expect(calls).to.deep.equal(['sendRequest', 'complete:e42']);
    expect(clock.pending, 'the completion timer is cancelled').to.equal(0);
    actor.send({ type: 'COMPLETE' });
    expect(calls).to.have.length(2);
  });

  it('URL mode: no completion within completionTimeout → expired (delayed event with an explicit id)', () => {
    const { actor, clock, calls } = start({ mode: 'url', elicitationId: 'e', completionTimeout: 5_000 });
    actor.send({ type: 'ANSWERED', action: 'accept' });
    clock.advance(4_999);
    expect(actor.getSnapshot().value).to.deep.equal({ accepted: 'awaitingCompletion' });
    clock.advance(1);
    expect(actor.getSnapshot().value).to.deep.equal({ accepted: 'expired' });
    expect(calls).to.deep.equal(['sendRequest']);
  });

  it('URL mode: the session closing while waiting → abandoned', () => {
    const { actor } = start({ mode: 'url', elicitationId: 'e' });
    actor.send({ type: 'ANSWERED', action: 'accept' });
    actor.send({ type: 'SESSION_CLOSED' });
    expect(actor.getSnapshot().value).to.deep.equal({ accepted: 'abandoned' });
  });

  it('URL mode: a completion seen before the client\'s accept is honoured when the accept arrives', () => {
    const { actor, calls } = start({ mode: 'url', elicitationId: 'early' });
    actor.send({ type: 'COMPLETE' });
    expect(actor.getSnapshot().value).to.equal('requested');
    actor.send({ type: 'ANSWERED', action: 'accept' });
    expect(actor.getSnapshot().value).to.deep.equal({ accepted: 'completed' });
    expect(calls).to.deep.equal(['sendRequest', 'complete:early']);
  });

  it('form mode ignores COMPLETE', () => {
    const { actor } = start({ mode: 'form' });
    actor.send({ type: 'COMPLETE' });
    actor.send({ type: 'ANSWERED', action: 'accept', content: {} });
    expect(actor.getSnapshot().value).to.deep.equal({ accepted: 'received' });
    expect(actor.getSnapshot().context.completedEarly).to.equal(false);
  });

  it('defaults the completion timeout to 30 minutes', () => {
    const { actor } = start({ mode: 'url', elicitationId: 'e' });
    expect(actor.getSnapshot().context.completionTimeout).to.equal(DEFAULT_SERVER_ELICITATION_COMPLETION_TIMEOUT_MS);
  });

  it('is drawable: plain JSON config that rebuilds into the same states', () => {
    const json = machineConfigJSON(serverElicitationMachine);
    const rebuilt = createMachine(JSON.parse(JSON.stringify(json)));
    expect(rebuilt.id).to.equal('serverElicitation');
    expect(Object.keys(rebuilt.states)).to.deep.equal(['requested', 'accepted', 'declined', 'cancelled', 'failed']);
    expect(Object.keys(rebuilt.states.accepted!.states)).to.deep.equal(['received', 'awaitingCompletion', 'completed', 'expired', 'abandoned']);
  });
});
