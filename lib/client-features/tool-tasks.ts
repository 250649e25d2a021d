/**
 * The client's side of task-augmented tool calls (2025-11-25): whether a call may or must be a
 * task (the server's `tasks.requests.tools.call` and the tool's `execution.taskSupport`), the
 * `task` param, following a `CreateTaskResult` to its end with a {@link ClientTaskHandle}, and
 * the progress of a task (its request's progress token stays valid for the task's life).
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks#tool-level-negotiation
 */
import { of } from 'rxjs';
import type { Clock } from '../clock.js';
import { McpError } from '../errors.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import type { JsonObject } from '../jsonrpc/message.js';
import { hasCapability } from '../protocol/methods.js';
import { allows, type Revision } from '../protocol/revisions.js';
import type { CallToolResult, Tool } from '../protocol/schema/tools.js';
import type { Progress, ProgressToken } from '../session/request-registry.js';
import { ExtensionTaskWire, isExtensionTaskResult } from '../client-modern/extension-tasks.js';
import { TaskWire20251125 } from './task-wire-2025-11-25.js';
import type { InputAnswerer } from '../client-modern/input-rounds.js';
import { ClientTaskHandle, isCreateTaskResult, type Task, type TaskHandle, type TaskHandleOptions, type TaskRequester } from './tasks.js';
import type { TaskJournal } from './task-journal.js';
import { TERMINAL_STATUSES, watched, type TaskLifecycleEvent } from './task-watch.js';

/** What the tool-task logic needs from its client. */
export interface ToolTasksHost {
  request: TaskRequester;
  clock(): Clock;
  revision(): Revision | undefined;
  serverCapabilities(): object | undefined;
  /** The tool as `tools/list` described it, if it was listed. */
  tool(name: string): Tool | undefined;
  /**
   * In the modern era with a server offering the tasks extension: how the client answers a
   * task's input requests (else undefined: the 2025-11-25 tasks, or none).
   */
  extension(): { answererFor(method: string): InputAnswerer | undefined } | undefined;
  /** Where started tasks are written down until they end (`ClientOptions.taskJournal`), and how a failing journal is reported. */
  journal?(): { journal: TaskJournal; report(e: unknown): void } | undefined;
  /** Where the lifecycle of tasks goes while someone watches (`client.taskEvents$`), else undefined. */
  taskEvents?(): ((e: Omit<TaskLifecycleEvent, 'at'>) => void) | undefined;
}

/** How a caller asks for a task (`CallToolOptions.task`). */
export type TaskRequest = boolean | { ttl?: number } | undefined;

/** A tool call's task follows its request's progress to this listener. */
interface Tracked {
  token: ProgressToken;
  onprogress: (p: Progress) => void;
}

export type ToolTaskHandle = TaskHandle<CallToolResult & JsonObject>;

export class ToolTasks {
  private progress: Map<ProgressToken, (p: Progress) => void> | undefined;
  private tokens = 0;

  constructor(private readonly host: ToolTasksHost) {}

  /** Whether the server declared task-augmented `tools/call` in this revision (or the tasks extension). */
  serverRunsToolTasks(): boolean {
    if (this.host.extension()) return true;
    const rev = this.host.revision();
    return rev !== undefined && allows(rev, 'tasks') && hasCapability(this.host.serverCapabilities(), ['tasks', 'requests', 'tools', 'call']);
  }

  /** A listed tool without `execution.taskSupport` (or "forbidden") must not be called as a task. */
  forbids(name: string): boolean {
    const tool = this.host.tool(name);
    if (!tool) return false;
    const support = tool.execution?.taskSupport;
    return support === undefined || support === 'forbidden';
  }

  /**
   * Add the `task` param to a call's params when it should run as one (asked, or required by
   * the tool), with a progress token of our own when the caller wants progress. Returns what
   * {@link follow} needs to keep that progress coming.
   */
  prepare(name: string, asked: TaskRequest, params: JsonObject, onprogress: ((p: Progress) => void) | undefined): Tracked | undefined {
    // The extension's tasks are server-directed: no `task` param.
    if (this.host.extension()) return undefined;
    const task = this.taskParam(name, asked);
    if (!task) return undefined;
    params.task = task;
    return this.track(params, onprogress);
  }

  /** A progress token of our own in `params`, to follow the task's progress beyond its request. */
  private track(params: JsonObject, onprogress: ((p: Progress) => void) | undefined): Tracked | undefined {
    if (!onprogress) return undefined;
    const token = `task-progress-${++this.tokens}`;
    params._meta = { ...(params._meta as JsonObject | undefined), progressToken: token };
    return { token, onprogress };
  }

  /** A call of tool `name` answered with a `CreateTaskResult`: its handle (else undefined), written in the journal if there is one. */
  created(name: string, result: JsonObject, signal: AbortSignal | undefined, tracked?: Tracked): ToolTaskHandle | undefined {
    const extension = this.host.extension();
    const handle = extension
      ? isExtensionTaskResult(result)
        ? this.followExtension(result, extension, signal)
        : undefined
      : isCreateTaskResult(result)
        ? this.follow(result.task, signal, tracked)
        : undefined;
    return handle === undefined ? undefined : this.watch(handle, name);
  }

  /**
   * The handle, written in the journal until it is seen terminal and reported on the lifecycle
   * events while they are watched (`name`: the tool, for a task this client just created).
   */
  private watch(handle: ToolTaskHandle, name: string | undefined): ToolTaskHandle {
    const j = this.host.journal?.();
    const tell = this.host.taskEvents?.();
    if (j === undefined && tell === undefined) return handle;
    const taskId = handle.taskId;
    if (j !== undefined && name !== undefined) {
      const entry = { taskId, method: 'tools/call', name, createdAt: this.host.clock().now() };
      void Promise.resolve()
        .then(() => j.journal.add(entry))
        .catch(j.report);
    }
    tell?.({ type: name !== undefined ? 'created' : 'resumed', taskId, ...(name !== undefined && { name }), ...(handle.current && { status: handle.current.status }) });
    return watched(handle, (t) => {
      tell?.({ type: 'status', taskId, ...(name !== undefined && { name }), status: t.status, ...(t.statusMessage !== undefined && { statusMessage: t.statusMessage }) });
      if (j !== undefined && TERMINAL_STATUSES.has(t.status)) void Promise.resolve().then(() => j.journal.remove(taskId)).catch(j.report);
    });
  }

  /**
   * `callToolAsTask`: the call with `task`, and the handle of the task it created. With
   * `onprogress`, a 2025-11-25 task's progress reaches it for the task's life (its token stays valid).
   */
  async callAsTask(name: string, args: Record<string, unknown> | undefined, ttl: number | undefined, options: { signal?: AbortSignal; timeout?: number; onprogress?: (p: Progress) => void }): Promise<ToolTaskHandle> {
    const extension = this.host.extension();
    if (extension) {
      // The server decides: a task handle, or the result at once (a handle already completed).
      const result = await this.host.request('tools/call', args === undefined ? { name } : { name, arguments: args }, options);
      return this.created(name, result, options.signal) ?? settledHandle(result as CallToolResult & JsonObject);
    }
    if (!this.serverRunsToolTasks()) throw new McpError(ErrorCode.MethodNotFound, 'The server did not declare tasks.requests.tools.call: call the tool with callTool instead');
    if (this.forbids(name)) {
      throw new McpError(ErrorCode.MethodNotFound, `Tool "${name}" does not run as a task (its execution.taskSupport is not "optional" or "required"): call it with callTool`);
    }
    const params: JsonObject = args === undefined ? { name } : { name, arguments: args };
    params.task = ttl === undefined ? {} : { ttl };
    const tracked = this.track(params, options.onprogress);
    const created = await this.host.request('tools/call', params, options);
    // A result instead of a task (a server at its task limit runs an optional tool at once): a handle already completed.
    return this.created(name, created, options.signal, tracked) ?? settledHandle(created as CallToolResult & JsonObject);
  }

  /** A handle on a task by id (resumption). */
  resume(taskId: string, options: TaskHandleOptions): ToolTaskHandle {
    const extension = this.host.extension();
    const handle: ToolTaskHandle = extension
      ? new ClientTaskHandle(taskId, new ExtensionTaskWire(taskId, this.host.request, (m) => extension.answererFor(m)), this.host.clock(), undefined, options)
      : new ClientTaskHandle(taskId, new TaskWire20251125(taskId, this.host.request, options.signal), this.host.clock(), undefined, options);
    return this.watch(handle, undefined);
  }

  /** Progress for a token of a followed task: delivered (true) or not ours (false). */
  deliverProgress(token: ProgressToken, progress: Progress): boolean {
    const listener = this.progress?.get(token);
    listener?.(progress);
    return listener !== undefined;
  }

  private follow(task: Task, signal: AbortSignal | undefined, tracked?: Tracked): ToolTaskHandle {
    const wire = new TaskWire20251125(task.taskId, this.host.request, signal);
    const handle = new ClientTaskHandle<CallToolResult & JsonObject>(task.taskId, wire, this.host.clock(), task, signal ? { signal } : {});
    if (tracked) {
      (this.progress ??= new Map()).set(tracked.token, tracked.onprogress);
      const release = () => this.progress?.delete(tracked.token);
      handle.result().then(release, release);
    }
    return handle;
  }

  private followExtension(created: JsonObject, extension: NonNullable<ReturnType<ToolTasksHost['extension']>>, signal: AbortSignal | undefined): ToolTaskHandle {
    const taskId = created.taskId as string;
    const wire = new ExtensionTaskWire(taskId, this.host.request, (m) => extension.answererFor(m));
    return new ClientTaskHandle(taskId, wire, this.host.clock(), ExtensionTaskWire.initial(created), signal ? { signal } : {});
  }

  private taskParam(name: string, asked: TaskRequest): JsonObject | undefined {
    if (asked === false || !this.serverRunsToolTasks() || this.forbids(name)) return undefined;
    if (asked === true) return {};
    if (asked) return asked.ttl === undefined ? {} : { ttl: asked.ttl };
    return this.host.tool(name)?.execution?.taskSupport === 'required' ? {} : undefined;
  }
}

/** A call the server answered at once, as a handle whose task is already completed. */
function settledHandle(result: CallToolResult & JsonObject): ToolTaskHandle {
  const now = new Date().toISOString();
  const task = { taskId: '', status: 'completed', createdAt: now, lastUpdatedAt: now, ttl: null } as unknown as Task;
  return {
    taskId: '',
    current: task,
    status$: of(task),
    result: () => Promise.resolve(result),
    cancel: () => Promise.resolve(task),
  };
}
