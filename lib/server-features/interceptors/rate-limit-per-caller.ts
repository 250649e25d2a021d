/**
 * Built-in interceptor: `rateLimitPerCaller({ perMinute })`, a sliding one-minute window per
 * caller on the server's clock. A request over the limit is refused with {@link RateLimitedError}
 * (-32090, `data.retryAfterMs`), which the client's `retry()` honours; notifications pass, and so
 * does `server/discover` (a 2026-07-28 client's connect, as legacy `initialize`, which no stage sees).
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic#responses
 */
import { systemClock } from '../../clock.js';
import { McpError } from '../../errors.js';
import type { InterceptedRequest, Interceptor, InterceptorCaller } from './server-chain.js';

/** The code of a request refused by a rate limit (JSON-RPC's implementation-defined server error range). */
export const RATE_LIMITED = -32090;

const WINDOW_MS = 60_000;
/** Callers tracked before expired windows are swept (bounds the memory a flood of callers can take). */
const SWEEP_AT = 10_000;

/** A request refused by a rate limit: `data.retryAfterMs` says when the caller may try again. */
export class RateLimitedError extends McpError {
  override readonly name = 'RateLimitedError';
  constructor(
    readonly retryAfterMs: number,
    limit: number,
  ) {
    super(RATE_LIMITED, `Rate limited: more than ${limit} requests a minute from this caller; retry after ${retryAfterMs} ms`, { retryAfterMs, limit });
  }
}

export interface RateLimitOptions {
  /** Requests a caller may make in any 60 s window (a positive integer). */
  perMinute: number;
  /** Who a request counts against; default the principal, else the legacy session, else `anonymous`. */
  key?: (caller: InterceptorCaller, req: InterceptedRequest) => string;
}

/** Refuse a caller's requests beyond `perMinute` in any sliding minute of the server's clock. */
export function rateLimitPerCaller(options: RateLimitOptions): Interceptor {
  const limit = options?.perMinute;
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`rateLimitPerCaller: perMinute must be a positive integer, got ${String(limit)}`);
  const keyOf = options.key ?? ((c: InterceptorCaller) => c.principal ?? c.sessionId ?? 'anonymous');
  const windows = new Map<string, number[]>();
  const stage = (req: InterceptedRequest, next: Parameters<Interceptor>[1]) => {
    if (req.kind === 'notification' || req.method === 'server/discover') return next();
    const now = (req.clock ?? systemClock).now();
    if (windows.size > SWEEP_AT) for (const [k, times] of windows) if (times[times.length - 1]! <= now - WINDOW_MS) windows.delete(k);
    const key = keyOf(req.caller, req);
    let times = windows.get(key);
    if (times === undefined) windows.set(key, (times = []));
    while (times.length > 0 && times[0]! <= now - WINDOW_MS) times.shift();
    if (times.length >= limit) return Promise.reject(new RateLimitedError(times[0]! + WINDOW_MS - now, limit));
    times.push(now);
    return next();
  };
  return Object.assign(stage, { interceptorName: 'rateLimitPerCaller' });
}
