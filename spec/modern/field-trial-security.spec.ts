// Findings of the field trial (issue 32) on the 2026-07-28 HTTP path, each over real HTTP on
// 127.0.0.1 through the node handler and the fetch handler (serveFetch's bridge): a requestState
// bound to the user, not the OAuth client; JSON-RPC envelopes the codec refuses elsewhere; and
// the smaller edge checks (Origin with userinfo, padded state, Base64 in Mcp-Method, control
// characters in headers, string params).
import { expect } from 'chai';
import { requireBearerAuth } from '../../lib/auth/server/bearer-auth.js';
import { createMcpServer, type McpServer } from '../../lib/mcp-server.js';
import type { StreamableHttpOptions } from '../../lib/server-bindings/streamable-http-server.js';
import { mountInProcess, type AdapterName, type Mounted } from '../http-fetch/adapters.js';
import { post } from '../fixtures/http-server/raw.js';

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
