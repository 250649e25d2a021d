/**
 * The in-memory {@link TaskStore}: bounded (a maximum of tasks overall, and of live tasks per
 * owner), TTL-evicted on the given clock (a `ManualClock` in tests), ids from the system's
 * cryptographic random generator (128 bits, hex), so a task id cannot be guessed.
 *
 * Callers nobody can tell apart (`NewTask.identified` false) share one owner and one pool of
 * `maxLiveUnidentified` live tasks instead of the per-owner bound.
 *
 * When the store is full, the oldest terminal task is evicted to make room; if every task is
 * still live, creation fails with {@link TaskLimitError}.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks#resource-management
 */
import { randomHex } from '../crypto/random.js';
import { Subject, type Observable } from 'rxjs';
import { systemClock, type Clock } from '../clock.js';
import { applyTaskEvent, isTerminal, type TaskMachineEvent, type TaskRecord } from './task-record.js';
import { InvalidTaskCursorError, liveLimitFor, TaskLimitError, type NewTask, type TaskChange, type TaskInput, type TaskLookup, type TaskPage, type TaskStore, type TaskStoreLimits } from './task-store.js';

export interface MemoryTaskStoreOptions extends TaskStoreLimits {
  clock?: Clock;
  /** Tasks kept at most, live and terminal (default 10,000). */
  maxTasks?: number;
}

/** Expired ids remembered (to answer "expired" rather than "not found"). */
const EXPIRED_MEMORY = 1024;

interface Entry {
  record: TaskRecord;
  timer: unknown;
}

export class MemoryTaskStore implements TaskStore {
  private readonly clock: Clock;
  private readonly tasks = new Map<string, Entry>();
  private readonly liveByOwner = new Map<string, number>();
  private readonly expired = new Map<string, string>();
  private readonly changes = new Subject<TaskChange>();
  private readonly inputs = new Subject<TaskInput>();
  private seq = 0;
  readonly maxTasks: number;
  readonly maxLivePerOwner: number;
  readonly maxLiveUnidentified: number;
  readonly defaultTtl: number;
  readonly maxTtl: number;
  readonly pollInterval: number;
  readonly pageSize: number;

  constructor(options: MemoryTaskStoreOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.maxTasks = positive(options.maxTasks ?? 10_000, 'maxTasks');
    this.maxLivePerOwner = positive(options.maxLivePerOwner ?? 100, 'maxLivePerOwner');
    this.maxLiveUnidentified = positive(options.maxLiveUnidentified ?? 1_000, 'maxLiveUnidentified');
    this.maxTtl = positive(options.maxTtl ?? 3_600_000, 'maxTtl');
    this.defaultTtl = Math.min(positive(options.defaultTtl ?? 600_000, 'defaultTtl'), this.maxTtl);
    this.pollInterval = positive(options.pollInterval ?? 1_000, 'pollInterval');
    this.pageSize = positive(options.pageSize ?? 50, 'pageSize');
  }

  get changes$(): Observable<TaskChange> {
    return this.changes.asObservable();
  }

  get inputs$(): Observable<TaskInput> {
    return this.inputs.asObservable();
  }

  /** One process: the input goes straight to the task's execution, if it runs here. */
  sendInput(input: TaskInput): Promise<void> {
    this.inputs.next(input);
    return Promise.resolve();
  }

  /** Tasks held now (live and terminal). */
  get size(): number {
    return this.tasks.size;
  }

  create(init: NewTask): Promise<TaskRecord> {
    if ((this.liveByOwner.get(init.owner) ?? 0) >= liveLimitFor(init, this.maxLivePerOwner, this.maxLiveUnidentified)) {
      return Promise.reject(TaskLimitError.forOwner(init, this.maxLivePerOwner, this.maxLiveUnidentified));
    }
    if (this.tasks.size >= this.maxTasks && !this.evictOldestTerminal()) {
      return Promise.reject(TaskLimitError.full(this.maxTasks));
    }
    const now = this.clock.now();
    const asked = init.ttl;
    const ttl = asked === undefined || !(asked >= 0) ? this.defaultTtl : Math.min(Math.floor(asked), this.maxTtl);
    // One literal of a fixed shape (a spread would give V8 a slower, larger object per task).
    const record: TaskRecord = {
      // 128 random bits as hex: a randomUUID() string costs ~480 B of heap (it keeps its batch), this ~40.
      taskId: randomHex(16),
      owner: init.owner,
      method: init.method,
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      ttl,
      pollInterval: init.pollInterval ?? this.pollInterval,
      statusMessage: init.statusMessage,
      outcome: undefined,
      seq: ++this.seq,
    };
    const entry: Entry = { record, timer: undefined };
    // The machine's TTL timer (`ttl`, raised on entry), one clock timer per task.
    entry.timer = this.clock.namesTimers
      ? this.clock.setTimeout(() => this.expire(record.taskId), ttl, `task:${record.taskId}:ttl`)
      : this.clock.setTimeout(() => this.expire(record.taskId), ttl);
    this.tasks.set(record.taskId, entry);
    this.liveByOwner.set(init.owner, (this.liveByOwner.get(init.owner) ?? 0) + 1);
    return Promise.resolve(record);
  }

  get(taskId: string, owner: string): Promise<TaskLookup> {
    return Promise.resolve(this.lookup(taskId, owner));
  }

  apply(taskId: string, event: TaskMachineEvent, owner?: string): Promise<TaskChange | undefined> {
    const entry = this.tasks.get(taskId);
    if (!entry || (owner !== undefined && entry.record.owner !== owner)) return Promise.resolve(undefined);
    return Promise.resolve(this.applyTo(entry, event));
  }

  list(owner: string, cursor?: string): Promise<TaskPage> {
    let after = 0;
    if (cursor !== undefined) {
      const m = typeof cursor === 'string' ? /^t([0-9a-z]+)$/.exec(cursor) : null;
      if (!m) return Promise.reject(new InvalidTaskCursorError(`Invalid cursor ${JSON.stringify(cursor)}: pass back a nextCursor from tasks/list unchanged`));
      after = parseInt(m[1]!, 36);
    }
    const tasks: TaskRecord[] = [];
    let more = false;
    for (const { record } of this.tasks.values()) {
      if (record.owner !== owner || record.seq <= after) continue;
      if (tasks.length === this.pageSize) {
        more = true;
        break;
      }
      tasks.push(record);
    }
    const page: TaskPage = { tasks };
    if (more) page.nextCursor = `t${tasks[tasks.length - 1]!.seq.toString(36)}`;
    return Promise.resolve(page);
  }

  close(): Promise<void> {
    for (const entry of this.tasks.values()) this.clock.clearTimeout(entry.timer);
    this.tasks.clear();
    this.liveByOwner.clear();
    this.expired.clear();
    this.changes.complete();
    this.inputs.complete();
    return Promise.resolve();
  }

  private lookup(taskId: string, owner: string): TaskLookup {
    const entry = typeof taskId === 'string' ? this.tasks.get(taskId) : undefined;
    if (entry) return entry.record.owner === owner ? { found: entry.record } : { missing: 'not-found' };
    return this.expired.get(taskId) === owner ? { missing: 'expired' } : { missing: 'not-found' };
  }

  private applyTo(entry: Entry, event: TaskMachineEvent): TaskChange | undefined {
    const before = entry.record;
    const t = applyTaskEvent(before, event);
    if (!t) return undefined;
    if (!isTerminal(before.status) && (t.record === undefined || isTerminal(t.record.status))) this.releaseLive(before.owner);
    if (t.record === undefined) {
      // purge
      this.clock.clearTimeout(entry.timer);
      this.tasks.delete(before.taskId);
      this.rememberExpired(before.taskId, before.owner);
    } else {
      entry.record = t.record;
    }
    const change: TaskChange = { taskId: before.taskId, owner: before.owner, record: t.record, effects: t.effects };
    this.changes.next(change);
    return change;
  }

  private expire(taskId: string): void {
    const entry = this.tasks.get(taskId);
    if (entry) this.applyTo(entry, { type: 'TTL_EXPIRED' });
  }

  private evictOldestTerminal(): boolean {
    for (const entry of this.tasks.values()) {
      if (isTerminal(entry.record.status)) {
        this.applyTo(entry, { type: 'TTL_EXPIRED' });
        return true;
      }
    }
    return false;
  }

  private releaseLive(owner: string): void {
    const n = (this.liveByOwner.get(owner) ?? 1) - 1;
    if (n <= 0) this.liveByOwner.delete(owner);
    else this.liveByOwner.set(owner, n);
  }

  private rememberExpired(taskId: string, owner: string): void {
    if (this.expired.size >= EXPIRED_MEMORY) this.expired.delete(this.expired.keys().next().value!);
    this.expired.set(taskId, owner);
  }
}

function positive(n: number, name: string): number {
  if (!(n > 0)) throw new TypeError(`MemoryTaskStore: ${name} must be a positive number; got ${n}`);
  return n;
}
