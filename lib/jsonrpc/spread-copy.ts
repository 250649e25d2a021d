/**
 * `{ ...source }` for a copy that keys are then added to. On V8 11 (Node 20) a spread copy takes a
 * slow path when a key it lacks is added afterwards (a map of its own per object: ~1.3 µs, and a
 * map left for the collector, per copy), so there the copy is made key by key; V8 12 and later
 * (Node 22, 24) grow a spread copy at once, and a spread is cheaper than the loop there.
 */

/**
 * A copy of `source`'s own enumerable properties (string keys in their order, then symbols), as a
 * spread makes it: an own `__proto__` key (JSON.parse makes one) stays an own data property.
 */
export function copyKeyByKey<T extends object>(source: T): T {
  const out: Record<PropertyKey, unknown> = {};
  const from = source as Record<PropertyKey, unknown>;
  // (for-in over own keys, not Object.keys: no array of keys per copy.)
  for (const key in from) {
    if (!Object.hasOwn(from, key)) continue;
    if (key === '__proto__') Object.defineProperty(out, key, { value: from[key], enumerable: true, writable: true, configurable: true });
    else out[key] = from[key];
  }
  const symbols = Object.getOwnPropertySymbols(from);
  for (let i = 0; i < symbols.length; i++) {
    const symbol = symbols[i]!;
    if (Object.prototype.propertyIsEnumerable.call(from, symbol)) out[symbol] = from[symbol];
  }
  return out as T;
}

/** `{ ...source }` itself. */
export function copyBySpread<T extends object>(source: T): T {
  return { ...source };
}

/** The V8 major version, or undefined off V8 (Bun) or where `process` is not there (Workers). */
const v8Major = Number((globalThis as { process?: { versions?: { v8?: string } } }).process?.versions?.v8?.split('.')[0]);

/** A copy of what a spread copies, to add keys to: the cheaper of the two on this runtime. */
export const spreadCopy: <T extends object>(source: T) => T = v8Major <= 11 ? copyKeyByKey : copyBySpread;
