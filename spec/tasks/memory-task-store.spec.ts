import { expect } from 'chai';
import { ManualClock } from '../../lib/clock.js';
import { MemoryTaskStore } from '../../lib/tasks/memory-task-store.js';
import { describeTaskStoreBehaviour } from './task-store.behaviour.js';

describe('tasks: the in-memory task store', () => {
  describeTaskStoreBehaviour('MemoryTaskStore', {
    make: async (clock, limits) => new MemoryTaskStore({ clock, ...limits }),
    settle: async () => {},
  });

  it('holds nothing once every task has expired (one timer per task, cleared on purge)', async () => {
    const clock = new ManualClock(0);
    const store = new MemoryTaskStore({ clock, defaultTtl: 1_000 });
    for (let i = 0; i < 5; i++) await store.create({ owner: 'a', method: 'm' });
    expect([store.size, clock.pending]).to.deep.equal([5, 5]);
    clock.advance(1_000);
    expect([store.size, clock.pending]).to.deep.equal([0, 0]);
    await store.close();
  });
});
