// Modern requests on a byte/session transport (stdio, WebSocket, memory): the session that
// carries legacy traffic hands requests with a modern claim to the request-scoped core.
import { expect } from 'chai';
import { createMcpServer } from '../../lib/mcp-server.js';
import { createMemoryPair } from '../../streams/memory.js';
import type { JsonObject } from '../../lib/jsonrpc/message.js';

const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

async function setup() {
  const mcp = createMcpServer({ info: { name: 'stdio-like', version: '1' } });
  mcp.registerTool('echo', { description: 'e' }, async (_a, ctx) => {
    ctx.progress(1, 2);
    await new Promise((r) => setTimeout(r, 5));
    return 'pong';
  });
  const [client, server] = createMemoryPair();
  await mcp.connect(server);
  const frames: JsonObject[] = [];
  client.inbound$.subscribe((f) => frames.push(f as JsonObject));
  await client.start();
  return { mcp, client, frames };
}
const wait = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 2));
};

describe('2026-07-28 on a session transport (dual era per message)', () => {
  it('answers server/discover and a tool call with a claim before any initialize, then still accepts initialize', async () => {
    const { client, frames } = await setup();
    client.send({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta } });
    client.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', _meta: { ...meta, progressToken: 'p' } } });
    await wait(() => frames.some((f) => f.id === 2));
    expect((frames.find((f) => f.id === 1)!.result as JsonObject).supportedVersions).to.deep.equal(['2026-07-28']);
    const progress = frames.findIndex((f) => f.method === 'notifications/progress');
    const answer = frames.findIndex((f) => f.id === 2);
    expect(progress).to.be.greaterThan(-1).and.lessThan(answer);
    expect((frames[answer]!.result as JsonObject).resultType).to.equal('complete');
    client.send({ jsonrpc: '2.0', id: 3, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } });
    await wait(() => frames.some((f) => f.id === 3));
    expect((frames.find((f) => f.id === 3)!.result as JsonObject).protocolVersion).to.equal('2025-11-25');
    await client.close();
  });

  it('answers a claim-less request before initialize as the session era does, and a modern initialize -32601', async () => {
    const { client, frames } = await setup();
    client.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    client.send({ jsonrpc: '2.0', id: 2, method: 'initialize', params: { _meta: meta } });
    await wait(() => frames.length >= 2);
    expect((frames.find((f) => f.id === 1)!.error as JsonObject).code).to.equal(-32600);
    expect((frames.find((f) => f.id === 2)!.error as JsonObject).code).to.equal(-32601);
    await client.close();
  });

  it('[CANCEL-057] [CANCEL-066] drops the answer of a modern request the client cancelled (stdio cancellation)', async () => {
    const { client, frames } = await setup();
    client.send({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'echo', _meta: meta } });
    client.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7 } });
    await new Promise((r) => setTimeout(r, 30));
    expect(frames.some((f) => f.id === 7)).to.equal(false);
    await client.close();
  });

  it('answers server/discover on a legacy session too (after initialize, without a claim)', async () => {
    const { client, frames } = await setup();
    client.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } });
    await wait(() => frames.some((f) => f.id === 1));
    client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    client.send({ jsonrpc: '2.0', id: 2, method: 'server/discover' });
    await wait(() => frames.some((f) => f.id === 2));
    const r = frames.find((f) => f.id === 2)!.result as JsonObject;
    expect(r.supportedVersions).to.deep.equal(['2026-07-28']);
    expect((r.capabilities as JsonObject).tools).to.be.an('object');
    await client.close();
  });

  it('[CANCEL-055] [CANCEL-056] [CANCEL-045] a cancelled modern request aborts its handler, whose cleanup runs; the server sends no notifications/cancelled of its own for it', async () => {
    const mcp = createMcpServer({ info: { name: 'stdio-like', version: '1' } });
    const seen = { started: false, aborted: false, freed: false };
    mcp.registerTool('hold', { description: 'holds a resource until cancelled' }, async (_a, ctx) => {
      seen.started = true;
      try {
        await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
        seen.aborted = ctx.signal.aborted;
        return 'released';
      } finally {
        seen.freed = true;
      }
    });
    const [client, server] = createMemoryPair();
    await mcp.connect(server);
    const frames: JsonObject[] = [];
    client.inbound$.subscribe((f) => frames.push(f as JsonObject));
    await client.start();
    client.send({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'hold', _meta: meta } });
    await wait(() => seen.started);
    client.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 9, reason: 'user' } });
    await wait(() => seen.freed);
    expect(seen).to.deep.equal({ started: true, aborted: true, freed: true });
    // Still serving, and nothing said about request 9: neither its answer nor a cancellation.
    client.send({ jsonrpc: '2.0', id: 10, method: 'tools/list', params: { _meta: meta } });
    await wait(() => frames.some((f) => f.id === 10));
    expect(frames.some((f) => f.id === 9)).to.equal(false);
    expect(frames.filter((f) => f.method === 'notifications/cancelled')).to.deep.equal([]);
    await client.close();
  });

  it('[CANCEL-045] on shutdown sends notifications/cancelled for the listen stream only, not for a tool call in flight', async () => {
    const mcp = createMcpServer({ info: { name: 'stdio-like', version: '1' } });
    let started = false;
    mcp.registerTool('slow', { description: 'never finishes on its own' }, async (_a, ctx) => {
      started = true;
      await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
      return 'stopped';
    });
    const [client, server] = createMemoryPair();
    await mcp.connect(server);
    const frames: JsonObject[] = [];
    client.inbound$.subscribe((f) => frames.push(f as JsonObject));
    await client.start();
    client.send({ jsonrpc: '2.0', id: 'listen-1', method: 'subscriptions/listen', params: { _meta: meta, notifications: { toolsListChanged: true } } });
    client.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'slow', _meta: meta } });
    await wait(() => started && frames.some((f) => f.method === 'notifications/subscriptions/acknowledged'));
    await mcp.close();
    await wait(() => frames.some((f) => f.id === 'listen-1'));
    const cancelled = frames.filter((f) => f.method === 'notifications/cancelled');
    expect(cancelled.map((f) => (f.params as JsonObject).requestId)).to.deep.equal(['listen-1']);
    await client.close();
  });
});
