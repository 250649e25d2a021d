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
 * The error code of a task request refused because a task limit is reached (-32090). Its `data`
 * is `{ taskLimit: { scope, limit } }`; `scope` is `requestor` (wait for or cancel one of yours),
 * `unidentified` (unauthenticated callers share one pool: authenticate, or retry later),
 * `server` (retry later) or `rate` (task operations of one session over their rate limit:
 * `{ scope: 'rate', limit, windowMs, retryAfterMs }`, retry after that many milliseconds).
 */
export const TASK_LIMIT_REACHED = -32090;

/** The JSON-RPC error for a refused task. */
export function taskLimitRefusal(e: TaskLimitError): McpError {
  return new McpError(TASK_LIMIT_REACHED, e.message, { taskLimit: { scope: e.scope, ...(e.limit !== undefined && { limit: e.limit }) } });
}

/**
 * The JSON-RPC error for a task operation over the session's rate limit (`limit` per `windowMs`).
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks#security-considerations
 */
export function taskRateRefusal(limit: { limit: number; windowMs: number }, retryAfterMs: number): McpError {
  return new McpError(
    TASK_LIMIT_REACHED,
    `Rate limit exceeded for task operations; retry in ${retryAfterMs} ms (poll at the task's pollInterval)`,
    { taskLimit: { scope: 'rate', limit: limit.limit, windowMs: limit.windowMs, retryAfterMs } },
  );
}
