// Issue 32, finding 6: with Redis down, a legacy call got HTTP 500 with id null and a generic
// "Internal Server Error". The answer must carry the request's id and say the store is unavailable.
import { expect } from 'chai';
import { startRedis, type RunningRedis } from '../../scripts/real-parts/redis-server.js';
import { startCluster, type ClusterProcess } from '../fixtures/cluster/in-process.js';
import { post } from '../fixtures/http-server/raw.js';

const REV = '2025-11-25';

describe('a Redis outage answered as such (issue 32)', function () {
  this.timeout(20_000);
  let redis: RunningRedis;
  let procs: ClusterProcess[] = [];

  before(async () => {
    redis = await startRedis();
  });
  after(async () => {
    // Closing a process whose Redis is gone waits on it: end them without a clean close.
    await Promise.race([Promise.all(procs.map((p) => p.close())), new Promise((r) => setTimeout(r, 2_000))]);
  });

  it('a legacy call while Redis is down: 503 with Retry-After, the request id, and a message naming the store', async () => {
    procs = await startCluster(redis.url, ['a'], { prefix: 'outage' });
    const [a] = procs;
    const init = await post(a!.url, {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: REV, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    const sid = init.headers['mcp-session-id'] as string;
    await redis.stop();
    const res = await post(a!.url, { jsonrpc: '2.0', id: 7, method: 'tools/list' }, { 'mcp-session-id': sid, 'mcp-protocol-version': REV });
    expect(res.status).to.equal(503);
    expect(res.headers['retry-after']).to.equal('1');
    expect(res.json.id).to.equal(7);
    expect(res.json.error.message).to.match(/session store \(Redis\) is unavailable/);
    expect(JSON.stringify(res.json)).not.to.include(redis.url);
  });
});
