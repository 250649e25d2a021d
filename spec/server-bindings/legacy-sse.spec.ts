// The 2024-11-05 HTTP+SSE endpoints served beside Streamable HTTP, checked with raw HTTP.
import { expect } from 'chai';
import { startFixture, type Fixture } from '../fixtures/http-server/server.js';
import { callTool, initializeRequest, raw, stream, until, type SseStream } from '../fixtures/http-server/raw.js';

describe('legacy HTTP+SSE endpoints', () => {
  let fx: Fixture;
  afterEach(async () => {
    await fx?.close();
  });

  async function open(path = '/sse'): Promise<{ sse: SseStream; endpoint: string }> {
    const sse = await stream(`${fx.origin}${path}`, { headers: { accept: 'text/event-stream' } });
    await sse.waitFor(1, (s) => s.events.filter((e) => e.event === 'endpoint').length);
    return { sse, endpoint: sse.events.find((e) => e.event === 'endpoint')!.data };
  }
  const send = (endpoint: string, message: unknown, headers: Record<string, string> = {}) =>
    raw(`${fx.origin}${endpoint}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(message) });

  it('[SSE-001] [SSE-003] opens the stream with an endpoint event naming the POST URL and the session', async () => {
    fx = await startFixture({ legacySse: true });
    const { sse, endpoint } = await open();
    expect(sse.status).to.equal(200);
    expect(sse.headers['content-type']).to.equal('text/event-stream');
    expect(endpoint).to.match(/^\/messages\?sessionId=[A-Za-z0-9_-]{22}$/);
    expect(fx.handler.stats.legacySessions).to.equal(1);
    sse.close();
    await until(() => fx.handler.stats.legacySessions === 0, 'the session to end with its stream');
  });

  it('[SSE-002] [SSE-004] takes messages by POST (202) and answers on the stream as message events', async () => {
    fx = await startFixture({ legacySse: { ssePath: '/events', messagePath: '/rpc' } });
    const { sse, endpoint } = await open('/events');
    expect(endpoint.startsWith('/rpc?sessionId=')).to.equal(true);
    const init = await send(endpoint, initializeRequest('2024-11-05'));
    expect(init.status).to.equal(202);
    expect(init.body).to.equal('Accepted');
    await sse.waitForMessages(1);
    expect(sse.messages[0].result.protocolVersion).to.equal('2024-11-05');
    expect((await send(endpoint, { jsonrpc: '2.0', method: 'notifications/initialized' })).status).to.equal(202);
    expect((await send(endpoint, callTool(2, 'echo', { text: 'old' }))).status).to.equal(202);
    await sse.waitForMessages(2);
    expect(sse.messages[1]).to.deep.equal({ jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'old' }] } });
    expect(sse.events.filter((e) => e.data !== '').every((e) => e.event === 'message' || e.event === 'endpoint')).to.equal(true);
    sse.close();
  });

  it('refuses unknown sessions (404), bad JSON (400), other media types (415)', async () => {
    fx = await startFixture({ legacySse: true });
    const { sse, endpoint } = await open();
    expect((await send('/messages?sessionId=nope', initializeRequest())).status).to.equal(404);
    expect((await send('/messages', initializeRequest())).status).to.equal(400);
    const bad = await raw(`${fx.origin}${endpoint}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' });
    expect(bad.status).to.equal(400);
    expect(bad.json.error.code).to.equal(-32700);
    const text = await raw(`${fx.origin}${endpoint}`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' });
    expect(text.status).to.equal(415);
    // A legacy session id means nothing on the Streamable HTTP endpoint.
    const sid = endpoint.split('=')[1];
    const mcp = await raw(fx.url, { method: 'POST', headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', 'mcp-session-id': sid }, body: JSON.stringify(callTool(1, 'echo', { text: 'x' })) });
    expect(mcp.status).to.equal(404);
    sse.close();
  });

  it('[HTTP-186] is off unless asked for (a new server does not adopt the deprecated transport)', async () => {
    fx = await startFixture();
    expect((await raw(`${fx.origin}/sse`, { headers: { accept: 'text/event-stream' } })).status).to.equal(404);
  });

  it('[HTTP-002] applies DNS rebinding protection to the legacy endpoints too', async () => {
    fx = await startFixture({ legacySse: true });
    expect((await raw(`${fx.origin}/sse`, { headers: { accept: 'text/event-stream', host: 'evil.example' } })).status).to.equal(403);
  });
});
