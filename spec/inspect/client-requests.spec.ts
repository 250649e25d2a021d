// Issue 26, "a request is an actor in both eras, on both sides", the client half: with `inspect`
// each request the client sends is a `clientRequest` actor under the client's session, ending in
// the state that says how it ended (answered, failed, cancelled, timed out); its transition table
// is the machine's.
import { expect } from 'chai';
import { transition, type InspectionEvent } from 'xstate';
import { Client } from '../../lib/entries/client.js';
import { ManualClock } from '../../lib/clock.js';
import { clientRequestTable } from '../../lib/client-era/client-request.js';
import { createMcpServer } from '../../lib/mcp-server.js';
import { createMemoryPair } from '../../streams/memory.js';
import { clientRequestMachine, type ClientRequestEvent } from '../../machines/client-request.machine.js';

const EVENTS: ClientRequestEvent[] = [{ type: 'INPUT_REQUIRED', round: 1 }, { type: 'RETRY' }, { type: 'RESULT' }, { type: 'ERROR', code: -32603 }, { type: 'CANCEL' }, { type: 'TIMEOUT' }];

/** The last state each client request actor reached, by actor id. */
function finalStates() {
  const last = new Map<string, string>();
  const inspect = (e: InspectionEvent) => {
    const ref = e.actorRef as unknown as { id: string; logic?: { id?: string } };
    if (e.type === '@xstate.snapshot' && ref.logic?.id === 'clientRequest') last.set(ref.id, String((e.snapshot as { value?: unknown }).value));
  };
  return { last, inspect };
}

const turns = async (n = 10) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

describe('client requests as actors', () => {
  it('the table gives, for every state and event, the state transition() gives', () => {
    const table = clientRequestTable();
    const states = Object.keys(clientRequestMachine.root.states);
    expect(Object.keys(table)).to.have.members(states);
    for (const state of states) {
      for (const event of EVENTS) {
        const [next] = transition(clientRequestMachine, clientRequestMachine.resolveState({ value: state }), event);
        expect(table[state]![event.type] ?? state, `${state} --${event.type}-->`).to.equal(next.value);
      }
    }
  });

  for (const era of ['legacy', 'auto'] as const) {
    it(`${era === 'legacy' ? 'legacy' : '2026-07-28'}: answered, failed, cancelled and timed-out requests end in those states (simulated clock)`, async () => {
      const clock = new ManualClock(0);
      const mcp = createMcpServer({ info: { name: 's', version: '1' }, clock });
      mcp.registerTool('echo', {}, (a) => String(a.text));
      mcp.registerTool('boom', {}, () => {
        throw new Error('boom');
      });
      // Never answers on its own: the client's timeout or signal ends it.
      mcp.registerTool('hang', {}, (_a, ctx) => new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve('late'))));
      const [a, b] = createMemoryPair();
      await mcp.connect(a);
      const seen = finalStates();
      const c = new Client({ info: { name: 'c', version: '1' }, era, clock, inspect: seen.inspect });
      await c.connect(b);
      try {
        const before = seen.last.size;
        await c.callTool('echo', { text: 'hi' });
        await c.callTool('boom', {}).catch(() => undefined);
        const stop = new AbortController();
        const cancelled = c.callTool('hang', {}, { signal: stop.signal }).catch((e: unknown) => e);
        await turns();
        stop.abort('enough');
        await cancelled;
        const late = c.callTool('hang', {}, { timeout: 5_000 }).catch((e: unknown) => e);
        await turns();
        clock.advance(5_000);
        await late;
        const states = [...seen.last.values()].slice(before);
        // A tool error is a result (isError), so boom is answered; tools/list may come first.
        expect(states.filter((s) => s !== 'answered')).to.deep.equal(['cancelled', 'timedOut']);
        expect(states.filter((s) => s === 'answered').length).to.be.greaterThanOrEqual(2);
        // An unknown method is an error answer: failed.
        await c.request('no/such-method', {}).catch(() => undefined);
        expect([...seen.last.values()].at(-1)).to.equal('failed');
      } finally {
        await c.close();
        await mcp.close();
      }
    });
  }
});
