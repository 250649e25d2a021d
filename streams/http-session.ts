/**
 * Executes `machines/http-session.machine.ts` for one Streamable HTTP session without an actor:
 * three state names, a counter and a place in its clock's idle queue (the machine's idle timer;
 * one clock timer serves every idle session of a clock and TTL). The transitions mirror the
 * machine one for one, with the machine's names; a model-based spec walks the machine and checks
 * this record does the same.
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
  /** @internal The idle queue's links and this session's deadline (see {@link IdleQueue}). */
  idlePrev: HttpSessionLifecycle | undefined;
  /** @internal */
  idleNext: HttpSessionLifecycle | undefined;
  /** @internal When the idle timer fires (clock time); undefined when it is not running. */
  idleDue: number | undefined;
  private readonly idleQueue: IdleQueue | undefined;

  constructor(
    protected readonly clock: Clock,
    idleTtlMs: number,
  ) {
    // An infinite TTL (stateless POSTs, `sessionIdleTtlMs: Infinity`) never fires: no timer at all.
    this.idleQueue = Number.isFinite(idleTtlMs) ? IdleQueue.of(clock, idleTtlMs) : undefined;
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

  /** @internal IDLE_TIMEOUT (only the idle queue raises it, and only in `idle`). */
  idleTimeout(): void {
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
    this.idleQueue?.add(this);
  }

  private cancelIdleTimer(): void {
    if (this.idleDue !== undefined) this.idleQueue!.remove(this);
  }
}

const queues = new WeakMap<Clock, Map<number, IdleQueue>>();

/**
 * The idle timers of every session of one clock and TTL, as one clock timer. With one TTL,
 * deadlines come in the order sessions go idle, so the sessions form a queue (linked through
 * their own fields) and only its head needs a timer: no timer object and closure per idle
 * session (~0.2 KB each). A session leaves the queue when it goes busy or ends.
 * @internal
 */
export class IdleQueue {
  private head: HttpSessionLifecycle | undefined;
  private tail: HttpSessionLifecycle | undefined;
  private timer: unknown;
  /** The session the running timer is for (the head when it was set). */
  private timerFor: HttpSessionLifecycle | undefined;

  private constructor(
    private readonly clock: Clock,
    private readonly ttlMs: number,
  ) {}

  /** The queue of `clock` and `ttlMs`, shared by every session using them. */
  static of(clock: Clock, ttlMs: number): IdleQueue {
    let byTtl = queues.get(clock);
    if (byTtl === undefined) queues.set(clock, (byTtl = new Map()));
    let queue = byTtl.get(ttlMs);
    if (queue === undefined) byTtl.set(ttlMs, (queue = new IdleQueue(clock, ttlMs)));
    return queue;
  }

  /** `session` goes idle: its timer runs from now. */
  add(session: HttpSessionLifecycle): void {
    session.idleDue = this.clock.now() + this.ttlMs;
    session.idlePrev = this.tail;
    session.idleNext = undefined;
    if (this.tail === undefined) this.head = session;
    else this.tail.idleNext = session;
    this.tail = session;
    if (this.timer === undefined) this.arm();
  }

  /** `session`'s timer stops (it went busy or ended). */
  remove(session: HttpSessionLifecycle): void {
    this.unlink(session);
    if (this.timerFor === session) {
      this.clock.clearTimeout(this.timer);
      this.timer = undefined;
      this.timerFor = undefined;
      this.arm();
    }
  }

  private unlink(session: HttpSessionLifecycle): void {
    if (session.idleDue === undefined) return;
    const { idlePrev: prev, idleNext: next } = session;
    if (prev === undefined) this.head = next;
    else prev.idleNext = next;
    if (next === undefined) this.tail = prev;
    else next.idlePrev = prev;
    session.idlePrev = session.idleNext = session.idleDue = undefined;
  }

  private arm(): void {
    const head = this.head;
    if (head === undefined) return;
    this.timerFor = head;
    this.timer = this.clock.setTimeout(() => this.fire(), Math.max(0, head.idleDue! - this.clock.now()), IDLE_TIMER_NAME);
  }

  /** The head's timer fired: it times out, and so does every session due by now. */
  private fire(): void {
    const first = this.timerFor;
    this.timer = undefined;
    this.timerFor = undefined;
    const now = this.clock.now();
    // The head times out even when fired early (a simulated clock's fireNamed).
    let due = first?.idleDue !== undefined ? first : undefined;
    while (due !== undefined) {
      this.remove(due);
      due.idleTimeout();
      const next = this.head;
      due = next !== undefined && next.idleDue! <= now ? next : undefined;
    }
    if (this.timer === undefined) this.arm();
  }
}
