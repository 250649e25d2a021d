// Issue 32 (left by the first wave): a 2026-07-28 task call whose Redis task store is down was
// answered 200 with -32603. Like the other store outages it must be HTTP 503 with Retry-After,
// the request's id, and a message naming the store, through the node handler and the fetch
// handler alike; with a real redis-server stopped mid-run.
import { expect } from 'chai';
import { listen, type Listening } from '../../lib/http/listen-port.js';
import { serveFetch, type ServedFetch } from '../../lib/http/serve-fetch.js';
import { createMcpServer } from '../../lib/mcp-server.js';
import { createRedisStore, type RedisStore } from '../../lib/redis/store.js';
import { createMcpFetchHandler } from '../../lib/server-bindings/fetch-handler.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';
import { TASKS_EXTENSION } from '../../lib/tasks/modern-tasks.js';
import { startRedis, type RunningRedis } from '../../scripts/real-parts/redis-server.js';
import { post } from '../fixtures/http-server/raw.js';

const V = '2026-07-28';
const META = { 'io.modelcontextprotocol/protocolVersion': V, 'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS_EXTENSION]: {} } }, 'io.modelcontextprotocol/clientInfo': { name: 'spec', version: '1' } };
const HEADERS = { 'mcp-protocol-version': V, 'mcp-method': 'tools/call', 'mcp-name': 'work' };
const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'work', arguments: {}, _meta: META } });

for (const adapter of ['node handler', 'fetch handler'] as const) {
  describe(`a Redis task store outage during a 2026-07-28 task call (${adapter}, issue 32)`, function () {
    this.timeout(20_000);
    let redis: RunningRedis;
    let store: RedisStore;
    let served: Listening | ServedFetch;

    before(async () => {
      redis = await startRedis();
      store = await createRedisStore({ url: redis.url, prefix: 'mto:' });
      const mcp = createMcpServer({ info: { name: 'task-outage', version: '1' }, store });
      mcp.registerTool('work', { description: 'runs as a task', execution: { taskSupport: 'required' } }, async () => {
        await new Promise((r) => setTimeout(r, 10));
        return 'worked';
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

    it('[BASE-062] a task call the store cannot create: 503 with Retry-After, the request id, and a message naming Redis', async () => {
      const first = await post(served.url, call(1), HEADERS);
      expect(first.status, first.body).to.equal(200);
      expect(first.json?.result?.task?.taskId ?? first.json?.result?.taskId, first.body).to.be.a('string');
      await redis.stop();
      const deadline = Date.now() + 5_000;
      while (store.client.isReady && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      const res = await post(served.url, call(2), HEADERS);
      expect(res.status, res.body).to.equal(503);
      expect(res.headers['retry-after']).to.equal('1');
      expect(res.json.id).to.equal(2);
      expect(res.json.error.code).to.equal(-32603);
      expect(res.json.error.message).to.match(/Redis/).and.to.match(/unavailable/);
      expect(res.json.error.data).to.deep.include({ store: 'redis' });
      expect(JSON.stringify(res.json)).not.to.include(`127.0.0.1:${redis.port}`);
    });
  });
}
