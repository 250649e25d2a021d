/**
 * The requestor side of tasks: one handle on one task of the server that polls `tasks/get` at the
 * server's interval (on the client's clock), shows every status on `status$`, and returns exactly
 * what the underlying request would have returned. The messages are the wire's: 2025-11-25 tasks
 * (`task-wire-2025-11-25.ts`) or the 2026-07-28 tasks extension (`client-modern/extension-tasks.ts`).
 *
 * A handle is made from a `CreateTaskResult` or from a bare task id (`client.task(id)`), so a
 * task can be picked up again after a reconnect or a restart: the server finds it for the same
 * identity (the authorization's subject; without authorization, only in the same session).
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks#getting-tasks
 * @see https://modelcontextprotocol.io/specification/2026-07-28/extensions/tasks/overview
 */
import { BehaviorSubject, filter, type Observable } from 'rxjs';
import type { Clock } from '../clock.js';
import { McpError } from '../errors.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import type { JsonObject } from '../jsonrpc/message.js';
import type { Task } from '../protocol/schema/tasks.js';
import type { RequestOptions } from '../session/request-registry.js';

export type { Task };

/** Sends one request (the client's `request`). */
export type TaskRequester = (method: string, params: JsonObject | undefined, options?: RequestOptions) => Promise<JsonObject>;

/** Options of a task handle. */
export interface TaskHandleOptions {
  /** Poll interval when the server suggests none, ms (default 1,000). */
  defaultPollInterval?: number;
  /** Never poll faster than this, whatever the server says, ms (default 10). */
  minPollInterval?: number;
  /** Stops polling and waiting (the task itself goes on; use `cancel()` to stop it). */
  signal?: AbortSignal;
}

/** A task running on the server. */
export interface TaskHandle<R extends JsonObject = JsonObject> {
  readonly taskId: string;
  /** The latest status on subscribe, then each change; completes once the task is terminal. */
  readonly status$: Observable<Task>;
  /** The latest status seen, if any. */
  readonly current: Task | undefined;
  /** The request's result once the task finishes (rejects with its JSON-RPC error, or when cancelled). */
  result(): Promise<R>;
  /** Ask the server to cancel it (`tasks/cancel`); resolves with the cancelled task. */
  cancel(): Promise<Task>;
}

/** The statuses a task does not leave. */
export const TERMINAL: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled']);

/** Whether a result is a `CreateTaskResult` (2025-11-25 form). */
export function isCreateTaskResult(result: JsonObject): result is JsonObject & { task: Task } {
  const task = result.task as Partial<Task> | undefined;
  return task !== null && typeof task === 'object' && typeof task.taskId === 'string' && typeof task.status === 'string';
}

/**
 * How one task is followed on the wire: 2025-11-25 tasks (`task-wire-2025-11-25.ts`) or the
 * 2026-07-28 tasks extension (`client-modern/extension-tasks.ts`). The handle owns the polling,
 * the status and the clock; the wire owns the messages.
 */
export interface TaskWire {
  /** A task just created is looked at after one poll interval (its `pollIntervalMs` says when); else at once. */
  readonly waitsBeforeFirstLook: boolean;
  /**
   * One look at the task (`tasks/get`), `show`n as soon as it is read. Returns its outcome once
   * there is one (the result, or a rejection), `again` to look again without waiting (input was
   * just answered), or nothing: wait one interval.
   */
  look(show: (task: Task) => void, signal: AbortSignal | undefined): Promise<{ task: Task; outcome?: Promise<JsonObject>; again?: boolean }>;
  /** `tasks/cancel`; resolves with the task as it is then. */
  cancel(): Promise<Task>;
  /** The error the handle rejects with when its `signal` stops it. */
  stopError(signal: AbortSignal): Error;
}

/** The one client task handle, over either wire. */
export class ClientTaskHandle<R extends JsonObject = JsonObject> implements TaskHandle<R> {
  private readonly statusSubject: BehaviorSubject<Task | undefined>;
  private running: Promise<R> | undefined;

  constructor(
    readonly taskId: string,
    private readonly wire: TaskWire,
    private readonly clock: Clock,
    initial: Task | undefined,
    private readonly options: TaskHandleOptions = {},
  ) {
    this.statusSubject = new BehaviorSubject<Task | undefined>(initial);
  }

  get current(): Task | undefined {
    return this.statusSubject.value;
  }

  get status$(): Observable<Task> {
    // Subscribing starts the polling (it stops by itself once the task is terminal).
    void this.result().catch(() => undefined);
    return this.statusSubject.pipe(filter((t): t is Task => t !== undefined));
  }

  result(): Promise<R> {
    this.running ??= this.follow();
    return this.running;
  }

  async cancel(): Promise<Task> {
    const task = await this.wire.cancel();
    this.show(task);
    return task;
  }

  private async follow(): Promise<R> {
    const signal = this.options.signal;
    const show = (task: Task) => this.show(task);
    try {
      const created = this.current;
      if (this.wire.waitsBeforeFirstLook && created !== undefined && !TERMINAL.has(created.status)) await this.sleep(this.intervalOf(created), signal);
      for (;;) {
        // Seen cancelled (tasks/cancel answered so): there is no outcome to fetch, and the server
        // may have forgotten the task already, so it is not asked again (TASK-054).
        const seen = this.current;
        if (seen?.status === 'cancelled') throw new McpError(ErrorCode.InternalError, `Task ${this.taskId} was cancelled${seen.statusMessage ? `: ${seen.statusMessage}` : ''}`);
        const { task, outcome, again } = await this.wire.look(show, signal);
        if (outcome) return (await outcome) as R;
        if (!again) await this.sleep(this.intervalOf(task), signal);
      }
    } finally {
      if (TERMINAL.has(this.current?.status ?? '')) this.statusSubject.complete();
    }
  }

  private show(task: Task): void {
    const prev = this.current;
    if (prev && TERMINAL.has(prev.status)) return;
    if (!prev || prev.status !== task.status || prev.statusMessage !== task.statusMessage || prev.lastUpdatedAt !== task.lastUpdatedAt) this.statusSubject.next(task);
  }

  private intervalOf(task: Task): number {
    const min = this.options.minPollInterval ?? 10;
    const suggested = typeof task.pollInterval === 'number' ? task.pollInterval : (this.options.defaultPollInterval ?? 1_000);
    return Math.max(min, suggested);
  }

  private sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(this.wire.stopError(signal));
      const onAbort = () => {
        this.clock.clearTimeout(timer);
        reject(this.wire.stopError(signal!));
      };
      const timer = this.clock.setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms, this.clock.namesTimers ? `task:${this.taskId}:poll` : undefined);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}
