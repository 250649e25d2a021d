import { expect } from 'chai';
import { firstValueFrom, take, toArray } from 'rxjs';
import { connectRedis, RedisUnavailableError, type RedisClient } from '../../lib/redis/redis-connection.js';
import { RedisServerEventBus } from '../../lib/redis/server-event-bus.js';
import { startRedis, type RunningRedis } from '../../scripts/real-parts/redis-server.js';

describe('Redis server event bus (a real redis-server)', function () {
  this.timeout(20_000);
  let redis: RunningRedis;
  const clients: RedisClient[] = [];
  const buses: RedisServerEventBus[] = [];

  before(async () => {
    redis = await startRedis();
  });
  after(async () => {
    await Promise.all(buses.map((b) => b.close()));
    await Promise.all(clients.map((c) => c.quit().catch(() => undefined)));
    await redis.stop();
  });

  async function bus(channel = 'test') {
    const client = await connectRedis(redis.url);
    clients.push(client);
    const b = await RedisServerEventBus.create(client, { channel });
    buses.push(b);
    return b;
  }

  it('an event published by one process reaches every process, the publisher included, in order', async () => {
    const [a, b] = [await bus(), await bus()];
    const atB = firstValueFrom(b.events$.pipe(take(2), toArray()));
    const atA = firstValueFrom(a.events$.pipe(take(2), toArray()));
    a.publish({ type: 'resourceUpdated', uri: 'file:///x' });
    a.publish({ type: 'listChanged', kind: 'tools' });
    const expected = [
      { type: 'resourceUpdated', uri: 'file:///x' },
      { type: 'listChanged', kind: 'tools' },
    ];
    expect(await atB).to.deep.equal(expected);
    expect(await atA).to.deep.equal(expected);
  });

  it('a foreign or malformed message on the channel is reported and skipped, not delivered', async () => {
    const errors: Error[] = [];
    const client = await connectRedis(redis.url);
    clients.push(client);
    const b = await RedisServerEventBus.create(client, { channel: 'noisy', onError: (e) => errors.push(e) });
    buses.push(b);
    const got = firstValueFrom(b.events$);
    await client.publish('noisy', '{not json');
    await client.publish('noisy', JSON.stringify({ type: 'listChanged', kind: 'secrets' }));
    b.publish({ type: 'listChanged', kind: 'prompts' });
    expect(await got).to.deep.equal({ type: 'listChanged', kind: 'prompts' });
    expect(errors.map((e) => e.message)).to.have.length(2);
  });

  it('an unreachable Redis is a RedisUnavailableError that names the URL without its password', async () => {
    const error = await connectRedis('redis://user:hunter2@127.0.0.1:1').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(RedisUnavailableError);
    expect((error as Error).message).to.contain('127.0.0.1:1').and.not.contain('hunter2');
  });
});
