/**
 * `{ ...source }` and `{ ...first, ...second }` for copies that keys are added to. On V8 11
 * (Node 20) a spread copy takes a slow path when a key it lacks is added afterwards, by an
 * assignment or by a spread or key after it in the same literal (a map of its own per object:
 * ~1.3 µs, a map left for the collector, and inline-cache misses on every later read), so there
 * the copy is made key by key; V8 12 and later (Node 22, 24) grow a spread copy at once, and a
 * spread is cheaper than the loop there.
 */

/**
 * Copy `from`'s own enumerable string-keyed properties into `out` in their order; an own
 * `__proto__` key, which JSON.parse makes, stays an own data property (as a spread keeps it).
 */
function copyStringKeysInto(out: Record<PropertyKey, unknown>, from: Record<PropertyKey, unknown>): void {
  // (for-in over own keys, not Object.keys: no array of keys per copy.)
  for (const key in from) {
    if (!Object.hasOwn(from, key)) continue;
    if (key === '__proto__') Object.defineProperty(out, key, { value: from[key], enumerable: true, writable: true, configurable: true });
    else out[key] = from[key];
  }
}

/** Copy `from`'s own enumerable properties into `out` as a spread does (string keys in their order, then symbols). */
function copyOwnInto(out: Record<PropertyKey, unknown>, from: Record<PropertyKey, unknown>): void {
  copyStringKeysInto(out, from);
  const symbols = Object.getOwnPropertySymbols(from);
  for (let i = 0; i < symbols.length; i++) {
    const symbol = symbols[i]!;
    if (Object.prototype.propertyIsEnumerable.call(from, symbol)) out[symbol] = from[symbol];
  }
}

/**
 * A copy of a JSON object (a parsed or wire-bound value: no symbol keys to keep) that keys can
 * then be added to, key by key on every runtime: ~45 ns for a one-key result where
 * {@link copyKeyByKey}'s symbol pass makes it ~130 ns, and no slow spread copy on Node 20.
 */
export function copyJsonObject<T extends object>(source: T): T {
  const out: Record<PropertyKey, unknown> = {};
  copyStringKeysInto(out, source as Record<PropertyKey, unknown>);
  return out as T;
}

/**
 * A deep copy of a parsed JSON value (own string keys only, as `JSON.parse` makes): new objects
 * and arrays, keys in their order, an own `__proto__` key kept as own data as `JSON.parse` keeps it.
 */
export function copyParsedJson(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (let i = 0; i < value.length; i++) out.push(copyParsedJson(value[i]));
    return out;
  }
  const from = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key in from) {
    if (key === '__proto__') Object.defineProperty(out, key, { value: copyParsedJson(from[key]), enumerable: true, writable: true, configurable: true });
    else out[key] = copyParsedJson(from[key]);
  }
  return out;
}

/** `{ ...source }` made key by key. */
export function copyKeyByKey<T extends object>(source: T): T {
  const out: Record<PropertyKey, unknown> = {};
  copyOwnInto(out, source as Record<PropertyKey, unknown>);
  return out as T;
}

/** `{ ...source }` itself. */
export function copyBySpread<T extends object>(source: T): T {
  return { ...source };
}

/** `{ ...first, ...second }` made key by key. */
export function mergeKeyByKey<A extends object, B extends object>(first: A, second: B): A & B {
  const out: Record<PropertyKey, unknown> = {};
  copyOwnInto(out, first as Record<PropertyKey, unknown>);
  copyOwnInto(out, second as Record<PropertyKey, unknown>);
  return out as A & B;
}

/** `{ ...first, ...second }` itself. */
export function mergeBySpread<A extends object, B extends object>(first: A, second: B): A & B {
  return { ...first, ...second };
}

/** The V8 major version, or NaN off V8 (Bun) or where `process` is not there (Workers). */
const v8Major = Number((globalThis as { process?: { versions?: { v8?: string } } }).process?.versions?.v8?.split('.')[0]);
const slowSpreadGrowth = v8Major <= 11;

/** A copy of what a spread copies, to add keys to: the cheaper way on this runtime. */
export const spreadCopy: <T extends object>(source: T) => T = slowSpreadGrowth ? copyKeyByKey : copyBySpread;

/** `{ ...first, ...second }`, the cheaper way on this runtime. */
export const spreadMerge: <A extends object, B extends object>(first: A, second: B) => A & B = slowSpreadGrowth ? mergeKeyByKey : mergeBySpread;
