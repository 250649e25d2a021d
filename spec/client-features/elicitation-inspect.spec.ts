import { expect } from 'chai';
import type { InspectionEvent } from 'xstate';
import { pair } from './helpers.js';

const FORM = { mode: 'form', message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } };

describe('client features: inspect reaches the elicitation actor', () => {
  it('a legacy session with two tool calls and an elicitation: the elicitation actor is a child of the client session', async () => {
    const actors: Array<{ id: string; machine: string | undefined; parent: string | undefined }> = [];
    const inspect = (ev: InspectionEvent): void => {
      if (ev.type !== '@xstate.actor') return;
      const ref = ev.actorRef as unknown as { id: string; sessionId: string; logic?: { id?: string }; _parent?: { sessionId: string } };
      actors.push({ id: ref.sessionId, machine: ref.logic?.id, parent: ref._parent?.sessionId });
    };
    const { session, client } = await pair({
      serverUnchecked: true,
      serverCapabilities: { tools: {} },
      client: { inspect },
      setup: (c, s) => {
        c.onElicitation({ form: () => ({ action: 'accept', content: { name: 'Ada' } }) });
        s.onRequest('tools/call', () => ({ content: [{ type: 'text', text: 'ok' }] }));
      },
    });
    await client.callTool({ name: 'echo', arguments: {} });
    await client.callTool({ name: 'echo', arguments: {} });
    expect(await session.request('elicitation/create', FORM)).to.deep.include({ action: 'accept' });
    const sessionActor = actors.find((a) => a.machine === 'session' && a.parent === undefined);
    expect(sessionActor, JSON.stringify(actors)).to.not.equal(undefined);
    const elicitations = actors.filter((a) => a.machine === 'clientElicitation');
    expect(elicitations).to.have.length(1);
    expect(elicitations[0]!.parent).to.equal(sessionActor!.id);
    // The client's session and its one elicitation: tool calls are not actors (yet).
    expect(actors, JSON.stringify(actors)).to.have.length(2);
  });
});
