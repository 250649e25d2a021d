/**
 * How `redactArguments` hides values from the stages after it yet hands the handler the real
 * ones: the redacted params carry, under a symbol (never serialized, copied by object spread),
 * where each value was and what it was; the chain puts back every value a later stage left as
 * the marker before the handler runs.
 */
import type { JsonObject } from '../../jsonrpc/message.js';

/** What a redacted value reads as to the stages after `redactArguments`. */
export const REDACTED = '[redacted]';

/** Where the originals of redacted params are kept. */
export const ORIGINALS: unique symbol = Symbol('mcp-actors.redacted');

/** One redacted value: its path under `params.arguments` and what it was. */
export interface RedactedValue {
  readonly path: readonly (string | number)[];
  readonly value: unknown;
}

type Marked = JsonObject & { [ORIGINALS]?: readonly RedactedValue[] };

/** Params with the originals restored (where a later stage did not change them), or `params` itself when nothing was redacted. */
export function restoreRedacted(params: JsonObject | undefined): JsonObject | undefined {
  const originals = (params as Marked | undefined)?.[ORIGINALS];
  if (originals === undefined) return params;
  const out = structuredClone({ ...params }) as JsonObject;
  for (const { path, value } of originals) {
    let at: unknown = out.arguments;
    for (let i = 0; i < path.length - 1 && at !== null && typeof at === 'object'; i++) at = (at as Record<string | number, unknown>)[path[i]!];
    if (at === null || typeof at !== 'object') continue;
    const last = path[path.length - 1]!;
    if ((at as Record<string | number, unknown>)[last] === REDACTED) (at as Record<string | number, unknown>)[last] = value;
  }
  return out;
}
