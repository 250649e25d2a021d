import { expect } from 'chai';
import { Subject } from 'rxjs';
import { ManualClock } from '../../lib/clock.js';
import { debounceOnClock } from '../../lib/server-features/list-changed.js';
import { RawPeer, initializeRaw } from '../helpers/raw-peer.js';
import { connect, makeServer, settle } from './helpers.js';

const TOOLS_CHANGED = 'notifications/tools/list_changed';
const PROMPTS_CHANGED = 'notifications/prompts/list_changed';

describe('server features: list_changed', () => {
  it('[TOOL-006] a storm of 100 registrations in one tick is one notification per session, after the debounce', async () => {
    const { mcp, clock } = makeServer({ listChangedDebounceMs: 50 });
    mcp.registerTool('first', {}, () => 'x');
    const one = await connect(mcp);
    const two = await connect(mcp);
    for (let i = 0; i < 100; i++) mcp.registerTool(`tool-${i}`, {}, () => String(i));
    await settle();
    expect(one.notes).to.deep.equal([]);
    clock.advance(49);
    await settle();
    expect(one.notes).to.deep.equal([]);
    clock.advance(1);
    await settle();
    expect(one.notes).to.deep.equal([{ method: TOOLS_CHANGED, params: undefined }]);
    expect(two.notes.map((n) => n.method)).to.deep.equal([TOOLS_CHANGED]);
    expect(clock.pending).to.equal(0);
    const page = (await one.client.request('tools/list')) as any;
    expect(page.tools).to.have.length(100);
    expect(((await one.client.request('tools/list', { cursor: page.nextCursor })) as any).tools).to.have.length(1);
  });

  it('[TOOL-006] update, disable, enable and remove through a handle each notify', async () => {
    const { mcp, clock } = makeServer({ listChangedDebounceMs: 10 });
    const h = mcp.registerTool('a', {}, () => 'x');
    const { notes } = await connect(mcp);
    const step = async (f: () => void) => {
      f();
      clock.advance(10);
      await settle();
    };
    await step(() => h.update({ description: 'new' }));
    await step(() => h.disable());
    await step(() => h.enable());
    await step(() => h.remove());
    expect(notes.map((n) => n.method)).to.deep.equal([TOOLS_CHANGED, TOOLS_CHANGED, TOOLS_CHANGED, TOOLS_CHANGED]);
  });

  it('a change that does not touch the listed tools (a disabled tool updated) sends nothing', async () => {
    const { mcp, clock } = makeServer();
    const h = mcp.registerTool('a', {}, () => 'x');
    h.disable();
    clock.advance(1000); // what registering and disabling announced is out before anyone connects
    const { notes } = await connect(mcp);
    h.update({ description: 'still hidden' });
    clock.advance(1000);
    await settle();
    expect(notes).to.deep.equal([]);
  });

  it('[PROMPT-002] prompts notify too', async () => {
    const { mcp, clock } = makeServer();
    mcp.registerPrompt('p', {}, () => 'hi');
    const { client, notes } = await connect(mcp);
    expect(client.serverCapabilities).to.deep.include({ prompts: { listChanged: true } });
    mcp.registerPrompt('q', {}, () => 'ho');
    clock.advance(10);
    await settle();
    expect(notes.map((n) => n.method)).to.deep.equal([PROMPTS_CHANGED]);
  });

  it('[TOOL-006] nothing is sent when the capability says listChanged: false', async () => {
    const { mcp, clock } = makeServer({ capabilities: { tools: { listChanged: false } } });
    mcp.registerTool('a', {}, () => 'x');
    const { client, notes } = await connect(mcp);
    expect(client.serverCapabilities).to.deep.include({ tools: { listChanged: false } });
    mcp.registerTool('b', {}, () => 'y');
    clock.advance(1000);
    await settle();
    expect(notes).to.deep.equal([]);
  });

  it('a first tool registered after a session initialized does not reach that session; a session still waiting for initialize gets it', async () => {
    const { mcp, clock } = makeServer();
    const early = await connect(mcp);
    const waiting = new RawPeer();
    await mcp.connect(waiting.transport);
    mcp.registerTool('late', {}, () => 'x');
    clock.advance(10);
    await settle();
    // The initialized session was told no `tools`: no list_changed, and tools/list is refused.
    expect(early.client.serverCapabilities).to.not.have.property('tools');
    expect(early.notes).to.deep.equal([]);
    const init = await initializeRaw(waiting);
    expect(init.result.capabilities.tools).to.deep.equal({ listChanged: true });
    const late = await connect(mcp);
    expect(late.client.serverCapabilities).to.deep.include({ tools: { listChanged: true } });
  });

  it('declaring tools up front lets later registrations reach sessions already connected', async () => {
    const { mcp, clock } = makeServer({ capabilities: { tools: {} } });
    const { client, notes } = await connect(mcp);
    expect(client.serverCapabilities).to.deep.include({ tools: { listChanged: true } });
    expect((await client.request('tools/list')) as any).to.deep.equal({ tools: [] });
    mcp.registerTool('late', {}, () => 'x');
    clock.advance(10);
    await settle();
    expect(notes.map((n) => n.method)).to.deep.equal([TOOLS_CHANGED]);
  });

  it('a session that has not sent initialized yet is not notified', async () => {
    const { mcp, clock } = makeServer();
    mcp.registerTool('a', {}, () => 'x');
    const peer = new RawPeer();
    await mcp.connect(peer.transport);
    peer.send({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } });
    await peer.response('init');
    mcp.registerTool('b', {}, () => 'y');
    clock.advance(10);
    await settle();
    expect(peer.received.filter((f) => f.method === TOOLS_CHANGED)).to.deep.equal([]);
  });

  it('[TOOL-006] registering and connecting within the debounce (the README pattern) sends nothing: the first listing has it all', async () => {
    const { mcp, clock } = makeServer({ listChangedDebounceMs: 10 });
    mcp.registerTool('t', {}, () => 'x');
    mcp.registerPrompt('p', {}, () => 'hi');
    mcp.registerResource('r', 'test://r', {}, () => ({ contents: [{ uri: 'test://r', text: 'r' }] }));
    clock.advance(5);
    const fresh = await connect(mcp); // operating after them, before the debounce fires
    clock.advance(100);
    await settle();
    expect(fresh.notes).to.deep.equal([]);
    // A real change after initialization still reaches it.
    mcp.registerTool('u', {}, () => 'y');
    mcp.registerPrompt('q', {}, () => 'ho');
    mcp.registerResource('s', 'test://s', {}, () => ({ contents: [{ uri: 'test://s', text: 's' }] }));
    clock.advance(100);
    await settle();
    const methods = (c: typeof fresh) => c.notes.map((n) => n.method).sort();
    expect(methods(fresh)).to.deep.equal([PROMPTS_CHANGED, 'notifications/resources/list_changed', TOOLS_CHANGED]);
  });

  it('[TOOL-006] a session operating before a change made just before another connects is told; the newcomer is not', async () => {
    const { mcp, clock } = makeServer({ listChangedDebounceMs: 10, capabilities: { tools: {} } });
    const early = await connect(mcp);
    mcp.registerTool('t', {}, () => 'x');
    const late = await connect(mcp);
    clock.advance(10);
    await settle();
    expect(early.notes.map((n) => n.method)).to.deep.equal([TOOLS_CHANGED]);
    expect(late.notes).to.deep.equal([]);
  });

  describe('debounceOnClock', () => {
    it('emits the last value once the source is quiet for the debounce time', () => {
      const clock = new ManualClock();
      const src = new Subject<number>();
      const out: number[] = [];
      src.pipe(debounceOnClock(10, clock, 'd')).subscribe((v) => out.push(v));
      src.next(1);
      clock.advance(5);
      src.next(2);
      clock.advance(9);
      expect(out).to.deep.equal([]);
      clock.advance(1);
      expect(out).to.deep.equal([2]);
    });

    it('a steady trickle cannot hold the value back longer than maxWait', () => {
      const clock = new ManualClock();
      const src = new Subject<number>();
      const out: number[] = [];
      src.pipe(debounceOnClock(10, clock, 'd', 30)).subscribe((v) => out.push(v));
      for (let i = 0; i < 10; i++) {
        src.next(i);
        clock.advance(5);
      }
      // Changes every 5 ms: the first burst is cut at 30 ms.
      expect(out[0]).to.equal(5);
    });

    it('names its timer, and drops a pending value when unsubscribed', () => {
      const clock = new ManualClock();
      const src = new Subject<number>();
      const out: number[] = [];
      const sub = src.pipe(debounceOnClock(10, clock, 'list-changed:x')).subscribe((v) => out.push(v));
      src.next(1);
      expect(clock.fireNamed('list-changed:x')).to.equal(true);
      src.next(2);
      sub.unsubscribe();
      expect(clock.pending).to.equal(0);
      expect(out).to.deep.equal([1]);
    });
  });
});
