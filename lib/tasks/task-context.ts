/**
 * What a tool handler running as a task receives: the same {@link FeatureContext} as a plain
 * call, bound to the task instead of the request that created it (that request was answered
 * with `CreateTaskResult` at once). `signal` aborts when the task is cancelled or expires;
 * progress keeps the original progress token (valid for the task's lifetime); requests to the
 * client (elicitation, sampling, roots) carry the related-task `_meta`, move the task to
 * `input_required` and travel on the requestor's `tasks/result` stream, which works on every
 * transport; the task returns to `working` once every answer is in.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks#input-required-status
 */
import type { Clock } from '../clock.js';
import type { JsonObject } from '../jsonrpc/message.js';
import type { ProgressToken } from '../protocol/schema/base.js';
import { BaseFeatureContext } from '../server-features/feature-context.js';
import type { Logger, LoggingFeature } from '../server-features/logging.js';
import type { RequestHandlerContext, RequestOptions, ServerCaller } from '../session/session.js';
import type { TaskStore } from './task-store.js';
import { withRelatedTask } from './wire-2025-11-25.js';

/** The in-process side of one running task: its abort signal and the way to reach the requestor. */
export class TaskExecution {
  readonly abort = new AbortController();
  /** Open `tasks/result` requests for this task, newest last. */
  private readonly channels: RequestHandlerContext[] = [];
  private readonly waiting: Array<(channel: RequestHandlerContext) => void> = [];
  private pendingInputs = 0;

  constructor(
    readonly taskId: string,
    readonly owner: string,
    readonly session: ServerCaller,
    private readonly store: TaskStore,
    private readonly clock: Clock,
  ) {}

  /** A `tasks/result` request is open: requests of the task may travel on it. Returns its release. */
  openChannel(ctx: RequestHandlerContext): () => void {
    this.channels.push(ctx);
    for (const wake of this.waiting.splice(0)) wake(ctx);
    return () => {
      const i = this.channels.indexOf(ctx);
      if (i >= 0) this.channels.splice(i, 1);
    };
  }

  /** Send a request to the requestor on behalf of the task (input_required while it is out). */
  async request(method: string, params: JsonObject | undefined, options: RequestOptions | undefined): Promise<JsonObject> {
    const signal = options?.signal ?? this.abort.signal;
    if (this.pendingInputs++ === 0) {
      await this.store.apply(this.taskId, { type: 'INPUT_REQUIRED', now: this.clock.now(), message: `Waiting for the requestor to answer ${method}` });
    }
    try {
      const channel = await this.channel(signal);
      return await channel.sendRequest(method, { ...params, _meta: withRelatedTask(params?._meta, this.taskId) }, { ...options, signal });
    } finally {
      if (--this.pendingInputs === 0 && !this.abort.signal.aborted) {
        await this.store.apply(this.taskId, { type: 'INPUT_RECEIVED', now: this.clock.now(), message: 'Working' });
      }
    }
  }

  private channel(signal: AbortSignal): Promise<RequestHandlerContext> {
    const open = this.channels.find((c) => !c.signal.aborted);
    if (open) return Promise.resolve(open);
    return new Promise((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const onAbort = () => {
        const i = this.waiting.indexOf(wake);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(signal.reason);
      };
      const wake = (c: RequestHandlerContext) => {
        signal.removeEventListener('abort', onAbort);
        resolve(c);
      };
      this.waiting.push(wake);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }
}

/** A tool handler's context while it runs as a task. */
export class TaskFeatureContext extends BaseFeatureContext {
  private logger: Logger | undefined;
  private lastProgress = -Infinity;

  constructor(
    private readonly origin: RequestHandlerContext,
    readonly execution: TaskExecution,
    private readonly logging: LoggingFeature,
    private readonly store: TaskStore,
    private readonly clock: Clock,
  ) {
    super(origin);
  }

  /** The task this handler runs as. */
  get task(): { readonly taskId: string } {
    return { taskId: this.execution.taskId };
  }
  get signal(): AbortSignal {
    return this.execution.abort.signal;
  }
  get log(): Logger {
    // The task's notifications name it (related-task), as every message about a task does.
    this.logger ??= this.logging.loggerFor(this.origin.session, this.origin.requestId, withRelatedTask(undefined, this.execution.taskId));
    return this.logger;
  }

  /**
   * A status message for `tasks/get` (and `notifications/tasks/status`), optionally with a new
   * poll-interval hint in ms.
   */
  status(message: string, pollInterval?: number): Promise<void> {
    const event = pollInterval === undefined ? { type: 'STATUS' as const, now: this.clock.now(), message } : { type: 'STATUS' as const, now: this.clock.now(), message, pollInterval };
    return this.store.apply(this.execution.taskId, event).then(() => undefined);
  }

  sendProgress(progress: number, total?: number, message?: string): void {
    const token = this.origin.meta?.progressToken as ProgressToken | undefined;
    if (token === undefined || this.signal.aborted) return;
    if (!(progress > this.lastProgress)) throw new Error(`Progress must increase with each notification: got ${progress} after ${this.lastProgress}`);
    this.lastProgress = progress;
    if (this.origin.session.currentPhase !== 'operating') return;
    this.origin.session.progressFor(token, progress, total, message, this.origin.requestId, withRelatedTask(undefined, this.execution.taskId));
  }
  sendNotification(method: string, params?: JsonObject): void {
    this.origin.session.notifyRelated(method, { ...params, _meta: withRelatedTask(params?._meta, this.execution.taskId) }, this.origin.requestId);
  }
  sendRequest(method: string, params?: JsonObject, options?: RequestOptions): Promise<JsonObject> {
    return this.execution.request(method, params, options);
  }
}
