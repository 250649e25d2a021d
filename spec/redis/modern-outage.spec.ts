// Issue 32, finding 6 on the 2026-07-28 path: with Redis down, a retry whose requestState the
// Redis replay guard must claim got HTTP 500 and "Internal error", the Redis layer's message
// dropped. It must be 503 with Retry-After, the request's id, and a message naming the failure,
// through the node handler and the fetch handler alike.
import { expect } from 'chai';
import { listen, type Listening } from '../../lib/http/listen-port.js';
import { serveFetch, type ServedFetch } from '../../lib/http/serve-fetch.js';
import { createMcpServer } from '../../lib/mcp-server.js';
import { createRedisStore, type RedisStore } from '../../lib/redis/store.js';
import { createMcpFetchHandler } from '../../lib/server-bindings/fetch-handler.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';
import { startRedis, type RunningRedis } from '../../scripts/real-parts/redis-server.js';
import { post } from '../fixtures/http-server/raw.js';

const V = '2026-07-28';
const META = { 'io.modelcontextprotocol/protocolVersion': V, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} }, 'io.modelcontextprotocol/clientInfo': { name: 'spec', version: '1' } };
const HEADERS = { 'mcp-protocol-version': V, 'mcp-method': 'tools/call', 'mcp-name': 'ask' };
const call = (id: number, extra: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'ask', ...extra, _meta: META } });

for (const adapter of ['node handler', 'fetch handler'] as const) {
  describe(`a Redis outage during a 2026-07-28 POST (${adapter}, issue 32)`, function () {
    this.timeout(20_000);
    let redis: RunningRedis;
    let store: RedisStore;
    let served: Listening | ServedFetch;

    before(async () => {
      redis = await startRedis();
      store = await createRedisStore({ url: redis.url, prefix: 'mo:' });
      const mcp = createMcpServer({ info: { name: 'outage', version: '1' }, store });
      mcp.registerTool('ask', { description: 'asks a name' }, async (_a, ctx) => {
        const r = await ctx.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } }, { inputKey: 'who' });
        return `hi ${String(r.content?.name)}`;
      });
      served = adapter === 'node handler'
        ? await listen(createStreamableHttpHandler(mcp.server, { onError: () => {} }), { logger: false })
        : await serveFetch(createMcpFetchHandler(mcp.server, { onError: () => {} }), { port: 0, logger: false });
    });
    after(async () => {
      await served?.close();
      await Promise.race([store?.close(), new Promise((r) => setTimeout(r, 2_000))]);
      await redis?.stop();
    });

    it('[BASE-062] a retry the replay guard cannot check: 503 with Retry-After, the request id, and a message naming Redis', async () => {
      const first = await post(served.url, call(1), HEADERS);
      expect(first.json?.result?.resultType, first.body).to.equal('input_required');
      const state = first.json.result.requestState as string;
      await redis.stop();
      const deadline = Date.now() + 5_000;
      while (store.client.isReady && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      const res = await post(served.url, call(2, { inputResponses: { who: { action: 'accept', content: { name: 'Ada' } } }, requestState: state }), HEADERS);
      expect(res.status, res.body).to.equal(503);
      expect(res.headers['retry-after']).to.equal('1');
      expect(res.json.id).to.equal(2);
      expect(res.json.error.code).to.equal(-32603);
      expect(res.json.error.message).to.match(/Redis/).and.to.match(/replay guard cannot reach Redis/);
      expect(JSON.stringify(res.json)).not.to.include(`127.0.0.1:${redis.port}`);
    });
  });
}
