/**
 * Executes `machines/http-session.machine.ts` for one Streamable HTTP session without an actor:
 * three state names, a counter and one clock timer (the session's only timer). The transitions
 * mirror the machine one for one, with the machine's names; a model-based spec walks the machine
 * and checks this record does the same.
 */
import type { Clock } from '../lib/clock.js';

/** The machine's state names (`live.idle`, `live.busy`, `terminated`). */
export type HttpSessionState = 'idle' | 'busy' | 'terminated';

/** The name the idle timer carries on the clock. */
export const IDLE_TIMER_NAME = 'http-session:idle';

/**
 * The http-session machine as a base class: the transport of a session extends it, so a session
 * costs no extra object. Subclasses supply {@link terminate} (the machine's `terminate` action).
 */
export abstract class HttpSessionLifecycle {
  /** The machine state. */
  lifecycle: HttpSessionState = 'idle';
  /** Open HTTP exchanges (context `open`). */
  openExchanges = 0;
  private idleTimer: unknown;

  constructor(
    protected readonly clock: Clock,
    private readonly idleTtlMs: number,
  ) {
    // Initial state `live.idle`: its entry starts the idle timer.
    this.startIdleTimer();
  }

  /** EXCHANGE_OPENED */
  exchangeOpened(): void {
    if (this.lifecycle === 'idle') {
      this.cancelIdleTimer();
      this.openExchanges++;
      this.lifecycle = 'busy';
    } else if (this.lifecycle === 'busy') {
      this.openExchanges++;
    }
  }

  /** EXCHANGE_CLOSED */
  exchangeClosed(): void {
    if (this.lifecycle !== 'busy') return;
    if (this.openExchanges <= 1) {
      this.openExchanges--;
      this.lifecycle = 'idle';
      this.startIdleTimer();
    } else {
      this.openExchanges--;
    }
  }

  /** DELETE */
  deleted(): void {
    this.toTerminated();
  }

  /** SESSION_ENDED */
  sessionEnded(): void {
    this.toTerminated();
  }

  /** IDLE_TIMEOUT (only the idle timer raises it, and only in `idle`). */
  protected idleTimeout(): void {
    this.idleTimer = undefined;
    if (this.lifecycle === 'idle') this.toTerminated();
  }

  /** The machine's `terminate` action. */
  protected abstract terminate(): void;

  private toTerminated(): void {
    if (this.lifecycle === 'terminated') return;
    if (this.lifecycle === 'idle') this.cancelIdleTimer();
    this.lifecycle = 'terminated';
    this.terminate();
  }

  private startIdleTimer(): void {
    // An infinite TTL (stateless POSTs, `sessionIdleTtlMs: Infinity`) never fires: no timer at all.
    if (!Number.isFinite(this.idleTtlMs)) return;
    this.idleTimer = this.clock.setTimeout(() => this.idleTimeout(), this.idleTtlMs, IDLE_TIMER_NAME);
  }

  private cancelIdleTimer(): void {
    if (this.idleTimer !== undefined) {
      this.clock.clearTimeout(this.idleTimer);
      this.idleTimer = undefined;
    }
  }
}
