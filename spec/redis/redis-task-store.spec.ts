// The Redis task store on a real redis-server: the TaskStore behaviour the in-memory store has,
// then what only a store shared by processes must do. Each "process" is a store of its own
// (its own connections, its own clock) on one prefix.
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { filter, firstValueFrom } from 'rxjs';
import { ManualClock } from '../../lib/clock.js';
import { connectRedis, type RedisClient } from '../../lib/redis/redis-connection.js';
import { PROCESS_STOPPED, RedisTaskStore, type RedisTaskStoreOptions } from '../../lib/redis/redis-task-store.js';
import type { TaskChange } from '../../lib/tasks/task-store.js';
import { startRedis, type RunningRedis } from '../../scripts/real-parts/redis-server.js';
import { describeTaskStoreBehaviour } from '../tasks/task-store.behaviour.js';

describe('Redis task store (a real redis-server)', function () {
  this.timeout(20_000);
  let redis: RunningRedis;
  const clients: RedisClient[] = [];

  before(async () => {
    redis = await startRedis();
  });
  after(async () => {
    await Promise.all(clients.map((c) => c.quit().catch(() => undefined)));
    await redis.stop();
  });

  /** A client of its own, as a process would have. */
  async function client(): Promise<RedisClient> {
    const c = await connectRedis(redis.url);
    clients.push(c);
    return c;
  }
  const freshPrefix = () => `t-${randomBytes(4).toString('hex')}:`;

  describeTaskStoreBehaviour('RedisTaskStore', {
    make: async (clock, limits) => RedisTaskStore.create(await client(), { prefix: freshPrefix(), clock, ...limits }),
    settle: (store) => (store as RedisTaskStore).whenIdle(),
  });

  describe('shared by processes', () => {
    const stores: RedisTaskStore[] = [];
    afterEach(async () => {
      await Promise.all(stores.splice(0).map((s) => s.close()));
    });
    /** Two processes on one deployment (one prefix), each with its own clock. */
    async function processes(options: Omit<RedisTaskStoreOptions, 'prefix' | 'clock'> = {}, start = 1_000_000) {
      const prefix = freshPrefix();
      const make = async () => {
        const clock = new ManualClock(start);
        const store = await RedisTaskStore.create(await client(), { ...options, prefix, clock });
        stores.push(store);
        return { store, clock };
      };
      return [await make(), await make()] as const;
    }
    const changeOf = (store: RedisTaskStore, taskId: string, status?: string) =>
      firstValueFrom(store.changes$.pipe(filter((c) => c.taskId === taskId && (status === undefined || c.record?.status === status))));

    it('a task made on A is found, listed and changed on B; each change reaches both, once, in order', async () => {
      const [a, b] = await processes();
      const t = await a.store.create({ owner: 'alice', method: 'tools/call' });
      const atB = await b.store.get(t.taskId, 'alice');
      expect('found' in atB && atB.found.status).to.equal('working');
      expect((await b.store.list('alice')).tasks.map((x) => x.taskId)).to.deep.equal([t.taskId]);
      const seenByA: string[] = [];
      const seenByB: string[] = [];
      a.store.changes$.subscribe((c) => seenByA.push(c.record?.status ?? 'purged'));
      b.store.changes$.subscribe((c) => seenByB.push(c.record?.status ?? 'purged'));
      const done = changeOf(a.store, t.taskId, 'completed');
      await b.store.apply(t.taskId, { type: 'INPUT_REQUIRED', now: 1, inputRequests: { k: { method: 'elicitation/create' } } });
      await a.store.apply(t.taskId, { type: 'INPUT_RECEIVED', now: 2 });
      await b.store.apply(t.taskId, { type: 'COMPLETE', now: 3, outcome: { result: { content: [] } } });
      await done;
      expect(seenByA).to.deep.equal(['input_required', 'working', 'completed']);
      expect(seenByB).to.deep.equal(['input_required', 'working', 'completed']);
    });

    it("a finished task's result is served by another process after the one that ran it closed", async () => {
      const [a, b] = await processes();
      const t = await a.store.create({ owner: 'alice', method: 'tools/call' });
      await a.store.apply(t.taskId, { type: 'COMPLETE', now: 5, outcome: { result: { content: [{ type: 'text', text: 'kept' }] } } });
      await a.store.close();
      const atB = await b.store.get(t.taskId, 'alice');
      expect('found' in atB && atB.found.outcome).to.deep.equal({ result: { content: [{ type: 'text', text: 'kept' }] } });
    });

    it('input responses sent on B are heard on A (tasks/update reaches the process running the task)', async () => {
      const [a, b] = await processes();
      const heard = firstValueFrom(a.store.inputs$);
      await b.store.sendInput({ taskId: 'f'.repeat(32), responses: { 'elicitation-1': { action: 'accept', content: { ok: true } } } });
      expect(await heard).to.deep.equal({ taskId: 'f'.repeat(32), responses: { 'elicitation-1': { action: 'accept', content: { ok: true } } } });
    });

    it('[TASK-053] racing writers on two processes: of COMPLETE on A and CANCEL on B exactly one wins, and both hear the same end', async () => {
      const [a, b] = await processes();
      for (let round = 0; round < 20; round++) {
        const t = await a.store.create({ owner: 'o', method: 'm' });
        const endA = changeOf(a.store, t.taskId);
        const endB = changeOf(b.store, t.taskId);
        const [complete, cancel] = await Promise.all([
          a.store.apply(t.taskId, { type: 'COMPLETE', now: 2, outcome: { result: { content: [] } } }),
          b.store.apply(t.taskId, { type: 'CANCEL', now: 2 }),
        ]);
        expect([complete, cancel].filter((c) => c !== undefined), `round ${round}`).to.have.length(1);
        const winner = (complete ?? cancel)!.record!.status;
        expect([(await endA).record!.status, (await endB).record!.status]).to.deep.equal([winner, winner]);
      }
    });

    it('limits hold across processes: the live tasks of one owner are counted on both', async () => {
      const [a, b] = await processes({ maxLivePerOwner: 2 });
      await a.store.create({ owner: 'o', method: 'm' });
      await b.store.create({ owner: 'o', method: 'm' });
      const refused = await a.store.create({ owner: 'o', method: 'm' }).catch((e: unknown) => e);
      expect((refused as Error).name).to.equal('TaskLimitError');
    });

    it('a task whose process stopped renewing its lease fails on another process, saying so, within the lease', async () => {
      const [a, b] = await processes({ leaseMs: 3_000, sweepIntervalMs: 1_000 });
      const t = await a.store.create({ owner: 'o', method: 'tools/call' });
      const failed = changeOf(a.store, t.taskId, 'failed');
      // A is frozen (its clock never moves: no heartbeat); B's time goes on.
      b.clock.advance(2_999);
      await b.store.whenIdle();
      const stillWorking = await b.store.get(t.taskId, 'o');
      expect('found' in stillWorking && stillWorking.found.status).to.equal('working');
      b.clock.advance(1);
      await b.store.whenIdle();
      const after = await b.store.get(t.taskId, 'o');
      expect('found' in after && after.found.status).to.equal('failed');
      expect('found' in after && after.found.statusMessage).to.contain(PROCESS_STOPPED).and.contain('3000 ms');
      const failedRecord = 'found' in after ? after.found : undefined;
      expect(failedRecord?.outcome).to.deep.equal({ error: { code: -32603, message: failedRecord?.statusMessage } });
      // A (alive after all) hears it, and its late result does not change the outcome.
      await failed;
      expect(await a.store.apply(t.taskId, { type: 'COMPLETE', now: 9, outcome: { result: {} } })).to.equal(undefined);
    });

    it('a live process keeps its tasks: heartbeats renew the lease while time passes everywhere', async () => {
      const [a, b] = await processes({ leaseMs: 3_000, sweepIntervalMs: 1_000 });
      const t = await a.store.create({ owner: 'o', method: 'tools/call' });
      for (let i = 0; i < 10; i++) {
        a.clock.advance(1_000);
        await a.store.whenIdle();
        b.clock.advance(1_000);
        await b.store.whenIdle();
      }
      const now = await b.store.get(t.taskId, 'o');
      expect('found' in now && now.found.status).to.equal('working');
      expect(a.store.holding).to.equal(1);
      await a.store.apply(t.taskId, { type: 'COMPLETE', now: 1, outcome: { result: {} } });
      expect(a.store.holding).to.equal(0);
    });

    it('closing a store fails the live tasks it holds at once, and leaves finished ones alone', async () => {
      const [a, b] = await processes();
      const live = await a.store.create({ owner: 'o', method: 'm' });
      const done = await a.store.create({ owner: 'o', method: 'm' });
      await a.store.apply(done.taskId, { type: 'COMPLETE', now: 1, outcome: { result: { n: 1 } } });
      const heard = changeOf(b.store, live.taskId, 'failed');
      await a.store.close();
      expect((await heard).record!.statusMessage).to.equal(PROCESS_STOPPED);
      const kept = await b.store.get(done.taskId, 'o');
      expect('found' in kept && kept.found.outcome).to.deep.equal({ result: { n: 1 } });
    });

    it('a task made on a process that died still expires: another process sweeps it and tells everyone', async () => {
      const [a, b] = await processes({ defaultTtl: 10_000, leaseMs: 60_000 });
      const t = await a.store.create({ owner: 'o', method: 'm' });
      await a.store.apply(t.taskId, { type: 'COMPLETE', now: 1, outcome: { result: {} } });
      const purged = firstValueFrom(a.store.changes$.pipe(filter((c: TaskChange) => c.taskId === t.taskId && c.record === undefined)));
      b.clock.advance(20_000);
      await b.store.whenIdle();
      expect(await b.store.get(t.taskId, 'o')).to.deep.equal({ missing: 'expired' });
      expect((await purged).effects).to.deep.equal(['abortExecution', 'purge']);
    });

    it('a foreign or malformed message on the channel is reported and skipped', async () => {
      const errors: Error[] = [];
      const prefix = freshPrefix();
      const c = await client();
      const store = await RedisTaskStore.create(c, { prefix, clock: new ManualClock(0), onError: (e) => errors.push(e) });
      stores.push(store);
      const seen: TaskChange[] = [];
      store.changes$.subscribe((x) => seen.push(x));
      await c.publish(`${prefix}tasks`, '{not json');
      await c.publish(`${prefix}tasks`, JSON.stringify({ k: 'c', o: 'x', v: 1, c: { taskId: 1 } }));
      const t = await store.create({ owner: 'o', method: 'm' });
      const other = await client();
      const peer = await RedisTaskStore.create(other, { prefix, clock: new ManualClock(0) });
      stores.push(peer);
      const heard = changeOf(store, t.taskId);
      await peer.apply(t.taskId, { type: 'STATUS', now: 1, message: 'still here' });
      expect((await heard).record!.statusMessage).to.equal('still here');
      expect(errors.map((e) => e.message)).to.have.length(2);
      expect(seen).to.have.length(1);
    });
  });
});
