// The behaviour every TaskStore must have, run against each store (memory-task-store.spec.ts,
// spec/redis/redis-task-store.spec.ts): what a requestor would notice through tasks/get, tasks/list,
// tasks/cancel and the changes a server acts on.
import { expect } from 'chai';
import { firstValueFrom } from 'rxjs';
import { ManualClock } from '../../lib/clock.js';
import type { TaskRecord } from '../../lib/tasks/task-record.js';
import { InvalidTaskCursorError, TaskLimitError, type TaskChange, type TaskStore } from '../../lib/tasks/task-store.js';

export interface StoreLimits {
  maxTasks?: number;
  maxLivePerOwner?: number;
  maxLiveUnidentified?: number;
  defaultTtl?: number;
  maxTtl?: number;
  pageSize?: number;
}

export interface TaskStoreHarness {
  /** A fresh, empty store on `clock`. */
  make(clock: ManualClock, limits?: StoreLimits): Promise<TaskStore>;
  /** Wait until work the store started on its own (timers) is done. */
  settle(store: TaskStore): Promise<void>;
}

const ok = { result: { content: [] } };

export function describeTaskStoreBehaviour(name: string, harness: TaskStoreHarness): void {
  describe(`${name}: the TaskStore behaviour`, () => {
    const open: TaskStore[] = [];
    async function store(clock = new ManualClock(1_000), limits?: StoreLimits): Promise<TaskStore> {
      const s = await harness.make(clock, limits);
      open.push(s);
      return s;
    }
    afterEach(async () => {
      await Promise.all(open.splice(0).map((s) => s.close()));
    });

    it('[TASK-017] [TASK-018] [TASK-019] [TASK-068] [TASK-136] ids are unguessable strings made by the store, unique', async () => {
      const s = await store(new ManualClock(0), { maxLivePerOwner: 1000 });
      const ids = new Set<string>();
      for (let i = 0; i < 300; i++) ids.add((await s.create({ owner: 'a', method: 'tools/call' })).taskId);
      expect(ids.size).to.equal(300);
      for (const id of ids) expect(id).to.match(/^[0-9a-f]{32}$/);
      // 128 random bits: every one of the 32 digits varies across the ids (a counter, a clock or a
      // short random part would leave leading digits fixed). Random: ~16 values each; P(< 10) is negligible.
      for (let d = 0; d < 32; d++) expect(new Set([...ids].map((id) => id[d])).size, `digit ${d}`).to.be.at.least(10);
    });

    it('[TASK-074] [TASK-075] grants at most maxTtl, and forgets a task exactly at its TTL on the clock (then says expired)', async () => {
      const clock = new ManualClock(1_000);
      const s = await store(clock, { maxTtl: 5_000, defaultTtl: 2_000 });
      const changes: TaskChange[] = [];
      s.changes$.subscribe((c) => changes.push(c));
      const long = await s.create({ owner: 'a', method: 'tools/call', ttl: 60_000 });
      const dflt = await s.create({ owner: 'a', method: 'tools/call' });
      expect(long.ttl).to.equal(5_000);
      expect(dflt.ttl).to.equal(2_000);
      clock.advance(1_999);
      await harness.settle(s);
      expect('found' in (await s.get(dflt.taskId, 'a'))).to.equal(true);
      clock.advance(1);
      await harness.settle(s);
      expect(await s.get(dflt.taskId, 'a')).to.deep.equal({ missing: 'expired' });
      expect(await s.get(dflt.taskId, 'b')).to.deep.equal({ missing: 'not-found' });
      expect(changes.map((c) => [c.taskId, c.record, c.effects])).to.deep.equal([[dflt.taskId, undefined, ['abortExecution', 'purge']]]);
      expect((await s.list('a')).tasks.map((t) => t.taskId)).to.deep.equal([long.taskId]);
      clock.advance(3_000);
      await harness.settle(s);
      expect(await s.get(long.taskId, 'a')).to.deep.equal({ missing: 'expired' });
      expect((await s.list('a')).tasks).to.deep.equal([]);
    });

    it('[TASK-073] limits live tasks per owner; a finished task frees its place; other owners are not affected', async () => {
      const s = await store(new ManualClock(0), { maxLivePerOwner: 2 });
      const a1 = await s.create({ owner: 'a', method: 'tools/call' });
      await s.create({ owner: 'a', method: 'tools/call' });
      const refused = await s.create({ owner: 'a', method: 'tools/call' }).catch((e: unknown) => e);
      expect(refused).to.be.instanceOf(TaskLimitError);
      expect((refused as Error).message).to.contain('at most 2');
      await s.create({ owner: 'b', method: 'tools/call' });
      await s.apply(a1.taskId, { type: 'COMPLETE', now: 1, outcome: ok });
      await s.create({ owner: 'a', method: 'tools/call' });
    });

    it('[TASK-073] counts the tasks of callers nobody can tell apart against their own shared pool, not the per-owner bound', async () => {
      const s = await store(new ManualClock(0), { maxLivePerOwner: 1, maxLiveUnidentified: 3 });
      for (let i = 0; i < 3; i++) await s.create({ owner: 'anonymous', method: 'tools/call', identified: false });
      const refused = await s.create({ owner: 'anonymous', method: 'tools/call', identified: false }).catch((e: unknown) => e);
      expect(refused).to.be.instanceOf(TaskLimitError);
      expect(refused).to.include({ scope: 'unidentified', limit: 3 });
      // An identified owner keeps its own bound, whatever the anonymous ones hold.
      await s.create({ owner: 'sub:alice', method: 'tools/call' });
      expect(await s.create({ owner: 'sub:alice', method: 'tools/call' }).catch((e: unknown) => e)).to.include({ scope: 'requestor', limit: 1 });
    });

    it('is bounded: when full, the oldest finished task makes room; with every task live, creation fails', async () => {
      const s = await store(new ManualClock(0), { maxTasks: 3, maxLivePerOwner: 10 });
      const [t1, t2] = [await s.create({ owner: 'a', method: 'm' }), await s.create({ owner: 'a', method: 'm' })];
      const t3 = await s.create({ owner: 'a', method: 'm' });
      expect(await s.create({ owner: 'a', method: 'm' }).catch((e: unknown) => e)).to.be.instanceOf(TaskLimitError);
      await s.apply(t3.taskId, { type: 'COMPLETE', now: 1, outcome: ok });
      await s.apply(t2.taskId, { type: 'FAIL', now: 1, outcome: { error: { code: -32603, message: 'x' } } });
      const purged = firstValueFrom(s.changes$);
      const t4 = await s.create({ owner: 'a', method: 'm' });
      // The oldest finished one (t2, created before t3) made room, and the store said so.
      expect(await purged).to.deep.include({ taskId: t2.taskId, record: undefined });
      expect(await s.get(t2.taskId, 'a')).to.deep.equal({ missing: 'expired' });
      for (const t of [t1, t3, t4]) expect('found' in (await s.get(t.taskId, 'a'))).to.equal(true);
    });

    it("applies events only to the owner's task when an owner is given, and ignores events in terminal states", async () => {
      const s = await store(new ManualClock(0));
      const t = await s.create({ owner: 'a', method: 'm' });
      expect(await s.apply(t.taskId, { type: 'CANCEL', now: 1 }, 'b')).to.equal(undefined);
      expect((await s.apply(t.taskId, { type: 'CANCEL', now: 2 }, 'a'))!.record!.status).to.equal('cancelled');
      expect(await s.apply(t.taskId, { type: 'COMPLETE', now: 3, outcome: ok })).to.equal(undefined);
      const found = await s.get(t.taskId, 'a');
      expect('found' in found && found.found.status).to.equal('cancelled');
      expect(await s.apply('0'.repeat(32), { type: 'CANCEL', now: 4 })).to.equal(undefined);
    });

    it('[TASK-070] answers an unknown, malformed or foreign id as not found, never as another owner\'s task', async () => {
      const s = await store();
      const t = await s.create({ owner: 'alice', method: 'tools/call' });
      expect(await s.get(t.taskId, 'mallory')).to.deep.equal({ missing: 'not-found' });
      expect(await s.get('f'.repeat(32), 'alice')).to.deep.equal({ missing: 'not-found' });
      for (const bad of ['', 'x', `${t.taskId}*`, 42 as unknown as string]) expect(await s.get(bad, 'alice')).to.deep.equal({ missing: 'not-found' });
      expect((await s.list('mallory')).tasks).to.deep.equal([]);
    });

    it('[TASK-047] [TASK-048] [TASK-050] [TASK-071] lists an owner\'s tasks oldest first, a page at a time, with cursors it issued; refuses others', async () => {
      const s = await store(new ManualClock(0), { pageSize: 2, maxLivePerOwner: 10 });
      const mine: string[] = [];
      for (let i = 0; i < 5; i++) {
        mine.push((await s.create({ owner: 'a', method: 'm' })).taskId);
        await s.create({ owner: 'b', method: 'm' });
      }
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await s.list('a', cursor);
        seen.push(...page.tasks.map((t) => t.taskId));
        expect(page.tasks.length).to.be.at.most(2);
        cursor = page.nextCursor;
        pages++;
      } while (cursor !== undefined && pages < 10);
      expect(seen).to.deep.equal(mine);
      expect(pages).to.equal(3);
      for (const bad of ['nonsense', 't', '', 'x1']) expect(await s.list('a', bad).catch((e: unknown) => e), bad).to.be.instanceOf(InvalidTaskCursorError);
    });

    it('[TASK-030] keeps the input requests a task waits on with its status, and drops them once it works again', async () => {
      const s = await store();
      const t = await s.create({ owner: 'a', method: 'tools/call' });
      const asks = { 'elicitation-1': { method: 'elicitation/create', params: { message: 'ok?' } } };
      await s.apply(t.taskId, { type: 'INPUT_REQUIRED', now: 2, inputRequests: asks });
      const waiting = await s.get(t.taskId, 'a');
      expect('found' in waiting && [waiting.found.status, waiting.found.inputRequests]).to.deep.equal(['input_required', asks]);
      const more = { ...asks, 'sampling-1': { method: 'sampling/createMessage' } };
      await s.apply(t.taskId, { type: 'INPUT_REQUIRED', now: 3, inputRequests: more });
      const both = await s.get(t.taskId, 'a');
      expect('found' in both && Object.keys(both.found.inputRequests!)).to.deep.equal(['elicitation-1', 'sampling-1']);
      await s.apply(t.taskId, { type: 'INPUT_RECEIVED', now: 4 });
      const working = await s.get(t.taskId, 'a');
      expect('found' in working && working.found.status).to.equal('working');
      expect('found' in working && working.found).not.to.have.property('inputRequests');
    });

    it('keeps a finished task\'s outcome exactly, and hands input responses to inputs$', async () => {
      const s = await store();
      const t = await s.create({ owner: 'a', method: 'tools/call', statusMessage: 'Running' });
      const result = { content: [{ type: 'text', text: 'π ≈ 3.141592653589793, "quoted", \u2028' }], structuredContent: { big: 2 ** 53 - 1, small: 1e-9, nested: { a: [null, true] } } };
      await s.apply(t.taskId, { type: 'COMPLETE', now: 5, outcome: { result }, message: 'Done' });
      const done = await s.get(t.taskId, 'a');
      const record = ('found' in done && done.found) as TaskRecord;
      expect([record.status, record.statusMessage, record.lastUpdatedAt, record.createdAt]).to.deep.equal(['completed', 'Done', 5, 1_000]);
      expect(record.outcome).to.deep.equal({ result });
      const heard = firstValueFrom(s.inputs$);
      await s.sendInput({ taskId: t.taskId, responses: { k: { action: 'accept' } } });
      expect(await heard).to.deep.equal({ taskId: t.taskId, responses: { k: { action: 'accept' } } });
    });

    it('[TASK-053] applies concurrent events one at a time: of a COMPLETE and a CANCEL racing, exactly one wins', async () => {
      const s = await store();
      for (let round = 0; round < 10; round++) {
        const t = await s.create({ owner: 'a', method: 'm' });
        const terminal: string[] = [];
        const sub = s.changes$.subscribe((c) => c.taskId === t.taskId && c.record && terminal.push(c.record.status));
        const [complete, cancel] = await Promise.all([s.apply(t.taskId, { type: 'COMPLETE', now: 2, outcome: ok }), s.apply(t.taskId, { type: 'CANCEL', now: 2 })]);
        sub.unsubscribe();
        expect([complete, cancel].filter((c) => c !== undefined)).to.have.length(1);
        const final = await s.get(t.taskId, 'a');
        expect(terminal).to.deep.equal(['found' in final && final.found.status]);
      }
    });
  });
}
