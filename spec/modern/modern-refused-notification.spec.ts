// Issue 32 (left by the first wave): on the 2026-07-28 HTTP path a notification with bad params
// was answered 400 and told nobody on the server. JSON-RPC never answers a notification, so the
// operator must hear of it: the HTTP handler's `onError` gets an error naming the method and the
// problem (never the params), and the server stays up.
import { expect } from 'chai';
import { listen, type Listening } from '../../lib/http/listen-port.js';
import { createMcpServer } from '../../lib/mcp-server.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';
import { McpError } from '../../lib/errors.js';
import { post } from '../fixtures/http-server/raw.js';

const V = '2026-07-28';
const HEADERS = { 'mcp-protocol-version': V };

describe('a refused notification on the 2026-07-28 HTTP path (issue 32)', () => {
  let served: Listening;
  const errors: Error[] = [];
  before(async () => {
    const mcp = createMcpServer({ info: { name: 'refuser', version: '1' } });
    mcp.registerTool('echo', { description: 'echoes' }, async () => 'ok');
    served = await listen(createStreamableHttpHandler(mcp.server, { onError: (e) => errors.push(e) }), { logger: false });
  });
  after(async () => {
    await served?.close();
  });
  beforeEach(() => {
    errors.length = 0;
  });

  it('a notification whose params are no object: 400, and onError hears which method and why', async () => {
    const res = await post(served.url, { jsonrpc: '2.0', method: 'notifications/cancelled', params: 'secret-ish text' }, { ...HEADERS, 'mcp-method': 'notifications/cancelled' });
    expect(res.status, res.body).to.equal(400);
    expect(errors).to.have.length(1);
    const e = errors[0]!;
    expect(e).to.be.instanceOf(McpError);
    expect((e as McpError).code).to.equal(-32600);
    expect(e.message).to.include('"notifications/cancelled" notification').and.to.include('2026-07-28').and.to.include('must be a structured value');
    expect((e as McpError).data).to.deep.equal({ method: 'notifications/cancelled' });
    expect(e.message).to.not.include('secret-ish text');
  });

  it('a bad request is answered to its client with its id and not reported; the server keeps serving', async () => {
    const bad = await post(served.url, { jsonrpc: '2.0', id: 7, method: 'tools/call', params: 'x' }, { ...HEADERS, 'mcp-method': 'tools/call' });
    expect(bad.status).to.equal(400);
    expect(bad.json.id).to.equal(7);
    expect(errors).to.have.length(0);
    const meta = { 'io.modelcontextprotocol/protocolVersion': V, 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'spec', version: '1' } };
    const ok = await post(served.url, { jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'echo', arguments: {}, _meta: meta } }, { ...HEADERS, 'mcp-method': 'tools/call', 'mcp-name': 'echo' });
    expect(ok.status, ok.body).to.equal(200);
    expect(ok.json.result.content[0].text).to.equal('ok');
  });
});
