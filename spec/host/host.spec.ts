import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import { filter, firstValueFrom, map } from 'rxjs';
import { ManualClock, systemClock } from '../../lib/clock.js';
import { McpError, TransportError } from '../../lib/errors.js';
import { createHost, ServerUnavailableError, type Host, type HostOptions, type HostServerState, type HostTool } from '../../lib/entries/host.js';
import { listen, type Listening } from '../../lib/http/listen-port.js';
import { createMcpServer } from '../../lib/mcp-server.js';
import type { FrameEvent } from '../../lib/session/session.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';
import { tsArgs } from '../helpers/ts-child.js';

const ECHO = fileURLToPath(new URL('../../examples/echo-server.ts', import.meta.url));
const CALC = fileURLToPath(new URL('../fixtures/host/calc-server.ts', import.meta.url));
const GROWING = fileURLToPath(new URL('../fixtures/host/growing-server.ts', import.meta.url));
const stdio = (path: string) => ({ command: process.execPath, args: [...tsArgs(path)] });

// Every host made here is closed after its test, so no child outlives the spec.
const hosts: Host[] = [];
function host(options: HostOptions): Host {
  const h = createHost(options);
  hosts.push(h);
  return h;
}

/** The first state of `server` that satisfies `pred`. */
function stateOf(h: Host, server: string, pred: (s: HostServerState) => boolean): Promise<HostServerState> {
  return firstValueFrom(h.state$.pipe(map((all) => all[server]!), filter(pred)));
}
const phase = (h: Host, server: string, p: HostServerState['phase']) => stateOf(h, server, (s) => s.phase === p);

/** The error a promise rejects with (fails the test if it resolves). */
async function rejection(p: Promise<unknown>): Promise<Error> {
  return p.then(
    (v) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(v)}`);
    },
    (e: unknown) => e as Error,
  );
}

const names = (tools: HostTool[]) => tools.map((t) => t.name).sort();
const textOf = (r: { content?: unknown[] }) => (r.content as { text: string }[]).map((c) => c.text).join('');

/** tools/call frames a client sent. */
const calls = (frames: FrameEvent[]) =>
  frames.filter((f) => f.direction === 'out' && (f.frame as { method?: string }).method === 'tools/call').map((f) => (f.frame as { params: unknown }).params);

describe('multi-server host', function () {
  // Spawning node with tsx takes a while on a busy machine; no test waits on a timer.
  this.timeout(30_000);

  afterEach(async () => {
    await Promise.all(hosts.splice(0).map((h) => h.close()));
  });

  it('[TOOL-052] [TOOL-053] aggregates namespaced tools, prompts and resources of isolated stdio servers and routes calls', async () => {
    const h = host({ servers: { 'echo-a': stdio(ECHO), 'echo-b': stdio(ECHO), calc: stdio(CALC) }, clientOptions: { journal: true, era: 'legacy' } });
    const frames: Record<string, FrameEvent[]> = {};
    h.sessions$.subscribe(({ server, client }) => client.frames$.subscribe((f) => (frames[server] ??= []).push(f)));

    const state = await h.start();
    expect(Object.values(state).map((s) => s.phase)).to.deep.equal(['ready', 'ready', 'ready']);
    expect(state.calc).to.include({ transport: 'stdio', attempts: 0, protocolVersion: '2025-11-25' });

    const tools = await firstValueFrom(h.tools$.pipe(filter((t) => t.length === 8)));
    expect(names(tools)).to.deep.equal([
      'calc__add', 'calc__crash',
      'echo-a__echo', 'echo-a__hang', 'echo-a__slow',
      'echo-b__echo', 'echo-b__hang', 'echo-b__slow',
    ]);
    const add = tools.find((t) => t.name === 'calc__add')!;
    expect(add).to.include({ server: 'calc', originalName: 'add', description: 'Adds two numbers.' });
    expect(add.inputSchema).to.deep.equal({ type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } });
    expect(names(await h.listTools())).to.deep.equal(names(tools));

    // Two servers with the same serverInfo.name and the same tool: the host's own server keys
    // tell them apart, never the name the servers give themselves.
    expect(h.client('echo-a')!.serverInfo!.name).to.equal(h.client('echo-b')!.serverInfo!.name);
    expect(textOf(await h.callTool('echo-a__echo', { text: 'to-a' }))).to.equal('to-a');
    expect(textOf(await h.callTool('echo-b__echo', { text: 'to-b' }))).to.equal('to-b');
    expect(textOf(await h.callTool('calc__add', { a: 2, b: 3 }))).to.equal('5');

    // Each server saw only its own traffic, with the original tool names.
    expect(calls(frames['echo-a']!)).to.deep.equal([{ name: 'echo', arguments: { text: 'to-a' } }]);
    expect(calls(frames['echo-b']!)).to.deep.equal([{ name: 'echo', arguments: { text: 'to-b' } }]);
    expect(calls(frames.calc!)).to.deep.equal([{ name: 'add', arguments: { a: 2, b: 3 } }]);
    const journaled = (server: string) =>
      h.client(server)!.journal!.entries.filter((e) => e.kind === 'out').map((e) => JSON.stringify((e as { frame: unknown }).frame)).join('\n');
    expect(journaled('echo-a')).to.include('to-a').and.not.include('to-b');
    expect(journaled('echo-b')).to.include('to-b').and.not.include('to-a');
    expect(journaled('calc')).not.to.include('to-a').and.not.include('to-b');
    expect(new Set(['echo-a', 'echo-b', 'calc'].map((s) => h.client(s))).size).to.equal(3);

    // Prompts are namespaced like tools; resources keep their URIs and carry their server.
    expect((await h.listPrompts()).map((p) => [p.name, p.server, p.originalName])).to.deep.equal([['calc__explain', 'calc', 'explain']]);
    const prompt = await h.getPrompt('calc__explain', { topic: 'pi' });
    expect(prompt.messages[0]!.content).to.deep.equal({ type: 'text', text: 'Explain pi' });
    const resources = await firstValueFrom(h.resources$.pipe(filter((r) => r.length > 0)));
    expect(resources).to.deep.equal([{ uri: 'calc://constants/pi', name: 'pi', mimeType: 'text/plain', server: 'calc' }]);
    expect((await h.readResource('calc://constants/pi')).contents).to.deep.equal([{ uri: 'calc://constants/pi', mimeType: 'text/plain', text: '3.14159' }]);
    expect((await h.readResource('calc://constants/pi', 'calc')).contents).to.have.length(1);
    await rejection(h.readResource('calc://nope'));

    // Names that route nowhere.
    const unknown = await h.callTool('nowhere__echo').catch((e: unknown) => e);
    expect(unknown).to.be.instanceOf(McpError).and.to.include({ code: -32602 });
    expect((unknown as Error).message).to.match(/<server>__<tool>.*echo-a, echo-b, calc/);

    await h.close();
    expect(Object.values(h.state).map((s) => s.phase)).to.deep.equal(['stopped', 'stopped', 'stopped']);
    expect(h.client('calc')).to.equal(undefined);
    const after = await h.callTool('calc__add', { a: 1, b: 1 }).catch((e: unknown) => e);
    expect(after).to.be.instanceOf(ServerUnavailableError).and.to.include({ server: 'calc', phase: 'stopped' });
  });

  it('[STDIO-021] restarts a crashed stdio server (2026-07-28 era) after the backoff, counts attempts, and fails after maxAttempts', async () => {
    const clock = new ManualClock();
    const h = host({
      servers: { calc: stdio(CALC), echo: stdio(ECHO) },
      clock,
      random: () => 0.5,
      restart: { maxAttempts: 2, initialDelayMs: 1000, maxDelayMs: 10_000, factor: 2, jitter: 0.5 },
    });
    let latest: HostTool[] = [];
    h.tools$.subscribe((t) => (latest = t));
    await h.start();
    await firstValueFrom(h.tools$.pipe(filter((t) => t.length === 5)));

    // First crash: the call fails, the tools go, the server waits 1000 × (1 − 0.5 × 0.5) ms.
    await rejection(h.callTool('calc__crash'));
    const waiting = await phase(h, 'calc', 'waiting');
    expect(waiting).to.include({ attempts: 0, restartInMs: 750 });
    expect(waiting.error).to.be.instanceOf(TransportError);
    expect(waiting.error!.message).to.match(/exited with code 3/).and.match(/calc: fatal: divided by zero/);
    expect(names(latest)).to.deep.equal(['echo__echo', 'echo__hang', 'echo__slow']);
    expect(h.state.echo!.phase).to.equal('ready');
    const refused = await h.callTool('calc__add', { a: 1, b: 2 }).catch((e: unknown) => e);
    expect(refused).to.be.instanceOf(ServerUnavailableError).and.to.include({ phase: 'waiting' });

    clock.advance(749);
    expect(h.state.calc!.phase).to.equal('waiting');
    clock.advance(1);
    expect(h.state.calc!.phase).to.equal('connecting');
    expect((await phase(h, 'calc', 'ready')).attempts).to.equal(1);
    expect(h.state.calc!.era).to.equal('modern');
    await firstValueFrom(h.tools$.pipe(filter((t) => t.some((x) => x.name === 'calc__add'))));
    expect(textOf(await h.callTool('calc__add', { a: 20, b: 22 }))).to.equal('42');

    // Second crash: the wait doubles.
    await rejection(h.callTool('calc__crash'));
    expect(await phase(h, 'calc', 'waiting')).to.include({ attempts: 1, restartInMs: 1500 });
    clock.advance(1500);
    expect((await phase(h, 'calc', 'ready')).attempts).to.equal(2);

    // Third crash: maxAttempts restarts used up.
    await rejection(h.callTool('calc__crash'));
    const failed = await phase(h, 'calc', 'failed');
    expect(failed.attempts).to.equal(2);
    expect(failed.error).to.be.instanceOf(TransportError);
    expect((failed.error as TransportError).details).to.deep.include({ code: 3, signal: null, stderrTail: ['calc: fatal: divided by zero'] });
    expect(failed.error!.message).to.match(/exited with code 3/).and.match(/divided by zero/);
    expect(clock.pending).to.equal(1); // only echo's stable timer
    const notReady = await rejection(h.whenReady('calc'));
    expect(notReady).to.be.instanceOf(ServerUnavailableError);
    expect(notReady.message).to.match(/"calc" is not ready \(failed\): MCP server .* exited with code 3/);
    expect(names(latest)).to.deep.equal(['echo__echo', 'echo__hang', 'echo__slow']);
    expect(textOf(await h.callTool('echo__echo', { text: 'still here' }))).to.equal('still here');
  });

  it('[CANCEL-042] a restarted stdio server (2026-07-28 era) is sent subscriptions/listen again: list changes of the new process reach tools$', async () => {
    const clock = new ManualClock();
    const h = host({
      servers: { g: stdio(GROWING) },
      clock,
      random: () => 0,
      restart: { maxAttempts: 1, initialDelayMs: 100 },
      clientOptions: { clock: systemClock, listChangedDebounceMs: 0 },
    });
    // What each process (each client) was sent, from its probe on.
    const sent: string[][] = [];
    h.sessions$.subscribe(({ client }) => {
      const mine: string[] = [];
      sent.push(mine);
      client.frames$.subscribe((f) => {
        const method = (f.frame as { method?: string }).method;
        if (f.direction === 'out' && method !== undefined) mine.push(method);
      });
    });
    h.tools$.subscribe(() => {});
    await h.start();
    expect(h.state.g!.era).to.equal('modern');
    await firstValueFrom(h.tools$.pipe(filter((t) => t.length === 2)));
    expect(textOf(await h.callTool('g__grow'))).to.equal('extra-1');
    await firstValueFrom(h.tools$.pipe(filter((t) => t.some((x) => x.name === 'g__extra-1'))));

    await rejection(h.callTool('g__crash'));
    await phase(h, 'g', 'waiting');
    clock.advance(100);
    await phase(h, 'g', 'ready');
    // The new process knows nothing of the old one's listen: the client asks again.
    expect(names(await firstValueFrom(h.tools$.pipe(filter((t) => t.length === 2))))).to.deep.equal(['g__crash', 'g__grow']);
    expect(sent).to.have.length(2);
    for (const methods of sent) expect(methods.filter((m) => m === 'subscriptions/listen')).to.have.length(1);
    // And what changes on the new process reaches the host through it.
    expect(textOf(await h.callTool('g__grow'))).to.equal('extra-1');
    const grown = await firstValueFrom(h.tools$.pipe(filter((t) => t.some((x) => x.name === 'g__extra-1'))));
    expect(names(grown)).to.deep.equal(['g__crash', 'g__extra-1', 'g__grow']);
  });

  it('resets the attempt count of a server that stays ready for resetAfterMs', async () => {
    const clock = new ManualClock();
    const h = host({ servers: { calc: stdio(CALC) }, clock, random: () => 0, restart: { maxAttempts: 1, initialDelayMs: 100, resetAfterMs: 60_000 } });
    await h.start();
    await rejection(h.callTool('calc__crash'));
    await phase(h, 'calc', 'waiting');
    clock.advance(100);
    expect((await phase(h, 'calc', 'ready')).attempts).to.equal(1);
    clock.advance(59_999);
    expect(h.state.calc!.attempts).to.equal(1);
    clock.advance(1);
    expect(h.state.calc!.attempts).to.equal(0);
    // With the count reset, the next crash is restarted again instead of failing.
    await rejection(h.callTool('calc__crash'));
    expect(await phase(h, 'calc', 'waiting')).to.include({ attempts: 0, restartInMs: 100 });
  });

  it('a server that cannot be spawned fails after its restarts with the spawn error', async () => {
    const clock = new ManualClock();
    const h = host({ servers: { ghost: { command: '/nonexistent/mcp-server' } }, clock, random: () => 0, restart: { maxAttempts: 1, initialDelayMs: 10 } });
    const state = await h.start();
    expect(['crashed', 'waiting']).to.include(state.ghost!.phase);
    await phase(h, 'ghost', 'waiting');
    clock.advance(10);
    const failed = await phase(h, 'ghost', 'failed');
    expect(failed.error!.message).to.match(/Could not start MCP server "\/nonexistent\/mcp-server".*ENOENT/);
    expect(failed.attempts).to.equal(1);
  });

  it('mixes an HTTP server with a stdio one, and follows a tool list change', async () => {
    const mcp = createMcpServer({ info: { name: 'web', version: '1.0.0' } });
    mcp.registerTool('greet', { inputSchema: { type: 'object', properties: { name: { type: 'string' } } } }, (args) => `hello ${String(args.name)}`);
    const listening: Listening = await listen(createStreamableHttpHandler(mcp.server), { port: 0, logger: false });
    try {
      const h = host({
        servers: { mcpServers: { web: { type: 'http', url: listening.url }, echo: { type: 'stdio', ...stdio(ECHO) } } },
        clientOptions: { listChangedDebounceMs: 0 },
      });
      await h.start();
      await h.whenReady();
      expect(h.state.web).to.include({ phase: 'ready', transport: 'http' });
      expect(h.state.echo).to.include({ phase: 'ready', transport: 'stdio' });
      const before = await firstValueFrom(h.tools$.pipe(filter((t) => t.length === 4)));
      expect(names(before)).to.deep.equal(['echo__echo', 'echo__hang', 'echo__slow', 'web__greet']);
      expect(textOf(await h.callTool('web__greet', { name: 'host' }))).to.equal('hello host');
      expect(textOf(await h.callTool('echo__echo', { text: 'ok' }))).to.equal('ok');

      const farewell = mcp.registerTool('farewell', {}, () => 'bye');
      const added = await firstValueFrom(h.tools$.pipe(filter((t) => t.some((x) => x.name === 'web__farewell'))));
      expect(names(added)).to.deep.equal(['echo__echo', 'echo__hang', 'echo__slow', 'web__farewell', 'web__greet']);
      expect(textOf(await h.callTool('web__farewell'))).to.equal('bye');
      farewell.remove();
      await firstValueFrom(h.tools$.pipe(filter((t) => t.length === 4 && !t.some((x) => x.name === 'web__farewell'))));

      await h.close();
      expect(h.state.web!.phase).to.equal('stopped');
    } finally {
      await listening.close();
    }
  });

  it('inspect sees the host, each server connection actor parented to it, and each client session', async () => {
    const actors: Array<{ id: string; parent: string | undefined }> = [];
    const h = host({
      servers: { 'echo-a': stdio(ECHO), 'echo-b': stdio(ECHO) },
      inspect: (ev) => {
        if (ev.type !== '@xstate.actor') return;
        const ref = ev.actorRef as unknown as { id: string; _parent?: { id: string } };
        actors.push({ id: ref.id, parent: ref._parent?.id });
      },
    });
    await h.start();
    expect(actors.filter((a) => a.id === 'host' && a.parent === undefined)).to.have.length(1);
    expect(actors.filter((a) => a.parent === 'host').map((a) => a.id).sort()).to.deep.equal(['server:echo-a', 'server:echo-b']);
    // One session actor per client, the child of its server's connection actor.
    expect(actors.filter((a) => a.id === 'session').map((a) => a.parent).sort()).to.deep.equal(['server:echo-a', 'server:echo-b']);
    expect(actors.filter((a) => a.parent === undefined).map((a) => a.id)).to.deep.equal(['host']);
  });

  it('close() while servers are still connecting stops them all', async () => {
    const h = host({ servers: { a: stdio(ECHO), b: stdio(CALC) } });
    void h.start();
    await h.close();
    expect(Object.values(h.state).map((s) => s.phase)).to.deep.equal(['stopped', 'stopped']);
    await h.close();
  });
});
