/**
 * Model-based test: `ServerRequest` steps `serverRequestMachine` through a table read from the
 * machine's definition. Every state and every event is checked against `transition()`, and every
 * simple path of the machine's graph (`@xstate/graph`) is driven through the request's methods,
 * its state compared with the machine's at each step.
 */
import { expect } from 'chai';
import { getSimplePaths } from '@xstate/graph';
import { transition } from 'xstate';
import { ManualClock } from '../../lib/clock.js';
import { ServerRequest, transitionTable, type RequestOwner } from '../../lib/session/server-request.js';
import { serverRequestMachine, type ServerRequestEvent } from '../../machines/server-request.machine.js';

const EVENTS: ServerRequestEvent[] = [
  { type: 'START' },
  { type: 'ASK', method: 'elicitation/create' },
  { type: 'ASKED' },
  { type: 'INPUT_REQUIRED', keys: ['elicitation-1'] },
  { type: 'RESULT' },
  { type: 'ERROR', code: -32603 },
  { type: 'CANCEL', reason: 'bye' },
];

/** The request method each machine event stands for. */
function drive(request: ServerRequest, event: ServerRequestEvent): void {
  switch (event.type) {
    case 'START': return request.start();
    case 'ASK': return request.askStarted('elicitation/create');
    case 'ASKED': return request.askEnded();
    case 'INPUT_REQUIRED': return request.inputRequired(['elicitation-1']);
    case 'RESULT': return request.answered();
    case 'ERROR': return request.failed({ code: -32603, message: 'boom' });
    case 'CANCEL': return request.cancelled('bye');
  }
}

describe('the server request machine and its table', () => {
  it('the table gives, for every state and event, the state transition() gives', () => {
    const table = transitionTable();
    const states = Object.keys(serverRequestMachine.root.states);
    expect(Object.keys(table)).to.have.members(states);
    for (const state of states) {
      for (const event of EVENTS) {
        const from = serverRequestMachine.resolveState({ value: state });
        const [next] = transition(serverRequestMachine, from, event);
        expect(table[state]![event.type] ?? state, `${state} --${event.type}-->`).to.equal(next.value);
      }
    }
  });

  it('a request driven along every path of the machine is where the machine is, and ends once', () => {
    const paths = getSimplePaths(serverRequestMachine, { events: EVENTS });
    expect(paths.length).to.be.greaterThan(10);
    for (const path of paths) {
      const clock = new ManualClock(100);
      const ended: ServerRequest[] = [];
      const owner: RequestOwner = { clock, era: 'legacy', caller: () => 'session-1', ended: (r) => ended.push(r) };
      const request = new ServerRequest(1, 'tools/call', { name: 't' }, owner);
      for (const step of path.steps) {
        drive(request, step.event as ServerRequestEvent);
        expect(request.state, path.steps.map((s) => s.event.type).join(' ')).to.equal(step.state.value);
        clock.advance(5);
      }
      const final = path.state.status === 'done';
      expect(ended.length, 'ended once at a final state').to.equal(final ? 1 : 0);
      if (final) expect(ended[0]!.record()).to.include({ outcome: path.state.value, method: 'tools/call', name: 't', caller: 'session-1' });
    }
  });
});
