// Issue 26, "inspection everywhere": with `inspect` on client, server and host, an XState
// inspector sees every actor of a scripted session, each parented to its owner: sessions,
// requests, server elicitations (under their request), tasks (under their request), client
// elicitations and 2026-07-28 input rounds (under the client's session), and a host's server
// connections (under the host) with each client session under its connection. No xstate error
// or warning is reported when those children end.
import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import type { InspectionEvent } from 'xstate';
import { Client } from '../../lib/entries/client.js';
import { createHost } from '../../lib/entries/host.js';
import { ManualClock } from '../../lib/clock.js';
import { createMcpServer } from '../../lib/mcp-server.js';
import { startTask } from '../../lib/tasks/modern-tasks.js';
import { createMemoryPair } from '../../streams/memory.js';
import { tsArgs } from '../helpers/ts-child.js';

/** What an inspector learns of one actor: its id, its parent's id, its machine's id. */
interface SeenActor {
  id: string;
  parent: string | undefined;
  machine: string | undefined;
}

/** An `inspect` callback collecting the `@xstate.actor` events (and any error an actor reports). */
function collector() {
  const actors: SeenActor[] = [];
  const errors: unknown[] = [];
  const inspect = (e: InspectionEvent) => {
    if (e.type === '@xstate.snapshot' && (e.snapshot as { status?: string }).status === 'error') errors.push((e.snapshot as { error?: unknown }).error);
    if (e.type !== '@xstate.actor') return;
    // The parent link is the actor's own (`_parent`): what Stately's inspector draws the tree from.
    const ref = e.actorRef as unknown as { id: string; _parent?: { id: string }; logic?: { id?: string } };
    actors.push({ id: ref.id, parent: ref._parent?.id, machine: ref.logic?.id });
  };
  const of = (machine: string) => actors.filter((a) => a.machine === machine);
  return { actors, errors, inspect, of };
}

/** Capture console.warn / console.error while `run` runs (xstate reports there). */
async function quietly<T>(run: () => Promise<T>): Promise<{ value: T; warnings: string[] }> {
  const warnings: string[] = [];
  const { warn, error } = console;
  console.warn = (...a: unknown[]) => void warnings.push(a.map(String).join(' '));
  console.error = (...a: unknown[]) => void warnings.push(a.map(String).join(' '));
  try {
    return { value: await run(), warnings };
  } finally {
    console.warn = warn;
    console.error = error;
  }
}

const textOf = (r: { content?: unknown }) => ((r.content ?? []) as { text?: string }[]).map((b) => b.text).join('');

/** Settle the real event loop's turns (the server's work) a few times. */
const turns = async (n = 10) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

/**
 * The script: two tool calls, a call whose handler elicits (an input round in 2026-07-28), and a
 * call run as a task (the handler makes itself one). Returns both inspectors' findings and the
 * number of requests the server received on the wire.
 */
async function scriptedSession(era: 'legacy' | 'auto') {
  const server = collector();
  const client = collector();
  const mcp = createMcpServer({ info: { name: 'inspected', version: '1' }, inspect: server.inspect });
  mcp.registerTool('echo', { description: 'echo' }, (a) => String(a.text));
  mcp.registerTool('ask', { description: 'asks the user' }, async (_a, ctx) => {
    const answer = await ctx.elicit({ message: 'Go on?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } }, { inputKey: 'go' });
    return answer.action;
  });
  mcp.registerTool('build', { execution: { taskSupport: 'optional' } }, async (_a, ctx) => {
    await startTask(ctx);
    return 'built';
  });
  const [a, b] = createMemoryPair();
  // Every request frame the client sends (initialize and the era probe included).
  let received = 0;
  a.inbound$.subscribe((m) => {
    const f = m as { id?: unknown; method?: string };
    if (f.id !== undefined && f.method !== undefined) received++;
  });
  await mcp.connect(a);
  const clock = new ManualClock(0);
  const c = new Client({ info: { name: 'c', version: '1' }, era, clock, inspect: client.inspect });
  // Every request the client's API sends (tools/call, tools/list, tasks/get...): one request actor each.
  let sent = 0;
  c.use((_req, next) => {
    sent++;
    return next();
  });
  c.onElicitation({ form: async () => ({ action: 'accept', content: { ok: true } }) });
  const { warnings } = await quietly(async () => {
    await c.connect(b);
    expect(textOf(await c.callTool('echo', { text: 'one' }))).to.equal('one');
    expect(textOf(await c.callTool('echo', { text: 'two' }))).to.equal('two');
    expect(textOf(await c.callTool('ask', {}))).to.equal('accept');
    const task = await c.callToolAsTask('build', {});
    const result = task.result();
    // The client polls on its (simulated) clock.
    for (let i = 0; i < 20 && task.current?.status !== 'completed'; i++) {
      await turns();
      clock.advance(1000);
    }
    expect(textOf(await result)).to.equal('built');
    await c.close();
    await mcp.close();
  });
  return { server, client, warnings, received, sent, modern: c.era === 'modern' };
}

describe('inspection: every actor reaches the inspector, parented to its owner', () => {
  for (const era of ['legacy', 'auto'] as const) {
    const name = era === 'legacy' ? 'legacy' : '2026-07-28';
    it(`${name}: sessions, requests, elicitations, ${era === 'legacy' ? '' : 'input rounds, '}a task, each under its owner; no error or warning`, async () => {
      const { server, client, warnings, received, sent, modern } = await scriptedSession(era);
      expect(modern).to.equal(era === 'auto');
      // The server: one root. Legacy: the session's actor owns the requests; 2026-07-28 has no
      // session to own them (none is live between requests): the `server` actor does.
      const roots = server.actors.filter((x) => x.parent === undefined);
      const owner = modern ? roots.find((x) => x.id === 'server') : server.of('session')[0];
      expect(owner, 'the requests\' owner').to.not.equal(undefined);
      const requests = server.of('serverRequest');
      expect(requests, 'one request actor per request received').to.have.length(received);
      expect(requests.filter((r) => r.parent !== owner!.id)).to.deep.equal([]);
      const requestIds = new Set(requests.map((r) => r.id));
      // The elicitation under the request that asked: in 2026-07-28 the handler runs again for the
      // round's retry (a new request), which asks again and is answered from its inputResponses.
      const elicitations = server.of('serverElicitation');
      expect(elicitations).to.have.length(modern ? 2 : 1);
      expect(elicitations.filter((e) => !requestIds.has(e.parent!))).to.deep.equal([]);
      expect(new Set(elicitations.map((e) => e.parent)).size).to.equal(elicitations.length);
      const tasks = server.of('task');
      expect(tasks).to.have.length(1);
      expect(requestIds.has(tasks[0]!.parent!), 'the task under the request that made it').to.equal(true);
      // The client: its session the only root; each request it sent, and the elicitation it
      // answered, are the session's children; (2026-07-28) the ask's input rounds are its request's.
      const clientRoots = client.actors.filter((x) => x.parent === undefined);
      expect(clientRoots.map((x) => x.machine)).to.deep.equal(['session']);
      const clientRequests = client.of('clientRequest');
      expect(sent).to.be.greaterThan(4);
      expect(clientRequests, 'one request actor per request sent').to.have.length(sent);
      expect(clientRequests.filter((r) => r.parent !== clientRoots[0]!.id)).to.deep.equal([]);
      expect(client.of('clientElicitation').map((x) => x.parent)).to.deep.equal([clientRoots[0]!.id]);
      const rounds = client.of('clientInputRounds');
      expect(rounds).to.have.length(modern ? 1 : 0);
      expect(rounds.filter((r) => !clientRequests.some((q) => q.id === r.parent))).to.deep.equal([]);
      expect(client.actors).to.have.length((modern ? 3 : 2) + sent);
      expect([...server.errors, ...client.errors]).to.deep.equal([]);
      expect(warnings).to.deep.equal([]);
    });
  }

  it('a host with two servers: host → server connections → each client session', async function () {
    this.timeout(20_000);
    const seen = collector();
    const echo = fileURLToPath(new URL('../../examples/echo-server.ts', import.meta.url));
    const stdio = { command: process.execPath, args: [...tsArgs(echo)] };
    const host = createHost({ servers: { a: stdio, b: stdio }, inspect: seen.inspect });
    try {
      await host.start();
    } finally {
      await host.close();
    }
    expect(seen.actors.filter((x) => x.parent === undefined).map((x) => x.id)).to.deep.equal(['host']);
    expect(seen.actors.filter((x) => x.parent === 'host').map((x) => x.id).sort()).to.deep.equal(['server:a', 'server:b']);
    expect(seen.of('session').map((x) => x.parent).sort()).to.deep.equal(['server:a', 'server:b']);
    expect(seen.errors).to.deep.equal([]);
  });
});

describe('inspection: a child actor keeps its owner\'s clock', () => {
  it("2026-07-28: an inspected URL elicitation's completion timer runs on the server's clock", async () => {
    const seen = collector();
    const clock = new ManualClock(0);
    const mcp = createMcpServer({ info: { name: 'pay', version: '1' }, clock, inspect: seen.inspect });
    const states: string[] = [];
    mcp.registerTool('pay', {}, async (_a, ctx) => {
      const call = ctx.elicit({ mode: 'url', url: 'https://pay.example.com/checkout?order=7', message: 'Confirm the payment' }, { completionTimeout: 60_000 });
      call.elicitation$.subscribe((s) => states.push(JSON.stringify(s.value)));
      return (await call).action;
    });
    const [a, b] = createMemoryPair();
    await mcp.connect(a);
    const c = new Client({ info: { name: 'c', version: '1' } });
    c.onElicitation({ url: () => 'accept', openUrl: () => undefined });
    await c.connect(b);
    try {
      expect(textOf(await c.callTool('pay', {}))).to.equal('accept');
      expect(c.era).to.equal('modern');
      expect(seen.of('serverElicitation').length).to.be.greaterThan(0);
      expect(states.at(-1)).to.equal(JSON.stringify({ accepted: 'awaitingCompletion' }));
      // The server's simulated clock, not the wall clock, ends the wait.
      clock.advance(60_000);
      expect(states.at(-1)).to.equal(JSON.stringify({ accepted: 'expired' }));
    } finally {
      await c.close();
      await mcp.close();
    }
  });
});
