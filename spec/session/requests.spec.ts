import { expect } from 'chai';
import { Client } from '../../lib/entries/client.js';
import { ManualClock } from '../../lib/clock.js';
import { ConnectionClosedError, McpError, RequestCancelledError, RequestTimeoutError } from '../../lib/errors.js';
import { Server, type ServerSession } from '../../lib/server.js';
import type { Diagnostic } from '../../lib/session/session.js';
import { createMemoryPair } from '../../streams/memory.js';
import { CLIENT_INFO, RawPeer, SERVER_INFO, initializeRaw, settle } from '../helpers/raw-peer.js';

/** A client and server on one manual clock, plus a record of what the server saw. */
async function setup(clientOpts: object = {}) {
  const clock = new ManualClock(1_000_000);
  const [a, b] = createMemoryPair();
  const server = new Server({ info: SERVER_INFO, capabilities: { tools: {} }, clock });
  const seen: { aborted: unknown[]; handled: string[] } = { aborted: [], handled: [] };
  const gates = new Map<string, () => void>();
  server.onRequest('tools/call', (params, ctx) => {
    const name = (params as any).name as string;
    seen.handled.push(name);
    ctx.signal.addEventListener('abort', () => seen.aborted.push(ctx.signal.reason));
    if (name === 'echo') return { content: [{ type: 'text', text: (params as any).arguments.text }] };
    if (name === 'fail') throw new McpError(-32042, 'needs more', { x: 1 });
    if (name === 'boom') throw new Error('kaboom');
    // 'gate': answers when the test opens the gate
    return new Promise((resolve) => gates.set(String(ctx.requestId), () => resolve({ content: [] })));
  });
  const session = await server.connect(a);
  const client = new Client({ era: 'legacy', info: CLIENT_INFO, clock, journal: true, ...clientOpts });
  await client.connect(b);
  await session.whenOperating();
  return { clock, client, server, session: session as ServerSession, seen, gates };
}

const outFrames = (c: Client) => c.journal!.entries.filter((e) => e.kind === 'out').map((e: any) => e.frame);

describe('requests', () => {
  it('[BASE-006] [BASE-009] [BASE-010] resolves with the result and rejects with McpError carrying code and data', async () => {
    const { client } = await setup();
    const r = await client.request('tools/call', { name: 'echo', arguments: { text: 'hi' } });
    expect(r).to.deep.equal({ content: [{ type: 'text', text: 'hi' }] });
    const err = await client.request('tools/call', { name: 'fail' }).then(() => null, (e) => e);
    expect(err).to.be.instanceOf(McpError);
    expect(err.code).to.equal(-32042);
    expect(err.data).to.deep.equal({ x: 1 });
  });

  it('a handler that throws a plain error answers -32603 with its message, and the session stays up', async () => {
    const { client } = await setup();
    const err = await client.request('tools/call', { name: 'boom' }).then(() => null, (e) => e);
    expect(err.code).to.equal(-32603);
    expect(err.message).to.equal('kaboom');
    await client.ping();
  });

  it('an unknown method gets -32601', async () => {
    const { client } = await setup({ enforceCapabilities: false });
    const err = await client.request('no/such/method').then(() => null, (e) => e);
    expect(err.code).to.equal(-32601);
    expect(err.message).to.contain('no/such/method');
  });

  it('[PING-001] ping is answered with an empty result in any phase', async () => {
    const { client, session } = await setup();
    await client.ping();
    await session.ping();
  });

  describe('timeouts', () => {
    it('[LIFE-021] [LIFE-022] [LIFE-027] [LIFE-105] times out after 60 s by default: cancels on the wire and rejects with a typed error', async () => {
      const { clock, client, seen } = await setup();
      const p = client.request('tools/call', { name: 'gate' });
      await settle();
      clock.advance(59_999);
      await settle();
      expect(client.pendingRequests).to.equal(1);
      clock.advance(1);
      const err = await p.then(() => null, (e) => e);
      expect(err).to.be.instanceOf(RequestTimeoutError);
      expect(err.message).to.contain('"tools/call"').and.contain('60000 ms');
      const cancel = outFrames(client).find((f) => f.method === 'notifications/cancelled');
      expect(cancel.params.requestId).to.equal(1);
      expect(cancel.params.reason).to.equal('Timed out after 60000 ms');
      await settle();
      expect(seen.aborted).to.have.length(1);
    });

    it('[LIFE-023] honours a per-request timeout', async () => {
      const { clock, client } = await setup();
      const p = client.request('tools/call', { name: 'gate' }, { timeout: 500 });
      await settle();
      clock.advance(500);
      const err = await p.then(() => null, (e) => e);
      expect(err).to.be.instanceOf(RequestTimeoutError);
      expect(err.elapsedMs).to.equal(500);
    });

    it('resetTimeoutOnProgress keeps a request alive without an onprogress callback', async () => {
      const { clock, client, server } = await setup();
      const release: (() => void)[] = [];
      server.onRequest('tools/call', async (_p, ctx) => {
        for (let i = 1; i <= 3; i++) {
          await new Promise<void>((r) => release.push(r));
          ctx.sendProgress(i, 3);
        }
        return { content: [] };
      });
      const p = client.request('tools/call', { name: 'slow' }, { timeout: 1000, resetTimeoutOnProgress: true });
      await settle();
      for (let i = 0; i < 3; i++) {
        clock.advance(900);
        release.shift()!();
        await settle();
      }
      expect(await p).to.deep.equal({ content: [] });
      expect(clock.now() - 1_000_000).to.equal(2700);
    });

    it('without resetTimeoutOnProgress progress does not extend the timeout', async () => {
      const { clock, client, session } = await setup();
      const p = client.request('tools/call', { name: 'gate' }, { timeout: 1000, onprogress: () => {} });
      await settle();
      const token = outFrames(client).find((f) => f.method === 'tools/call').params._meta.progressToken;
      clock.advance(900);
      session.notify('notifications/progress', { progressToken: token, progress: 1 });
      await settle();
      clock.advance(100);
      expect(await p.then(() => null, (e) => e)).to.be.instanceOf(RequestTimeoutError);
    });

    it('[LIFE-024] maxTotalTimeout ends a request however much progress arrives', async () => {
      const { clock, client, session } = await setup();
      const p = client.request('tools/call', { name: 'gate' }, { timeout: 1000, resetTimeoutOnProgress: true, maxTotalTimeout: 2500 });
      await settle();
      const token = outFrames(client).find((f) => f.method === 'tools/call').params._meta.progressToken;
      for (let i = 1; i <= 3; i++) {
        clock.advance(800);
        session.notify('notifications/progress', { progressToken: token, progress: i });
        await settle();
      }
      expect(client.pendingRequests).to.equal(1);
      clock.advance(100);
      const err = await p.then(() => null, (e) => e);
      expect(err).to.be.instanceOf(RequestTimeoutError);
      expect(err.kind).to.equal('total');
      expect(err.elapsedMs).to.equal(2500);
    });

    it('[CANCEL-007] [CANCEL-008] a late response after a timeout is ignored and journaled, an unknown one too', async () => {
      const clock = new ManualClock();
      const peer = new RawPeer();
      const client = new Client({ era: 'legacy', info: CLIENT_INFO, clock, journal: true });
      const connecting = client.connect(peer.transport);
      const init = await peer.next((f) => f.method === 'initialize');
      peer.send({ jsonrpc: '2.0', id: init.id, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: SERVER_INFO } });
      await connecting;
      const diags: Diagnostic[] = [];
      client.diagnostics$.subscribe((d) => diags.push(d));
      const p = client.request('tools/call', { name: 'x' }, { timeout: 10 });
      const req = await peer.next((f) => f.method === 'tools/call');
      clock.advance(10);
      expect(await p.then(() => null, (e) => e)).to.be.instanceOf(RequestTimeoutError);
      peer.send({ jsonrpc: '2.0', id: req.id, result: { content: [] } });
      peer.send({ jsonrpc: '2.0', id: 424242, result: {} });
      await settle();
      expect(diags.map((d) => d.kind)).to.deep.equal(['cancelled', 'late-response', 'unknown-response']);
      const notes = client.journal!.entries.filter((e) => e.kind === 'note').map((e: any) => e.note);
      expect(notes).to.deep.equal(['late-response', 'unknown-response']);
      const timers = client.journal!.entries.filter((e) => e.kind === 'timer').map((e: any) => e.name);
      expect(timers).to.deep.equal([`request:${req.id}:idle`]);
      expect(client.currentPhase).to.equal('operating');
    });

    it('[CANCEL-003] [LIFE-103] initialize is never cancelled: a timed-out initialize sends no notifications/cancelled', async () => {
      const clock = new ManualClock();
      const peer = new RawPeer();
      const client = new Client({ era: 'legacy', info: CLIENT_INFO, clock, timeout: 5000 });
      const p = client.connect(peer.transport);
      await peer.next((f) => f.method === 'initialize');
      clock.advance(5000);
      const err = await p.then(() => null, (e) => e);
      expect(err).to.be.instanceOf(RequestTimeoutError);
      expect(err.method).to.equal('initialize');
      await settle();
      expect(peer.received.filter((f) => f.method === 'notifications/cancelled')).to.have.length(0);
      expect(client.currentPhase).to.equal('failed');
    });
  });

  describe('cancellation', () => {
    it('[CANCEL-001] [CANCEL-002] [CANCEL-004] [CANCEL-005] [CANCEL-006] AbortSignal sends notifications/cancelled, rejects, aborts the handler, and suppresses its response', async () => {
      const { client, seen, gates } = await setup();
      const ac = new AbortController();
      const p = client.request('tools/call', { name: 'gate' }, { signal: ac.signal });
      await settle();
      ac.abort('user changed their mind');
      const err = await p.then(() => null, (e) => e);
      expect(err).to.be.instanceOf(RequestCancelledError);
      await settle();
      expect(seen.aborted).to.deep.equal(['user changed their mind']);
      gates.get('1')!();
      await settle();
      const inbound = client.journal!.entries.filter((e) => e.kind === 'in').map((e: any) => e.frame);
      expect(inbound.filter((f) => f.id === 1)).to.have.length(0);
      const cancel = outFrames(client).find((f) => f.method === 'notifications/cancelled');
      expect(cancel.params).to.deep.equal({ requestId: 1, reason: 'user changed their mind' });
    });

    it('an already aborted signal cancels at once', async () => {
      const { client } = await setup();
      const p = client.request('tools/call', { name: 'gate' }, { signal: AbortSignal.abort('nope') });
      expect(await p.then(() => null, (e) => e)).to.be.instanceOf(RequestCancelledError);
    });

    it('[CANCEL-011] [CANCEL-012] ignores a cancellation for an unknown id and for initialize', async () => {
      const peer = new RawPeer();
      const server = new Server({ info: SERVER_INFO });
      const session = await server.connect(peer.transport);
      const diags: Diagnostic[] = [];
      session.diagnostics$.subscribe((d) => diags.push(d));
      peer.send({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: CLIENT_INFO } });
      peer.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'init' } });
      const res = await peer.response('init');
      expect(res.result.protocolVersion).to.equal('2025-11-25');
      peer.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      peer.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'nobody' } });
      peer.send({ jsonrpc: '2.0', id: 'p', method: 'ping' });
      await peer.response('p');
      expect(diags.filter((d) => d.kind === 'unknown-cancel')).to.have.length(2);
      expect(session.currentPhase).to.equal('operating');
    });

    it('closing the session rejects pending requests and aborts running handlers', async () => {
      const { client, session, seen } = await setup();
      const p = client.request('tools/call', { name: 'gate' });
      await settle();
      await session.close();
      expect(await p.then(() => null, (e) => e)).to.be.instanceOf(ConnectionClosedError);
      expect(seen.aborted).to.have.length(1);
    });
  });

  describe('progress', () => {
    it('[PROG-001] [PROG-004] reaches the caller as a callback and as an observable, in order', async () => {
      const { client, server } = await setup();
      server.onRequest('tools/call', (_p, ctx) => {
        ctx.sendProgress(1, 3, 'one');
        ctx.sendProgress(2, 3);
        ctx.sendProgress(3, 3, 'done');
        return { content: [] };
      });
      const seen: unknown[] = [];
      await client.request('tools/call', { name: 'x' }, { onprogress: (p) => seen.push(p) });
      expect(seen).to.deep.equal([{ progress: 1, total: 3, message: 'one' }, { progress: 2, total: 3 }, { progress: 3, total: 3, message: 'done' }]);
      const { result, progress$ } = client.requestWithProgress('tools/call', { name: 'x' });
      const viaObs: number[] = [];
      let completed = false;
      progress$.subscribe({ next: (p) => viaObs.push(p.progress), complete: () => (completed = true) });
      await result;
      expect(viaObs).to.deep.equal([1, 2, 3]);
      expect(completed).to.equal(true);
    });

    it('a handler sends no progress when the request carried no token', async () => {
      const { client, server } = await setup();
      server.onRequest('tools/call', (_p, ctx) => {
        ctx.sendProgress(1);
        return {};
      });
      await client.request('tools/call', { name: 'x' });
      const inbound = client.journal!.entries.filter((e) => e.kind === 'in').map((e: any) => e.frame);
      expect(inbound.filter((f) => f.method === 'notifications/progress')).to.have.length(0);
    });

    it('[PROG-003] progress must increase: a handler that goes backwards gets an error', async () => {
      const { client, server } = await setup();
      server.onRequest('tools/call', (_p, ctx) => {
        ctx.sendProgress(5);
        ctx.sendProgress(4);
        return {};
      });
      const err = await client.request('tools/call', { name: 'x' }, { onprogress: () => {} }).then(() => null, (e) => e);
      expect(err.code).to.equal(-32603);
      expect(err.message).to.match(/must increase/);
    });

    it('[PROG-002] progress tokens are unique among requests in flight', async () => {
      const { client } = await setup();
      const first = client.request('tools/call', { name: 'gate', _meta: { progressToken: 'tok' } });
      const err = await client.request('tools/call', { name: 'gate', _meta: { progressToken: 'tok' } }).then(() => null, (e) => e);
      expect(err.message).to.contain('already used');
      const auto = [client.request('tools/call', { name: 'gate' }, { onprogress: () => {} }), client.request('tools/call', { name: 'gate' }, { onprogress: () => {} })];
      const tokens = outFrames(client).filter((f) => f.method === 'tools/call' && f.params?._meta?.progressToken !== undefined).map((f) => f.params._meta.progressToken);
      expect(new Set(tokens).size).to.equal(tokens.length);
      void first.catch(() => {});
      for (const a of auto) void a.catch(() => {});
      await client.close();
    });

    it('[PROG-005] [PROG-006] [PROG-007] ignores progress for an unknown token', async () => {
      const { client, session } = await setup();
      const diags: Diagnostic[] = [];
      client.diagnostics$.subscribe((d) => diags.push(d));
      session.notify('notifications/progress', { progressToken: 'ghost', progress: 1 });
      await settle();
      await client.ping();
      expect(diags.map((d) => d.kind)).to.include('unknown-progress');
    });

    it('drops the progress message on 2024-11-05, which has no such field', async () => {
      const peer = new RawPeer();
      const server = new Server({ info: SERVER_INFO, capabilities: { tools: {} } });
      server.onRequest('tools/call', (_p, ctx) => {
        ctx.sendProgress(1, 2, 'half');
        return {};
      });
      await server.connect(peer.transport);
      await initializeRaw(peer, '2024-11-05');
      peer.send({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'x', _meta: { progressToken: 't' } } });
      await peer.response(9);
      const progress = peer.received.find((f) => f.method === 'notifications/progress');
      expect(progress.params).to.deep.equal({ progressToken: 't', progress: 1, total: 2 });
    });
  });
});

describe('keep-alive pings', () => {
  it('[PING-002] [PING-003] pings at the configured interval while the peer answers', async () => {
    const clock = new ManualClock();
    const [a, b] = createMemoryPair();
    await new Server({ info: SERVER_INFO, clock }).connect(a);
    const client = new Client({ era: 'legacy', info: CLIENT_INFO, clock, journal: true, keepAlive: { interval: 1000 } });
    await client.connect(b);
    for (let i = 0; i < 3; i++) {
      clock.advance(1000);
      await settle();
    }
    expect(outFrames(client).filter((f) => f.method === 'ping')).to.have.length(3);
    expect(client.currentPhase).to.equal('operating');
    await client.close();
  });

  it('[PING-005] does not ping a peer that is talking: pings only after a quiet interval, one at a time; refuses an interval that is not a positive number', async () => {
    const clock = new ManualClock();
    const [a, b] = createMemoryPair();
    const server = new Server({ info: SERVER_INFO, clock, capabilities: { tools: {} } });
    server.onRequest('tools/list', () => ({ tools: [] }));
    await server.connect(a);
    const client = new Client({ era: 'legacy', info: CLIENT_INFO, clock, journal: true, keepAlive: { interval: 1000 } });
    await client.connect(b);
    const pings = () => outFrames(client).filter((f) => f.method === 'ping').length;
    // Busy: a request answered every 400 ms for 4 s, no ping.
    for (let i = 0; i < 10; i++) {
      clock.advance(400);
      await client.request('tools/list');
    }
    expect(pings()).to.equal(0);
    // Quiet: one ping per quiet second.
    clock.advance(1000);
    await settle();
    expect(pings()).to.equal(1);
    clock.advance(999);
    await settle();
    expect(pings()).to.equal(1);
    clock.advance(1);
    await settle();
    expect(pings()).to.equal(2);
    await client.close();
    for (const keepAlive of [{ interval: 0 }, { interval: -1 }, { interval: Number.NaN }, { interval: 1000, timeout: 0 }]) {
      expect(() => new Client({ era: 'legacy', info: CLIENT_INFO, keepAlive }), JSON.stringify(keepAlive)).to.throw(TypeError, /keepAlive\.(interval|timeout) must be a positive number/);
    }
  });

  it('[PING-006] [PING-007] an unanswered ping fails the session as a lost connection and says so', async () => {
    const clock = new ManualClock();
    const peer = new RawPeer();
    const client = new Client({ era: 'legacy', info: CLIENT_INFO, clock, keepAlive: { interval: 1000, timeout: 500 } });
    const diags: Diagnostic[] = [];
    client.diagnostics$.subscribe((d) => diags.push(d));
    const connecting = client.connect(peer.transport);
    const init = await peer.next((f) => f.method === 'initialize');
    peer.send({ jsonrpc: '2.0', id: init.id, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: SERVER_INFO } });
    await connecting;
    const pending = client.request('custom/long', {}, { timeout: 60_000 }).then(() => null, (e) => e);
    clock.advance(1000);
    await peer.next((f) => f.method === 'ping');
    clock.advance(500);
    await settle();
    expect(client.currentPhase).to.equal('failed');
    expect(diags.map((d) => d.kind)).to.include('ping-failed');
    const err = await pending;
    expect(err).to.be.instanceOf(ConnectionClosedError);
    expect(err.message).to.match(/stopped answering pings/);
  });
});
