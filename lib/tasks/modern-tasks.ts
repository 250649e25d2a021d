/**
 * The `io.modelcontextprotocol/tasks` extension on the modern (2026-07-28) request path:
 * server-directed task creation for task-supporting tools, `tasks/get`, `tasks/update` and
 * `tasks/cancel` served by the request-scoped core, input requests of a running task answered
 * through `tasks/update`, and MRTR rounds before a task exists.
 *
 * When a call becomes a task: only for a request whose client capabilities declare the
 * extension, and only for a tool whose `execution.taskSupport` is `optional` or `required`.
 * The handler starts on the request; the task is created when the handler calls
 * {@link startTask}, or when it is still working after its first turn (so the client needs no
 * hint). Input it asks for before that goes through MRTR (`InputRequiredResult`, no task); a
 * handler that ends in its first turn answers with an ordinary result. A `required` tool called
 * without the extension is refused with -32021 naming it.
 *
 * Who may reach a task: the authenticated subject that created it; without authentication the
 * task id (random, unguessable) is the only key.
 *
 * @see https://modelcontextprotocol.io/extensions/tasks
 */
import type { Subscription } from 'rxjs';
import type { AnyActorRef } from 'xstate';
import type { Clock } from '../clock.js';
import { McpError } from '../errors.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import type { JsonObject } from '../jsonrpc/message.js';
import type { Envelope } from '../modern/envelope.js';
import { answers as answersMethod } from '../modern/input-round.js';
import type { Server } from '../server.js';
import { carryOnAsTask } from '../server-features/client-calls.js';
import { HandlerFeatureContext, BaseFeatureContext, type FeatureContext } from '../server-features/feature-context.js';
import type { Logger, LoggingFeature } from '../server-features/logging.js';
import type { RequestHandlerContext, RequestOptions } from '../session/session.js';
import { MCP_NAME_SOURCE } from '../modern/name-header.js';
import { defaultIdentity } from '../../streams/http-auth.js';
import { isTerminal, type TaskRecord } from './task-record.js';
import { taskLimitRefusal } from './task-limit.js';
import { TaskLimitError, type TaskChange, type TaskStore } from './task-store.js';
import { storeOutageError, storeUnavailable } from '../shared/store-outage.js';
import { extensionCreateTaskResult, extensionDetailedTask, extensionGetTaskResult } from './wire-extension.js';
import type { ListenCall } from '../modern/subscriptions-listen.js';
import { TaskAudit } from './task-audit.js';
import { TaskActors, taskParentOf } from './task-actors.js';
import { nextTurn } from '../next-turn.js';

/** The extension's identifier (its key under `capabilities.extensions`). */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** How a tool may be called as a task (`Tool.execution.taskSupport`). */
type Support = 'forbidden' | 'optional' | 'required';

/** Key prefixes of asks without an explicit `inputKey` (as MRTR names them). */
const KIND: Record<string, string> = { 'elicitation/create': 'elicitation', 'sampling/createMessage': 'sampling', 'roots/list': 'roots' };

/** Whether client capabilities declare the tasks extension. */
export function declaresTasksExtension(capabilities: unknown): boolean {
  if (capabilities === null || typeof capabilities !== 'object') return false;
  const ext = (capabilities as { extensions?: unknown }).extensions;
  return ext !== null && typeof ext === 'object' && !Array.isArray(ext) && (ext as Record<string, unknown>)[TASKS_EXTENSION] !== undefined;
}

/** The -32021 error for a request that needs the extension and did not declare it. */
export function missingTasksExtension(what: string): McpError {
  return new McpError(ErrorCode.MissingRequiredClientCapability, `Missing required client capability: ${what} needs the "${TASKS_EXTENSION}" extension in this request's client capabilities`, {
    requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
  });
}

/**
 * Create the task now (a handler running on a modern request with the tasks extension): the
 * request is answered with `CreateTaskResult` and the handler goes on as the task. Input asked
 * for before this call was gathered through MRTR. Elsewhere (a plain call, a legacy session, a
 * task already) it does nothing.
 */
export function startTask(ctx: FeatureContext): Promise<void> {
  return ctx instanceof ModernTaskContext ? ctx.run.escalate() : Promise.resolve();
}

/** A pending input request of a task. */
interface PendingInput {
  request: JsonObject;
  method: string;
  resolve(answer: JsonObject): void;
  reject(e: unknown): void;
}

/** Runs the tool's work with the context it is given (the tools feature supplies it). */
export type ExecuteTool = (ctx: FeatureContext) => Promise<JsonObject>;

/** One task-supporting call: on its request first, then (once escalated) as a task. */
export class ModernTaskRun {
  readonly abort = new AbortController();
  taskId: string | undefined;
  /** With an inspector: the actor the task's actor is parented to (its request's). */
  inspectParent: AnyActorRef | undefined;
  private escalation: Promise<void> | undefined;
  private outstandingBefore = 0;
  private readonly pending = new Map<string, PendingInput>();
  private readonly usedKeys = new Set<string>();
  private readonly counters = new Map<string, number>();
  /** Writes of the outstanding input requests, in order (see {@link syncInputs}). */
  private synced: Promise<void> = Promise.resolve();
  private syncQueued = false;
  private storedWaiting = false;
  private answer!: (r: JsonObject) => void;
  private refuse!: (e: unknown) => void;
  /** What the request is answered with: the plain result, or `CreateTaskResult`. */
  readonly answered = new Promise<JsonObject>((resolve, reject) => {
    this.answer = resolve;
    this.refuse = reject;
  });

  constructor(
    private readonly tasks: ModernTasks,
    readonly owner: string,
    private readonly tool: string,
    readonly request: HandlerFeatureContext,
    /** The tool may run without a task: at a task limit, the request waits for its result instead. */
    private readonly optional = false,
    /** The caller is authenticated (else it shares the unidentified callers' quota). */
    readonly identified = true,
  ) {}

  /** Start the handler; after its first turn, make it a task unless it asked for input or ended. */
  start(execute: ExecuteTool): Promise<JsonObject> {
    const ctx = new ModernTaskContext(this.request, this);
    const onRequestAbort = () => {
      if (this.escalation === undefined) this.abort.abort(this.request.signal.reason);
    };
    this.request.signal.addEventListener('abort', onRequestAbort, { once: true });
    execute(ctx).then(
      (result) => this.settle({ result }),
      (error: unknown) => this.settle({ error }),
    );
    nextTurn(() => {
      if (this.settled === undefined && this.outstandingBefore === 0 && !this.abort.signal.aborted) void this.escalate().catch(() => undefined);
    });
    return this.answered;
  }

  /** How the handler ended, once it has. */
  private settled: { result: JsonObject } | { error: unknown } | undefined;

  /** The handler ended: answer the request, or (once the task exists) finish the task. */
  private settle(outcome: { result: JsonObject } | { error: unknown }): void {
    this.settled = outcome;
    const escalation = this.escalation;
    if (escalation === undefined) {
      if ('result' in outcome) this.answer(outcome.result);
      else this.refuse(outcome.error);
      return;
    }
    // No task after all (a limit, for an optional tool): escalate() settles again without one.
    void escalation.then(() => {
      if (this.taskId !== undefined) void this.tasks.finish(this, 'result' in outcome ? outcome : { error: errorOf(outcome.error) });
    }, () => undefined);
  }

  /** Create the task (once) and answer the request with it. */
  escalate(): Promise<void> {
    this.escalation ??= this.tasks.create(this, this.tool).then(
      (record) => {
        this.taskId = record.taskId;
        // The request is answered now and its session ends; the handler's asks go through the task.
        carryOnAsTask(this.request.session);
        this.answer(extensionCreateTaskResult(record));
      },
      (e: unknown) => {
        if (e instanceof TaskLimitError && this.optional) {
          // No room for a task: the handler carries on and its result answers the request.
          this.escalation = undefined;
          if (this.settled !== undefined) this.settle(this.settled);
          return;
        }
        // A task store that is down is said as such (an HTTP binding answers it 503 with Retry-After).
        const refusal = e instanceof TaskLimitError ? taskLimitRefusal(e) : storeUnavailable(e) ? storeOutage(e) : e;
        this.refuse(refusal);
        this.abort.abort(refusal);
        throw refusal;
      },
    );
    return this.escalation;
  }

  /** The input requests still waiting for an answer, by key. */
  inputRequests(): JsonObject {
    const out: JsonObject = {};
    for (const [key, p] of this.pending) out[key] = p.request;
    return out;
  }

  /** Ask the client: through MRTR before the task exists, through `tasks/update` after. */
  async ask(method: string, params: JsonObject | undefined, options?: RequestOptions): Promise<JsonObject> {
    // Before the task exists, or when there is none after all (a limit, for an optional tool).
    if (this.escalation !== undefined) await this.escalation;
    if (this.taskId === undefined) {
      this.outstandingBefore++;
      try {
        return await this.request.sendRequest(method, params, options);
      } finally {
        this.outstandingBefore--;
      }
    }
    const kind = KIND[method];
    if (kind === undefined) throw new McpError(ErrorCode.InvalidRequest, `A task cannot send "${method}" to the client (only elicitation, sampling and roots, as input requests)`);
    let key = options?.inputKey;
    if (key === undefined) {
      do {
        const n = (this.counters.get(kind) ?? 0) + 1;
        this.counters.set(kind, n);
        key = `${kind}-${n}`;
      } while (this.usedKeys.has(key));
    } else if (this.usedKeys.has(key)) {
      throw new McpError(ErrorCode.InternalError, `Input key ${JSON.stringify(key)} was used before in this task; input keys must be unique over a task's lifetime`);
    }
    this.usedKeys.add(key);
    const signal = options?.signal ?? this.abort.signal;
    if (signal.aborted) throw signal.reason;
    const request = (params === undefined ? { method } : { method, params }) as JsonObject;
    const answer = new Promise<JsonObject>((resolve, reject) => this.pending.set(key, { request, method, resolve, reject }));
    // It may be refused (cancel) before it is awaited below: never an unhandled rejection.
    answer.catch(() => undefined);
    const onAbort = () => this.pending.get(key)?.reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    // The store shows what is outstanding (tasks/get on any process): asks of one turn in one write.
    await this.syncInputs().catch(() => undefined);
    // Cancelled while the status was being written: the listener was there, but say it plainly.
    if (signal.aborted) onAbort();
    try {
      return await answer;
    } finally {
      signal.removeEventListener('abort', onAbort);
      this.pending.delete(key);
      if (!this.abort.signal.aborted) await this.syncInputs().catch(() => undefined);
    }
  }

  /**
   * Write what is outstanding now to the store (`input_required` with the requests, or back to
   * `working`), after the asks of this turn; writes run one after another, each with the state
   * at the moment it runs, so the store ends with the latest.
   */
  private syncInputs(): Promise<void> {
    if (!this.syncQueued) {
      this.syncQueued = true;
      this.synced = this.synced.then(() => {
        this.syncQueued = false;
        if (this.abort.signal.aborted) return;
        const waiting = this.pending.size > 0;
        // Back to work: once. Waiting: every time, the outstanding set may have changed.
        if (!waiting && !this.storedWaiting) return;
        this.storedWaiting = waiting;
        return waiting ? this.tasks.inputRequired(this, this.inputRequests()) : this.tasks.inputReceived(this);
      }).catch(() => undefined);
    }
    return this.synced;
  }

  /** Answers from `tasks/update`: pending keys with a well-formed answer resolve; others are ignored. */
  deliver(responses: JsonObject): void {
    for (const key of Object.keys(responses)) {
      const p = this.pending.get(key);
      if (p === undefined || !answersMethod(p.method, responses[key])) continue;
      this.pending.delete(key);
      p.resolve(responses[key] as JsonObject);
    }
  }
}

/** A tool handler's context in a task-supporting call on a modern request. */
export class ModernTaskContext extends BaseFeatureContext {
  /** A protocol error (an `McpError` thrown) fails the task with that JSON-RPC error. */
  readonly failsTaskOnProtocolError = true;

  constructor(
    private readonly base: HandlerFeatureContext,
    readonly run: ModernTaskRun,
  ) {
    super(base);
  }

  /** The task this handler runs as, once it is one. */
  get task(): { readonly taskId: string } | undefined {
    return this.run.taskId === undefined ? undefined : { taskId: this.run.taskId };
  }
  get signal(): AbortSignal {
    return this.run.abort.signal;
  }
  get log(): Logger {
    return this.base.log;
  }
  sendProgress(progress: number, total?: number, message?: string): void {
    if (this.run.taskId === undefined) this.base.sendProgress(progress, total, message);
  }
  sendNotification(method: string, params?: JsonObject): void {
    if (this.run.taskId === undefined) this.base.sendNotification(method, params);
  }
  sendRequest(method: string, params?: JsonObject, options?: RequestOptions): Promise<JsonObject> {
    return this.run.ask(method, params, options);
  }
}

/** What a modern request gives an extension method. */
interface ModernCall {
  envelope: Envelope;
  authInfo: unknown;
}

/** The tasks extension on the modern path, over the server's task store. */
export class ModernTasks {
  private readonly runs = new Map<string, ModernTaskRun>();
  /** Tasks as actors, only with an inspector. */
  private readonly inspected = new TaskActors();
  private changes: Subscription | undefined;
  private enabled = false;

  constructor(
    private readonly server: Server,
    private readonly store: TaskStore,
    private readonly clock: Clock,
    private readonly logging: LoggingFeature,
    private readonly audit: TaskAudit = new TaskAudit(() => clock.now()),
  ) {}

  /** Advertise the extension and serve `tasks/get`, `tasks/update`, `tasks/cancel` on modern requests (idempotent). */
  enable(): void {
    if (this.enabled) return;
    this.enabled = true;
    this.server.declareCapabilities({ extensions: { [TASKS_EXTENSION]: {} } });
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) MCP_NAME_SOURCE[method] = 'taskId';
    this.server.core.serveExtension('tasks/get', (p, call) => this.get(p, call));
    this.server.core.serveExtension('tasks/update', (p, call) => this.update(p, call));
    this.server.core.serveExtension('tasks/cancel', (p, call) => this.cancel(p, call));
    this.server.core.serveListen({ key: 'taskIds', open: (requested, call) => this.listenTo(requested, call) });
    this.changes = this.store.changes$.subscribe((change) => this.onChange(change));
    // tasks/update may arrive at another process: its answers come through the store.
    this.changes.add(this.store.inputs$.subscribe((input) => this.runs.get(input.taskId)?.deliver(input.responses)));
  }

  /** Tasks of this extension running in this process now. */
  get running(): number {
    return this.runs.size;
  }

  /**
   * Decide how a modern `tools/call` is served: undefined for an ordinary call, else the
   * answer (a plain result, or `CreateTaskResult`). Throws -32021 for a `required` tool called
   * without the extension.
   */
  route(tool: string, support: Support, ctx: RequestHandlerContext, execute: ExecuteTool): Promise<JsonObject> | undefined {
    const declared = declaresTasksExtension(ctx.session.requestScope?.clientCapabilities);
    if (!declared) {
      if (support === 'required') throw missingTasksExtension(`tool "${tool}" runs only as a task, so calling it`);
      return undefined;
    }
    if (support === 'forbidden') return undefined;
    const run = new ModernTaskRun(this, ownerOf(ctx.authInfo), tool, new HandlerFeatureContext(ctx, this.logging), support === 'optional', defaultIdentity(ctx.authInfo) !== undefined);
    run.inspectParent = taskParentOf(ctx);
    return run.start(execute);
  }

  /**
   * Stop: abort what runs here, and fail those tasks in the store (a shared store outlives this
   * server: without this they would stay `working` until their TTL).
   */
  async close(): Promise<void> {
    this.changes?.unsubscribe();
    const runs = [...this.runs.values()];
    this.runs.clear();
    const now = this.clock.now();
    await Promise.all(
      runs.map((run) => {
        run.abort.abort(new Error('The server closed'));
        const error = { code: ErrorCode.InternalError, message: STOPPED };
        return this.store.apply(run.taskId!, { type: 'FAIL', now, outcome: { error }, message: STOPPED }).catch(() => undefined);
      }),
    );
  }

  /** @internal */
  async create(run: ModernTaskRun, tool: string): Promise<TaskRecord> {
    try {
      const record = await this.store.create({ owner: run.owner, method: 'tools/call', statusMessage: `Running tool "${tool}"`, identified: run.identified });
      this.audit.emit(() => ({ type: 'created', taskId: record.taskId, owner: run.owner, method: 'tools/call', status: record.status }));
      this.inspected.created(record, run.inspectParent);
      this.runs.set(record.taskId, run);
      return record;
    } catch (e) {
      if (!(e instanceof TaskLimitError)) throw e;
      this.audit.emit(() => ({ type: 'refused', owner: run.owner, method: 'tools/call', reason: `task limit (${e.scope})` }));
      throw e;
    }
  }

  /** @internal The handler ended: a result (tool errors included) completes the task; a JSON-RPC error fails it. */
  async finish(run: ModernTaskRun, outcome: { result: JsonObject } | { error: { code: number; message: string; data?: unknown } }): Promise<void> {
    const taskId = run.taskId!;
    this.runs.delete(taskId);
    if (run.abort.signal.aborted) return;
    const now = this.clock.now();
    const event = 'result' in outcome ? { type: 'COMPLETE' as const, now, outcome, message: 'Completed' } : { type: 'FAIL' as const, now, outcome, message: outcome.error.message };
    await this.store.apply(taskId, event).catch(() => undefined);
  }

  /** @internal The task waits for these input requests (all outstanding, by key). */
  async inputRequired(run: ModernTaskRun, inputRequests: JsonObject): Promise<void> {
    const methods = [...new Set(Object.values(inputRequests).map((r) => String((r as { method?: unknown }).method)))].join(', ');
    await this.store.apply(run.taskId!, { type: 'INPUT_REQUIRED', now: this.clock.now(), message: `Waiting for the requestor to answer ${methods}`, inputRequests });
  }

  /** @internal */
  async inputReceived(run: ModernTaskRun): Promise<void> {
    await this.store.apply(run.taskId!, { type: 'INPUT_RECEIVED', now: this.clock.now(), message: 'Working' });
  }

  private onChange(change: TaskChange): void {
    this.inspected.changed(change);
    const run = this.runs.get(change.taskId);
    if (run === undefined) return;
    if (change.effects.includes('abortExecution')) run.abort.abort(new McpError(ErrorCode.InvalidRequest, change.record ? 'The task was cancelled' : 'The task expired'));
    if (!change.record || isTerminal(change.record.status)) this.runs.delete(change.taskId);
  }

  /**
   * `subscriptions/listen` with `taskIds`: refused (-32021) for a request that does not declare
   * the extension; else the caller's tasks among them are acknowledged, and each change of one is
   * sent as `notifications/tasks` with the `DetailedTask` that `tasks/get` would answer. Changes
   * are collected from before the tasks are looked up, so none falls between.
   */
  private async listenTo(requested: unknown, call: ListenCall): Promise<{ honoured: string[]; start(notify: (method: string, params: JsonObject) => void): () => void }> {
    if (!declaresTasksExtension(call.clientCapabilities)) throw missingTasksExtension('subscriptions/listen with "taskIds" (task status notifications)');
    if (!Array.isArray(requested) || requested.some((id) => typeof id !== 'string')) {
      throw new McpError(ErrorCode.InvalidParams, 'subscriptions/listen: "taskIds" must be an array of task id strings');
    }
    const owner = ownerOf(call.authInfo);
    let send: ((change: TaskChange) => void) | undefined;
    const early: TaskChange[] = [];
    const watched = new Set<string>();
    const sub = this.store.changes$.subscribe((change) => {
      if (change.owner !== owner || !watched.has(change.taskId)) return;
      if (send === undefined) early.push(change);
      else send(change);
    });
    try {
      for (const taskId of new Set(requested as string[])) {
        watched.add(taskId);
        // Unknown, expired and other callers' ids are left out of the acknowledgment, as tasks/get refuses them.
        if (!('found' in (await this.store.get(taskId, owner)))) watched.delete(taskId);
      }
    } catch (e) {
      sub.unsubscribe();
      throw e;
    }
    return {
      honoured: [...watched],
      start: (notify) => {
        send = (change) => {
          if (!watched.has(change.taskId)) return;
          const record = change.record;
          // Purged (expired): nothing more will come for it.
          if (record === undefined) return void watched.delete(change.taskId);
          notify('notifications/tasks', extensionDetailedTask(record, record.status === 'input_required' ? (record.inputRequests as JsonObject | undefined) : undefined));
          if (isTerminal(record.status)) watched.delete(change.taskId);
        };
        for (const change of early.splice(0)) send(change);
        return () => sub.unsubscribe();
      },
    };
  }

  private async find(method: string, params: JsonObject | undefined, call: ModernCall): Promise<TaskRecord> {
    if (!declaresTasksExtension(call.envelope.clientCapabilities)) throw missingTasksExtension(method);
    const taskId = params?.taskId;
    if (typeof taskId !== 'string' || taskId === '') throw new McpError(ErrorCode.InvalidParams, `${method} needs a "taskId" string`);
    const owner = ownerOf(call.authInfo);
    const found = await this.store.get(taskId, owner);
    if ('found' in found) {
      this.audit.emit(() => ({ type: 'retrieved', taskId, owner, method, status: found.found.status }));
      return found.found;
    }
    this.audit.emit(() => ({ type: 'refused', taskId, owner, method, reason: found.missing === 'expired' ? 'expired' : 'not found' }));
    throw new McpError(ErrorCode.InvalidParams, `${method}: ${found.missing === 'expired' ? 'the task has expired' : 'no such task'}`, { taskId });
  }

  private async get(params: JsonObject | undefined, call: ModernCall): Promise<JsonObject> {
    const record = await this.find('tasks/get', params, call);
    return extensionGetTaskResult(record, record.status === 'input_required' ? (record.inputRequests as JsonObject | undefined) : undefined);
  }

  private async update(params: JsonObject | undefined, call: ModernCall): Promise<JsonObject> {
    const responses = params?.inputResponses;
    if (responses === null || typeof responses !== 'object' || Array.isArray(responses)) {
      if (!declaresTasksExtension(call.envelope.clientCapabilities)) throw missingTasksExtension('tasks/update');
      throw new McpError(ErrorCode.InvalidParams, 'tasks/update needs "inputResponses": an object of answers by input key');
    }
    const record = await this.find('tasks/update', params, call);
    // To the process running the task (this one or another): acknowledged at once, applied there.
    await this.store.sendInput({ taskId: record.taskId, responses: responses as JsonObject });
    return {};
  }

  private async cancel(params: JsonObject | undefined, call: ModernCall): Promise<JsonObject> {
    const record = await this.find('tasks/cancel', params, call);
    // Cancelling a terminal task is acknowledged the same way: the outcome stands.
    if (!isTerminal(record.status)) await this.store.apply(record.taskId, { type: 'CANCEL', now: this.clock.now(), message: 'The task was cancelled by request.' }, record.owner);
    return {};
  }
}

/** The refusal of a task call whose store is down (its message and data name the store). */
function storeOutage(e: Error): McpError {
  const { code, message, data } = storeOutageError(e);
  return new McpError(code, message, data);
}

/** Why a task that was running here failed when this server closed. */
const STOPPED = 'The server stopped before the task finished; start it again';

/** The owner key of a modern caller: its authenticated identity, else the shared anonymous key. */
function ownerOf(authInfo: unknown): string {
  return defaultIdentity(authInfo) ?? 'anonymous';
}

function errorOf(e: unknown): { code: number; message: string; data?: unknown } {
  if (e instanceof McpError) return e.data === undefined ? { code: e.code, message: e.message } : { code: e.code, message: e.message, data: e.data };
  return { code: ErrorCode.InternalError, message: (e as Error)?.message ?? String(e) };
}
