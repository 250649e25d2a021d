// Issue 32, finding 2: a Redis without persistence that restarts loses the shared requestState
// key; a process started afterwards made a new one, and rounds begun on the old processes failed
// on it. Here Redis loses everything and drops its connections (what a restart does to a running
// process); the running store puts its key back, and a store made afterwards adopts it.
import { expect } from 'chai';
import { connectRedis } from '../../lib/redis/redis-connection.js';
import { createRedisStore } from '../../lib/redis/store.js';
import { startRedis, type RunningRedis } from '../../scripts/real-parts/redis-server.js';

describe('the shared requestState key across a Redis data loss (issue 32)', function () {
  this.timeout(20_000);
  let redis: RunningRedis;
  before(async () => {
    redis = await startRedis();
  });
  after(async () => {
    await redis.stop();
  });

  it('a running process re-publishes its key after Redis lost it; a new process adopts it', async () => {
    const old = await createRedisStore({ url: redis.url, prefix: 'rsk:' });
    const admin = await connectRedis(redis.url);
    await admin.flushAll();
    await admin.sendCommand(['CLIENT', 'KILL', 'TYPE', 'normal', 'SKIPME', 'yes']);
    const deadline = Date.now() + 5_000;
    while ((await admin.get('rsk:request-state-key')) === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const fresh = await createRedisStore({ url: redis.url, prefix: 'rsk:' });
    expect(Buffer.from(fresh.requestState.key).equals(Buffer.from(old.requestState.key))).to.equal(true);
    await fresh.close();
    await old.close();
    admin.destroy();
  });
});
