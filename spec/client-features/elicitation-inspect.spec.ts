import { expect } from 'chai';
import type { InspectionEvent } from 'xstate';
import { pair } from './helpers.js';

const FORM = { mode: 'form', message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } };

describe('client features: inspect reaches the elicitation actor', () => {
  it('a legacy session with two tool calls and an elicitation: the elicitation actor and the request actors are children of the client session', async () => {
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
    // The client's session, its one elicitation and its requests (the two calls, and the tools/list
    // a call may make first to learn output schemas), each request a child of the session.
    const requests = actors.filter((a) => a.machine === 'clientRequest');
    expect(requests.length).to.be.within(2, 3);
    expect(requests.filter((r) => r.parent !== sessionActor!.id)).to.deep.equal([]);
    expect(actors, JSON.stringify(actors)).to.have.length(2 + requests.length);
  });
});
