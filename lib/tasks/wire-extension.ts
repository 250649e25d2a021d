/**
 * The wire form of the 2026-07-28 extension `io.modelcontextprotocol/tasks` over the same task
 * records as the 2025-11-25 form: flat `CreateTaskResult` with `resultType: "task"`, `ttlMs` and
 * `pollIntervalMs`, `tasks/get` answering a `DetailedTask` with the outcome inlined (`result`, or
 * `error` for a JSON-RPC error) or the outstanding `inputRequests`, no related-task `_meta`.
 *
 * `modern-tasks.ts` serves these on the request-scoped core of that revision (`tasks/get`,
 * `tasks/update`, `tasks/cancel`, input requests answered through `tasks/update`).
 *
 * @see https://modelcontextprotocol.io/extensions/tasks
 */
import type { JsonObject } from '../jsonrpc/message.js';
import type { TaskRecord } from './task-record.js';

/** Which wire form a session speaks: the 2025-11-25 core tasks or the extension. */
export type TaskWireForm = 'core-2025-11-25' | 'extension';

/** A record as the extension's `Task` (without status-specific fields). */
export function extensionTask(record: TaskRecord): JsonObject {
  const task: JsonObject = {
    taskId: record.taskId,
    status: record.status,
    createdAt: new Date(record.createdAt).toISOString(),
    lastUpdatedAt: new Date(record.lastUpdatedAt).toISOString(),
    ttlMs: record.ttl === null ? null : Math.round(record.ttl),
  };
  if (record.statusMessage !== undefined) task.statusMessage = record.statusMessage;
  if (record.pollInterval !== undefined) task.pollIntervalMs = Math.round(record.pollInterval);
  return task;
}

/** The answer to a request the server runs as a task. */
export function extensionCreateTaskResult(record: TaskRecord): JsonObject {
  return { resultType: 'task', ...extensionTask(record) };
}

/** A `DetailedTask`: the outcome inlined when terminal, the input requests when waiting for them. */
export function extensionDetailedTask(record: TaskRecord, inputRequests?: JsonObject): JsonObject {
  const task = extensionTask(record);
  if (record.status === 'input_required') task.inputRequests = inputRequests ?? {};
  const outcome = record.outcome;
  if (record.status === 'completed' && outcome && 'result' in outcome) task.result = outcome.result as JsonObject;
  if (record.status === 'failed' && outcome) task.error = ('error' in outcome ? outcome.error : { code: -32603, message: record.statusMessage ?? 'The task failed' }) as JsonObject;
  return task;
}

/** The answer to `tasks/get` in the extension. */
export function extensionGetTaskResult(record: TaskRecord, inputRequests?: JsonObject): JsonObject {
  return { resultType: 'complete', ...extensionDetailedTask(record, inputRequests) };
}

/**
 * Which machine event ends a task whose tool call returned `result`: in 2025-11-25 a result with
 * `isError` fails the task; the extension keeps `failed` for JSON-RPC errors only, so there the
 * same result completes it.
 */
export function toolResultEvent(result: JsonObject, form: TaskWireForm): 'COMPLETE' | 'FAIL' {
  return form === 'core-2025-11-25' && result.isError === true ? 'FAIL' : 'COMPLETE';
}
