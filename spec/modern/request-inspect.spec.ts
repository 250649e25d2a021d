// With an inspector, each request a server serves is a real actor of the server request machine,
// parented to its session (legacy) or to the server (2026-07-28); the inspector sees its events.
import { expect } from 'chai';
import type { AnyActorRef, InspectionEvent } from 'xstate';
import { Client } from '../../lib/entries/client.js';
import { createMcpServer } from '../../lib/mcp-server.js';
import { createMemoryPair } from '../../streams/memory.js';

function requestActors(events: InspectionEvent[]): AnyActorRef[] {
  return events.filter((e) => e.type === '@xstate.actor').map((e) => e.actorRef as AnyActorRef).filter((r) => r.id.startsWith('request:'));
}

describe('requests as actors, with an inspector', () => {
  for (const era of ['legacy', 'modern'] as const) {
    it(`${era}: one actor per request, parented to its ${era === 'legacy' ? 'session' : 'server'}, stepped through its states`, async () => {
      const events: InspectionEvent[] = [];
      const mcp = createMcpServer({ info: { name: 'inspected', version: '1' }, inspect: (e) => events.push(e) });
      mcp.registerTool('echo', { description: 'echo' }, (a) => String(a.text));
      const [a, b] = createMemoryPair();
      const session = await mcp.connect(a);
      const client = new Client({ info: { name: 'c', version: '1' }, era: era === 'legacy' ? 'legacy' : 'auto' });
      await client.connect(b);
      let states = 0;
      session.state$.subscribe(() => states++);
      try {
        const before = requestActors(events).length;
        const statesBefore = states;
        await client.callTool('echo', { text: 'one' });
        await client.callTool('echo', { text: 'two' });
        const actors = requestActors(events).slice(before);
        expect(actors.map((r) => r.id)).to.have.length(2);
        expect(new Set(actors).size).to.equal(2);
        const parents = actors.map((r) => (r as unknown as { _parent?: AnyActorRef })._parent);
        if (era === 'legacy') {
          // The session's machine runs as an actor with an inspector: the requests are its children.
          expect(parents.every((p) => p !== undefined && p.id !== 'server' && p.getSnapshot().value === 'operating')).to.equal(true);
        } else {
          expect(parents.every((p) => p?.id === 'server')).to.equal(true);
          expect(session.currentPhase).to.not.equal('operating');
        }
        // A request's end reaches its parent, and changes nothing the session's observers see.
        expect(states - statesBefore, 'session snapshots during the calls').to.equal(0);
        // The inspector saw each request go received → running → answered.
        for (const actor of actors) {
          const seen = events.flatMap((e) => (e.type === '@xstate.event' && e.actorRef === actor ? [e.event.type] : []));
          expect(seen).to.include.members(['START', 'RESULT']);
          expect(actor.getSnapshot().value).to.equal('answered');
        }
      } finally {
        await client.close();
        await mcp.close();
      }
    });
  }
});
