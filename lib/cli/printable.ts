/**
 * JSON for what `inspect` shows (the timeline, `--at`, the viewer's page) that a journal cannot
 * break: an entry nested deeper than JSON.stringify can print (a peer's frame of 100,000
 * brackets, kept in a hand-made or foreign journal) is shown cut at {@link SHOWN_DEPTH} levels,
 * with a note where the rest was, instead of failing the whole command.
 */

/** How deep `inspect` shows a value that JSON.stringify cannot print whole. */
export const SHOWN_DEPTH = 1000;
const CUT = `[not shown: nested deeper than ${SHOWN_DEPTH} levels]`;

function cut(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth >= SHOWN_DEPTH) return CUT;
  if (Array.isArray(value)) return value.map((v) => cut(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = cut(v, depth + 1);
  return out;
}

/** `JSON.stringify(value, null, indent)`, or, when it is nested too deeply for that, of a copy cut at {@link SHOWN_DEPTH}. */
export function printable(value: unknown, indent?: number): string {
  try {
    return JSON.stringify(value, null, indent);
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    return JSON.stringify(cut(value, 0), null, indent);
  }
}
