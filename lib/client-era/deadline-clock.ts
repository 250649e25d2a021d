/**
 * A clock for request timeouts that keeps its own deadlines and holds at most one timer of the
 * clock below. A request arms its idle timeout when sent and clears it when answered; on the
 * system clock each such pair costs a Node timer (and, when it was the only one of its duration,
 * a timer list made and dropped), about a microsecond per call. Here a timeout is an entry in a
 * first-in first-out lane per duration (deadlines in a lane come in order), cleared by a flag;
 * the one real timer is re-armed only when it must fire earlier.
 *
 * The client uses it only over the system clock: a simulated or replaying clock keeps its own
 * timers, named, so that a journal can say which one fired.
 */
import { systemClock, type Clock } from '../clock.js';

/** The clock below: its timers, the time they run on, and (Node) whether a timer keeps the process alive. */
export interface BaseTimers {
  /** The time deadlines are reckoned in: monotonic (a wall clock set back would hold a lane up). */
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  /** A pending deadline keeps the process alive, as a Node timer would; none left, it does not. */
  ref?(handle: unknown): void;
  unref?(handle: unknown): void;
}

interface Entry {
  readonly due: number;
  readonly fn: () => void;
  readonly lane: Lane;
  /** Creation order: ties in due time fire in it. */
  readonly seq: number;
  /** Cleared or fired: never (again) run. */
  done: boolean;
}

interface Lane {
  readonly delay: number;
  readonly items: Entry[];
  /** Entries before `head` are done and dropped. */
  head: number;
  /** Entries not done. */
  live: number;
}

/** Cleared entries a lane may keep behind a long-lived head before it is compacted. */
const SLACK = 1024;
/** Lanes (distinct durations) kept while empty; past that an empty lane is dropped when cleared. */
const KEPT_LANES = 16;
/** Node fires a timer beyond this at once: a later deadline re-arms on the way. */
const MAX_DELAY = 2 ** 31 - 1;

export class DeadlineClock implements Clock {
  private readonly lanes = new Map<number, Lane>();
  /** Entries not done, over all lanes. */
  private live = 0;
  private armed: { handle: unknown; due: number } | undefined;
  private referenced = false;
  private seq = 0;

  /** `wall`: what `now()` answers (the clock callers see); deadlines use `base.now`. */
  constructor(
    private readonly base: BaseTimers,
    private readonly wall: () => number = () => base.now(),
  ) {}

  now(): number {
    return this.wall();
  }

  setTimeout(fn: (...args: any[]) => void, ms: number): Entry {
    // NaN and negative delays are 0, as for Node's timers.
    const delay = ms > 0 ? ms : 0;
    let lane = this.lanes.get(delay);
    if (lane === undefined) this.lanes.set(delay, (lane = { delay, items: [], head: 0, live: 0 }));
    const entry: Entry = { due: this.base.now() + delay, fn, lane, seq: this.seq++, done: false };
    lane.items.push(entry);
    lane.live++;
    if (this.live++ === 0) this.setReferenced(true);
    if (this.armed === undefined || entry.due < this.armed.due) this.arm(entry.due);
    return entry;
  }

  clearTimeout(handle: unknown): void {
    const entry = handle as Entry | undefined;
    if (entry === undefined || entry === null || entry.done !== false) return;
    this.finish(entry);
    const lane = entry.lane;
    while (lane.head < lane.items.length && lane.items[lane.head]!.done) lane.head++;
    if (lane.head === lane.items.length) {
      lane.items.length = 0;
      lane.head = 0;
      if (this.lanes.size > KEPT_LANES) this.lanes.delete(lane.delay);
    } else if (lane.items.length - lane.live > SLACK + lane.live) {
      // A long-lived head holds back many cleared entries (out-of-order answers): drop them.
      const kept = lane.items.filter((e, i) => i >= lane.head && !e.done);
      lane.items.length = 0;
      lane.items.push(...kept);
      lane.head = 0;
    }
    // The real timer stays armed: when it fires with nothing due it re-arms or stops. Clearing
    // it here would cost what this clock saves (most deadlines are cleared long before due).
  }

  /** Number of deadlines waiting (for specs and diagnostics). */
  get pending(): number {
    return this.live;
  }

  private finish(entry: Entry): void {
    entry.done = true;
    entry.lane.live--;
    if (--this.live === 0) this.setReferenced(false);
  }

  private setReferenced(on: boolean): void {
    if (this.armed === undefined || this.referenced === on) return;
    this.referenced = on;
    if (on) this.base.ref?.(this.armed.handle);
    else this.base.unref?.(this.armed.handle);
  }

  private arm(due: number): void {
    if (this.armed !== undefined) this.base.clearTimeout(this.armed.handle);
    const handle = this.base.setTimeout(() => this.fire(), Math.min(MAX_DELAY, Math.max(0, due - this.base.now())));
    this.armed = { handle, due };
    this.referenced = true;
    if (this.live === 0) this.setReferenced(false);
  }

  private fire(): void {
    this.armed = undefined;
    const now = this.base.now();
    const due: Entry[] = [];
    let next = Infinity;
    for (const [delay, lane] of this.lanes) {
      while (lane.head < lane.items.length) {
        const entry = lane.items[lane.head]!;
        if (!entry.done) {
          if (entry.due > now) break;
          due.push(entry);
          this.finish(entry);
        }
        lane.head++;
      }
      if (lane.head === lane.items.length) {
        this.lanes.delete(delay);
      } else {
        next = Math.min(next, lane.items[lane.head]!.due);
      }
    }
    if (next !== Infinity) this.arm(next);
    // Due order, ties in the order they were set.
    due.sort((a, b) => a.due - b.due || a.seq - b.seq);
    for (const entry of due) {
      try {
        entry.fn();
      } catch (e) {
        // As a throwing Node timer would: uncaught, without holding back the timers after it.
        queueMicrotask(() => {
          throw e;
        });
      }
    }
  }
}

/** The system clock's timers, with Node's ref/unref (a timer left armed must not hold the process open). */
const systemTimers: BaseTimers = {
  now: () => performance.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  ref: (handle) => (handle as { ref?: () => void }).ref?.(),
  unref: (handle) => (handle as { unref?: () => void }).unref?.(),
};

/**
 * The clock a client's request timeouts run on: a {@link DeadlineClock} over the system clock,
 * any other clock (simulated, replaying, the user's) as it is.
 */
export function requestTimeoutClock(clock: Clock): Clock {
  return clock === systemClock ? new DeadlineClock(systemTimers, () => systemClock.now()) : clock;
}
