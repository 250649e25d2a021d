/**
 * The receiver side of 2025-11-25 tasks on a server: task-augmented `tools/call`, `tasks/get`,
 * `tasks/result`, `tasks/list`, `tasks/cancel`, `notifications/tasks/status`, the `tasks`
 * capability, and the effects of the task machine (abort the work, tell the requestor, wake
 * waiters). Task state lives in a {@link TaskStore}; what only this process can hold (the
 * running handler's abort signal, the open `tasks/result` streams) lives in a
 * {@link TaskExecution} per running task.
 *
 * The tools feature asks {@link ServerTasks.route} about every call; the rules are the
 * revision's: a tool's `execution.taskSupport` (`forbidden`, the default, `optional`,
 * `required`) decides, and a session that did not negotiate tasks is served as if tasks did
 * not exist.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks
 */
import type { Observable, Subscription } from 'rxjs';
import type { Clock } from '../clock.js';
import { McpError } from '../errors.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import type { JsonObject } from '../jsonrpc/message.js';
import { hasCapability } from '../protocol/methods.js';
import { allows, isModernRevision } from '../protocol/revisions.js';
import type { Server } from '../server.js';
import { revisionOf, type FeatureContext } from '../server-features/feature-context.js';
import type { LoggingFeature } from '../server-features/logging.js';
import { RateLimiter, type RateLimit } from '../server-features/rate-limit.js';
import type { RequestHandlerContext, ServerCaller } from '../session/session.js';
import { isIdentified, taskOwner, UNIDENTIFIED_OWNER } from './identity.js';
import { taskLimitRefusal, taskRateRefusal } from './task-limit.js';
import { MemoryTaskStore } from './memory-task-store.js';
import { TaskExecution, TaskFeatureContext } from './task-context.js';
import { isTerminal, type TaskRecord } from './task-record.js';
import { InvalidTaskCursorError, TaskLimitError, type TaskChange, type TaskStore } from './task-store.js';
import { legacyTask, withRelatedTask } from './wire-2025-11-25.js';
import { toolResultEvent } from './wire-extension.js';
import { ModernTasks } from './modern-tasks.js';
import { TaskAudit, type TaskAuditEvent } from './task-audit.js';
import { TaskActors, taskParentOf } from './task-actors.js';

/** How a tool may be called as a task (`Tool.execution.taskSupport`). */
export type TaskSupport = 'forbidden' | 'optional' | 'required';

/**
 * Task options of an `McpServer`.
 *
 * Who may read a task: with authentication (the HTTP transports' `authenticate` hook), the
 * user (`sub`) who created it, from any session; without it, only the session that created it,
 * and the task is cancelled when that session ends. A stateless HTTP server (a session per
 * request) therefore needs authentication for tasks to be usable. Limits of the default store:
 * TTL at most 1 hour (10 minutes when the requestor asks none), 100 tasks in progress per
 * requestor, 1,000 for all unauthenticated callers of a stateless server or of 2026-07-28 requests
 * together, 10,000 tasks in all (see {@link MemoryTaskStore}). At a limit an `optional` tool runs
 * without a task; a `required` one is refused with -32090 (`task-limit.ts`).
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks#security-considerations
 */
export interface ServerTaskOptions {
  /** Where tasks live (default: a {@link MemoryTaskStore} on the server's clock). */
  store?: TaskStore;
  /**
   * Task operations (`tasks/get`, `tasks/result`, `tasks/list`, `tasks/cancel`) per session;
   * over the limit a request gets -32603 saying when to retry. Default 50 per second.
   */
  rateLimit?: RateLimit | false;
  /**
   * Declare and answer `tasks/list` (default true). Tasks are always bound to the caller's
   * identity (the authorization's `sub`, else the session), so a list shows only the caller's.
   */
  list?: boolean;
}

const CAPABILITY_PATH = ['tasks', 'requests', 'tools', 'call'];

/** Why a task that was running here failed when this server closed. */
const SERVER_STOPPED = 'The server stopped before the task finished; start it again';

/** Runs the tool's work with the context it is given; the tools feature supplies it. */
export type ExecuteTool = (ctx: FeatureContext) => Promise<JsonObject>;

export class ServerTasks {
  readonly store: TaskStore;
  /** A store given in the options may be shared (Redis): closing the server leaves it open. */
  private readonly ownsStore: boolean;
  /** Tasks as actors, only with an inspector. */
  private readonly inspected = new TaskActors();
  private readonly executions = new Map<string, TaskExecution>();
  private readonly limiter: RateLimiter | undefined;
  private readonly listed: boolean;
  private enabled = false;
  private changes: Subscription | undefined;
  private readonly watchedSessions = new WeakSet<ServerCaller>();
  /** The `io.modelcontextprotocol/tasks` extension on modern (2026-07-28) requests, over the same store. */
  readonly modern: ModernTasks;
  private readonly auditor: TaskAudit;

  constructor(
    private readonly server: Server,
    private readonly clock: Clock,
    private readonly logging: LoggingFeature,
    private readonly declare: (capabilities: Record<string, unknown>) => void,
    options: ServerTaskOptions = {},
  ) {
    this.store = options.store ?? new MemoryTaskStore({ clock });
    this.ownsStore = options.store === undefined;
    this.limiter = options.rateLimit === false ? undefined : new RateLimiter(clock, options.rateLimit ?? { limit: 50, windowMs: 1000 });
    this.listed = options.list ?? true;
    this.auditor = new TaskAudit(() => clock.now());
    this.modern = new ModernTasks(server, this.store, clock, logging, this.auditor);
  }

  /**
   * Every task created, ended, retrieved, and every refused lookup, with the caller's identity
   * (both eras): for audit logs and for spotting abuse (see {@link TaskAuditEvent}).
   */
  get audit$(): Observable<TaskAuditEvent> {
    return this.auditor.events$;
  }

  /** Tasks are served from now on: declare the capability and answer `tasks/*` (idempotent). */
  enable(): void {
    if (this.enabled) return;
    this.enabled = true;
    const tasks: Record<string, unknown> = { cancel: {}, requests: { tools: { call: {} } } };
    if (this.listed) tasks.list = {};
    this.declare({ tasks });
    this.server.onRequest('tasks/get', (p, ctx) => this.get(p, ctx));
    this.server.onRequest('tasks/result', (p, ctx) => this.result(p, ctx));
    this.server.onRequest('tasks/cancel', (p, ctx) => this.cancel(p, ctx));
    if (this.listed) this.server.onRequest('tasks/list', (p, ctx) => this.list(p, ctx));
    this.changes = this.store.changes$.subscribe((change) => this.onChange(change));
    this.modern.enable();
  }

  /** Tasks running in this process now. */
  get running(): number {
    return this.executions.size;
  }

  /**
   * Decide how a `tools/call` is served. Returns a `CreateTaskResult` when the call becomes a
   * task, undefined when it is an ordinary call, and throws -32601 when the tool's task support
   * forbids how it was called.
   */
  route(tool: string, support: TaskSupport, params: JsonObject | undefined, ctx: RequestHandlerContext, execute: ExecuteTool): Promise<JsonObject | undefined> | undefined {
    const session = ctx.session;
    // A modern request: the tasks extension decides (server-directed creation, no `task` param).
    if (this.enabled && isModernRevision(revisionOf(session))) return this.modern.route(tool, support, ctx, execute);
    // Without tasks in this session (older revision, or not declared), the `task` param is ignored:
    // undefined at once, not a promise of it (the caller awaits only a promise).
    if (!this.enabled || !allows(revisionOf(session), 'tasks') || !hasCapability(session.localCapabilities, CAPABILITY_PATH)) return undefined;
    const task = params?.task;
    const augmented = task !== undefined && task !== null;
    if (augmented && (typeof task !== 'object' || Array.isArray(task))) throw new McpError(ErrorCode.InvalidParams, 'tools/call: "task" must be an object such as { "ttl": 60000 }');
    if (augmented && support === 'forbidden') {
      throw new McpError(ErrorCode.MethodNotFound, `Tool "${tool}" cannot run as a task (its execution.taskSupport is "forbidden"); call it without "task"`);
    }
    if (!augmented && support === 'required') {
      throw new McpError(ErrorCode.MethodNotFound, `Tool "${tool}" runs only as a task (its execution.taskSupport is "required"); call it with "task": {}`);
    }
    if (!augmented) return undefined;
    return this.createTask(tool, support, task as JsonObject, ctx, execute);
  }

  /** A session's task-augmented `tools/call` (see {@link route}): the task made, its work started. */
  private async createTask(tool: string, support: TaskSupport, task: JsonObject, ctx: RequestHandlerContext, execute: ExecuteTool): Promise<JsonObject | undefined> {
    const session = ctx.session;
    const ttl = task.ttl;
    if (ttl !== undefined && ttl !== null && (typeof ttl !== 'number' || !(ttl >= 0))) {
      throw new McpError(ErrorCode.InvalidParams, 'tools/call: "task.ttl" must be a number of milliseconds, 0 or more');
    }
    const owner = taskOwner(ctx);
    let record: TaskRecord;
    try {
      record = await this.store.create({ owner, method: 'tools/call', ttl: typeof ttl === 'number' ? ttl : undefined, statusMessage: `Running tool "${tool}"`, identified: isIdentified(ctx) });
    } catch (e) {
      if (!(e instanceof TaskLimitError)) throw e;
      this.auditor.emit(() => ({ type: 'refused', owner, method: 'tools/call', reason: `task limit (${e.scope})` }));
      // An optional-task tool still works without a task: the caller gets its result directly.
      if (support === 'optional') return undefined;
      throw taskLimitRefusal(e);
    }
    this.auditor.emit(() => ({ type: 'created', taskId: record.taskId, owner, method: 'tools/call', status: record.status }));
    this.inspected.created(record, taskParentOf(ctx));
    const execution = new TaskExecution(record.taskId, owner, session, this.store, this.clock);
    this.executions.set(record.taskId, execution);
    this.watch(session);
    const taskCtx = new TaskFeatureContext(ctx, execution, this.logging, this.store, this.clock);
    // The work starts at once (in a microtask, after this CreateTaskResult is built): a quick tool is
    // done before the requestor's first tasks/get, which then needs no second poll. Starting it a
    // macrotask later made every task cost the client one poll interval (bench/task-throughput.ts).
    queueMicrotask(() => void this.run(execution, taskCtx, execute));
    return { task: legacyTask(record) };
  }

  /**
   * Stop serving: abort the running tasks and fail them in the store (a shared store outlives
   * this server: they would otherwise stay `working`); close the store if this server made it.
   */
  async close(): Promise<void> {
    this.changes?.unsubscribe();
    const executions = [...this.executions.values()];
    this.executions.clear();
    const now = this.clock.now();
    await Promise.all([
      this.modern.close(),
      ...executions.map((e) => {
        e.abort.abort(new Error('The server closed'));
        const error = { code: ErrorCode.InternalError, message: SERVER_STOPPED };
        return this.store.apply(e.taskId, { type: 'FAIL', now, outcome: { error }, message: SERVER_STOPPED }).catch(() => undefined);
      }),
    ]);
    if (this.ownsStore) await this.store.close();
  }

  private async run(execution: TaskExecution, ctx: TaskFeatureContext, execute: ExecuteTool): Promise<void> {
    const { taskId } = execution;
    try {
      // Cancelled (or its session ended) before it started: it never runs.
      if (execution.abort.signal.aborted) return;
      const result = await execute(ctx);
      if (execution.abort.signal.aborted) return;
      // 2025-11-25: a tool result with isError means the task failed; tasks/result returns it as is.
      const type = toolResultEvent(result, 'core-2025-11-25');
      const failed = type === 'FAIL';
      await this.store.apply(taskId, {
        type,
        now: this.clock.now(),
        outcome: { result },
        message: failed ? firstText(result) ?? 'The tool reported an error' : 'Completed',
      });
    } catch (e) {
      if (execution.abort.signal.aborted) return;
      const error = e instanceof McpError ? e.toJSON() : { code: ErrorCode.InternalError, message: (e as Error)?.message ?? String(e) };
      await this.store.apply(taskId, { type: 'FAIL', now: this.clock.now(), outcome: { error }, message: error.message }).catch(() => undefined);
    } finally {
      this.executions.delete(taskId);
    }
  }

  /** The machine's effects: abortExecution, notifyStatus, purge (settle wakes waiters through changes$). */
  private onChange(change: TaskChange): void {
    this.inspected.changed(change);
    const record = change.record;
    if (record === undefined) this.auditor.emit(() => ({ type: 'expired', taskId: change.taskId, owner: change.owner }));
    else if (change.effects.includes('settle')) this.auditor.emit(() => ({ type: 'ended', taskId: change.taskId, owner: change.owner, status: record.status }));
    const execution = this.executions.get(change.taskId);
    if (change.effects.includes('abortExecution') && execution) {
      execution.abort.abort(new McpError(ErrorCode.InvalidRequest, change.record ? 'The task was cancelled' : 'The task expired'));
    }
    if (change.effects.includes('notifyStatus') && change.record && execution && execution.session.currentPhase === 'operating') {
      try {
        execution.session.notifyDerived('notifications/tasks/status', legacyTask(change.record));
      } catch {
        // The session is closing: the requestor polls anyway (status notifications are optional).
      }
    }
    // Terminal or purged: nothing of it runs here any more (a handler that ignores its signal is left to finish alone).
    if (!change.record || isTerminal(change.record.status)) this.executions.delete(change.taskId);
  }

  /** Tasks bound to a session (no authorization) cannot be reached once it ends: cancel them. */
  private watch(session: ServerCaller): void {
    if (this.watchedSessions.has(session)) return;
    this.watchedSessions.add(session);
    session.onEnd(() => {
      for (const e of [...this.executions.values()]) {
        if (e.session === session && e.owner.startsWith('session:')) {
          void this.store.apply(e.taskId, { type: 'CANCEL', now: this.clock.now(), message: 'The session that created the task ended' });
        }
      }
    });
  }

  private admit(ctx: RequestHandlerContext, taskId?: unknown): void {
    // Tasks came in 2025-11-25: to an older session these methods do not exist.
    const revision = revisionOf(ctx.session);
    if (!allows(revision, 'tasks')) throw new McpError(ErrorCode.MethodNotFound, `Method not found: ${ctx.method} (tasks are not part of revision ${revision}; they came in 2025-11-25)`);
    if (this.limiter && !this.limiter.take(ctx.session)) {
      this.auditor.emit(() => ({ type: 'refused', ...(typeof taskId === 'string' && { taskId }), owner: taskOwner(ctx), method: ctx.method, reason: 'rate limited' }));
      throw taskRateRefusal(this.limiter.limit, this.limiter.retryAfter(ctx.session));
    }
  }

  private async find(params: JsonObject | undefined, ctx: RequestHandlerContext, failure: string): Promise<TaskRecord> {
    this.admit(ctx, params?.taskId);
    const taskId = params?.taskId;
    if (typeof taskId !== 'string') throw new McpError(ErrorCode.InvalidParams, `${ctx.method} needs a "taskId" string`);
    const owner = taskOwner(ctx);
    const found = await this.store.get(taskId, owner);
    if ('found' in found) {
      this.auditor.emit(() => ({ type: 'retrieved', taskId, owner, method: ctx.method, status: found.found.status }));
      return found.found;
    }
    this.auditor.emit(() => ({ type: 'refused', taskId, owner, method: ctx.method, reason: found.missing === 'expired' ? 'expired' : 'not found' }));
    throw new McpError(ErrorCode.InvalidParams, `${failure}: ${found.missing === 'expired' ? 'Task has expired' : 'Task not found'}`, { taskId });
  }

  private async get(params: JsonObject | undefined, ctx: RequestHandlerContext): Promise<JsonObject> {
    return legacyTask(await this.find(params, ctx, 'Failed to retrieve task'));
  }

  private async list(params: JsonObject | undefined, ctx: RequestHandlerContext): Promise<JsonObject> {
    this.admit(ctx);
    const cursor = params?.cursor;
    if (cursor !== undefined && typeof cursor !== 'string') throw new McpError(ErrorCode.InvalidParams, 'tasks/list: "cursor" must be a string from nextCursor');
    const owner = taskOwner(ctx);
    if (owner === UNIDENTIFIED_OWNER) {
      // A list would show every unidentified caller's tasks to each of them.
      throw new McpError(
        ErrorCode.InvalidRequest,
        'tasks/list: this server cannot tell its callers apart (stateless, without authentication), so it lists no tasks; keep the taskId a call returned, or authenticate callers',
      );
    }
    try {
      const page = await this.store.list(owner, cursor);
      this.auditor.emit(() => ({ type: 'retrieved', owner, method: 'tasks/list' }));
      const out: JsonObject = { tasks: page.tasks.map(legacyTask) };
      if (page.nextCursor !== undefined) out.nextCursor = page.nextCursor;
      return out;
    } catch (e) {
      if (e instanceof InvalidTaskCursorError) throw new McpError(ErrorCode.InvalidParams, e.message);
      throw e;
    }
  }

  private async cancel(params: JsonObject | undefined, ctx: RequestHandlerContext): Promise<JsonObject> {
    const record = await this.find(params, ctx, 'Failed to cancel task');
    const refuse = (status: string) => new McpError(ErrorCode.InvalidParams, `Cannot cancel task: already in terminal status '${status}'`, { taskId: record.taskId, status });
    if (isTerminal(record.status)) throw refuse(record.status);
    const change = await this.store.apply(record.taskId, { type: 'CANCEL', now: this.clock.now(), message: 'The task was cancelled by request.' }, record.owner);
    if (!change?.record) {
      const now = await this.store.get(record.taskId, record.owner);
      throw 'found' in now ? refuse(now.found.status) : new McpError(ErrorCode.InvalidParams, 'Failed to cancel task: Task has expired');
    }
    return legacyTask(change.record);
  }

  private async result(params: JsonObject | undefined, ctx: RequestHandlerContext): Promise<JsonObject> {
    let record = await this.find(params, ctx, 'Failed to retrieve task');
    if (!isTerminal(record.status)) {
      const execution = this.executions.get(record.taskId);
      const release = execution?.openChannel(ctx);
      try {
        record = await this.settled(record, ctx.signal);
      } finally {
        release?.();
      }
    }
    return outcomeOf(record);
  }

  /** Wait until the task is terminal (or expires, or the request is cancelled). */
  private settled(record: TaskRecord, signal: AbortSignal): Promise<TaskRecord> {
    return new Promise((resolve, reject) => {
      const done = () => {
        sub.unsubscribe();
        signal.removeEventListener('abort', onAbort);
      };
      const onAbort = () => {
        done();
        reject(signal.reason);
      };
      const sub = this.store.changes$.subscribe((change) => {
        if (change.taskId !== record.taskId) return;
        if (change.record === undefined) {
          done();
          reject(new McpError(ErrorCode.InvalidParams, 'Failed to retrieve task: Task has expired', { taskId: record.taskId }));
        } else if (isTerminal(change.record.status)) {
          done();
          resolve(change.record);
        }
      });
      signal.addEventListener('abort', onAbort, { once: true });
      // It may have settled between the lookup and the subscription.
      void this.store.get(record.taskId, record.owner).then((now) => {
        if ('found' in now && isTerminal(now.found.status)) {
          done();
          resolve(now.found);
        }
      });
    });
  }
}

/** What `tasks/result` returns: exactly what the request would have, tied to its task. */
function outcomeOf(record: TaskRecord): JsonObject {
  if (record.status === 'cancelled') throw new McpError(ErrorCode.InternalError, `Task ${record.taskId} was cancelled; it has no result`, { taskId: record.taskId });
  const outcome = record.outcome!;
  if ('error' in outcome) throw new McpError(outcome.error.code, outcome.error.message, outcome.error.data);
  return { ...outcome.result, _meta: withRelatedTask(outcome.result._meta, record.taskId) } as JsonObject;
}

function firstText(result: JsonObject): string | undefined {
  const content = result.content;
  if (!Array.isArray(content)) return undefined;
  const block = content.find((b) => (b as { type?: unknown })?.type === 'text') as { text?: unknown } | undefined;
  return typeof block?.text === 'string' ? block.text : undefined;
}
