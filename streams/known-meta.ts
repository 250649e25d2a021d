/**
 * The `_meta` envelope of a request line parsed once. A 2026-07-28 client ends every request
 * with the same envelope (protocol version, client capabilities, client info: ~190 bytes, more
 * than half of a small `tools/call` line), and `JSON.parse` of it cost ~600 ns a request, its long
 * keys most. A line that ends with the last envelope learnt is parsed without it, and a fresh
 * copy of the envelope's value is put in its place: the same value as `JSON.parse` of the whole
 * line (see {@link parseKnownMeta} for why), ~400 ns less. Anything else is parsed whole.
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic
 */
import { copyParsedJson } from '../lib/jsonrpc/spread-copy.js';

/** The envelope's text as it ends a line (`,"_meta":{…}}}`), and its value (never handed out: copied). */
interface Known {
  readonly tail: string;
  readonly value: object;
}

const MEMBER = ',"_meta":';
/** A longer envelope is not kept (it is the caller's data; a few hundred bytes in practice). */
const MAX_TAIL = 4096;
/** A line with a `params._meta` parsed whole learns its tail once in this many (the first at once). */
const LEARN_EVERY = 64;
/** Deeper envelopes are not kept (the copy recurses). */
const MAX_DEPTH = 16;
/** The members of a request, in the order our client writes them; `params` must be the last. */
const REQUEST_KEYS = ['jsonrpc', 'id', 'method', 'params'];

let known: Known | undefined;
let learnIn = 0;
/** Lines parsed here rather than whole (specs: that the lines they compare took this path). */
let served = 0;

/**
 * `JSON.parse(text)` when `text` ends with the known envelope as the last member of `params`,
 * else undefined (the caller parses it whole, and gets its value or its error).
 *
 * Why the value is the same: the line is `prefix + ',"_meta":' + E + '}}'`, and `prefix + '}}'`
 * is parsed. If the cut fell inside a string, that text ends inside the string and does not parse;
 * a number, literal or key cannot run on into the `,`; so the cut is between tokens, and both texts
 * read `prefix` alike. The last `}` closes the top-level object and the one before it the object
 * open at the cut: the value of the top level's last member in the text. Its keys must be exactly
 * `jsonrpc`, `id`, `method`, `params` (that order), the first three not objects: so that member
 * is `params` (`JSON.parse` keeps a repeated key's last value, where its first appeared), and it
 * must have a member already (after `{`, the `,` would not parse). The whole line is then that
 * value with `_meta: E` added last to `params`, or, when `params` had a `_meta` of its own, that
 * `_meta` given E's value where it stands: what the assignment here does.
 */
export function parseKnownMeta(text: string): unknown {
  const k = known;
  if (k === undefined) return undefined;
  const cut = text.length - k.tail.length;
  if (cut <= 0 || text.charCodeAt(cut) !== 44 || text.slice(cut) !== k.tail) return undefined;
  let frame: Record<string, unknown>;
  try {
    frame = JSON.parse(text.slice(0, cut) + '}}') as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (frame === null || typeof frame !== 'object' || Array.isArray(frame)) return undefined;
  let i = 0;
  for (const key in frame) if (key !== REQUEST_KEYS[i++]) return undefined;
  if (i !== 4 || frame.jsonrpc !== '2.0' || typeof frame.method !== 'string') return undefined;
  const id = frame.id;
  if (typeof id !== 'number' && typeof id !== 'string') return undefined;
  const params = frame.params as Record<string, unknown>;
  if (params === null || typeof params !== 'object' || Array.isArray(params) || !hasMember(params)) return undefined;
  params._meta = copyParsedJson(k.value);
  served++;
  return frame;
}

/**
 * A line was parsed whole into `value`: if it is a request with a `_meta` in its params, learn
 * the line's envelope (the first such line, then one in {@link LEARN_EVERY}, so that a client
 * whose envelope changes on every request pays little for it).
 */
export function learnMeta(text: string, value: object): void {
  const params = (value as { params?: unknown }).params;
  if (params === null || typeof params !== 'object') return;
  const meta = (params as { _meta?: unknown })._meta;
  if (meta === null || typeof meta !== 'object' || learnIn-- > 0) return;
  learnIn = LEARN_EVERY - 1;
  const at = text.lastIndexOf(MEMBER);
  if (at === -1 || text.length - at > MAX_TAIL || text.charCodeAt(text.length - 1) !== 125 || text.charCodeAt(text.length - 2) !== 125) return;
  let envelope: unknown;
  try {
    envelope = JSON.parse(text.slice(at + MEMBER.length, text.length - 2));
  } catch {
    return;
  }
  if (envelope === null || typeof envelope !== 'object' || !copiable(envelope, 0)) return;
  // A copy of the text: a slice of the line would keep the whole chunk it came in alive.
  known = { tail: JSON.parse(JSON.stringify(text.slice(at))) as string, value: envelope };
}

/** Forget the known envelope, and how many lines were parsed here so far (specs). @internal */
export function forgetKnownMeta(): void {
  known = undefined;
  learnIn = 0;
  served = 0;
}

/** How many lines were parsed here since {@link forgetKnownMeta} (specs). @internal */
export function knownMetaServed(): number {
  return served;
}

function hasMember(obj: object): boolean {
  for (const _ in obj) return true;
  return false;
}

/** Whether `copyParsedJson` makes of `value` what `JSON.parse` of its text makes: no `__proto__` key (JSON.parse makes it an own key), not too deep. */
function copiable(value: unknown, depth: number): boolean {
  if (value === null || typeof value !== 'object') return true;
  if (depth > MAX_DEPTH) return false;
  for (const key in value) if (key === '__proto__' || !copiable((value as Record<string, unknown>)[key], depth + 1)) return false;
  return true;
}

