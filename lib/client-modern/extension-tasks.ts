/**
 * The requestor side of the tasks extension (`io.modelcontextprotocol/tasks`) in the modern era:
 * a request the server chose to run as a task answers `resultType: "task"` (a `CreateTaskResult`
 * with `taskId`, `status`, `ttlMs`, `pollIntervalMs`); the handle polls `tasks/get` at the
 * server's interval on the client clock, answers the task's `inputRequests` with the client's own
 * handlers through `tasks/update`, and resolves with the `result` inlined once `completed` (or
 * rejects with the inlined `error` once `failed`). The wire of the one `ClientTaskHandle`.
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/extensions/tasks/overview
 */
import { McpError } from '../errors.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import type { JsonObject, JsonRpcErrorObject } from '../jsonrpc/message.js';
import type { Task } from '../protocol/schema/tasks.js';
import type { TaskRequester, TaskWire } from '../client-features/tasks.js';
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

/** The tasks extension on the requestor's wire (a task of a modern request). */
export class ExtensionTaskWire implements TaskWire {
  readonly waitsBeforeFirstLook = true;
  /** Input keys answered already (a task asks each once). */
  private readonly answered = new Set<string>();

  constructor(
    private readonly taskId: string,
    private readonly send: TaskRequester,
    private readonly answererFor: (method: string) => InputAnswerer | undefined,
  ) {}

  /** The extension's `CreateTaskResult` (flat) as the handle's first status. */
  static initial(created: JsonObject | undefined): Task | undefined {
    return created ? asTask(created) : undefined;
  }

  async look(show: (task: Task) => void, signal: AbortSignal | undefined): Promise<{ task: Task; outcome?: Promise<JsonObject>; again?: boolean }> {
    const detailed = await this.send('tasks/get', { taskId: this.taskId }, signal ? { signal } : undefined);
    const task = asTask(detailed);
    show(task);
    switch (task.status) {
      case 'completed':
        return { task, outcome: Promise.resolve((detailed.result ?? {}) as JsonObject) };
      case 'failed': {
        const e = (detailed.error ?? { code: ErrorCode.InternalError, message: task.statusMessage ?? 'The task failed' }) as JsonRpcErrorObject;
        return { task, outcome: Promise.reject(McpError.fromError(e)) };
      }
      case 'cancelled':
        return { task, outcome: Promise.reject(new McpError(ErrorCode.InternalError, `Task ${this.taskId} was cancelled${task.statusMessage ? `: ${task.statusMessage}` : ''}`)) };
      case 'input_required':
        // Answered: look again at once; nothing new to answer: wait as usual.
        return { task, again: await this.answer((detailed.inputRequests ?? {}) as JsonObject, signal) };
      default:
        return { task };
    }
  }

  async cancel(): Promise<Task> {
    await this.send('tasks/cancel', { taskId: this.taskId });
    // The acknowledgment says nothing of the state: ask for it.
    return asTask(await this.send('tasks/get', { taskId: this.taskId }));
  }

  stopError(signal: AbortSignal): Error {
    return new McpError(ErrorCode.RequestTimeout, `Stopped following the task: ${String(signal.reason ?? 'aborted')}`);
  }

  /** Answer the requests not answered yet with the client's handlers, in one `tasks/update`; false when none was new. */
  private async answer(requests: JsonObject, signal: AbortSignal | undefined): Promise<boolean> {
    const pending = Object.entries(requests).filter(([key]) => !this.answered.has(key));
    if (pending.length === 0) return false;
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
    return true;
  }
}
