/**
 * Built-in interceptor: `redactArguments(keys)` hides the named argument values (`params.arguments`
 * of `tools/call` and `prompts/get`, at any depth) from the stages registered after it (logging,
 * telemetry), while the handler still gets the real values.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#calling-tools
 */
import type { JsonObject } from '../../jsonrpc/message.js';
import type { Interceptor } from './server-chain.js';
import { ORIGINALS, REDACTED, type RedactedValue } from './redact-marks.js';

export { REDACTED } from './redact-marks.js';

/**
 * Stages after this one see each argument named in `keys` as `"[redacted]"`; the handler gets the
 * original (unless a stage in between replaced it). Register it before the stages that must not
 * see the values.
 */
export function redactArguments(keys: readonly string[]): Interceptor {
  if (!Array.isArray(keys) || keys.some((k) => typeof k !== 'string')) throw new TypeError('redactArguments() takes an array of argument names');
  const names = new Set(keys);
  const stage = (req: Parameters<Interceptor>[0], next: Parameters<Interceptor>[1]): Promise<JsonObject> => {
    const args = req.params?.arguments;
    if (args === null || typeof args !== 'object') return next();
    const found: RedactedValue[] = [];
    const copy = redact(args, [], names, found);
    if (found.length === 0) return next();
    const params = { ...req.params, arguments: copy } as JsonObject & { [ORIGINALS]?: readonly RedactedValue[] };
    // An earlier redactArguments' originals stay first: each is put back before this one's.
    params[ORIGINALS] = [...((req.params as typeof params)[ORIGINALS] ?? []), ...found];
    return next(params);
  };
  return Object.assign(stage, { interceptorName: 'redactArguments' });
}

function redact(value: unknown, path: (string | number)[], names: ReadonlySet<string>, found: RedactedValue[]): unknown {
  if (Array.isArray(value)) return value.map((v, i) => redact(v, [...path, i], names, found));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    // (defineProperty: a `__proto__` key in client input stays a plain key.)
    let copy: unknown;
    if (names.has(k)) {
      copy = REDACTED;
      found.push({ path: [...path, k], value: v });
    } else copy = redact(v, [...path, k], names, found);
    Object.defineProperty(out, k, { value: copy, enumerable: true, writable: true, configurable: true });
  }
  return out;
}
