// Both sides track which progress tokens are active ("Clients and servers SHOULD track active
// progress tokens", 2026-07-28 progress): a token lives while its request is in flight. Progress
// for a token whose request was answered (or that was never issued) reaches no handler, and a
// handler's progress after its answer goes nowhere. Both eras on the client, both directions on
// the server.
import { expect } from 'chai';
import { Client } from '../../lib/entries/client.js';
import type { JsonObject } from '../../lib/jsonrpc/message.js';
import { createMcpServer } from '../../lib/mcp-server.js';
import { Server } from '../../lib/server.js';
import type { Diagnostic, Progress } from '../../lib/session/session.js';
import { createMemoryPair } from '../../streams/memory.js';
import { CLIENT_INFO, RawPeer, SERVER_INFO, initializeRaw, settle } from '../helpers/raw-peer.js';

const V = '2026-07-28';
const claim = { 'io.modelcontextprotocol/protocolVersion': V, 'io.modelcontextprotocol/clientCapabilities': {} };

/** The server (a raw peer) sends progress, the answer, then progress for the same token again. */
async function lateProgress(peer: RawPeer, request: { id: string | number; params: JsonObject }, result: JsonObject): Promise<void> {
  const token = (request.params._meta as JsonObject).progressToken;
  expect(token, 'the request carries a progress token').to.not.equal(undefined);
  peer.send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: 1, total: 3 } });
  peer.send({ jsonrpc: '2.0', id: request.id, result });
  await settle();
  peer.send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: 2, total: 3 } });
  await settle();
}

describe('active progress tokens', () => {
  it('[PROG-024] client, session era: progress for a token whose request was answered, or never issued, reaches no callback (noted as unknown-progress)', async () => {
    const peer = new RawPeer();
    const client = new Client({ info: CLIENT_INFO, era: 'legacy' });
    const diags: Diagnostic[] = [];
    client.diagnostics$.subscribe((d) => diags.push(d));
    const connected = client.connect(peer.transport);
    const init = await peer.next((f) => f.method === 'initialize');
    peer.send({ jsonrpc: '2.0', id: init.id, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: SERVER_INFO } });
    await connected;

    const seen: Progress[] = [];
    const call = client.request('tools/call', { name: 'x' }, { onprogress: (p) => seen.push(p) });
    const request = await peer.next((f) => f.method === 'tools/call');
    await lateProgress(peer, request, { content: [] });
    await call;
    peer.send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'never-issued', progress: 1 } });
    await settle();

    expect(seen).to.deep.equal([{ progress: 1, total: 3 }]);
    const unknown = diags.filter((d) => d.kind === 'unknown-progress').map((d) => d.message);
    expect(unknown).to.have.length(2);
    expect(unknown[0]).to.contain(JSON.stringify(request.params._meta.progressToken));
    expect(unknown[1]).to.contain('never-issued');
    await client.close();
  });

  it('[PROG-024] client, modern era: progress after the answer reaches no callback, and a later request with its own token gets only its own', async () => {
    const peer = new RawPeer();
    const client = new Client({ info: CLIENT_INFO, era: 'modern' });
    const connected = client.connect(peer.transport);
    const probe = await peer.next((f) => f.method === 'server/discover');
    peer.send({ jsonrpc: '2.0', id: probe.id, result: { resultType: 'complete', supportedVersions: [V], capabilities: { tools: {} }, ttlMs: 0, cacheScope: 'public', _meta: { 'io.modelcontextprotocol/serverInfo': SERVER_INFO } } });
    await connected;
    expect(client.era).to.equal('modern');

    const first: Progress[] = [];
    const call = client.request('tools/call', { name: 'x' }, { onprogress: (p) => first.push(p) });
    const request = await peer.next((f) => f.method === 'tools/call');
    await lateProgress(peer, request, { resultType: 'complete', content: [] });
    await call;
    expect(first).to.deep.equal([{ progress: 1, total: 3 }]);

    const second: Progress[] = [];
    const again = client.request('tools/call', { name: 'y' }, { onprogress: (p) => second.push(p) });
    const next = await peer.next((f) => f.method === 'tools/call' && f.params.name === 'y');
    expect(next.params._meta.progressToken).to.not.equal(request.params._meta.progressToken);
    // The old token again, then the new one: only the new one is this request's.
    peer.send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: request.params._meta.progressToken, progress: 3 } });
    peer.send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: next.params._meta.progressToken, progress: 5 } });
    peer.send({ jsonrpc: '2.0', id: next.id, result: { resultType: 'complete', content: [] } });
    await again;
    expect(second).to.deep.equal([{ progress: 5 }]);
    expect(first).to.have.length(1);
    await client.close();
  });

  it('[PROG-024] server: a handler\'s progress after its answer, or after the request was cancelled, is not sent (a 2026-07-28 request on a session transport)', async () => {
    const mcp = createMcpServer({ info: SERVER_INFO });
    const later: (() => void)[] = [];
    mcp.registerTool('quick', { description: 'answers at once, reports later' }, (_args, ctx) => {
      ctx.progress(1, 2);
      later.push(() => ctx.progress(2, 2));
      return 'done';
    });
    mcp.registerTool('stuck', { description: 'waits to be cancelled' }, (_args, ctx) => {
      ctx.progress(1);
      return new Promise((resolve) => ctx.signal.addEventListener('abort', () => {
        later.push(() => ctx.progress(2));
        resolve('cancelled');
      }));
    });
    const [client, server] = createMemoryPair();
    await mcp.connect(server);
    const frames: JsonObject[] = [];
    client.inbound$.subscribe((f) => frames.push(f as JsonObject));
    await client.start();
    const progressOf = (token: string) => frames.filter((f) => f.method === 'notifications/progress' && (f.params as JsonObject).progressToken === token).map((f) => (f.params as JsonObject).progress);
    const wait = async (check: () => boolean) => {
      for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 2));
    };

    client.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'quick', arguments: {}, _meta: { ...claim, progressToken: 'q' } } });
    await wait(() => frames.some((f) => f.id === 1));
    client.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'stuck', arguments: {}, _meta: { ...claim, progressToken: 's' } } });
    await wait(() => progressOf('s').length === 1);
    client.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2, reason: 'no longer needed' } });
    await wait(() => later.length === 2);
    for (const report of later) report();
    await new Promise((r) => setTimeout(r, 20));

    expect(progressOf('q')).to.deep.equal([1]);
    expect(progressOf('s')).to.deep.equal([1]);
    expect(frames.some((f) => f.id === 2)).to.equal(false);
    await client.close();
  });

  it('[PROG-024] server: progress the client sends for a request the server already has an answer to reaches no callback', async () => {
    const peer = new RawPeer();
    const server = new Server({ info: SERVER_INFO, capabilities: {} });
    const session = await server.connect(peer.transport);
    await initializeRaw(peer, '2025-11-25', { roots: {} });
    const diags: Diagnostic[] = [];
    session.diagnostics$.subscribe((d) => diags.push(d));

    const seen: Progress[] = [];
    const asked = session.request('roots/list', {}, { onprogress: (p) => seen.push(p) });
    const request = await peer.next((f) => f.method === 'roots/list');
    await lateProgress(peer, request, { roots: [] });
    expect(await asked).to.deep.equal({ roots: [] });
    expect(seen).to.deep.equal([{ progress: 1, total: 3 }]);
    expect(diags.filter((d) => d.kind === 'unknown-progress')).to.have.length(1);
    await session.close();
  });
});
