// The MCP Apps bridge machine on a simulated clock: the order a host must keep (nothing to the view
// before it is initialized; the tool input before its result), a result that comes early held
// until then, the load and teardown waits, and a view that breaks the protocol.
import { expect } from 'chai';
import { createActor, SimulatedClock } from 'xstate';
import { appBridgeMachine, DEFAULT_APP_LOAD_TIMEOUT_MS, DEFAULT_APP_TEARDOWN_TIMEOUT_MS } from '../../machines/app-bridge.machine.js';

function run(proxied = true) {
  const clock = new SimulatedClock();
  const sent: string[] = [];
  const machine = appBridgeMachine.provide({
    actions: {
      sendResource: () => void sent.push('resource'),
      sendToolInput: () => void sent.push('tool-input'),
      sendToolResult: ({ context }) => void sent.push(`tool-result ${JSON.stringify(context.pending?.kind === 'result' ? context.pending.result : undefined)}`),
      sendToolCancelled: ({ context }) => void sent.push(`tool-cancelled ${context.pending?.kind === 'cancelled' ? context.pending.reason : ''}`),
      sendTeardown: () => void sent.push('teardown'),
      removeFrame: () => void sent.push('removed'),
    },
  });
  const actor = createActor(machine, { input: { proxied }, clock }).start();
  return { actor, clock, sent, state: () => actor.getSnapshot().value };
}

describe('machines/app-bridge.machine (MCP Apps host side)', () => {
  it('[APPS-017] [APPS-025] [APPS-041] [APPS-045] proxy ready → resource; initialize → initialized → the tool input, then the result', () => {
    const { actor, sent, state } = run();
    expect(state()).to.equal('awaitingProxy');
    expect(sent).to.deep.equal([]);
    actor.send({ type: 'PROXY_READY' });
    expect(sent).to.deep.equal(['resource']);
    actor.send({ type: 'VIEW_INITIALIZE' });
    expect(state()).to.equal('initializing');
    actor.send({ type: 'TOOL_RESULT', result: { content: [] } });
    expect(sent, 'nothing before initialized').to.deep.equal(['resource']);
    actor.send({ type: 'VIEW_INITIALIZED' });
    expect(sent).to.deep.equal(['resource', 'tool-input', 'tool-result {"content":[]}']);
    actor.send({ type: 'TOOL_RESULT', result: { content: [{ type: 'text', text: 'again' }] } });
    expect(sent, 'one outcome only').to.have.length(3);
  });

  it('[APPS-046] without a proxy the view is loaded at once; a cancellation goes instead of a result', () => {
    const { actor, sent } = run(false);
    expect(sent).to.deep.equal(['resource']);
    actor.send({ type: 'VIEW_INITIALIZE' });
    actor.send({ type: 'VIEW_INITIALIZED' });
    actor.send({ type: 'TOOL_CANCELLED', reason: 'user stopped it' });
    expect(sent).to.deep.equal(['resource', 'tool-input', 'tool-cancelled user stopped it']);
  });

  it('a proxy or view that never starts fails after the load wait, and the frame is removed', () => {
    const { clock, sent, state, actor } = run();
    clock.increment(DEFAULT_APP_LOAD_TIMEOUT_MS - 1);
    expect(state()).to.equal('awaitingProxy');
    clock.increment(1);
    expect(state()).to.equal('failed');
    expect(actor.getSnapshot().context.reason).to.equal('the view did not start in time');
    expect(sent).to.deep.equal(['removed']);
  });

  it('[APPS-047] [APPS-048] teardown: closed on the view answer, or after the teardown wait when it does not answer', () => {
    const a = run();
    a.actor.send({ type: 'PROXY_READY' });
    a.actor.send({ type: 'VIEW_INITIALIZE' });
    a.actor.send({ type: 'VIEW_INITIALIZED' });
    a.actor.send({ type: 'TEARDOWN', reason: 'done' });
    expect(a.state()).to.equal('tearingDown');
    a.actor.send({ type: 'TEARDOWN_ACK' });
    expect(a.state()).to.equal('closed');
    const b = run();
    b.actor.send({ type: 'PROXY_READY' });
    b.actor.send({ type: 'VIEW_INITIALIZE' });
    b.actor.send({ type: 'VIEW_INITIALIZED' });
    b.actor.send({ type: 'TEARDOWN', reason: 'done' });
    b.clock.increment(DEFAULT_APP_TEARDOWN_TIMEOUT_MS);
    expect(b.state()).to.equal('closed');
    expect(b.sent.at(-1)).to.equal('removed');
  });

  it('a view that breaks the protocol fails; its frame is removed', () => {
    const { actor, sent, state } = run();
    actor.send({ type: 'PROXY_READY' });
    actor.send({ type: 'VIEW_FAILED', reason: 'garbage' });
    expect(state()).to.equal('failed');
    expect(sent.at(-1)).to.equal('removed');
  });
});
