/**
 * A shared store (Redis) that is down, told apart from other failures so that both eras answer
 * it alike: HTTP 503 with `Retry-After`, the request's id, and a message that says the store is
 * unavailable. node-redis's own messages may name hosts or credentials, so only their
 * error name is said; our own `RedisUnavailableError` messages are written to be shown.
 */
import type { RequestId } from '../jsonrpc/message.js';
import { storeOutageError } from '../shared/store-outage.js';

export { storeUnavailable, isStoreOutageError } from '../shared/store-outage.js';

/** Seconds a client is told to wait before it retries. */
export const STORE_RETRY_AFTER_SECONDS = 1;

/** The JSON-RPC error response for a request the store's outage stopped. */
export function storeOutageResponse(id: RequestId | null, e: Error): { jsonrpc: '2.0'; id: RequestId | null; error: { code: number; message: string; data: { store: 'redis'; error: string } } } {
  return { jsonrpc: '2.0', id, error: storeOutageError(e) };
}
