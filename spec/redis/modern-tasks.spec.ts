// The tasks extension's behaviour with its tasks in Redis: the same spec as in memory.
import { randomBytes } from 'node:crypto';
import { connectRedis, type RedisClient } from '../../lib/redis/redis-connection.js';
import { RedisTaskStore } from '../../lib/redis/redis-task-store.js';
import { startRedis, type RunningRedis } from '../../scripts/real-parts/redis-server.js';
import { describeModernTasks } from '../tasks/modern-tasks.behaviour.js';

describe('tasks extension on a Redis task store (a real redis-server)', function () {
  this.timeout(20_000);
  let redis: RunningRedis;
  let client: RedisClient;
  before(async () => {
    redis = await startRedis();
    client = await connectRedis(redis.url);
  });
  after(async () => {
    await client.quit();
    await redis.stop();
  });
  describeModernTasks('Redis store', async () => {
    const store = await RedisTaskStore.create(client, { prefix: `m-${randomBytes(4).toString('hex')}:` });
    return { store, dispose: () => store.close() };
  });
});
