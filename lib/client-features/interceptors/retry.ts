/**
 * Built-in client interceptor: `retry({ attempts, on })` sends a request again when it failed in a
 * way that says it was not served: the transport could not deliver it, or the server refused it
 * with a retryable code (default: -32090, a rate limit, whose `data.retryAfterMs` is honoured).
 * Waits with exponential back-off on the client's clock; the caller's signal ends a wait.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic#responses
 */
import { systemClock } from '../../clock.js';
import { McpError, TransportError } from '../../errors.js';
import { ErrorCode } from '../../jsonrpc/error-codes.js';
import type { JsonObject } from '../../jsonrpc/message.js';
import type { ClientInterceptor, ClientInterceptorNext, OutgoingRequest } from './client-chain.js';

/** The server's rate-limit refusal (`rateLimitPerCaller`), retried by default. */
export const RETRYABLE_CODES: readonly number[] = [-32090];

export interface RetryOptions {
  /** Tries in all, the first included (default 3; at least 1). */
  attempts?: number;
  /** Which failures to retry: error codes (beside transport failures), or a predicate over the error. Default {@link RETRYABLE_CODES}. */
  on?: readonly number[] | ((error: unknown, attempt: number) => boolean);
  /** The first wait in ms, doubled each time (default 100), at most `maxDelayMs` (default 5000). */
  delayMs?: number;
  maxDelayMs?: number;
  /** A server's `data.retryAfterMs` is waited as asked up to this (default 60 000); asked for longer, the error is the caller's at once. */
  maxRetryAfterMs?: number;
  /** Which methods to retry (default all). */
  methods?: readonly string[];
}

/** Whether `e` says the request never reached the server: a TransportError, or the HTTP client's undelivered -32000 (`data.transport`). */
export function isTransportFailure(e: unknown): boolean {
  if (e instanceof TransportError) return true;
  if (!(e instanceof McpError) || e.code !== ErrorCode.ConnectionClosed) return false;
  const data = e.data as { transport?: unknown } | undefined;
  return data !== null && typeof data === 'object' && typeof data.transport === 'string';
}

/** Retry a request that failed as {@link RetryOptions.on} says, up to `attempts` tries in all. */
export function retry(options: RetryOptions = {}): ClientInterceptor {
  const attempts = options.attempts ?? 3;
  if (!Number.isInteger(attempts) || attempts < 1) throw new RangeError(`retry: attempts must be a positive integer, got ${String(attempts)}`);
  const base = options.delayMs ?? 100;
  const max = options.maxDelayMs ?? 5000;
  const maxAfter = options.maxRetryAfterMs ?? 60_000;
  if (!(base >= 0) || !(max >= 0)) throw new RangeError('retry: delayMs and maxDelayMs must be numbers ≥ 0');
  const on = options.on ?? RETRYABLE_CODES;
  const retryable = typeof on === 'function' ? on : (e: unknown) => isTransportFailure(e) || (e instanceof McpError && on.includes(e.code));
  const methods = options.methods === undefined ? undefined : new Set(options.methods);
  const stage = async (req: OutgoingRequest, next: ClientInterceptorNext): Promise<JsonObject> => {
    if (methods !== undefined && !methods.has(req.method)) return next();
    for (let attempt = 1; ; attempt++) {
      try {
        return await next();
      } catch (e) {
        if (attempt >= attempts || req.signal?.aborted === true || !retryable(e, attempt)) throw e;
        const asked = (e as McpError).data as { retryAfterMs?: unknown } | undefined;
        const after = typeof asked?.retryAfterMs === 'number' && asked.retryAfterMs >= 0 ? asked.retryAfterMs : undefined;
        if (after !== undefined && after > maxAfter) throw e;
        await wait(req, after ?? Math.min(max, base * 2 ** (attempt - 1)), e);
      }
    }
  };
  return Object.assign(stage, { interceptorName: 'retry' });
}

/** Wait `ms` on the request's clock; the caller's signal ends the wait with the last error. */
function wait(req: OutgoingRequest, ms: number, last: unknown): Promise<void> {
  const clock = req.clock ?? systemClock;
  return new Promise<void>((resolve, reject) => {
    const signal = req.signal;
    const onAbort = () => {
      clock.clearTimeout(timer);
      reject(last);
    };
    const timer = clock.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms, 'retry');
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
