// 2026-07-28 Streamable HTTP, what the wire looks like: a request is answered with JSON or with an
// SSE stream that carries only that request's messages and ends with its response; Mcp-Param-*
// headers are expected only for arguments with a value and compared numerically; a foreign
// Origin is refused before anything else.
import { expect } from 'chai';
import { listen, type Listening } from '../../lib/http/listen-port.js';
import { createMcpServer } from '../../lib/mcp-server.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';
import { post, postStream } from '../fixtures/http-server/raw.js';

const V = '2026-07-28';
const nameOf: Record<string, string> = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri' };
function modern(id: number, method: string, params: Record<string, unknown> = {}, metaExtra: Record<string, unknown> = {}) {
  const _meta = { 'io.modelcontextprotocol/protocolVersion': V, 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'spec', version: '1' }, ...metaExtra };
  const body = { jsonrpc: '2.0', id, method, params: { ...params, _meta } };
  const headers: Record<string, string> = { 'mcp-protocol-version': V, 'mcp-method': method };
  const key = nameOf[method];
  if (key) headers['mcp-name'] = String(params[key]);
  return { body, headers };
}

describe('2026-07-28 over Streamable HTTP: the wire', () => {
  let http: Listening;

  beforeEach(async () => {
    const mcp = createMcpServer({ info: { name: 'wire', version: '1' } });
    const region = { type: 'string', 'x-mcp-header': 'Region' } as { type: 'string' };
    const count = { type: 'integer', 'x-mcp-header': 'Count' } as { type: 'integer' };
    mcp.registerTool('routed', { description: 'routes', inputSchema: { type: 'object', properties: { region, count } } }, (a) => `region ${String(a.region)} count ${String(a.count)}`);
    mcp.registerTool('steps', { description: 'reports progress' }, async (_a, ctx) => {
      ctx.progress(1, 2);
      ctx.progress(2, 2);
      return 'done';
    });
    mcp.registerTool('echo', { description: 'echo' }, () => 'echo');
    mcp.registerTool('weather', { description: 'structured', outputSchema: { type: 'object', properties: { temperature: { type: 'number' } }, required: ['temperature'] } }, () => ({ structuredContent: { temperature: 22.5 } }));
    http = await listen(createStreamableHttpHandler(mcp.server), { logger: false });
  });
  afterEach(async () => {
    await http.close();
  });

  it('[HTTP-170] [HTTP-172] expects no Mcp-Param header for an argument that is absent or null', async () => {
    let call = modern(1, 'tools/call', { name: 'routed', arguments: { region: 'eu' } });
    let res = await post(http.url, call.body, { ...call.headers, 'mcp-param-region': 'eu' });
    expect(res.status).to.equal(200);
    expect(res.json.result.content[0].text).to.equal('region eu count undefined');
    call = modern(2, 'tools/call', { name: 'routed', arguments: {} });
    res = await post(http.url, call.body, call.headers);
    expect(res.status).to.equal(200);
    expect(res.json.result.resultType).to.equal('complete');
    call = modern(3, 'tools/call', { name: 'routed', arguments: { region: null } });
    res = await post(http.url, call.body, call.headers);
    expect(res.status).to.equal(200);
    expect(res.json.error?.code).to.not.equal(-32020);
  });

  it('[HTTP-176] compares an integer header with the body numerically (42.0 equals 42), and refuses a different number', async () => {
    const call = modern(4, 'tools/call', { name: 'routed', arguments: { count: 42 } });
    let res = await post(http.url, call.body, { ...call.headers, 'mcp-param-count': '42.0' });
    expect(res.status).to.equal(200);
    expect(res.json.result.content[0].text).to.equal('region undefined count 42');
    res = await post(http.url, call.body, { ...call.headers, 'mcp-param-count': '43' });
    expect([res.status, res.json.error.code]).to.deep.equal([400, -32020]);
  });

  it('[HTTP-174] reads MCP-Protocol-Version, Mcp-Method, Mcp-Name and Mcp-Param-* whatever the case of their names', async () => {
    const shout = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toUpperCase(), v]));
    const call = modern(8, 'tools/call', { name: 'routed', arguments: { region: 'eu' } });
    const ok = await post(http.url, call.body, { ...shout(call.headers), 'mCp-PaRaM-rEgIoN': 'eu' });
    expect(ok.status).to.equal(200);
    expect(ok.json.result.content[0].text).to.equal('region eu count undefined');
    // The same names in odd case are still compared with the body: a different value is refused.
    const wrong = await post(http.url, call.body, { ...shout(call.headers), 'MCP-PARAM-REGION': 'us' });
    expect([wrong.status, wrong.json.error.code]).to.deep.equal([400, -32020]);
    const misnamed = await post(http.url, call.body, { ...shout(call.headers), 'MCP-NAME': 'echo', 'Mcp-Param-Region': 'eu' });
    expect([misnamed.status, misnamed.json.error.code]).to.deep.equal([400, -32020]);
  });

  it('[HTTP-110] serves POST on one endpoint path (default /mcp, or the one configured) and nowhere else', async () => {
    const call = modern(9, 'tools/call', { name: 'echo', arguments: {} });
    expect(new URL(http.url).pathname).to.equal('/mcp');
    expect((await post(http.url, call.body, call.headers)).json.result.content[0].text).to.equal('echo');
    expect((await post(`${http.url}?via=query`, call.body, call.headers)).status).to.equal(200);
    const elsewhere = await post(new URL('/other', http.url).href, call.body, call.headers);
    expect(elsewhere.status).to.equal(404);
    expect(elsewhere.body).to.contain('/mcp');
    const mcp = createMcpServer({ info: { name: 'moved', version: '1' } });
    mcp.registerTool('echo', { description: 'echo' }, () => 'moved');
    const moved = await listen(createStreamableHttpHandler(mcp.server, { path: '/api/v1/mcp' }), { logger: false });
    try {
      expect(new URL(moved.url).pathname).to.equal('/api/v1/mcp');
      expect((await post(moved.url, call.body, call.headers)).json.result.content[0].text).to.equal('moved');
      expect((await post(new URL('/mcp', moved.url).href, call.body, call.headers)).status).to.equal(404);
    } finally {
      await moved.close();
    }
  });

  it('[TOOL-066] sends structured content with its serialized JSON in a text block too', async () => {
    const call = modern(10, 'tools/call', { name: 'weather', arguments: {} });
    const result = (await post(http.url, call.body, call.headers)).json.result;
    expect(result.structuredContent).to.deep.equal({ temperature: 22.5 });
    expect(result.content).to.have.length(1);
    expect(result.content[0].type).to.equal('text');
    expect(JSON.parse(result.content[0].text)).to.deep.equal({ temperature: 22.5 });
  });

  it('[HTTP-112] refuses a modern request from a foreign Origin with 403', async () => {
    const call = modern(5, 'tools/call', { name: 'echo', arguments: {} });
    const res = await post(http.url, call.body, { ...call.headers, origin: 'https://evil.example' });
    expect(res.status).to.equal(403);
    const ok = await post(http.url, call.body, call.headers);
    expect(ok.status).to.equal(200);
  });

  it('[HTTP-123] [HTTP-125] [HTTP-126] [HTTP-127] [HTTP-128] answers with JSON, or with an SSE stream of that request\'s notifications ended by its response', async () => {
    const plain = modern(6, 'tools/call', { name: 'echo', arguments: {} });
    const res = await post(http.url, plain.body, plain.headers);
    expect(res.headers['content-type']).to.match(/^application\/json/);
    const { body, headers } = modern(7, 'tools/call', { name: 'steps', arguments: {} }, { progressToken: 'tok' });
    const s = await postStream(http.url, body, headers);
    await s.done;
    expect(s.headers['content-type']).to.match(/^text\/event-stream/);
    expect(s.headers['x-accel-buffering']).to.equal('no');
    const messages = s.messages as { id?: unknown; method?: string; params?: Record<string, unknown>; result?: unknown }[];
    const last = messages[messages.length - 1]!;
    expect(last.id).to.equal(7);
    expect(last.result).to.be.an('object');
    const before = messages.slice(0, -1);
    expect(before.length).to.be.greaterThan(0);
    for (const m of before) {
      expect(m.id, 'no request on a response stream').to.equal(undefined);
      expect(m.method).to.equal('notifications/progress');
      expect(m.params!.progressToken).to.equal('tok');
    }
  });
});
