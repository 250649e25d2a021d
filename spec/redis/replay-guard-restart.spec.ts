// Issue 32, finding 2: a consumed requestState must stay refused after Redis restarts without
// persistence (its claims are lost with its data). Two processes of one deployment (each its own
// store, server, handler and port) on a real redis-server that is stopped and started again on
// the same port mid-run: the process that consumed a state puts its claim back when it
// reconnects, so the state is refused on the other process too, and a fresh round still starts
// on one process and completes on the other.
import { expect } from 'chai';
import { listen, type Listening } from '../../lib/http/listen-port.js';
import { createMcpServer } from '../../lib/mcp-server.js';
import { connectRedis } from '../../lib/redis/redis-connection.js';
import { createRedisStore, type RedisStore } from '../../lib/redis/store.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';
import { startRedis, type RunningRedis } from '../../scripts/real-parts/redis-server.js';
import { post } from '../fixtures/http-server/raw.js';

const V = '2026-07-28';
const META = { 'io.modelcontextprotocol/protocolVersion': V, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} }, 'io.modelcontextprotocol/clientInfo': { name: 'spec', version: '1' } };
const HEADERS = { 'mcp-protocol-version': V, 'mcp-method': 'tools/call', 'mcp-name': 'ask' };
const ANSWER = { who: { action: 'accept', content: { name: 'Ada' } } };
const call = (id: number, extra: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'ask', ...extra, _meta: META } });

interface Proc {
  name: string;
  store: RedisStore;
  http: Listening;
}

async function startProc(name: string, url: string): Promise<Proc> {
  const store = await createRedisStore({ url, prefix: 'rgr:' });
  const mcp = createMcpServer({ info: { name, version: '1' }, store });
  mcp.registerTool('ask', { description: 'asks a name' }, async (_a, ctx) => {
    const r = await ctx.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } }, { inputKey: 'who' });
    return `hi ${String(r.content?.name)} from ${name}`;
  });
  const http = await listen(createStreamableHttpHandler(mcp.server, { onError: () => {} }), { logger: false });
  return { name, store, http };
}

async function until(check: () => boolean | Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('the requestState replay guard across a Redis restart without persistence (issue 32)', function () {
  this.timeout(30_000);
  let redis: RunningRedis;
  let a: Proc;
  let b: Proc;

  before(async () => {
    redis = await startRedis();
    a = await startProc('a', redis.url);
    b = await startProc('b', redis.url);
  });
  after(async () => {
    for (const p of [a, b]) {
      await p?.http.close();
      await Promise.race([p?.store.close(), new Promise((r) => setTimeout(r, 2_000))]);
    }
    await redis?.stop();
  });

  it('[MRTR-011] a state consumed on one process is still refused on both after the restart; a fresh round still completes across processes', async () => {
    const first = await post(a.http.url, call(1), HEADERS);
    const state = first.json.result.requestState as string;
    const done = await post(a.http.url, call(2, { inputResponses: ANSWER, requestState: state }), HEADERS);
    expect(done.json.result.content[0].text).to.equal('hi Ada from a');

    // Redis restarts empty on the same port; both processes reconnect.
    const port = redis.port;
    await redis.stop();
    await until(() => !a.store.client.isReady && !b.store.client.isReady, 'both connections to drop');
    redis = await startRedis({ port });
    await until(() => a.store.client.isReady && b.store.client.isReady, 'both processes to reconnect');
    const admin = await connectRedis(redis.url);
    try {
      // The claim is back once process a has re-published it (on its reconnection); without
      // that, it never comes back, and the replays below say what that lets through.
      await until(async () => (await admin.keys('rgr:request-state:*')).length > 0, 'the claim to be re-published', 3_000).catch(() => undefined);
    } finally {
      admin.destroy();
    }

    for (const p of [b, a]) {
      const replay = await post(p.http.url, call(3, { inputResponses: ANSWER, requestState: state }), HEADERS);
      expect(replay.json.result, `${p.name}: ${replay.body}`).to.equal(undefined);
      expect(replay.json.error.code).to.equal(-32602);
      expect(replay.json.error.data).to.deep.equal({ reason: 'replayed' });
    }

    // A fresh round: started on b, completed on a (the signing key survived the restart too).
    const fresh = await post(b.http.url, call(4), HEADERS);
    expect(fresh.json?.result?.resultType, fresh.body).to.equal('input_required');
    const ok = await post(a.http.url, call(5, { inputResponses: ANSWER, requestState: fresh.json.result.requestState }), HEADERS);
    expect(ok.json?.result?.content?.[0]?.text, ok.body).to.equal('hi Ada from a');
  });
});
