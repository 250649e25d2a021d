// 2026-07-28 Streamable HTTP request headers end to end: our client sends Mcp-Method on every
// request and Mcp-Name on the three that name something (Base64 sentinel when the name is not a
// plain header value), our server requires them, and an Mcp-Param-* header it does not know is
// ignored.
// @see https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#standard-request-headers
import { expect } from 'chai';
import type { IncomingHttpHeaders } from 'node:http';
import { Client } from '../../lib/entries/client.js';
import { listen, type Listening } from '../../lib/http/listen-port.js';
import { createMcpServer } from '../../lib/mcp-server.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';
import { post } from '../fixtures/http-server/raw.js';

const V = '2026-07-28';
const decoded = (header: string | undefined) => {
  const m = /^=\?base64\?(.*)\?=$/.exec(header ?? '');
  return m ? Buffer.from(m[1]!, 'base64').toString('utf8') : header;
};

describe('2026-07-28 Mcp-Method and Mcp-Name headers, end to end', () => {
  let http: Listening;
  let seen: IncomingHttpHeaders[];
  let client: Client | undefined;
  let mcp: ReturnType<typeof createMcpServer>;

  beforeEach(async () => {
    mcp = createMcpServer({ info: { name: 'names', version: '1' } });
    mcp.registerTool('echo', { inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }, (a) => `echo:${String(a.text)}`);
    mcp.registerPrompt('résumé', {}, () => 'summarize');
    mcp.registerResource('menu', 'test://café/menu', { mimeType: 'text/plain' }, (uri) => ({ contents: [{ uri, text: 'coffee' }] }));
    http = await listen(createStreamableHttpHandler(mcp.server), { logger: false });
    seen = [];
    http.server.prependListener('request', (req) => {
      if (req.method === 'POST') seen.push(req.headers);
    });
  });
  afterEach(async () => {
    await client?.close();
    client = undefined;
    await http.close();
  });

  const modern = (id: number, method: string, params: Record<string, unknown>, headers: Record<string, string>) =>
    post(
      http.url,
      { jsonrpc: '2.0', id, method, params: { ...params, _meta: { 'io.modelcontextprotocol/protocolVersion': V, 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'spec', version: '1' } } } },
      { 'mcp-protocol-version': V, ...headers },
    );

  it('[HTTP-135] [HTTP-152] our client sends Mcp-Method on every request and Mcp-Name on tools/call, prompts/get and resources/read, Base64-encoded when the name or URI is not plain ASCII; our server accepts them', async () => {
    // A name outside the SHOULD-set of tool names (said once on Node's warning channel).
    const warn = process.emitWarning;
    process.emitWarning = (() => {}) as typeof process.emitWarning;
    try {
      mcp.registerTool('météo', {}, () => 'sunny');
    } finally {
      process.emitWarning = warn;
    }
    client = new Client({ info: { name: 'names-spec', version: '1.0.0' }, era: 'modern' });
    await client.connect(createStreamableHttpClientTransport(http.url));
    expect(client.protocolVersion).to.equal(V);
    expect((await client.callTool('echo', { text: 'hi' })).content).to.deep.equal([{ type: 'text', text: 'echo:hi' }]);
    expect((await client.callTool('météo', {})).content).to.deep.equal([{ type: 'text', text: 'sunny' }]);
    expect((await client.getPrompt('résumé')).messages).to.have.length(1);
    expect((await client.readResource('test://café/menu')).contents[0]).to.include({ text: 'coffee' });
    await client.listTools();

    expect(seen.length).to.be.greaterThanOrEqual(5);
    for (const h of seen) expect(h['mcp-method'], JSON.stringify(h)).to.be.a('string').and.not.equal('');
    const named = seen.filter((h) => ['tools/call', 'prompts/get', 'resources/read'].includes(String(h['mcp-method'])));
    expect(named.map((h) => h['mcp-name'])).to.deep.equal(['echo', named[1]!['mcp-name'], named[2]!['mcp-name'], named[3]!['mcp-name']]);
    expect(named.slice(1).map((h) => [String(h['mcp-name']).startsWith('=?base64?'), decoded(h['mcp-name'] as string)])).to.deep.equal([
      [true, 'météo'],
      [true, 'résumé'],
      [true, 'test://café/menu'],
    ]);
  });

  it('[HTTP-135] our server refuses a request without Mcp-Method, and a tools/call, prompts/get or resources/read without Mcp-Name: 400, -32020', async () => {
    const refused = [
      await modern(1, 'tools/list', {}, {}),
      await modern(2, 'tools/call', { name: 'echo', arguments: { text: 'x' } }, { 'mcp-method': 'tools/call' }),
      await modern(3, 'prompts/get', { name: 'résumé' }, { 'mcp-method': 'prompts/get' }),
      await modern(4, 'resources/read', { uri: 'test://café/menu' }, { 'mcp-method': 'resources/read' }),
    ];
    expect(refused.map((r) => [r.status, (r.json as { error?: { code: number } }).error?.code])).to.deep.equal([
      [400, -32020],
      [400, -32020],
      [400, -32020],
      [400, -32020],
    ]);
    const served = await modern(5, 'tools/call', { name: 'echo', arguments: { text: 'x' } }, { 'mcp-method': 'tools/call', 'mcp-name': 'echo' });
    expect((served.json as { result: { content: unknown } }).result.content).to.deep.equal([{ type: 'text', text: 'echo:x' }]);
  });

  it('[HTTP-163] an Mcp-Param-* header that names no x-mcp-header parameter of the tool is ignored, whatever it holds', async () => {
    const r = await modern(1, 'tools/call', { name: 'echo', arguments: { text: 'x' } }, { 'mcp-method': 'tools/call', 'mcp-name': 'echo', 'mcp-param-region': 'eu-west', 'mcp-param-tenant': '=?base64?not base64!?=' });
    expect(r.status).to.equal(200);
    expect((r.json as { result: { content: unknown } }).result.content).to.deep.equal([{ type: 'text', text: 'echo:x' }]);
  });
});
