// Stateless mode: no session ids, a fresh ServerSession per POST.
import { expect } from 'chai';
import { startFixture, type Fixture } from '../fixtures/http-server/server.js';
import { callTool, initializeRequest, post, postStream, raw, until } from '../fixtures/http-server/raw.js';

describe('Streamable HTTP server: stateless', () => {
  let fx: Fixture;
  beforeEach(async () => {
    fx = await startFixture({ stateless: true, authenticate: () => ({ ok: true, authInfo: { sub: 'anyone' } }) });
  });
  afterEach(async () => {
    await fx?.close();
  });

  const whoami = async (headers: Record<string, string>) => {
    const res = await post(fx.url, callTool(1, 'whoami'), headers);
    expect(res.status).to.equal(200);
    return JSON.parse(res.json.result.content[0].text);
  };

  it('serves initialize without a session id and keeps nothing', async () => {
    const res = await post(fx.url, initializeRequest('2025-06-18'));
    expect(res.status).to.equal(200);
    expect(res.json.result.protocolVersion).to.equal('2025-06-18');
    expect(res.headers['mcp-session-id']).to.equal(undefined);
    expect(fx.handler.sessionCount).to.equal(0);
    await until(() => fx.server.sessions.size === 0, 'the per-POST session to close');
  });

  it('[HTTP-036] serves any request on a fresh session, at the header revision (2025-03-26 when absent)', async () => {
    expect((await whoami({ 'mcp-protocol-version': '2025-06-18' })).protocolVersion).to.equal('2025-06-18');
    expect((await whoami({})).protocolVersion).to.equal('2025-03-26');
    expect((await whoami({ 'mcp-session-id': 'ignored' })).authInfo).to.deep.equal({ sub: 'anyone' });
    await until(() => fx.server.sessions.size === 0, 'the per-POST sessions to close');
  });

  it('[HTTP-037] refuses an unsupported MCP-Protocol-Version with 400', async () => {
    const res = await post(fx.url, callTool(1, 'echo', { text: 'x' }), { 'mcp-protocol-version': '2030-01-01' });
    expect(res.status).to.equal(400);
  });

  it('answers GET and DELETE with 405, notifications with 202', async () => {
    expect((await raw(fx.url, { method: 'GET', headers: { accept: 'text/event-stream' } })).status).to.equal(405);
    const del = await raw(fx.url, { method: 'DELETE' });
    expect(del.status).to.equal(405);
    expect(del.headers.allow).to.equal('POST');
    expect((await post(fx.url, { jsonrpc: '2.0', method: 'notifications/initialized' })).status).to.equal(202);
  });

  it('streams related progress without event ids, then closes', async () => {
    const s = await postStream(fx.url, callTool(2, 'slow', { steps: 2 }, 'p'), { 'mcp-protocol-version': '2025-11-25' });
    await s.done;
    expect(s.messages.map((m) => m.method ?? m.id)).to.deep.equal(['notifications/progress', 'notifications/progress', 2]);
    expect(s.events.every((e) => e.id === undefined)).to.equal(true);
    expect(s.headers['mcp-session-id']).to.equal(undefined);
  });

  it('takes a batch when the header says 2025-03-26', async () => {
    const res = await post(fx.url, [callTool(1, 'echo', { text: 'a' }), callTool(2, 'echo', { text: 'b' })], { 'mcp-protocol-version': '2025-03-26' });
    expect(res.status).to.equal(200);
    expect(res.json).to.have.length(2);
    const refused = await post(fx.url, [callTool(1, 'echo', { text: 'a' })], { 'mcp-protocol-version': '2025-06-18' });
    expect(refused.status).to.equal(400);
  });
});
