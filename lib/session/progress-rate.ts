/**
 * Rate limits on progress notifications, both ways, so that neither party floods the other:
 *
 * - outbound, a {@link ProgressCoalescer} per request our handler serves sends at most one
 *   `notifications/progress` per interval; calls in between are coalesced and the latest
 *   goes out when the interval is over, or just before the response (never after it);
 * - inbound, an {@link InboundProgressLimiter} per session lets at most `limit` notifications
 *   per `windowMs` through for each request we sent; the rest are dropped, reported once per
 *   request.
 *
 * Both run on the session clock, so a simulated clock (and a replay) sees the same timing.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/progress#implementation-notes
 */
import type { Clock } from '../clock.js';
import type { ProgressToken } from '../protocol/schema/base.js';

/** How progress is rate limited (the session option `progress`). */
export interface ProgressRateOptions {
  /**
   * Outbound: at least this many ms between two progress notifications of one request; the
   * calls in between are coalesced into the latest. Default 0: every call is sent.
   */
  minIntervalMs?: number;
  /**
   * Inbound: at most `limit` progress notifications per `windowMs` for one request; the rest
   * are dropped (one `rate-limited` diagnostic per request). `false`: no limit. Default
   * {@link DEFAULT_INBOUND_PROGRESS_LIMIT}.
   */
  inbound?: { limit: number; windowMs: number } | false;
}

/** The default inbound limit: far above what a progress bar needs, far below a flood. */
export const DEFAULT_INBOUND_PROGRESS_LIMIT: Readonly<{ limit: number; windowMs: number }> = Object.freeze({ limit: 10_000, windowMs: 1000 });

/** Check the options; the outbound interval and the inbound limit they stand for. */
export function progressRate(options: ProgressRateOptions | undefined): { minIntervalMs: number; inbound: { limit: number; windowMs: number } | undefined } {
  const minIntervalMs = options?.minIntervalMs ?? 0;
  if (!(minIntervalMs >= 0) || minIntervalMs === Infinity) throw new TypeError(`progress.minIntervalMs must be a finite number of ms, 0 or more; got ${String(options?.minIntervalMs)}`);
  const inbound = options?.inbound === undefined ? DEFAULT_INBOUND_PROGRESS_LIMIT : options.inbound === false ? undefined : options.inbound;
  if (inbound !== undefined && !(Number.isInteger(inbound.limit) && inbound.limit > 0 && inbound.windowMs > 0)) {
    throw new TypeError(`progress.inbound needs a positive integer limit and a positive windowMs; got ${JSON.stringify(inbound)}`);
  }
  return { minIntervalMs, inbound };
}

/** One progress update as a handler reported it. */
export interface ProgressUpdate {
  progress: number;
  total: number | undefined;
  message: string | undefined;
}

/** What a coalescer needs of its request. */
export interface CoalescerHooks {
  /** Send one notification now. */
  send(update: ProgressUpdate): void;
  /** Whether the request may still report progress (not answered, not cancelled). */
  alive(): boolean;
  /** A named timer fired (for the journal). */
  timerFired(name: string): void;
}

/** Outbound progress of one request, at most one notification per interval (see the module). */
export class ProgressCoalescer {
  private lastSentAt = -Infinity;
  private pending: ProgressUpdate | undefined;
  private timer: unknown;

  constructor(
    private readonly clock: Clock,
    private readonly intervalMs: number,
    private readonly hooks: CoalescerHooks,
    /** The timer's name, for clocks that keep names (a replay fires it by name). */
    private readonly timerName: string,
  ) {}

  /** A new update: sent now if the interval since the last one is over, else kept as the latest. */
  offer(update: ProgressUpdate): void {
    const now = this.clock.now();
    if (this.timer === undefined && now - this.lastSentAt >= this.intervalMs) {
      this.lastSentAt = now;
      this.hooks.send(update);
      return;
    }
    this.pending = update;
    if (this.timer === undefined) {
      const name = this.clock.namesTimers ? this.timerName : undefined;
      this.timer = this.clock.setTimeout(() => this.fire(), this.lastSentAt + this.intervalMs - now, name);
    }
  }

  /** Just before the response: the latest kept update goes out now; nothing after. */
  flush(): void {
    const pending = this.pending;
    this.stop();
    if (pending) this.hooks.send(pending);
  }

  /** The request ended without a response (cancelled): whatever is kept is dropped. */
  stop(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = undefined;
  }

  private fire(): void {
    this.timer = undefined;
    const pending = this.pending;
    this.pending = undefined;
    if (!pending || !this.hooks.alive()) return;
    this.hooks.timerFired(this.timerName);
    this.lastSentAt = this.clock.now();
    try {
      this.hooks.send(pending);
    } catch {
      // The session closed meanwhile: nobody is left to tell.
    }
  }
}

interface Window {
  start: number;
  count: number;
  /** The drop was reported (once per request). */
  reported: boolean;
}

/** What {@link InboundProgressLimiter.admit} decided. */
export type Admission = 'admit' | 'drop' | 'drop-first';

/** Inbound progress per request of ours, at most `limit` per `windowMs` (see the module). */
export class InboundProgressLimiter {
  private readonly windows = new Map<ProgressToken, Window>();
  private pruneAt = 64;

  constructor(
    private readonly clock: Clock,
    private readonly limit: { limit: number; windowMs: number },
    /** Whether a token still belongs to a request in flight (others are forgotten). */
    private readonly inUse: (token: ProgressToken) => boolean,
  ) {}

  /** Count one notification for `token`: admitted, dropped, or dropped for the first time. */
  admit(token: ProgressToken): Admission {
    const now = this.clock.now();
    let w = this.windows.get(token);
    if (w === undefined) {
      if (this.windows.size >= this.pruneAt) this.prune();
      w = { start: now, count: 0, reported: false };
      this.windows.set(token, w);
    } else if (now - w.start >= this.limit.windowMs) {
      w.start = now;
      w.count = 0;
    }
    if (++w.count <= this.limit.limit) return 'admit';
    if (w.reported) return 'drop';
    w.reported = true;
    return 'drop-first';
  }

  /** Forget tokens of finished requests (a token may be used again by a later request). */
  private prune(): void {
    for (const token of this.windows.keys()) if (!this.inUse(token)) this.windows.delete(token);
    this.pruneAt = Math.max(64, this.windows.size * 2);
  }
}
