// Findings of the field trial (issue 32) on the 2026-07-28 HTTP path, each over real HTTP on
// 127.0.0.1 through the node handler and the fetch handler (serveFetch's bridge): a requestState
// bound to the user, not the OAuth client; JSON-RPC envelopes the codec refuses elsewhere; and
// the smaller edge checks (Origin with userinfo, padded state, Base64 in Mcp-Method, control
// characters in headers, string params).
import { expect } from 'chai';
import { connect } from 'node:net';
import { requireBearerAuth } from '../../lib/auth/server/bearer-auth.js';
import { createMcpServer, type McpServer } from '../../lib/mcp-server.js';
import type { StreamableHttpOptions } from '../../lib/server-bindings/streamable-http-server.js';
import { createMcpFetchHandler } from '../../lib/server-bindings/fetch-handler.js';
import { mountInProcess, type AdapterName, type Mounted } from '../server-bindings/adapters.js';
import { openSession, post } from '../fixtures/http-server/raw.js';

const V = '2026-07-28';
const ADAPTERS: readonly AdapterName[] = ['node handler', 'fetch handler on Node'];
const nameOf: Record<string, string> = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri' };

/** A modern request with the headers a modern client sends. */
function modern(id: unknown, method: string, params: Record<string, unknown> = {}, caps: Record<string, unknown> = {}) {
  const _meta = { 'io.modelcontextprotocol/protocolVersion': V, 'io.modelcontextprotocol/clientCapabilities': caps, 'io.modelcontextprotocol/clientInfo': { name: 'spec', version: '1' } };
  const body: Record<string, unknown> = { jsonrpc: '2.0', id, method, params: { ...params, _meta } };
  const headers: Record<string, string> = { 'mcp-protocol-version': V, 'mcp-method': method };
  const key = nameOf[method];
  if (key) headers['mcp-name'] = String(params[key]);
  return { body, headers };
}

/** A POST written byte for byte on a socket, so that header values reach the server as given. */
async function rawPost(url: string, headers: Record<string, string>, body: string): Promise<{ status: number; contentType: string; body: string; text: string }> {
  const u = new URL(url);
  const lines = [`POST ${u.pathname} HTTP/1.1`, `Host: ${u.host}`, 'Content-Type: application/json', 'Accept: application/json, text/event-stream', `Content-Length: ${Buffer.byteLength(body)}`, 'Connection: close'];
  for (const [k, v] of Object.entries(headers)) lines.push(`${k}: ${v}`);
  const text = await new Promise<string>((resolve, reject) => {
    const socket = connect(Number(u.port), u.hostname, () => socket.write(`${lines.join('\r\n')}\r\n\r\n${body}`));
    let got = '';
    socket.setEncoding('utf8');
    socket.on('data', (c: string) => (got += c));
    socket.on('close', () => resolve(got));
    socket.on('error', reject);
  });
  const split = text.indexOf('\r\n\r\n');
  const head = text.slice(0, split);
  return { status: Number(/^HTTP\/1\.1 (\d+)/.exec(head)?.[1]), contentType: /content-type: ([^\r]+)/i.exec(head)?.[1] ?? '', body: text.slice(split + 4), text };
}

function server(): McpServer {
  const mcp = createMcpServer({ info: { name: 'trial', version: '1' } });
  mcp.registerTool('echo', { description: 'echo' }, () => 'echo');
  mcp.registerTool('ask', { description: 'asks a name' }, async (_a, ctx) => {
    const r = await ctx.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } }, { inputKey: 'who' });
    return `hi ${String(r.content?.name ?? r.action)} (caller ${String((ctx.authInfo as { subject?: string } | undefined)?.subject)})`;
  });
  return mcp;
}

for (const adapter of ADAPTERS) {
  describe(`field trial findings on the 2026-07-28 HTTP path (${adapter})`, () => {
    let served: Mounted;
    const mount = async (options: StreamableHttpOptions = {}) => (served = await mountInProcess(adapter, server(), options));
    afterEach(async () => {
      await served?.close();
    });

    describe('requestState is bound to the user', () => {
      // Two users of one OAuth client: the tokens differ in subject only.
      const TOKENS: Record<string, { subject: string; clientId: string }> = { 'tok-alice': { subject: 'alice', clientId: 'app1' }, 'tok-bob': { subject: 'bob', clientId: 'app1' } };
      const authenticate = requireBearerAuth({
        resource: 'http://127.0.0.1/mcp',
        requireExpiry: false,
        verifyAccessToken: (token, ctx) => {
          const t = TOKENS[token];
          return t && { subject: t.subject, clientId: t.clientId, scopes: [], resource: ctx.resource };
        },
      });

      it('[MRTR-009] refuses a state that user alice got when user bob of the same client presents it, and still completes it for alice', async () => {
        await mount({ authenticate });
        const first = modern(1, 'tools/call', { name: 'ask' }, { elicitation: {} });
        const r1 = await post(served.url, first.body, { ...first.headers, authorization: 'Bearer tok-alice' });
        expect(r1.json?.result?.resultType, r1.body).to.equal('input_required');
        const state = r1.json.result.requestState as string;
        const retry = modern(2, 'tools/call', { name: 'ask', inputResponses: { who: { action: 'accept', content: { name: 'Ada' } } }, requestState: state }, { elicitation: {} });
        const asBob = await post(served.url, retry.body, { ...retry.headers, authorization: 'Bearer tok-bob' });
        expect(asBob.json.result, 'bob must not get alice\'s result').to.equal(undefined);
        expect(asBob.json.error.code).to.equal(-32602);
        const asAlice = await post(served.url, retry.body, { ...retry.headers, authorization: 'Bearer tok-alice' });
        expect(asAlice.json.result.content[0].text).to.equal('hi Ada (caller alice)');
      });

      it('[MRTR-008] refuses a requestState with "==" appended (base64url is canonical, without padding)', async () => {
        await mount({ authenticate });
        const first = modern(1, 'tools/call', { name: 'ask' }, { elicitation: {} });
        const r1 = await post(served.url, first.body, { ...first.headers, authorization: 'Bearer tok-alice' });
        const state = r1.json.result.requestState as string;
        const answers = { who: { action: 'accept', content: { name: 'Ada' } } };
        const padded = modern(2, 'tools/call', { name: 'ask', inputResponses: answers, requestState: `${state}==` }, { elicitation: {} });
        const res = await post(served.url, padded.body, { ...padded.headers, authorization: 'Bearer tok-alice' });
        expect(res.json.result, res.body).to.equal(undefined);
        expect(res.json.error.code).to.equal(-32602);
      });
    });

    describe('invalid envelopes', () => {
      const INVALID_IDS: Array<[string, unknown]> = [['null', null], ['1.5', 1.5], ['true', true], ['{}', {}], ['[1]', [1]]];
      for (const [label, id] of INVALID_IDS) {
        it(`[BASE-059] refuses id ${label} with 400 and -32600, as the legacy path and stdio do`, async () => {
          await mount();
          const call = modern(id, 'tools/call', { name: 'echo' });
          const res = await post(served.url, call.body, call.headers);
          expect([res.status, res.json?.error?.code, res.json?.id], res.body).to.deep.equal([400, -32600, null]);
          expect(res.json.error.message).to.match(/ids must be a string or an integer/);
          expect(res.json.result).to.equal(undefined);
        });
      }

      it('[BASE-059] refuses "jsonrpc": "1.0" with 400 and -32600 under the request id', async () => {
        await mount();
        const call = modern(7, 'tools/call', { name: 'echo' });
        const res = await post(served.url, { ...call.body, jsonrpc: '1.0' }, call.headers);
        expect([res.status, res.json?.error?.code, res.json?.id], res.body).to.deep.equal([400, -32600, 7]);
        // The same request, well formed, is served.
        const ok = await post(served.url, call.body, call.headers);
        expect([ok.status, ok.json.result.content[0].text]).to.deep.equal([200, 'echo']);
      });
    });

    describe('params that are not structured (JSON-RPC 2.0: params MUST be an object or an array)', () => {
      for (const params of ['x', 3, false, null]) {
        it(`[BASE-058] a modern request with params ${JSON.stringify(params)} gets 400 and -32600 under its id`, async () => {
          await mount();
          const call = modern(8, 'tools/list');
          const res = await post(served.url, { ...call.body, params }, call.headers);
          expect([res.status, res.json?.error?.code, res.json?.id], res.body).to.deep.equal([400, -32600, 8]);
        });
      }

      it('[BASE-011] a modern notification with string params is not answered as a message: 400 with a body without id', async () => {
        await mount();
        const res = await post(served.url, { jsonrpc: '2.0', method: 'notifications/cancelled', params: 'x' }, { 'mcp-protocol-version': V, 'mcp-method': 'notifications/cancelled' });
        expect([res.status, res.json?.error?.code], res.body).to.deep.equal([400, -32600]);
        expect(res.json).to.not.have.property('id');
      });

      it('[BASE-002] a legacy session request with string params gets -32600 under its id; a notification gets 400 without id', async () => {
        await mount();
        const sid = await openSession(served.url, '2025-06-18');
        const h = { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' };
        const res = await post(served.url, { jsonrpc: '2.0', id: 9, method: 'tools/list', params: 'x' }, h);
        expect([res.status, res.json?.error?.code, res.json?.id], res.body).to.deep.equal([400, -32600, 9]);
        const note = await post(served.url, { jsonrpc: '2.0', method: 'notifications/cancelled', params: 7 }, h);
        expect([note.status, note.json?.error?.code], note.body).to.deep.equal([400, -32600]);
        expect(note.json).to.not.have.property('id');
      });
    });

    describe('a control character in a request header', () => {
      // Node's parser refuses these before any handler runs (a bare 400 by default): sent on a raw
      // socket, since no HTTP client lets them through.
      for (const [header, value] of [['Mcp-Session-Id', 'a\x01b'], ['Mcp-Method', 'tools/\x1blist'], ['Authorization', 'Bearer a\x7fb']] as const) {
        it(`[HTTP-010] ${header} with ${JSON.stringify(value)}: 400 with a JSON-RPC error body under the body's id`, async () => {
          await mount();
          const call = modern(11, 'tools/list');
          const res = await rawPost(served.url, { ...call.headers, [header]: value }, JSON.stringify(call.body));
          expect(res.status, res.text).to.equal(400);
          expect(res.contentType).to.match(/application\/json/);
          const body = JSON.parse(res.body) as { id: unknown; error: { code: number; message: string } };
          expect([body.id, body.error.code]).to.deep.equal([11, -32600]);
          expect(body.error.message).to.match(/control character/);
          // The server is still up and serves the same request with clean headers.
          const ok = await post(served.url, call.body, call.headers);
          expect(ok.status).to.equal(200);
        });
      }

      it('[HTTP-010] a body whose id cannot be read is refused under id null', async () => {
        await mount();
        const res = await rawPost(served.url, { 'mcp-protocol-version': V, 'mcp-session-id': 'x\x02y' }, '{"not json');
        expect(res.status).to.equal(400);
        expect(JSON.parse(res.body)).to.deep.include({ jsonrpc: '2.0', id: null });
      });
    });

    it('[HTTP-174] refuses the Base64 sentinel in Mcp-Method (it is meant for Mcp-Name and Mcp-Param-* only)', async () => {
      await mount();
      const call = modern(3, 'tools/call', { name: 'echo' });
      const sentinel = `=?base64?${Buffer.from('tools/call').toString('base64')}?=`;
      const res = await post(served.url, call.body, { ...call.headers, 'mcp-method': sentinel });
      expect([res.status, res.json?.error?.code], res.body).to.deep.equal([400, -32020]);
    });

    it('[HTTP-112] refuses an Origin with userinfo (http://evil.example@127.0.0.1) with 403 and a JSON-RPC error body', async () => {
      await mount();
      const call = modern(4, 'tools/call', { name: 'echo' });
      const res = await post(served.url, call.body, { ...call.headers, origin: 'http://evil.example@127.0.0.1' });
      expect([res.status, res.json?.error?.code], res.body).to.deep.equal([403, -32600]);
      const ok = await post(served.url, call.body, { ...call.headers, origin: 'http://127.0.0.1' });
      expect(ok.status).to.equal(200);
    });
  });
}

describe('field trial findings: the fetch handler as Workers, Deno and Bun call it', () => {
  // Their Fetch `Headers` keep most control characters (only NUL, CR and LF are refused), so the
  // handler sees them itself: no node parser in front.
  it('[HTTP-010] refuses a control character in Mcp-Session-Id with 400 and a JSON-RPC error body under the body\'s id', async () => {
    const handler = createMcpFetchHandler(server());
    try {
      const call = modern(12, 'tools/list');
      const headers = { host: '127.0.0.1', 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...call.headers, 'mcp-session-id': 'a\x01b' };
      const res = await handler(new Request('http://127.0.0.1/mcp', { method: 'POST', headers, body: JSON.stringify(call.body) }));
      expect(res.status).to.equal(400);
      const body = (await res.json()) as { id: unknown; error: { code: number; message: string } };
      expect([body.id, body.error.code]).to.deep.equal([12, -32600]);
      expect(body.error.message).to.contain('mcp-session-id').and.to.contain('control character');
      const get = await handler(new Request('http://127.0.0.1/mcp', { headers: { accept: 'text/event-stream', authorization: 'Bearer \x7f' } }));
      expect(get.status).to.equal(400);
      expect(await get.json()).to.deep.include({ jsonrpc: '2.0', id: null });
      const { 'mcp-session-id': _dropped, ...clean } = headers;
      const ok = await handler(new Request('http://127.0.0.1/mcp', { method: 'POST', headers: clean, body: JSON.stringify(call.body) }));
      expect(ok.status, await ok.clone().text()).to.equal(200);
    } finally {
      await handler.close();
    }
  });
});
