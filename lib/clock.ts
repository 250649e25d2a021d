/**
 * One clock for the whole session: XState's `clock` option and the request registry use the
 * same object, so a simulated clock makes every timeout deterministic.
 */

/** XState's Clock plus `now()`. `name` lets a journal say which timer fired. */
export interface Clock {
  /** True when the clock keeps timer names (then callers pass them; otherwise they need not). */
  readonly namesTimers?: boolean;
  now(): number;
  setTimeout(fn: (...args: any[]) => void, ms: number, name?: string): any;
  clearTimeout(id: any): void;
}

/** The real clock. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (id) => clearTimeout(id),
};

interface ManualTimer {
  id: number;
  due: number;
  fn: () => void;
  name: string | undefined;
}

/** Options of a {@link ManualClock}. */
export interface ManualClockOptions {
  /**
   * Timers whose name this says yes to are held: time passes them by, and only
   * {@link ManualClock.fireNamed} fires them (a replay fires a journaled timer at its entry).
   */
  hold?: (name: string) => boolean;
}

/**
 * A clock that moves only when told to. Timers fire in due order (ties in creation order).
 * Works as XState's `clock` (like its SimulatedClock) and can also fire one named timer,
 * which is what replay needs to reproduce a recorded session exactly.
 */
export class ManualClock implements Clock {
  readonly namesTimers = true;
  private current: number;
  private nextId = 1;
  private readonly timers = new Map<number, ManualTimer>();
  /** The earliest timer, kept while it is known (replay asks for it at every input). */
  private first: ManualTimer | undefined;
  private firstKnown = true;
  /** Timers held until fired by name (see {@link ManualClockOptions.hold}); never in `timers`, so never due. */
  private readonly held = new Map<number, ManualTimer>();
  private readonly hold: ((name: string) => boolean) | undefined;

  constructor(start = 0, options: ManualClockOptions = {}) {
    this.current = start;
    this.hold = options.hold;
  }
  now(): number {
    return this.current;
  }
  setTimeout(fn: (...args: any[]) => void, ms: number, name?: string): number {
    const id = this.nextId++;
    const timer = { id, due: this.current + Math.max(0, ms), fn, name };
    if (name !== undefined && this.hold?.(name) === true) {
      this.held.set(id, timer);
      return id;
    }
    this.timers.set(id, timer);
    // A later id never wins a tie, so only an earlier due time replaces the known first.
    if (this.firstKnown && (this.first === undefined || timer.due < this.first.due)) this.first = timer;
    return id;
  }
  clearTimeout(id: number): void {
    if (this.held.delete(id)) return;
    if (this.timers.delete(id) && this.first?.id === id) this.forgetFirst();
  }
  private forgetFirst(): void {
    this.first = undefined;
    this.firstKnown = this.timers.size === 0;
  }
  /** Number of timers waiting (held ones too). */
  get pending(): number {
    return this.timers.size + this.held.size;
  }
  /** Due time of the earliest waiting timer (not held), or Infinity. */
  nextDue(): number {
    return this.earliest()?.due ?? Infinity;
  }
  /** Move time forward by `ms`, firing every timer that comes due, in order. */
  advance(ms: number): void {
    this.advanceTo(this.current + ms);
  }
  /** Move time to `time` (never backwards), firing every timer due by then, in order. */
  advanceTo(time: number): void {
    for (;;) {
      const next = this.earliest();
      if (!next || next.due > time) break;
      this.timers.delete(next.id);
      this.forgetFirst();
      if (next.due > this.current) this.current = next.due;
      next.fn();
    }
    if (time > this.current) this.current = time;
  }
  /** Fire the timer with this name now (moving time to its due time if later). */
  fireNamed(name: string): boolean {
    let found: ManualTimer | undefined;
    const from = this.hold?.(name) === true ? this.held : this.timers;
    for (const t of from.values()) if (t.name === name && (!found || t.due < found.due)) found = t;
    if (!found) return false;
    from.delete(found.id);
    if (this.first?.id === found.id) this.forgetFirst();
    if (found.due > this.current) this.current = found.due;
    found.fn();
    return true;
  }
  private earliest(): ManualTimer | undefined {
    if (this.firstKnown) return this.first;
    let best: ManualTimer | undefined;
    // forEach: no iterator objects (this runs once per settled request in a replay).
    this.timers.forEach((t) => {
      if (!best || t.due < best.due || (t.due === best.due && t.id < best.id)) best = t;
    });
    this.first = best;
    this.firstKnown = true;
    return best;
  }
}
