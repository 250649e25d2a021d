/**
 * The nesting depth limit of inbound frames. JSON.parse copes with any depth, but the code that
 * walks a value afterwards (a schema validator, `JSON.stringify` in a log line, a user's
 * recursive handler) recurses, and a frame nested 10,000 deep overflows its stack. Frames deeper
 * than the limit are refused before anyone sees their value.
 */
import type { RequestId } from './message.js';

/**
 * The default limit: 128 levels, the top-level message counting as 1 (serde_json's default
 * recursion limit is the same). MCP messages are a few levels deep plus the user's arguments.
 */
export const DEFAULT_MAX_FRAME_DEPTH = 128;

/** How many `[` {@link textMayNestDeeperThan} counts at most before it leaves the answer to the walk. */
export const MAX_COUNTED_ARRAYS = 8;

/**
 * Whether a frame's text could nest deeper than `limit` (false: it cannot, the value need not be
 * walked). A chain of `d` nested containers takes `2d` brackets, and each object on it but the
 * innermost a key and a colon of its own (at least `"":`, 3 characters): text of length `t` with
 * `a` arrays on the chain has `t >= 5d - 3 - 3a`, so it nests past the limit only if
 * `t + 3a >= 5 * limit + 2`. `a` is at most the number of `[` in the text (those in strings
 * too: an overcount is safe). So short text is answered by its length, text up to `5 * limit + 1`
 * characters by counting its `[` (a 2026-07-28 request is longer than twice the limit, but has
 * few or none; more than {@link MAX_COUNTED_ARRAYS} and the value is walked), and longer text may
 * nest deeper (its value is walked).
 */
export function textMayNestDeeperThan(text: string, limit: number): boolean {
  const length = text.length;
  if (length <= 2 * limit) return false;
  const room = 5 * limit + 1 - length;
  if (room < 0) return true;
  // Past the limit needs more than room / 3 arrays: count `[` until there are that many, or
  // more than a few (text with many is walked: counting them all could cost more than the walk).
  const arrays = Math.min(MAX_COUNTED_ARRAYS, Math.floor(room / 3));
  let count = 0;
  for (let at = text.indexOf('['); at !== -1; at = text.indexOf('[', at + 1)) if (++count > arrays) return true;
  return false;
}

/** Up to this limit the check recurses (at most this deep, whatever the value); above, it loops. */
const RECURSION_LIMIT = 1000;

/**
 * Whether `value` nests deeper than `limit` (an object or array is level 1). It stops at the
 * first level too deep, so a hostile depth costs no more than `limit` levels and cannot
 * overflow the stack here.
 */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (limit < 1) return true;
  // Bounded recursion is twice as fast as an explicit stack (measured: bench/depth-check.ts).
  return limit <= RECURSION_LIMIT ? deeper(value, limit) : nestsDeeperIteratively(value, limit);
}

/** Whether a container at `remaining` levels from the limit has a descendant past it. */
function deeper(v: object, remaining: number): boolean {
  if (remaining === 0) return true;
  const next = remaining - 1;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      if (x !== null && typeof x === 'object' && deeper(x, next)) return true;
    }
  } else {
    for (const k in v) {
      const x: unknown = (v as Record<string, unknown>)[k];
      if (x !== null && typeof x === 'object' && deeper(x, next)) return true;
    }
  }
  return false;
}

function nestsDeeperIteratively(value: object, limit: number): boolean {
  const values: object[] = [value];
  const depths: number[] = [1];
  while (values.length > 0) {
    const v = values.pop()!;
    const next = depths.pop()! + 1;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const x: unknown = v[i];
        if (x !== null && typeof x === 'object') {
          if (next > limit) return true;
          values.push(x);
          depths.push(next);
        }
      }
    } else {
      for (const k in v) {
        const x: unknown = (v as Record<string, unknown>)[k];
        if (x !== null && typeof x === 'object') {
          if (next > limit) return true;
          values.push(x);
          depths.push(next);
        }
      }
    }
  }
  return false;
}

/**
 * What can be read safely from the top level of a frame too deep to accept: the request id
 * (so the caller's request fails at once) and whether to answer at all (never a response or a
 * notification).
 */
export function topLevelOf(value: unknown): { id: RequestId | null; respond: boolean } {
  if (Array.isArray(value)) return { id: null, respond: true };
  const m = value as { id?: unknown; method?: unknown };
  if (typeof m.method !== 'string') return { id: null, respond: m.method !== undefined };
  const id = m.id;
  if (id === undefined) return { id: null, respond: false };
  return { id: typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)) ? id : null, respond: true };
}
