import { expect } from 'chai';
import { createActor, createMachine } from 'xstate';
import {
  clientElicitationMachine,
  DEFAULT_ELICITATION_COMPLETION_TIMEOUT_MS,
  type ClientElicitationInput,
  type ElicitationOutcome,
} from '../../machines/client-elicitation.machine.js';
import { ManualClock } from '../../lib/clock.js';
import { machineConfigJSON, renderMachineJSON } from '../../scripts/export-machines.js';

const SCHEMA = { type: 'object' as const, properties: { n: { type: 'integer' as const, default: 7 } }, required: ['n'] };

/** The machine with recording placeholders, on a manual clock. */
function run(input: ClientElicitationInput) {
  const clock = new ManualClock(0);
  const effects: string[] = [];
  const actor = createActor(
    clientElicitationMachine.provide({
      actions: {
        present: ({ context }) => void effects.push(`present#${context.attempts}`),
        askConsent: () => void effects.push('askConsent'),
        openUrl: () => void effects.push('openUrl'),
        respond: (_, params: { outcome: ElicitationOutcome }) => void effects.push(`respond:${params.outcome}`),
      },
    }),
    { input, clock },
  );
  actor.start();
  const state = () => JSON.stringify(actor.getSnapshot().value);
  return { actor, clock, effects, state };
}

const FORM: ClientElicitationInput = { mode: 'form', formDeclared: true, urlDeclared: false, requestedSchema: SCHEMA };
const URL: ClientElicitationInput = { mode: 'url', formDeclared: false, urlDeclared: true, completionTimeout: 1000 };

describe('clientElicitation machine', () => {
  it('is drawable: plain JSON config, rebuilt by createMachine with the same states', () => {
    const json = JSON.parse(renderMachineJSON(clientElicitationMachine));
    const rebuilt = createMachine(json);
    expect(rebuilt.id).to.equal('clientElicitation');
    expect(Object.keys(rebuilt.states)).to.deep.equal(Object.keys(clientElicitationMachine.states));
    expect(JSON.stringify(machineConfigJSON(clientElicitationMachine))).to.contain('"startCompletionTimer"');
  });

  it('form: presenting → validating → accepted for a valid answer', () => {
    const { actor, effects, state } = run(FORM);
    expect(state()).to.equal('{"form":"presenting"}');
    actor.send({ type: 'SUBMIT', content: { n: 3 } });
    expect(state()).to.equal('"accepted"');
    expect(effects).to.deep.equal(['present#1', 'respond:accept']);
    expect(actor.getSnapshot().context.content).to.deep.equal({ n: 3 });
  });

  it('form: an invalid answer goes back to presenting with errors, then fails after maxAttempts', () => {
    const { actor, effects, state } = run({ ...FORM, maxAttempts: 2 });
    actor.send({ type: 'SUBMIT', content: { n: 'x' } });
    expect(state()).to.equal('{"form":"presenting"}');
    expect(actor.getSnapshot().context.errors).to.have.length(1);
    actor.send({ type: 'SUBMIT', content: { n: 1.5 } });
    expect(state()).to.equal('"failed"');
    expect(effects).to.deep.equal(['present#1', 'present#2', 'respond:fail']);
    expect(actor.getSnapshot().context.failure).to.contain('n must be a whole number');
  });

  it('form: applyDefaults fills omitted fields before validating', () => {
    const { actor, state } = run({ ...FORM, applyDefaults: true });
    actor.send({ type: 'SUBMIT', content: {} });
    expect(state()).to.equal('"accepted"');
    expect(actor.getSnapshot().context.content).to.deep.equal({ n: 7 });
  });

  it('an undeclared mode, an unknown mode and invalid params are rejected at once', () => {
    expect(run({ ...FORM, formDeclared: false }).effects).to.deep.equal(['respond:reject']);
    const unknown = run({ ...FORM, mode: 'voice' });
    expect(unknown.actor.getSnapshot().context.problem).to.contain('Unknown elicitation mode');
    expect(run({ ...URL, problem: 'bad url' }).state()).to.equal('"rejected"');
  });

  it('url: consent → opening → opened (accept sent) → completed', () => {
    const { actor, effects, state } = run(URL);
    expect(state()).to.equal('{"url":"consent"}');
    actor.send({ type: 'COMPLETE' }); // nothing opened yet: ignored
    expect(state()).to.equal('{"url":"consent"}');
    actor.send({ type: 'ACCEPT' });
    actor.send({ type: 'OPENED' });
    expect(state()).to.equal('{"url":{"opened":"awaiting"}}');
    actor.send({ type: 'COMPLETE' });
    expect(state()).to.equal('"completed"');
    expect(effects).to.deep.equal(['askConsent', 'openUrl', 'respond:accept']);
  });

  it('url: the completion timer is an explicit, cancellable delayed event on the given clock', () => {
    const { actor, clock, state } = run(URL);
    actor.send({ type: 'ACCEPT' });
    actor.send({ type: 'OPENED' });
    expect(clock.pending).to.equal(1);
    clock.advance(999);
    expect(state()).to.equal('{"url":{"opened":"awaiting"}}');
    clock.advance(1);
    expect(state()).to.equal('{"url":{"opened":"stale"}}');
    actor.send({ type: 'COMPLETE' });
    expect(state()).to.equal('"completed"');

    const other = run(URL);
    other.actor.send({ type: 'ACCEPT' });
    other.actor.send({ type: 'OPENED' });
    other.actor.send({ type: 'CANCEL' });
    expect(other.state()).to.equal('"abandoned"');
    expect(other.clock.pending).to.equal(0);
    expect(DEFAULT_ELICITATION_COMPLETION_TIMEOUT_MS).to.be.greaterThan(0);
  });

  it('url: decline and cancel at consent answer the server; ABORT ends anything without an answer', () => {
    expect((() => {
      const r = run(URL);
      r.actor.send({ type: 'DECLINE' });
      return r.effects;
    })()).to.deep.equal(['askConsent', 'respond:decline']);
    const r = run(URL);
    r.actor.send({ type: 'ACCEPT' });
    r.actor.send({ type: 'OPEN_FAILED', message: 'no browser' });
    expect(r.effects.at(-1)).to.equal('respond:cancel');
    const f = run(FORM);
    f.actor.send({ type: 'ABORT' });
    expect(f.state()).to.equal('"aborted"');
    expect(f.effects).to.deep.equal(['present#1']);
  });
});
