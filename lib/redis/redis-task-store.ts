/**
 * A {@link TaskStore} on Redis: the tasks of a deployment of several server processes, so that
 * any process answers `tasks/get`, `tasks/result`, `tasks/list`, `tasks/update` and
 * `tasks/cancel` for a task another one runs, and a finished task's result outlives the process
 * that made it. It behaves as the in-memory store does (the same specs run against both):
 *
 * - **Transitions** are the task machine's (`applyTaskEvent`), applied as a compare-and-set on
 *   the record's version in one Lua script with the indexes it moves (`task-scripts.ts`);
 *   another process's write in between makes it read again and retry.
 * - **Changes** reach every process's `changes$` (Redis pub/sub, published by the same script):
 *   a `tasks/cancel` on process B aborts the handler running on A, a `tasks/result` waiting on
 *   A hears that B's task finished. `sendInput` carries `tasks/update` answers the same way.
 * - **TTL** on the store's clock: a lookup past `createdAt + ttl` answers "expired"; a sweep (a
 *   timer per task made here, and every `sweepIntervalMs` for the rest) purges due tasks and
 *   tells every process. Redis expires the keys a minute later too, should no process be left
 *   to sweep. "Expired" is answered while the id is remembered (`rememberExpiredMs`).
 * - **Leases**: the process that creates a task holds a lease on it and renews it every
 *   `sweepIntervalMs` while the task is live. A process that dies (SIGKILL, a lost machine)
 *   stops renewing; past `leaseMs` another process's sweep marks the task `failed`, saying the
 *   process stopped, so no task stays `working` for ever. `close()` fails the live tasks it holds
 *   at once.
 * - **Limits** are the deployment's: live tasks per owner and tasks in all (the oldest finished
 *   task makes room), checked in the creating script; `TaskLimitError` as in memory.
 *
 * Clocks: leases and TTLs compare times from different processes' clocks (the system clock,
 * unless given), so keep the machines' clocks in sync (NTP), as for any lease.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks
 */
import { createHash, randomBytes } from 'node:crypto';
import { Subject, type Observable } from 'rxjs';
import { systemClock, type Clock } from '../clock.js';
import { applyTaskEvent, isTerminal, type TaskMachineEvent, type TaskRecord } from '../tasks/task-record.js';
import { InvalidTaskCursorError, liveLimitFor, TaskLimitError, type NewTask, type TaskChange, type TaskInput, type TaskLookup, type TaskPage, type TaskStore, type TaskStoreLimits } from '../tasks/task-store.js';
import { closeConnection, RedisUnavailableError, type RedisClient } from './redis-connection.js';
import { APPLY, CREATE, GET, LIST, PURGE, SWEEP_EXPIRED } from './task-scripts.js';

export interface RedisTaskStoreOptions extends TaskStoreLimits {
  /** Key and channel prefix (default `mcp-actors:`); give each deployment its own. */
  prefix?: string;
  /** TTLs, leases and sweeps run on it (a `ManualClock` in tests). Default: the system clock. */
  clock?: Clock;
  /** Tasks kept at most in the deployment, live and finished (default 100,000); maxLivePerOwner counts across processes. */
  maxTasks?: number;
  /** How long a task outlives the last heartbeat of the process running it, ms (default 15 s). */
  leaseMs?: number;
  /** How often leases are renewed and due tasks swept, ms (default a third of `leaseMs`). */
  sweepIntervalMs?: number;
  /** How long an expired task's id is answered "expired" rather than "not found", ms (default 1 hour). */
  rememberExpiredMs?: number;
  /** Failures of background work (sweeps, heartbeats, a malformed message on the channel). */
  onError?: (error: Error) => void;
}

/** Why a task failed when the process running it stopped. */
export const PROCESS_STOPPED = 'The server process running this task stopped before it finished; start the task again';

const TASK_ID = /^[0-9a-f]{32}$/;
/** Redis keeps a task's keys this long past its TTL: the backstop when no process sweeps. */
const KEY_GRACE_MS = 60_000;
/** Versions remembered per task, to drop a change that arrives after a newer one. */
const VERSIONS_KEPT = 20_000;
/** The version of a purge: nothing comes after it. */
const FINAL = -1;
const MAX_ATTEMPTS = 32;
const SWEEP_BATCH = 500;

interface Stored {
  record: TaskRecord;
  ver: number;
}

/** One message on the channel: a change (with its version) or input responses. */
type Message = { k: 'c'; o: string; v: number; c: TaskChange } | { k: 'i'; o: string; i: TaskInput };

export class RedisTaskStore implements TaskStore {
  readonly prefix: string;
  readonly maxTasks: number;
  readonly maxLivePerOwner: number;
  readonly maxLiveUnidentified: number;
  readonly defaultTtl: number;
  readonly maxTtl: number;
  readonly pollInterval: number;
  readonly pageSize: number;
  readonly leaseMs: number;
  readonly sweepIntervalMs: number;
  readonly rememberExpiredMs: number;
  private readonly clock: Clock;
  private readonly channel: string;
  /** This store instance (one per process) on the channel: its own messages are not delivered twice. */
  private readonly origin = randomBytes(8).toString('hex');
  private readonly onError: (error: Error) => void;
  private readonly changes = new Subject<TaskChange>();
  private readonly inputs = new Subject<TaskInput>();
  /** Live tasks this process created, whose leases it renews. */
  private readonly held = new Set<string>();
  /** TTL timers of the tasks this process created. */
  private readonly ttlTimers = new Map<string, unknown>();
  private readonly versions = new Map<string, number>();
  /**
   * The latest live record (and its version) this process wrote or heard, per task: a transition
   * tries it first, one round trip, and reads Redis only when another process wrote in between.
   */
  private readonly live = new Map<string, Stored>();
  private readonly background = new Set<Promise<unknown>>();
  private tickTimer: unknown;
  private ticking = false;
  private closed = false;

  private constructor(
    private readonly client: RedisClient,
    private readonly subscriber: RedisClient,
    options: RedisTaskStoreOptions,
  ) {
    this.prefix = options.prefix ?? 'mcp-actors:';
    this.channel = `${this.prefix}tasks`;
    this.clock = options.clock ?? systemClock;
    this.maxTasks = positive(options.maxTasks ?? 100_000, 'maxTasks');
    this.maxLivePerOwner = positive(options.maxLivePerOwner ?? 100, 'maxLivePerOwner');
    this.maxLiveUnidentified = positive(options.maxLiveUnidentified ?? 1_000, 'maxLiveUnidentified');
    this.maxTtl = positive(options.maxTtl ?? 3_600_000, 'maxTtl');
    this.defaultTtl = Math.min(positive(options.defaultTtl ?? 600_000, 'defaultTtl'), this.maxTtl);
    this.pollInterval = positive(options.pollInterval ?? 1_000, 'pollInterval');
    this.pageSize = positive(options.pageSize ?? 50, 'pageSize');
    this.leaseMs = positive(options.leaseMs ?? 15_000, 'leaseMs');
    this.sweepIntervalMs = positive(options.sweepIntervalMs ?? Math.max(1, Math.floor(this.leaseMs / 3)), 'sweepIntervalMs');
    if (this.sweepIntervalMs >= this.leaseMs) throw new TypeError(`RedisTaskStore: sweepIntervalMs (${this.sweepIntervalMs}) must be shorter than leaseMs (${this.leaseMs}), or leases run out between renewals`);
    this.rememberExpiredMs = positive(options.rememberExpiredMs ?? 3_600_000, 'rememberExpiredMs');
    this.onError = options.onError ?? (() => {});
  }

  /**
   * A store on `client` (commands); it subscribes on a duplicate connection of its own before
   * resolving, so no change published afterwards is missed. The caller keeps `client` (and
   * closes it after {@link close}).
   */
  static async create(client: RedisClient, options: RedisTaskStoreOptions = {}): Promise<RedisTaskStore> {
    const subscriber = client.duplicate();
    subscriber.on('error', () => {});
    await subscriber.connect();
    const store = new RedisTaskStore(client, subscriber, options);
    await subscriber.subscribe(store.channel, (message) => store.receive(message));
    store.armTick();
    return store;
  }

  get changes$(): Observable<TaskChange> {
    return this.changes.asObservable();
  }

  get inputs$(): Observable<TaskInput> {
    return this.inputs.asObservable();
  }

  /** Live tasks this process created and holds leases on. */
  get holding(): number {
    return this.held.size;
  }

  async create(init: NewTask): Promise<TaskRecord> {
    const now = this.clock.now();
    const asked = init.ttl;
    const ttl = asked === undefined || !(asked >= 0) ? this.defaultTtl : Math.min(Math.floor(asked), this.maxTtl);
    const fields: Omit<TaskRecord, 'seq'> = {
      taskId: randomBytes(16).toString('hex'),
      owner: init.owner,
      method: init.method,
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      ttl,
      pollInterval: init.pollInterval ?? this.pollInterval,
      ...(init.statusMessage !== undefined && { statusMessage: init.statusMessage }),
    };
    const id = fields.taskId;
    const reply = (await this.run(CREATE, [
      id,
      init.owner,
      JSON.stringify(fields),
      now + ttl,
      ttl + KEY_GRACE_MS,
      liveLimitFor(init, this.maxLivePerOwner, this.maxLiveUnidentified),
      this.maxTasks,
      now + this.leaseMs,
      ttl + this.rememberExpiredMs,
      this.maxTtl + this.rememberExpiredMs,
    ])) as [string, number?, string?, string?];
    if (reply[0] === 'owner-limit') throw TaskLimitError.forOwner(init, this.maxLivePerOwner, this.maxLiveUnidentified);
    if (reply[0] === 'full') throw TaskLimitError.full(this.maxTasks);
    const [, seq, evicted, evictedOwner] = reply;
    if (evicted) this.deliver({ taskId: evicted, owner: evictedOwner ?? '', record: undefined, effects: ['abortExecution', 'purge'] }, FINAL);
    const record: TaskRecord = { ...fields, seq: Number(seq) };
    this.versions.set(id, 1);
    this.remember(id, record, 1);
    this.held.add(id);
    const expire = () => this.track(this.sweepExpired());
    const timer: unknown = this.clock.namesTimers ? this.clock.setTimeout(expire, ttl, `task:${id}:ttl`) : this.clock.setTimeout(expire, ttl);
    // A TTL does not keep the process alive: any process's sweep (or Redis's expiry) purges it.
    (timer as { unref?: () => void } | undefined)?.unref?.();
    this.ttlTimers.set(id, timer);
    return record;
  }

  async get(taskId: string, owner: string): Promise<TaskLookup> {
    if (typeof taskId !== 'string' || !TASK_ID.test(taskId)) return { missing: 'not-found' };
    const stored = await this.read(taskId);
    if (stored === undefined || 'gone' in stored) return stored !== undefined && stored.gone === owner ? { missing: 'expired' } : { missing: 'not-found' };
    if (stored.record.owner !== owner) return { missing: 'not-found' };
    if (this.due(stored.record)) {
      this.track(this.sweepExpired());
      return { missing: 'expired' };
    }
    return { found: stored.record };
  }

  apply(taskId: string, event: TaskMachineEvent, owner?: string): Promise<TaskChange | undefined> {
    return this.transition(taskId, event, owner, undefined);
  }

  async list(owner: string, cursor?: string): Promise<TaskPage> {
    let after = 0;
    if (cursor !== undefined) {
      const m = typeof cursor === 'string' ? /^t([0-9a-z]{1,11})$/.exec(cursor) : null;
      if (!m) throw new InvalidTaskCursorError(`Invalid cursor ${JSON.stringify(cursor)}: pass back a nextCursor from tasks/list unchanged`);
      after = parseInt(m[1]!, 36);
    }
    // One more id than a page: whether there is a next page. Ids whose task is gone (purged, or
    // past its TTL and not swept yet) make the page shorter, as the cursor stays the store's order.
    const flat = (await this.run(LIST, [ownerHash(owner), after, this.pageSize + 1])) as Array<string | null>;
    const found = flat.length / 3;
    const tasks: TaskRecord[] = [];
    let last = after;
    for (let i = 0; i < Math.min(found, this.pageSize); i++) {
      const seq = Number(flat[3 * i + 1]);
      last = seq;
      const rec = flat[3 * i + 2];
      const record = typeof rec === 'string' ? parseRecord(rec, seq) : undefined;
      if (record !== undefined && record.owner === owner && !this.due(record)) tasks.push(record);
    }
    const page: TaskPage = { tasks };
    if (found > this.pageSize) page.nextCursor = `t${last.toString(36)}`;
    return page;
  }

  async sendInput(input: TaskInput): Promise<void> {
    this.ensureReady();
    const message: Message = { k: 'i', o: this.origin, i: input };
    await this.client.publish(this.channel, JSON.stringify(message));
    if (!this.closed) this.inputs.next(input);
  }

  /**
   * Stop: no more heartbeats or sweeps; the live tasks this process holds are failed now (they
   * can no longer run), then the subscription ends. The command connection stays the caller's.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.clock.clearTimeout(this.tickTimer);
    for (const timer of this.ttlTimers.values()) this.clock.clearTimeout(timer);
    this.ttlTimers.clear();
    const now = this.clock.now();
    // With Redis unreachable they cannot be written now; their leases run out instead.
    const failing = (this.client.isReady ? [...this.held] : []).map((id) =>
      this.transition(id, { type: 'FAIL', now, outcome: { error: { code: -32603, message: PROCESS_STOPPED } }, message: PROCESS_STOPPED }, undefined, undefined).catch(() => undefined),
    );
    await Promise.all(failing);
    this.closed = true;
    await this.whenIdle();
    this.held.clear();
    this.changes.complete();
    this.inputs.complete();
    await closeConnection(this.subscriber);
  }

  /** @internal Resolves once the background work started so far (sweeps, heartbeats) is done. */
  async whenIdle(): Promise<void> {
    while (this.background.size > 0) await Promise.allSettled([...this.background]);
  }

  /**
   * @internal One round of the periodic work, as the timer runs it: renew this process's leases,
   * purge tasks past their TTL, fail tasks whose process stopped renewing.
   */
  async tick(): Promise<void> {
    const now = this.clock.now();
    await this.renewLeases(now);
    await this.sweepExpired(now);
    await this.sweepLeases(now);
  }

  // ---------------------------------------------------------------------------------- internals

  private async transition(taskId: string, event: TaskMachineEvent, owner: string | undefined, leaseCheck: number | undefined): Promise<TaskChange | undefined> {
    if (typeof taskId !== 'string' || !TASK_ID.test(taskId)) return undefined;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const cached = attempt === 0 && event.type !== 'TTL_EXPIRED' ? this.live.get(taskId) : undefined;
      const stored = cached ?? (await this.read(taskId));
      if (stored === undefined || 'gone' in stored) return undefined;
      const before = stored.record;
      if (owner !== undefined && before.owner !== owner) return undefined;
      if (this.due(before)) {
        await this.sweepExpired();
        return undefined;
      }
      const t = applyTaskEvent(before, event);
      // Ignored by what this process last knew: ask Redis, another process may have moved it since.
      if (!t && cached !== undefined) continue;
      if (!t) return undefined;
      if (t.record === undefined) {
        const purgedOwner = (await this.run(PURGE, [taskId])) as string | null;
        if (!purgedOwner) return undefined;
        const change: TaskChange = { taskId, owner: purgedOwner, record: undefined, effects: t.effects };
        this.deliver(change, FINAL);
        return change;
      }
      const change: TaskChange = { taskId, owner: before.owner, record: t.record, effects: t.effects };
      const ver = stored.ver + 1;
      const message: Message = { k: 'c', o: this.origin, v: ver, c: change };
      const { seq: _seq, ...fields } = t.record;
      const becameTerminal = !isTerminal(before.status) && isTerminal(t.record.status);
      const done = Number(
        await this.run(APPLY, [taskId, stored.ver, JSON.stringify(fields), becameTerminal ? '1' : '0', before.owner, before.seq, leaseCheck ?? '', JSON.stringify(message)]),
      );
      if (done === 1) {
        this.deliver(change, ver);
        return change;
      }
      if (done !== -2) return undefined;
    }
    throw new Error(`Task ${taskId}: gave up after ${MAX_ATTEMPTS} attempts, other processes kept changing it`);
  }

  private async read(taskId: string): Promise<Stored | { gone: string } | undefined> {
    const reply = (await this.run(GET, [taskId])) as [string, string?, string?, string?, string?];
    if (reply[0] !== 't') return reply[1] ? { gone: reply[1] } : undefined;
    const record = parseRecord(reply[1]!, Number(reply[2]));
    if (record === undefined) return undefined;
    return { record, ver: Number(reply[4]) };
  }

  private due(record: TaskRecord): boolean {
    return record.ttl !== null && this.clock.now() >= record.createdAt + record.ttl;
  }

  /** Purge the tasks (of any process) whose TTL ran out by `now`. */
  private async sweepExpired(now = this.clock.now()): Promise<void> {
    for (;;) {
      const flat = (await this.run(SWEEP_EXPIRED, [now, SWEEP_BATCH])) as string[];
      for (let i = 0; i < flat.length; i += 2) this.deliver({ taskId: flat[i]!, owner: flat[i + 1]!, record: undefined, effects: ['abortExecution', 'purge'] }, FINAL);
      if (flat.length < SWEEP_BATCH * 2) return;
    }
  }

  private async renewLeases(now: number): Promise<void> {
    if (this.held.size === 0) return;
    const deadline = String(now + this.leaseMs);
    this.ensureReady();
    const args = ['ZADD', `${this.prefix}tasks:leases`, 'XX'];
    for (const id of this.held) args.push(deadline, id);
    await this.client.sendCommand(args);
  }

  /** Fail the live tasks whose process stopped renewing their leases (not this process's). */
  private async sweepLeases(now: number): Promise<void> {
    this.ensureReady();
    const ids = (await this.client.sendCommand(['ZRANGEBYSCORE', `${this.prefix}tasks:leases`, '-inf', String(now), 'LIMIT', '0', String(SWEEP_BATCH)])) as string[];
    for (const id of ids) {
      if (this.held.has(id)) continue;
      const silentFor = this.leaseMs;
      const message = `${PROCESS_STOPPED} (no heartbeat for ${silentFor} ms)`;
      await this.transition(id, { type: 'FAIL', now, outcome: { error: { code: -32603, message } }, message }, undefined, now);
    }
  }

  private armTick(): void {
    if (this.closed) return;
    const tick = () => {
      this.armTick();
      // One round at a time: a slow Redis does not pile rounds up.
      if (this.ticking) return;
      this.ticking = true;
      this.track(this.tick().finally(() => (this.ticking = false)));
    };
    this.tickTimer = this.clock.namesTimers ? this.clock.setTimeout(tick, this.sweepIntervalMs, 'redis-tasks:tick') : this.clock.setTimeout(tick, this.sweepIntervalMs);
    (this.tickTimer as { unref?: () => void })?.unref?.();
  }

  /** Hand a change to `changes$` once, in version order, and keep the local bookkeeping. */
  private deliver(change: TaskChange, ver: number): void {
    const id = change.taskId;
    const seen = this.versions.get(id);
    if (seen === FINAL || (seen !== undefined && ver !== FINAL && ver <= seen)) return;
    this.versions.delete(id);
    this.versions.set(id, ver);
    if (this.versions.size > VERSIONS_KEPT) this.versions.delete(this.versions.keys().next().value!);
    this.remember(id, change.record, ver);
    if (change.record === undefined || isTerminal(change.record.status)) {
      this.held.delete(id);
      if (change.record === undefined) {
        const timer = this.ttlTimers.get(id);
        if (timer !== undefined) this.clock.clearTimeout(timer);
        this.ttlTimers.delete(id);
      }
    }
    if (!this.closed) this.changes.next(change);
  }

  /** Keep a live record for the next transition (finished and purged ones are never changed again). */
  private remember(id: string, record: TaskRecord | undefined, ver: number): void {
    this.live.delete(id);
    if (record === undefined || isTerminal(record.status)) return;
    this.live.set(id, { record, ver });
    if (this.live.size > VERSIONS_KEPT) this.live.delete(this.live.keys().next().value!);
  }

  private receive(raw: string): void {
    let message: Message;
    try {
      message = JSON.parse(raw) as Message;
    } catch {
      this.onError(new Error(`task store: a message on ${this.channel} is not JSON; ignored`));
      return;
    }
    if (message === null || typeof message !== 'object' || message.o === this.origin) return;
    if (message.k === 'c' && isChange(message.c) && typeof message.v === 'number') this.deliver(message.c, message.v);
    else if (message.k === 'i' && isInput(message.i)) {
      if (!this.closed) this.inputs.next(message.i);
    } else this.onError(new Error(`task store: a message on ${this.channel} is neither a task change nor task input; ignored`));
  }

  private async run(script: typeof CREATE, args: Array<string | number>): Promise<unknown> {
    this.ensureReady();
    try {
      return await script.run(this.client, [], [this.prefix, this.channel, this.origin, ...args]);
    } catch (error) {
      // The connection broke under the command: say that, not the socket's words.
      if (!this.client.isReady) throw unreachable((error as Error)?.name); // its name: node-redis messages may name the host
      throw error;
    }
  }

  /**
   * Fail at once while the connection is down (node-redis would queue the command until it is
   * back): the request that needed the store gets an error it can report, instead of waiting.
   */
  private ensureReady(): void {
    if (!this.client.isReady) throw unreachable('reconnecting');
  }

  private track(work: Promise<unknown>): void {
    const p = work.catch((e: unknown) => this.onError(e instanceof Error ? e : new Error(String(e))));
    this.background.add(p);
    void p.finally(() => this.background.delete(p));
  }
}

function unreachable(why: string | undefined): RedisUnavailableError {
  return new RedisUnavailableError(`The task store cannot reach Redis right now (${why ?? 'disconnected'}); try again shortly`);
}

/** The key part for an owner: a digest, so any identity string makes a short, safe key. */
function ownerHash(owner: string): string {
  return createHash('sha1').update(owner).digest('hex');
}

function parseRecord(json: string, seq: number): TaskRecord | undefined {
  try {
    const r = JSON.parse(json) as Omit<TaskRecord, 'seq'>;
    return r !== null && typeof r === 'object' && typeof r.taskId === 'string' ? { ...r, seq } : undefined;
  } catch {
    return undefined;
  }
}

function isChange(c: unknown): c is TaskChange {
  if (c === null || typeof c !== 'object') return false;
  const v = c as Record<string, unknown>;
  return typeof v.taskId === 'string' && typeof v.owner === 'string' && Array.isArray(v.effects) && (v.record === undefined || (typeof v.record === 'object' && v.record !== null));
}

function isInput(i: unknown): i is TaskInput {
  if (i === null || typeof i !== 'object') return false;
  const v = i as Record<string, unknown>;
  return typeof v.taskId === 'string' && v.responses !== null && typeof v.responses === 'object' && !Array.isArray(v.responses);
}

function positive(n: number, name: string): number {
  if (!(n > 0)) throw new TypeError(`RedisTaskStore: ${name} must be a positive number; got ${n}`);
  return n;
}

