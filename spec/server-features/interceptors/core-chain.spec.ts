// Nothing bypasses the server chain (issue 29): the 2026-07-28 requests the request core answers
// itself, `server/discover`, `subscriptions/listen` and extension methods, pass the interceptors
// (and so get OpenTelemetry spans) like any other request; over real HTTP on 127.0.0.1.
import { expect } from 'chai';
import { McpError } from '../../../lib/errors.js';
import { listen } from '../../../lib/http/listen-port.js';
import { createMcpServer } from '../../../lib/mcp-server.js';
import type { InterceptedRequest, InterceptorNext } from '../../../lib/server-features/interceptors/server-chain.js';
import { createStreamableHttpHandler } from '../../../lib/server-bindings/streamable-http-server.js';
import { api, harness } from '../../otel/otel-harness.js';

const V = '2026-07-28';
const META = { 'io.modelcontextprotocol/protocolVersion': V, 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' } };

async function post(url: string, id: number, method: string, params: Record<string, unknown> = {}, signal?: AbortSignal): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    ...(signal !== undefined && { signal }),
    headers: { 'x-user': 'ada', 'mcp-protocol-version': V, 'mcp-method': method, accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: META } }),
  });
}

describe('interceptors: the request core\'s own answers go through the chain', () => {
  it('server/discover, an extension method and subscriptions/listen reach the stages with the caller; a stage can refuse or rewrite them; each gets a SERVER span', async () => {
    const h = harness();
    const mcp = createMcpServer({ info: { name: 'core-chain', version: '1' } });
    mcp.registerTool('status', {}, () => 'ok');
    mcp.server.core.serveExtension('x/echo', async (params) => ({ echoed: params?.value ?? null }));
    const seen: string[] = [];
    let refuseDiscover = false;
    mcp.use(async (req: InterceptedRequest, next: InterceptorNext) => {
      seen.push(`${req.method} ${req.caller.era} ${req.caller.principal ?? '-'}`);
      if (req.method === 'server/discover' && refuseDiscover) throw new McpError(-32001, 'Not for you');
      // Rewrites the extension's params on their way in, and its result on the way out.
      if (req.method === 'x/echo') return { ...(await next({ ...req.params, value: 'rewritten' })), stage: true };
      return next();
    });
    mcp.use(h.telemetry.server);
    const http = await listen(createStreamableHttpHandler(mcp.server, { authenticate: () => ({ ok: true, authInfo: { sub: 'ada' } }) }), { logger: false });
    try {
      const discover = (await (await post(http.url, 1, 'server/discover')).json()) as { result: { resultType: string; supportedVersions: string[] } };
      expect(discover.result.resultType).to.equal('complete');
      expect(discover.result.supportedVersions).to.include(V);
      const echo = (await (await post(http.url, 2, 'x/echo', { value: 'sent' })).json()) as { result: Record<string, unknown> };
      expect(echo.result).to.deep.include({ echoed: 'rewritten', stage: true, resultType: 'complete' });
      refuseDiscover = true;
      const refused = (await (await post(http.url, 3, 'server/discover')).json()) as { error: { code: number; message: string } };
      expect(refused.error).to.deep.equal({ code: -32001, message: 'Not for you' });
      // A listen stream: the stage is entered when it opens; its span ends when the client closes it.
      const controller = new AbortController();
      const stream = await post(http.url, 4, 'subscriptions/listen', { notifications: { toolsListChanged: true } }, controller.signal);
      const reader = stream.body!.getReader();
      const first = new TextDecoder().decode((await reader.read()).value);
      expect(first).to.contain('notifications/subscriptions/acknowledged');
      controller.abort();
      await reader.cancel().catch(() => {});
      for (let i = 0; i < 200 && !h.spans().some((s) => s.name === 'subscriptions/listen'); i++) await new Promise((r) => setTimeout(r, 5));
      expect(seen).to.deep.equal(['server/discover modern sub:ada', 'x/echo modern sub:ada', 'server/discover modern sub:ada', 'subscriptions/listen modern sub:ada']);
      const server = h.spans().filter((s) => s.kind === api.SpanKind.SERVER).map((s) => s.name);
      // The refused discover never reached the OTel stage (registered after the refusing one).
      expect(server).to.deep.equal(['server/discover', 'x/echo', 'subscriptions/listen']);
    } finally {
      await mcp.close();
      await http.close();
      await h.shutdown();
    }
  });
});
