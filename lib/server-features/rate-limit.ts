/**
 * Per-session rate limits (token buckets on the server's clock) for tool calls, completions and
 * log messages, which the protocol texts ask servers to rate limit.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#security-considerations
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/completion#security
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/logging#security
 */
import type { Clock } from '../clock.js';

/** At most `limit` events per `windowMs` per session (bursts up to `limit`, refilled evenly). */
export interface RateLimit {
  limit: number;
  windowMs: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

export class RateLimiter {
  private readonly buckets = new WeakMap<object, Bucket>();

  constructor(
    private readonly clock: Clock,
    readonly limit: RateLimit,
  ) {
    if (!(limit.limit > 0) || !(limit.windowMs > 0)) throw new TypeError(`A rate limit needs a positive limit and windowMs; got ${JSON.stringify(limit)}`);
  }

  /** Take one token for `key` (a session); false when its bucket is empty. */
  take(key: object): boolean {
    const now = this.clock.now();
    const { limit, windowMs } = this.limit;
    let b = this.buckets.get(key);
    if (!b) {
      b = { tokens: limit, at: now };
      this.buckets.set(key, b);
    } else {
      b.tokens = Math.min(limit, b.tokens + ((now - b.at) * limit) / windowMs);
      b.at = now;
    }
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  }

  /** Milliseconds until `key` has a token again (0 when it has one now). */
  retryAfter(key: object): number {
    const b = this.buckets.get(key);
    if (!b) return 0;
    const tokens = Math.min(this.limit.limit, b.tokens + ((this.clock.now() - b.at) * this.limit.limit) / this.limit.windowMs);
    return tokens >= 1 ? 0 : Math.ceil(((1 - tokens) * this.limit.windowMs) / this.limit.limit);
  }
}

/** The limits an McpServer can apply; each absent one is off. */
export interface RateLimits {
  /** `tools/call` per session: over the limit, the call gets an isError result saying when to retry. */
  toolCalls?: RateLimit;
  /** `completion/complete` per session: over the limit, -32603 saying when to retry. */
  completions?: RateLimit;
  /** `notifications/message` per session: messages over the limit are dropped. */
  logMessages?: RateLimit;
}
