/**
 * JSON text made once for an object that never changes, spliced into each frame that carries it.
 * A 2026-07-28 client sends the same `_meta` envelope (protocol version, client capabilities and
 * info) on every request; in memory the frame passes the object by reference, but a stdio or HTTP
 * transport serialized it again per call, about half of a small request's encoding (~1.5 µs).
 * Node 20 has no `JSON.rawJSON`, so a sealed object answers `toJSON` with a unique placeholder
 * while {@link encodeJson} runs, and the placeholder's text is replaced by the object's.
 * Everywhere else (`JSON.stringify` in a journal, a log line) it serializes as before.
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic
 */

interface Sealed {
  /** The placeholder as it appears in JSON text (quoted, its NUL escaped). */
  readonly quoted: string;
  readonly text: string;
}

/** Unlike any string a frame could carry by chance: a NUL, this process's nonce, a number. */
const NONCE = Math.random().toString(36).slice(2);
let sealedCount = 0;
/** True only inside {@link encodeJson}: sealed objects answer their placeholder. */
let splicing = false;
/** The sealed objects met by the current {@link encodeJson}, in the order serialized. */
let met: Sealed[] | undefined;

/**
 * Make `value`'s JSON text now, to be reused by every {@link encodeJson} that meets it. The caller
 * promises never to change `value` (or anything in it) afterwards. Returns `value` itself; its
 * keys, copies and `structuredClone` are unchanged (the hook is not enumerable).
 */
export function sealJson<T extends object>(value: T): T {
  const placeholder = `\u0000sealed-json:${NONCE}:${++sealedCount}`;
  const sealed: Sealed = { quoted: JSON.stringify(placeholder), text: JSON.stringify(value) };
  Object.defineProperty(value, 'toJSON', {
    value(this: T): unknown {
      if (!splicing) return this;
      (met ??= []).push(sealed);
      return placeholder;
    },
    enumerable: false,
    configurable: true,
    writable: true,
  });
  return value;
}

/** `JSON.stringify(value)`, with the text of each sealed object in it made once (see {@link sealJson}). */
export function encodeJson(value: unknown): string {
  met = undefined;
  splicing = true;
  let text: string;
  try {
    text = JSON.stringify(value);
  } finally {
    splicing = false;
  }
  // Set by the toJSON hooks during the stringify (which TypeScript cannot see).
  const parts = met as Sealed[] | undefined;
  if (parts === undefined) return text;
  met = undefined;
  // From the last met to the first: each replaces the last placeholder of its object left.
  for (let i = parts.length - 1; i >= 0; i--) {
    const part = parts[i]!;
    const at = text.lastIndexOf(part.quoted);
    if (at !== -1) text = text.slice(0, at) + part.text + text.slice(at + part.quoted.length);
  }
  return text;
}
