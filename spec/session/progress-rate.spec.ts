import { expect } from 'chai';
import { Client } from '../../lib/entries/client.js';
import { ManualClock } from '../../lib/clock.js';
import { Server } from '../../lib/server.js';
import type { Diagnostic, RequestHandlerContext } from '../../lib/session/session.js';
import { createMemoryPair } from '../../streams/memory.js';
import { CLIENT_INFO, RawPeer, SERVER_INFO, initializeRaw, settle } from '../helpers/raw-peer.js';

/** A server (raw peer as its client) whose `tools/call` handler the test drives by hand. */
async function outbound(minIntervalMs: number) {
  const clock = new ManualClock(0);
  const server = new Server({ info: SERVER_INFO, capabilities: { tools: {} }, clock, journal: true, progress: { minIntervalMs } });
  let ctx!: RequestHandlerContext;
  let finish!: () => void;
  server.onRequest('tools/call', (_p, c) => {
    ctx = c;
    return new Promise((resolve) => (finish = () => resolve({ content: [] })));
  });
  const peer = new RawPeer();
  const session = await server.connect(peer.transport);
  await initializeRaw(peer);
  peer.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'work', _meta: { progressToken: 't' } } });
  await settle();
  /** What the peer received after initialize: progress values and the response, in order. */
  const seen = () =>
    peer.received
      .filter((f) => f.method === 'notifications/progress' || f.id === 1)
      .map((f) => (f.method ? f.params.progress : 'response'));
  return { clock, peer, session, seen, ctx: () => ctx, finish: () => finish() };
}

describe('progress rate limits', () => {
  it('[PROG-008] outbound: at most one notification per interval, the latest kept, flushed before the response and never after', async () => {
    const t = await outbound(100);
    t.ctx().sendProgress(1);
    t.ctx().sendProgress(2);
    t.ctx().sendProgress(3);
    await settle();
    expect(t.seen()).to.deep.equal([1]);
    t.clock.advance(99);
    await settle();
    expect(t.seen()).to.deep.equal([1]);
    t.clock.advance(1);
    await settle();
    expect(t.seen()).to.deep.equal([1, 3]); // 2 was superseded
    t.clock.advance(50);
    t.ctx().sendProgress(4);
    t.ctx().sendProgress(5, 10, 'half');
    await settle();
    expect(t.seen()).to.deep.equal([1, 3]);
    t.finish();
    await t.peer.response(1);
    expect(t.seen()).to.deep.equal([1, 3, 5, 'response']);
    expect(t.peer.received.find((f) => f.method === 'notifications/progress' && f.params.progress === 5).params).to.deep.equal({
      progressToken: 't',
      progress: 5,
      total: 10,
      message: 'half',
    });
    t.ctx().sendProgress(6);
    t.clock.advance(1_000);
    await settle();
    expect(t.seen()).to.deep.equal([1, 3, 5, 'response']);
    expect(t.clock.pending).to.equal(0);
    // The coalescing timer is in the journal, so a replay fires it at the same point.
    expect(t.session.journal!.entries.filter((e) => e.kind === 'timer').map((e: any) => e.name)).to.deep.equal(['progress:1']);
  });

  it('[PROG-008] outbound: a cancelled request’s kept update is dropped', async () => {
    const t = await outbound(100);
    t.ctx().sendProgress(1);
    t.ctx().sendProgress(2);
    t.peer.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'user' } });
    await settle();
    t.clock.advance(500);
    t.finish();
    await settle();
    await settle();
    expect(t.seen()).to.deep.equal([1]);
    expect(t.clock.pending).to.equal(0);
  });

  it('outbound: without minIntervalMs (the default) every update is sent at once', async () => {
    const t = await outbound(0);
    for (let i = 1; i <= 5; i++) t.ctx().sendProgress(i);
    await settle();
    expect(t.seen()).to.deep.equal([1, 2, 3, 4, 5]);
    expect(() => new Client({ era: 'legacy', info: CLIENT_INFO, progress: { minIntervalMs: -1 } })).to.throw(TypeError, /minIntervalMs/);
    expect(() => new Client({ era: 'legacy', info: CLIENT_INFO, progress: { inbound: { limit: 0, windowMs: 1 } } })).to.throw(TypeError, /inbound/);
  });

  describe('inbound', () => {
    async function inbound(progress?: object) {
      const clock = new ManualClock(0);
      const [a, b] = createMemoryPair();
      const server = new Server({ info: SERVER_INFO, capabilities: { tools: {} }, clock });
      let finish!: () => void;
      server.onRequest('tools/call', () => new Promise((resolve) => (finish = () => resolve({ content: [] }))));
      const session = await server.connect(a);
      const client = new Client({ era: 'legacy', info: CLIENT_INFO, clock, ...(progress && { progress }) });
      await client.connect(b);
      await session.whenOperating();
      const diags: Diagnostic[] = [];
      client.diagnostics$.subscribe((d) => diags.push(d));
      const got: number[] = [];
      const result = client.request('tools/call', { name: 'x', _meta: { progressToken: 'p' } }, { onprogress: (p) => got.push(p.progress) });
      await settle();
      const flood = (from: number, n: number) => {
        for (let i = from; i < from + n; i++) session.notify('notifications/progress', { progressToken: 'p', progress: i });
      };
      return { clock, client, got, diags, result, flood, finish: () => finish() };
    }

    it('[PROG-008] progress beyond the limit per window is dropped, reported once; the request itself goes on', async () => {
      const t = await inbound({ inbound: { limit: 3, windowMs: 1000 } });
      t.flood(1, 5);
      await settle();
      expect(t.got).to.deep.equal([1, 2, 3]);
      t.clock.advance(999);
      t.flood(6, 1);
      await settle();
      expect(t.got).to.deep.equal([1, 2, 3]);
      t.clock.advance(1);
      t.flood(7, 4);
      await settle();
      expect(t.got).to.deep.equal([1, 2, 3, 7, 8, 9]);
      const limited = t.diags.filter((d) => d.kind === 'rate-limited');
      expect(limited).to.have.length(1);
      expect(limited[0]!.message).to.contain('more than 3 notifications in 1000 ms');
      t.finish();
      expect(await t.result).to.deep.equal({ content: [] });
    });

    it('[PROG-008] the default limit (10,000 a second) stops a flood; inbound: false lets everything through', async () => {
      const limited = await inbound();
      limited.flood(1, 10_200);
      await settle();
      expect(limited.got).to.have.length(10_000);
      expect(limited.diags.filter((d) => d.kind === 'rate-limited')).to.have.length(1);
      limited.finish();
      await limited.result;

      const open = await inbound({ inbound: false });
      open.flood(1, 10_200);
      await settle();
      expect(open.got).to.have.length(10_200);
      open.finish();
      await open.result;
    });
  });
});
