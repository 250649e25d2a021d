/**
 * A shared store (Redis) that is down, told apart from other failures so that both eras answer
 * it alike: HTTP 503 with `Retry-After`, the request's id, and a message that says the store is
 * unavailable (issue 32). node-redis's own messages may name hosts or credentials, so only their
 * error name is said; our own `RedisUnavailableError` messages are written to be shown.
 */
import { ErrorCode } from '../lib/jsonrpc/error-codes.js';
import type { RequestId } from '../lib/jsonrpc/message.js';

/** node-redis's errors for a connection that is down, and ours (by name: streams/ imports nothing of lib/redis). */
const STORE_DOWN = new Set(['RedisUnavailableError', 'ClientClosedError', 'ClientOfflineError', 'ConnectionTimeoutError', 'SocketClosedUnexpectedlyError']);

/** Whether `e` says the shared store cannot be reached. */
export function storeUnavailable(e: unknown): e is Error {
  return e instanceof Error && (STORE_DOWN.has(e.name) || STORE_DOWN.has(e.constructor.name));
}

/** Seconds a client is told to wait before it retries. */
export const STORE_RETRY_AFTER_SECONDS = 1;

/** The JSON-RPC error response for a request the store's outage stopped. */
export function storeOutageResponse(id: RequestId | null, e: Error): { jsonrpc: '2.0'; id: RequestId | null; error: { code: number; message: string; data: { store: 'redis'; error: string } } } {
  const name = STORE_DOWN.has(e.name) ? e.name : e.constructor.name;
  const detail = name === 'RedisUnavailableError' ? `: ${e.message}` : ` (${name})`;
  return {
    jsonrpc: '2.0',
    id,
    error: { code: ErrorCode.InternalError, message: `Service Unavailable: the session store (Redis) is unavailable${detail}; retry shortly`, data: { store: 'redis', error: name } },
  };
}
