/**
 * The requestor side of 2025-11-25 tasks: a handle on one task of the server that polls
 * `tasks/get` at the server's `pollInterval` (on the client's clock), shows every status on
 * `status$`, opens `tasks/result` as soon as the task needs input (the server's elicitation or
 * sampling requests arrive on it and are answered by the client's existing handlers) or
 * finishes, and returns exactly what the underlying request would have returned.
 *
 * A handle is made from a `CreateTaskResult` or from a bare task id (`client.task(id)`), so a
 * task can be picked up again after a reconnect or a restart: the server finds it for the same
 * identity (the authorization's subject; without authorization, only in the same session).
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks#getting-tasks
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

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

/** Whether a result is a `CreateTaskResult` (2025-11-25 form). */
export function isCreateTaskResult(result: JsonObject): result is JsonObject & { task: Task } {
  const task = result.task as Partial<Task> | undefined;
  return task !== null && typeof task === 'object' && typeof task.taskId === 'string' && typeof task.status === 'string';
}

export class ClientTaskHandle<R extends JsonObject = JsonObject> implements TaskHandle<R> {
  private readonly statusSubject: BehaviorSubject<Task | undefined>;
  private running: Promise<R> | undefined;
  private pendingResult: Promise<JsonObject> | undefined;

  constructor(
    readonly taskId: string,
    private readonly send: TaskRequester,
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
    const task = (await this.send('tasks/cancel', { taskId: this.taskId })) as unknown as Task;
    this.show(task);
    return task;
  }

  private async follow(): Promise<R> {
    const signal = this.options.signal;
    try {
      for (;;) {
        const task = (await this.send('tasks/get', { taskId: this.taskId }, signal ? { signal } : undefined)) as unknown as Task;
        this.show(task);
        // Input needed: open tasks/result now, the server's requests for the task travel on it.
        if (task.status === 'input_required' || TERMINAL.has(task.status)) this.openResult(task);
        if (TERMINAL.has(task.status)) return (await this.pendingResult!) as R;
        await this.sleep(this.intervalOf(task), signal);
      }
    } finally {
      if (TERMINAL.has(this.current?.status ?? '')) this.statusSubject.complete();
    }
  }

  private openResult(task: Task): void {
    if (this.pendingResult) return;
    // It blocks until the task ends: as long as the task may live, not the default 60 s.
    const timeout = Math.max(60_000, typeof task.ttl === 'number' ? task.ttl : 86_400_000);
    const options: RequestOptions = { timeout };
    if (this.options.signal) options.signal = this.options.signal;
    this.pendingResult = this.send('tasks/result', { taskId: this.taskId }, options);
    // Observed in follow(); a rejection before that must not go unhandled.
    this.pendingResult.catch(() => undefined);
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
      if (signal?.aborted) return reject(abortError(signal));
      const onAbort = () => {
        this.clock.clearTimeout(timer);
        reject(abortError(signal!));
      };
      const timer = this.clock.setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms, this.clock.namesTimers ? `task:${this.taskId}:poll` : undefined);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}

function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new McpError(ErrorCode.RequestTimeout, `Stopped following the task: ${String(signal.reason ?? 'aborted')}`);
}
