/**
 * How a task refused for a limit is answered. Not -32603 (nothing went wrong inside the server,
 * and a client cannot tell an internal error from a quota): a code of its own, in JSON-RPC's
 * range for implementation-defined server errors, with `data` saying which limit and how big.
 * An `optional`-task tool never gets here: it runs without a task instead.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks#resource-management
 */
import { McpError } from '../errors.js';
import type { TaskLimitError } from './task-store.js';

/**
 * The error code of a tool call refused because a task limit is reached (-32090). Its `data` is
 * `{ taskLimit: { scope, limit } }`; `scope` is `requestor` (wait for or cancel one of yours),
 * `unidentified` (unauthenticated callers share one pool: authenticate, or retry later) or
 * `server` (retry later).
 */
export const TASK_LIMIT_REACHED = -32090;

/** The JSON-RPC error for a refused task. */
export function taskLimitRefusal(e: TaskLimitError): McpError {
  return new McpError(TASK_LIMIT_REACHED, e.message, { taskLimit: { scope: e.scope, ...(e.limit !== undefined && { limit: e.limit }) } });
}
