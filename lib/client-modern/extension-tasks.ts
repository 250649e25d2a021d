/**
 * The requestor side of the tasks extension (`io.modelcontextprotocol/tasks`) in the modern era:
 * a request the server chose to run as a task answers `resultType: "task"` (a `CreateTaskResult`
 * with `taskId`, `status`, `ttlMs`, `pollIntervalMs`); the handle polls `tasks/get` at the
 * server's interval on the client clock, answers the task's `inputRequests` with the client's own
 * handlers through `tasks/update`, and resolves with the `result` inlined once `completed` (or
 * rejects with the inlined `error` once `failed`). Same `TaskHandle` as the 2025-11-25 one.
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/extensions/tasks/overview
 */
import { BehaviorSubject, filter, type Observable } from 'rxjs';
import type { Clock } from '../clock.js';
import { McpError } from '../errors.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import type { JsonObject, JsonRpcErrorObject } from '../jsonrpc/message.js';
import type { Task } from '../protocol/schema/tasks.js';
import type { TaskHandle, TaskHandleOptions, TaskRequester } from '../client-features/tasks.js';
import type { InputAnswerer } from './input-rounds.js';
import { UnsupportedInputRequestError } from './modern-client-errors.js';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/**
 * The requests a server may answer with a `CreateTaskResult` (the extension's "Supported
 * Methods"; later revisions may add rows). A task result to any other request is an invalid
 * response.
 * @see https://modelcontextprotocol.io/extensions/tasks#supported-methods
 */
export const TASK_METHODS: ReadonlySet<string> = new Set(['tools/call']);

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

/** Whether a result is the extension's `CreateTaskResult`. */
export function isExtensionTaskResult(result: JsonObject): boolean {
  return result.resultType === 'task' && typeof result.taskId === 'string' && typeof result.status === 'string';
}

/** The extension's task (flat, `ttlMs`, `pollIntervalMs`) as the `Task` the handles show. */
function asTask(wire: JsonObject): Task {
  const task: Record<string, unknown> = {
    taskId: wire.taskId,
    status: wire.status,
    createdAt: wire.createdAt,
    lastUpdatedAt: wire.lastUpdatedAt ?? wire.createdAt,
    ttl: typeof wire.ttlMs === 'number' ? wire.ttlMs : null,
  };
  if (typeof wire.pollIntervalMs === 'number') task.pollInterval = wire.pollIntervalMs;
  if (typeof wire.statusMessage === 'string') task.statusMessage = wire.statusMessage;
  return task as unknown as Task;
}

export class ExtensionTaskHandle<R extends JsonObject = JsonObject> implements TaskHandle<R> {
  private readonly statusSubject: BehaviorSubject<Task | undefined>;
  private running: Promise<R> | undefined;
  /** Input keys answered already (a task asks each once). */
  private readonly answered = new Set<string>();

  constructor(
    readonly taskId: string,
    private readonly send: TaskRequester,
    private readonly clock: Clock,
    private readonly answererFor: (method: string) => InputAnswerer | undefined,
    initial: JsonObject | undefined,
    private readonly options: TaskHandleOptions = {},
  ) {
    this.statusSubject = new BehaviorSubject<Task | undefined>(initial ? asTask(initial) : undefined);
  }

  get current(): Task | undefined {
    return this.statusSubject.value;
  }

  get status$(): Observable<Task> {
    void this.result().catch(() => undefined);
    return this.statusSubject.pipe(filter((t): t is Task => t !== undefined));
  }

  result(): Promise<R> {
    this.running ??= this.follow();
    return this.running;
  }

  async cancel(): Promise<Task> {
    await this.send('tasks/cancel', { taskId: this.taskId });
    // The acknowledgment says nothing of the state: ask for it.
    const task = asTask(await this.send('tasks/get', { taskId: this.taskId }));
    this.show(task);
    return task;
  }

  private async follow(): Promise<R> {
    const signal = this.options.signal;
    try {
      // A task just created says when to look first (its pollIntervalMs); one picked up by id is looked at now.
      const created = this.current;
      if (created !== undefined && !TERMINAL.has(created.status)) await this.sleep(this.intervalOf(created), signal);
      for (;;) {
        const detailed = await this.send('tasks/get', { taskId: this.taskId }, signal ? { signal } : undefined);
        const task = asTask(detailed);
        this.show(task);
        switch (task.status) {
          case 'completed':
            return (detailed.result ?? {}) as R;
          case 'failed': {
            const e = (detailed.error ?? { code: ErrorCode.InternalError, message: task.statusMessage ?? 'The task failed' }) as JsonRpcErrorObject;
            throw McpError.fromError(e);
          }
          case 'cancelled':
            throw new McpError(ErrorCode.InternalError, `Task ${this.taskId} was cancelled${task.statusMessage ? `: ${task.statusMessage}` : ''}`);
          case 'input_required':
            await this.answer((detailed.inputRequests ?? {}) as JsonObject, signal);
            continue;
        }
        await this.sleep(this.intervalOf(task), signal);
      }
    } finally {
      if (TERMINAL.has(this.current?.status ?? '')) this.statusSubject.complete();
    }
  }

  /** Answer the requests not answered yet with the client's handlers, in one `tasks/update`. */
  private async answer(requests: JsonObject, signal: AbortSignal | undefined): Promise<void> {
    const pending = Object.entries(requests).filter(([key]) => !this.answered.has(key));
    if (pending.length === 0) return this.sleep(this.intervalOf(this.current!), signal);
    const planned = pending.map(([key, req]) => {
      const r = req as { method?: unknown; params?: JsonObject } | null;
      const method = typeof r?.method === 'string' ? r.method : String(r?.method);
      const answer = this.answererFor(method);
      if (!answer) throw new UnsupportedInputRequestError('tasks/get', key, method);
      return { key, method, params: r?.params, answer };
    });
    const responses = await Promise.all(planned.map((p) => p.answer(p.method, p.params, p.key, signal)));
    for (const p of planned) this.answered.add(p.key);
    await this.send('tasks/update', { taskId: this.taskId, inputResponses: Object.fromEntries(planned.map((p, i) => [p.key, responses[i]!])) });
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
      if (signal?.aborted) return reject(new McpError(ErrorCode.RequestTimeout, `Stopped following the task: ${String(signal.reason ?? 'aborted')}`));
      const onAbort = () => {
        this.clock.clearTimeout(timer);
        reject(new McpError(ErrorCode.RequestTimeout, `Stopped following the task: ${String(signal!.reason ?? 'aborted')}`));
      };
      const timer = this.clock.setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms, this.clock.namesTimers ? `task:${this.taskId}:poll` : undefined);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}
