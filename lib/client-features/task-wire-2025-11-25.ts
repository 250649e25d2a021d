/**
 * 2025-11-25 tasks on the requestor's wire: `tasks/get` for the status; `tasks/result` opened as
 * soon as the task needs input (the server's elicitation or sampling requests arrive on it and are
 * answered by the client's existing handlers) or finishes, its answer the task's outcome;
 * `tasks/cancel` answers with the task.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks#getting-tasks
 */
import { McpError } from '../errors.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import type { JsonObject } from '../jsonrpc/message.js';
import type { Task } from '../protocol/schema/tasks.js';
import type { RequestOptions } from '../session/request-registry.js';
import { TERMINAL, type TaskRequester, type TaskWire } from './tasks.js';

export class TaskWire20251125 implements TaskWire {
  readonly waitsBeforeFirstLook = false;
  private pendingResult: Promise<JsonObject> | undefined;

  constructor(
    private readonly taskId: string,
    private readonly send: TaskRequester,
    private readonly signal: AbortSignal | undefined,
  ) {}

  async look(show: (task: Task) => void, signal: AbortSignal | undefined): Promise<{ task: Task; outcome?: Promise<JsonObject> }> {
    const task = (await this.send('tasks/get', { taskId: this.taskId }, signal ? { signal } : undefined)) as unknown as Task;
    show(task);
    // Input needed: open tasks/result now, the server's requests for the task travel on it.
    if (task.status === 'input_required' || TERMINAL.has(task.status)) this.openResult(task);
    return TERMINAL.has(task.status) ? { task, outcome: this.pendingResult! } : { task };
  }

  async cancel(): Promise<Task> {
    return (await this.send('tasks/cancel', { taskId: this.taskId })) as unknown as Task;
  }

  stopError(signal: AbortSignal): Error {
    return signal.reason instanceof Error ? signal.reason : new McpError(ErrorCode.RequestTimeout, `Stopped following the task: ${String(signal.reason ?? 'aborted')}`);
  }

  private openResult(task: Task): void {
    if (this.pendingResult) return;
    // It blocks until the task ends: as long as the task may live, not the default 60 s.
    const timeout = Math.max(60_000, typeof task.ttl === 'number' ? task.ttl : 86_400_000);
    const options: RequestOptions = { timeout };
    if (this.signal) options.signal = this.signal;
    this.pendingResult = this.send('tasks/result', { taskId: this.taskId }, options);
    // Observed by the handle once terminal; a rejection before that must not go unhandled.
    this.pendingResult.catch(() => undefined);
  }
}
