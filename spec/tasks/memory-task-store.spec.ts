import { expect } from 'chai';
import { ManualClock } from '../../lib/clock.js';
import { MemoryTaskStore } from '../../lib/tasks/memory-task-store.js';
import { TaskLimitError, type TaskChange } from '../../lib/tasks/task-store.js';

describe('tasks: the in-memory task store', () => {
  it('[TASK-017] [TASK-018] [TASK-019] [TASK-068] ids are unguessable strings made by the store, unique', async () => {
    const store = new MemoryTaskStore({ clock: new ManualClock(0), maxLivePerOwner: 1000 });
    const ids = new Set<string>();
    for (let i = 0; i < 500; i++) ids.add((await store.create({ owner: 'a', method: 'tools/call' })).taskId);
    expect(ids.size).to.equal(500);
    for (const id of ids) expect(id).to.match(/^[0-9a-f]{32}$/);
    await store.close();
  });

  it('[TASK-074] [TASK-075] grants at most maxTtl, and forgets a task exactly at its TTL on the clock (then says expired)', async () => {
    const clock = new ManualClock(1_000);
    const store = new MemoryTaskStore({ clock, maxTtl: 5_000, defaultTtl: 2_000 });
    const changes: TaskChange[] = [];
    store.changes$.subscribe((c) => changes.push(c));
    const long = await store.create({ owner: 'a', method: 'tools/call', ttl: 60_000 });
    const dflt = await store.create({ owner: 'a', method: 'tools/call' });
    expect(long.ttl).to.equal(5_000);
    expect(dflt.ttl).to.equal(2_000);
    clock.advance(1_999);
    expect('found' in (await store.get(dflt.taskId, 'a'))).to.equal(true);
    clock.advance(1);
    expect(await store.get(dflt.taskId, 'a')).to.deep.equal({ missing: 'expired' });
    expect(await store.get(dflt.taskId, 'b')).to.deep.equal({ missing: 'not-found' });
    expect(changes.map((c) => [c.taskId, c.record, c.effects])).to.deep.equal([[dflt.taskId, undefined, ['abortExecution', 'purge']]]);
    clock.advance(3_000);
    expect(store.size).to.equal(0);
    await store.close();
  });

  it('[TASK-073] limits live tasks per owner; a finished task frees its place; other owners are not affected', async () => {
    const store = new MemoryTaskStore({ clock: new ManualClock(0), maxLivePerOwner: 2 });
    const a1 = await store.create({ owner: 'a', method: 'tools/call' });
    await store.create({ owner: 'a', method: 'tools/call' });
    const refused = await store.create({ owner: 'a', method: 'tools/call' }).catch((e: unknown) => e);
    expect(refused).to.be.instanceOf(TaskLimitError);
    await store.create({ owner: 'b', method: 'tools/call' });
    await store.apply(a1.taskId, { type: 'COMPLETE', now: 1, outcome: { result: {} } });
    await store.create({ owner: 'a', method: 'tools/call' });
    await store.close();
  });

  it('is bounded: when full, the oldest finished task makes room; with every task live, creation fails', async () => {
    const store = new MemoryTaskStore({ clock: new ManualClock(0), maxTasks: 3, maxLivePerOwner: 10 });
    const [t1, t2] = [await store.create({ owner: 'a', method: 'm' }), await store.create({ owner: 'a', method: 'm' })];
    await store.create({ owner: 'a', method: 'm' });
    expect(await store.create({ owner: 'a', method: 'm' }).catch((e: unknown) => e)).to.be.instanceOf(TaskLimitError);
    await store.apply(t2.taskId, { type: 'FAIL', now: 1, outcome: { error: { code: -32603, message: 'x' } } });
    await store.create({ owner: 'a', method: 'm' });
    expect(store.size).to.equal(3);
    expect(await store.get(t2.taskId, 'a')).to.deep.equal({ missing: 'expired' });
    expect('found' in (await store.get(t1.taskId, 'a'))).to.equal(true);
    await store.close();
  });

  it('applies events only to the owner\'s task when an owner is given, and ignores events in terminal states', async () => {
    const store = new MemoryTaskStore({ clock: new ManualClock(0) });
    const t = await store.create({ owner: 'a', method: 'm' });
    expect(await store.apply(t.taskId, { type: 'CANCEL', now: 1 }, 'b')).to.equal(undefined);
    expect((await store.apply(t.taskId, { type: 'CANCEL', now: 2 }, 'a'))!.record!.status).to.equal('cancelled');
    expect(await store.apply(t.taskId, { type: 'COMPLETE', now: 3, outcome: { result: {} } })).to.equal(undefined);
    const found = await store.get(t.taskId, 'a');
    expect('found' in found && found.found.status).to.equal('cancelled');
    await store.close();
  });
});
