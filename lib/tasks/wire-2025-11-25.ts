/**
 * The 2025-11-25 wire form of a task (core tasks, experimental in that revision): `ttl` and
 * `pollInterval` in ms, ISO 8601 timestamps, `CreateTaskResult` as `{ task }`, results from
 * `tasks/result` with the related-task `_meta`. The 2026-07-28 extension's form (`ttlMs`,
 * `pollIntervalMs`, `resultType: "task"`, inlined outcomes) is another adapter over the same
 * record.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks#data-types
 */
import type { JsonObject } from '../jsonrpc/message.js';
import type { TaskRecord } from './task-record.js';

/** The `_meta` key that ties a message to its task. */
export const RELATED_TASK = 'io.modelcontextprotocol/related-task';

/** A record as a 2025-11-25 `Task`. */
export function legacyTask(record: TaskRecord): JsonObject {
  const task: JsonObject = {
    taskId: record.taskId,
    status: record.status,
    createdAt: new Date(record.createdAt).toISOString(),
    lastUpdatedAt: new Date(record.lastUpdatedAt).toISOString(),
    ttl: record.ttl,
  };
  if (record.statusMessage !== undefined) task.statusMessage = record.statusMessage;
  if (record.pollInterval !== undefined) task.pollInterval = record.pollInterval;
  return task;
}

/** `_meta` with the related-task key added. */
export function withRelatedTask(meta: unknown, taskId: string): JsonObject {
  const base = meta !== null && typeof meta === 'object' && !Array.isArray(meta) ? (meta as JsonObject) : {};
  return { ...base, [RELATED_TASK]: { taskId } };
}

/** The task id a message's `_meta` names, if any. */
export function relatedTaskOf(meta: unknown): string | undefined {
  const v = meta !== null && typeof meta === 'object' ? (meta as JsonObject)[RELATED_TASK] : undefined;
  const id = v !== null && typeof v === 'object' ? (v as JsonObject).taskId : undefined;
  return typeof id === 'string' ? id : undefined;
}

/**
 * A receiver's answer to a request about a task (an elicitation a task asked for): the result
 * with the request's related-task `_meta`, since responses related to a task carry it too.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks#associating-task-related-messages
 */
export function answerRelatedTask<R>(params: unknown, result: R): R {
  const taskId = relatedTaskOf(params !== null && typeof params === 'object' ? (params as JsonObject)._meta : undefined);
  if (taskId === undefined || result === null || typeof result !== 'object' || Array.isArray(result)) return result;
  return { ...result, _meta: withRelatedTask((result as JsonObject)._meta, taskId) };
}
