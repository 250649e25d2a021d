// The MRTR round: the machine's paths, and the executor that runs them for a handler's asks.
import { expect } from 'chai';
import { initialTransition, transition } from 'xstate';
import { inputRoundMachine, type InputRoundEvent } from '../../machines/input-round.machine.js';
import { InputRound } from '../../lib/modern/input-round.js';
import type { InputRequiredResult } from '../../lib/protocol/schema/modern.js';

function walk(events: InputRoundEvent[]) {
  let [snap, actions] = initialTransition(inputRoundMachine);
  const names: string[] = actions.map((a) => a.type);
  for (const e of events) {
    [snap, actions] = transition(inputRoundMachine, snap, e);
    names.push(...actions.map((a) => a.type));
  }
  return { state: snap.value, done: snap.status === 'done', pending: snap.context.pending, actions: names.filter((n) => !n.startsWith('xstate.')) };
}

describe('machines/input-round and its executor', () => {
  it('collects the asks of one turn, then ends input-required', () => {
    const r = walk([{ type: 'ASKED', key: 'a' }, { type: 'ASKED', key: 'b' }, { type: 'TURN_ENDED' }]);
    expect([r.state, r.done]).to.deep.equal(['inputRequired', true]);
    expect(r.pending).to.deep.equal(['a', 'b']);
    expect(r.actions).to.deep.equal(['awaitTurnEnd', 'answerInputRequired']);
  });

  it('ends complete when the handler returns first, failed when it throws', () => {
    expect(walk([{ type: 'RETURNED' }]).state).to.equal('complete');
    expect(walk([{ type: 'ASKED', key: 'a' }, { type: 'RETURNED' }]).state).to.equal('complete');
    expect(walk([{ type: 'FAILED' }]).state).to.equal('failed');
    expect(walk([{ type: 'ASKED', key: 'a' }, { type: 'FAILED' }]).state).to.equal('failed');
    // Nothing moves a finished round.
    expect(walk([{ type: 'RETURNED' }, { type: 'ASKED', key: 'x' }, { type: 'TURN_ENDED' }]).state).to.equal('complete');
  });

  it('answers asks the retry covers at once, and gathers the rest of one turn into one InputRequiredResult', async () => {
    let ended: InputRequiredResult | undefined;
    const round = new InputRound({
      method: 'tools/call',
      answers: { 'roots-1': { roots: [] }, who: { action: 'accept', content: { name: 'Ada' } }, bad: 12345 },
      sealState: (a) => `state:${Object.keys(a).sort().join(',')}`,
      endRound: (r) => (ended = r),
    });
    expect(await round.ask('roots/list', undefined)).to.deep.equal({ roots: [] });
    expect(await round.ask('elicitation/create', { message: 'm' }, { inputKey: 'who' })).to.deep.equal({ action: 'accept', content: { name: 'Ada' } });
    // An answer of the wrong shape is asked again; several unanswered asks share the round.
    void round.ask('elicitation/create', { message: 'again' }, { inputKey: 'bad' });
    void round.ask('sampling/createMessage', { messages: [], maxTokens: 1 });
    expect(ended).to.equal(undefined);
    await new Promise((r) => setImmediate(r));
    expect(ended!.resultType).to.equal('input_required');
    expect(Object.keys(ended!.inputRequests!)).to.deep.equal(['bad', 'sampling-1']);
    expect(ended!.requestState).to.equal('state:bad,roots-1,who');
    expect(round.settled(true)).to.equal(false);
  });

  it('refuses asks on methods that may not answer input_required, and unknown ask methods', async () => {
    const list = new InputRound({ method: 'tools/list', answers: {}, sealState: () => 's', endRound: () => {} });
    await list.ask('roots/list', undefined).then(
      () => expect.fail('should refuse'),
      (e: Error) => expect(e.message).to.match(/only tools\/call, prompts\/get and resources\/read/),
    );
    const call = new InputRound({ method: 'tools/call', answers: {}, sealState: () => 's', endRound: () => {} });
    await call.ask('ping', undefined).then(
      () => expect.fail('should refuse'),
      (e: Error) => expect(e.message).to.match(/servers send no requests/),
    );
  });
});
