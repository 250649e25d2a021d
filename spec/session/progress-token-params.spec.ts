// A request asking for progress carries a progress token in its `_meta`, added to a copy of its
// params (made key by key since session 15: a spread copy is slow to grow on Node 20). What the
// peer gets, and what the caller keeps, must be as a spread made them; so must each event of the
// session's `progress$` (the progress, its request id and method).
import { expect } from 'chai';
import { Client } from '../../lib/entries/client.js';
import type { RequestId } from '../../lib/jsonrpc/message.js';
import type { Progress } from '../../lib/session/session.js';
import { Server } from '../../lib/server.js';
import { createMemoryPair } from '../../streams/memory.js';
import { CLIENT_INFO, RawPeer, SERVER_INFO, initializeRaw, settle } from '../helpers/raw-peer.js';

async function connected(): Promise<{ peer: RawPeer; client: Client }> {
  const peer = new RawPeer();
  const client = new Client({ info: CLIENT_INFO, era: 'legacy' });
  const connecting = client.connect(peer.transport);
  const init = await peer.next((f) => f.method === 'initialize');
  peer.send({ jsonrpc: '2.0', id: init.id, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: SERVER_INFO } });
  await connecting;
  return { peer, client };
}

describe('session: the progress token of an outbound request', () => {
  it('[PROG-024] is added to copies: the caller keeps its params and _meta; the peer gets their keys in order, the token last', async () => {
    const { peer, client } = await connected();
    const meta = { 'example.com/trace': 't1' };
    const params = { name: 'x', _meta: meta, arguments: { a: 1 } };
    const seen: Progress[] = [];
    const call = client.request('tools/call', params, { onprogress: (p) => seen.push(p) });
    const request = await peer.next((f) => f.method === 'tools/call');
    expect(Object.keys(request.params)).to.deep.equal(['name', '_meta', 'arguments']);
    expect(Object.keys(request.params._meta)).to.deep.equal(['example.com/trace', 'progressToken']);
    expect(request.params._meta.progressToken).to.equal(request.id);
    expect(params).to.deep.equal({ name: 'x', _meta: { 'example.com/trace': 't1' }, arguments: { a: 1 } });
    expect(meta).to.not.have.property('progressToken');
    peer.send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: request.id, progress: 1, total: 2 } });
    peer.send({ jsonrpc: '2.0', id: request.id, result: { content: [] } });
    await call;
    expect(seen).to.deep.equal([{ progress: 1, total: 2 }]);
    await client.close();
  });

  it('[PROG-024] params without _meta (or none at all) get one holding only the token; progress$ events name their request', async () => {
    const peer = new RawPeer();
    const server = new Server({ info: SERVER_INFO, capabilities: {} });
    const session = await server.connect(peer.transport);
    await initializeRaw(peer, '2025-11-25', { roots: {} });
    const events: (Progress & { requestId: RequestId; method: string })[] = [];
    session.progress$.subscribe((e) => events.push(e));
    const params = { cursor: 'c' };
    const asked = session.request('roots/list', params, { onprogress: () => {} });
    const request = await peer.next((f) => f.method === 'roots/list');
    expect(request.params).to.deep.equal({ cursor: 'c', _meta: { progressToken: request.id } });
    expect(params).to.deep.equal({ cursor: 'c' });
    const pinged = session.request('ping', undefined, { onprogress: () => {} });
    const ping = await peer.next((f) => f.method === 'ping');
    expect(ping.params).to.deep.equal({ _meta: { progressToken: ping.id } });
    peer.send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: request.id, progress: 3, message: 'm' } });
    await settle();
    expect(events).to.deep.equal([{ progress: 3, message: 'm', requestId: request.id, method: 'roots/list' }]);
    expect(Object.keys(events[0]!)).to.deep.equal(['progress', 'message', 'requestId', 'method']);
    peer.send({ jsonrpc: '2.0', id: request.id, result: { roots: [] } });
    peer.send({ jsonrpc: '2.0', id: ping.id, result: {} });
    await Promise.all([asked, pinged]);
    await server.close();
  });

  it('[PROG-024] in 2026-07-28 too: the token goes last into a copy of the request\'s _meta (after the caller\'s keys and the envelope); the caller keeps its own', async () => {
    const [a, b] = createMemoryPair();
    const sent: { id: number; method: string; params: Record<string, any> }[] = [];
    b.inbound$.subscribe((raw) => {
      const m = raw as { id?: number; method: string; params: Record<string, any> };
      if (m.id === undefined) return;
      sent.push(m as (typeof sent)[number]);
      const result = m.method === 'server/discover' ? { supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, serverInfo: SERVER_INFO } : { content: [] };
      b.send({ jsonrpc: '2.0', id: m.id, result: { ...result, resultType: 'complete' } } as never);
    });
    const client = new Client({ info: CLIENT_INFO, era: 'modern' });
    await client.connect(a);
    const meta = { 'example.com/trace': 't1' };
    const params = { name: 'x', _meta: meta, arguments: { a: 1 } };
    await client.request('tools/call', params, { onprogress: () => {} });
    await client.request('tools/call', { name: 'y' }, { onprogress: () => {} });
    const [withMeta, without] = sent.filter((m) => m.method === 'tools/call');
    expect(Object.keys(withMeta!.params)).to.deep.equal(['name', '_meta', 'arguments']);
    const metaKeys = Object.keys(withMeta!.params._meta);
    expect(metaKeys[0]).to.equal('example.com/trace');
    expect(metaKeys.at(-1)).to.equal('progressToken');
    expect(metaKeys).to.include('io.modelcontextprotocol/protocolVersion');
    expect(withMeta!.params._meta.progressToken).to.equal(`p${withMeta!.id}`);
    expect(Object.keys(without!.params)).to.deep.equal(['name', '_meta']);
    expect(Object.keys(without!.params._meta).at(-1)).to.equal('progressToken');
    expect(without!.params._meta.progressToken).to.equal(`p${without!.id}`);
    expect(params).to.deep.equal({ name: 'x', _meta: { 'example.com/trace': 't1' }, arguments: { a: 1 } });
    await client.close();
  });
});
