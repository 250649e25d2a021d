/**
 * One clock for the whole session: XState's `clock` option and the request registry use the
 * same object, so a simulated clock makes every timeout deterministic.
 */
import { SimulatedClock } from 'xstate';

/** XState's Clock plus `now()`. */
export interface Clock {
  now(): number;
  setTimeout(fn: (...args: any[]) => void, ms: number): any;
  clearTimeout(id: any): void;
}

/** The real clock. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (id) => clearTimeout(id),
};

export { SimulatedClock };
