/**
 * Tasks (experimental in 2025-11-25): durable, polled execution of a request.
 * Everything here is `@since 2025-11-25`.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks
 */
import type { NotificationParams, PaginatedRequestParams, PaginatedResult, RequestParams, Result } from './base.js';

/**
 * The `_meta` key that ties a message to a task.
 * @since 2025-11-25
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks#related-task-metadata
 */
export const RELATED_TASK_META_KEY = 'io.modelcontextprotocol/related-task';

/**
 * Task states; `completed`, `failed` and `cancelled` are terminal.
 * @since 2025-11-25
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks#task-status
 */
export const TASK_STATUSES = ['working', 'input_required', 'completed', 'failed', 'cancelled'] as const;

/**
 * A task state.
 * @since 2025-11-25
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks#task-status
 */
export type TaskStatus = (typeof TASK_STATUSES)[number];

/**
 * A task's state.
 * @since 2025-11-25
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks#task
 */
export type Task = {
  /** Chosen by the receiver. */
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601. */
  lastUpdatedAt: string;
  /** Actual retention in ms; null means unlimited. */
  ttl: number | null;
  /** Suggested polling interval in ms. */
  pollInterval?: number;
};

/**
 * Immediate answer to a task-augmented request.
 * @since 2025-11-25
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks#creating-tasks
 */
export type CreateTaskResult = Result & {
  task: Task;
};

/**
 * Params naming one task.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks#getting-tasks
 */
export type TaskIdParams = RequestParams & {
  taskId: string;
};

/**
 * Polls a task's state.
 * @since 2025-11-25
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks#getting-tasks
 */
export type GetTaskRequest = {
  method: 'tasks/get';
  params: TaskIdParams;
};

/**
 * Answer to `tasks/get`.
 * @since 2025-11-25
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks#getting-tasks
 */
export type GetTaskResult = Result & Task;

/**
 * Fetches a finished task's result (waits if not finished).
 * @since 2025-11-25
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks#retrieving-task-results
 */
export type GetTaskPayloadRequest = {
  method: 'tasks/result';
  params: TaskIdParams;
};

/**
 * Answer to `tasks/result`: the original request's result type (e.g. `CallToolResult`).
 * @since 2025-11-25
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks#retrieving-task-results
 */
export type GetTaskPayloadResult = Result & { [key: string]: unknown };

/**
 * Cancels a task.
 * @since 2025-11-25
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks#cancelling-tasks
 */
export type CancelTaskRequest = {
  method: 'tasks/cancel';
  params: TaskIdParams;
};

/**
 * Answer to `tasks/cancel`.
 * @since 2025-11-25
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks#cancelling-tasks
 */
export type CancelTaskResult = Result & Task;

/**
 * Lists tasks, a page at a time.
 * @since 2025-11-25
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks#listing-tasks
 */
export type ListTasksRequest = {
  method: 'tasks/list';
  params?: PaginatedRequestParams;
};

/**
 * Answer to `tasks/list`.
 * @since 2025-11-25
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks#listing-tasks
 */
export type ListTasksResult = PaginatedResult & {
  tasks: Task[];
};

/**
 * Params of `notifications/tasks/status`.
 * @since 2025-11-25
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks#task-status-notification
 */
export type TaskStatusNotificationParams = NotificationParams & Task;

/**
 * Optional push of a task's new state, receiver to requestor.
 * @since 2025-11-25
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks#task-status-notification
 */
export type TaskStatusNotification = {
  method: 'notifications/tasks/status';
  params: TaskStatusNotificationParams;
};
