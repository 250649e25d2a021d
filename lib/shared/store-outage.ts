/**
 * A shared store (Redis) that is down, told apart from other failures so that every path answers
 * it alike: HTTP 503 with `Retry-After`, the request's id, and a message that says the store is
 * unavailable. Here, below the task store and the HTTP bindings alike, so both can
 * tell it. node-redis's own messages may name hosts or credentials, so only their error name is
 * said; our own `RedisUnavailableError` messages are written to be shown.
 */

/** node-redis's errors for a connection that is down, and ours (by name: nothing here imports lib/redis). */
const STORE_DOWN = new Set(['RedisUnavailableError', 'ClientClosedError', 'ClientOfflineError', 'ConnectionTimeoutError', 'SocketClosedUnexpectedlyError']);

/** Whether `e` says the shared store cannot be reached. */
export function storeUnavailable(e: unknown): e is Error {
  return e instanceof Error && (STORE_DOWN.has(e.name) || STORE_DOWN.has(e.constructor.name));
}

/** The JSON-RPC error (-32603) for a request the store's outage stopped: its `data` names the store. */
export function storeOutageError(e: Error): { code: number; message: string; data: { store: 'redis'; error: string } } {
  const name = STORE_DOWN.has(e.name) ? e.name : e.constructor.name;
  const detail = name === 'RedisUnavailableError' ? `: ${e.message}` : ` (${name})`;
  return { code: -32603, message: `Service Unavailable: the session store (Redis) is unavailable${detail}; retry shortly`, data: { store: 'redis', error: name } };
}

/** Whether a JSON-RPC error is {@link storeOutageError}'s (an HTTP binding answers it 503 with `Retry-After`). */
export function isStoreOutageError(error: { code: number; data?: unknown }): boolean {
  const data = error.data as { store?: unknown; error?: unknown } | undefined;
  return error.code === -32603 && typeof data === 'object' && data !== null && data.store === 'redis' && typeof data.error === 'string' && STORE_DOWN.has(data.error);
}
