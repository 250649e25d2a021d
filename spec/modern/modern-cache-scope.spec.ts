// cacheScope on an authenticated endpoint (2026-07-28 caching, security considerations): the
// server shares nothing by default ("private" unless the server says "public"), and a result it
// marks "public" is never what decides access: every request runs its own handler, with its own
// caller, whatever an earlier caller was answered.
import { expect } from 'chai';
import { McpError } from '../../lib/errors.js';
import { listen, type Listening } from '../../lib/http/listen-port.js';
import { ErrorCode } from '../../lib/jsonrpc/error-codes.js';
import { createMcpServer, type McpServer } from '../../lib/mcp-server.js';
import type { AuthOutcome } from '../../streams/http-auth.js';
import type { HttpRequestHead } from '../../streams/http-shape.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';
import { post } from '../fixtures/http-server/raw.js';

const V = '2026-07-28';
const nameOf: Record<string, string> = { 'prompts/get': 'name', 'resources/read': 'uri' };

/** Bearer tokens of two users. */
const TOKENS: Record<string, string> = { 'token-admin': 'admin', 'token-mallory': 'mallory' };

async function serve(mcp: McpServer): Promise<Listening> {
  const authenticate = (req: HttpRequestHead): AuthOutcome => {
    const sub = TOKENS[String(req.headers.authorization ?? '').replace(/^Bearer /, '')];
    return sub === undefined ? { ok: false, status: 401 } : { ok: true, authInfo: { sub } };
  };
  return listen(createStreamableHttpHandler(mcp.server, { authenticate }), { logger: false });
}

async function send(url: string, token: string, id: number, method: string, params: Record<string, unknown> = {}) {
  const _meta = { 'io.modelcontextprotocol/protocolVersion': V, 'io.modelcontextprotocol/clientCapabilities': {} };
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, 'mcp-protocol-version': V, 'mcp-method': method };
  const key = nameOf[method];
  if (key) headers['mcp-name'] = String(params[key]);
  return post(url, { jsonrpc: '2.0', id, method, params: { ...params, _meta } }, headers);
}

describe('cacheScope on an authenticated 2026-07-28 endpoint', () => {
  let http: Listening | undefined;
  afterEach(async () => {
    await http?.close();
    http = undefined;
  });

  it('[CACHE-023] marks every cacheable result "private" unless the server says "public": an authenticated caller\'s answer is not offered for sharing by default', async () => {
    const mcp = createMcpServer({ info: { name: 'private-by-default', version: '1' } });
    mcp.registerTool('t', { description: 't' }, () => 't');
    mcp.registerPrompt('p', { description: 'p' }, () => [{ role: 'user', content: { type: 'text', text: 'p' } }]);
    mcp.registerResource('r', 'test://r', {}, (uri, ctx) => ({ contents: [{ uri, text: `for ${String((ctx.authInfo as { sub?: string }).sub)}` }] }));
    http = await serve(mcp);
    const calls: [string, Record<string, unknown>][] = [
      ['server/discover', {}],
      ['tools/list', {}],
      ['prompts/list', {}],
      ['resources/list', {}],
      ['resources/templates/list', {}],
      ['resources/read', { uri: 'test://r' }],
    ];
    for (const [i, [method, params]] of calls.entries()) {
      const res = await send(http.url, 'token-admin', i + 1, method, params);
      expect(res.status, method).to.equal(200);
      expect([res.json.result.cacheScope, res.json.result.ttlMs], method).to.deep.equal(['private', 0]);
    }
  });

  it('[CACHE-024] a result the server marks "public" decides no access: another caller\'s same request runs the access check again and is refused', async () => {
    // The operator marks everything shareable for a day; one resource is for admins only.
    const mcp = createMcpServer({ info: { name: 'public-lists', version: '1' }, modern: { caching: { default: { ttlMs: 86_400_000, cacheScope: 'public' } } } });
    const readers: string[] = [];
    mcp.registerResource('payroll', 'test://payroll', { mimeType: 'text/plain' }, (uri, ctx) => {
      const sub = String((ctx.authInfo as { sub?: string }).sub);
      readers.push(sub);
      if (sub !== 'admin') throw new McpError(ErrorCode.InvalidParams, `Resource ${uri} is not readable by this caller`, { uri });
      return { contents: [{ uri, text: 'salaries: alice 100, bob 90' }] };
    });
    http = await serve(mcp);
    const admin = (await send(http.url, 'token-admin', 1, 'resources/read', { uri: 'test://payroll' })).json;
    expect(admin.result.contents[0].text).to.contain('salaries');
    expect([admin.result.cacheScope, admin.result.ttlMs]).to.deep.equal(['public', 86_400_000]);

    // The same method and params (the same cache key), another token: no reuse of the public answer.
    const mallory = await send(http.url, 'token-mallory', 2, 'resources/read', { uri: 'test://payroll' });
    expect(mallory.json).to.not.have.property('result');
    expect(mallory.json.error.code).to.equal(-32602);
    expect(mallory.body).to.not.contain('salaries');
    expect(readers).to.deep.equal(['admin', 'mallory']);
    // And the admin's next read is served afresh too.
    expect((await send(http.url, 'token-admin', 3, 'resources/read', { uri: 'test://payroll' })).json.result.contents[0].text).to.contain('salaries');
    expect(readers).to.deep.equal(['admin', 'mallory', 'admin']);
  });
});
