/**
 * JSON text made once for an object that never changes, spliced into each frame that carries it.
 * A 2026-07-28 client sends the same `_meta` envelope (protocol version, client capabilities and
 * info) on every request; in memory the frame passes the object by reference, but a stdio or HTTP
 * transport serialized it again per call, about half of a small request's encoding (~1.5 µs).
 * A 2026-07-28 server likewise puts its info in every result's `_meta` (`sent-info.ts`).
 * Node 20 has no `JSON.rawJSON`. A request whose `params._meta` is sealed (every 2026-07-28
 * request without the caller's own `_meta`), and a result whose `_meta` holds a sealed value
 * (every 2026-07-28 result), are written by hand around it: the frame's own keys as constant
 * text, `JSON.stringify` for the caller's values only, the sealed text as made. Any other frame
 * is stringified whole, and a sealed object in it answers `toJSON` with a unique placeholder
 * whose text is then replaced by the object's. Everywhere else (`JSON.stringify` in a journal, a
 * log line) a sealed object serializes as before.
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic
 */

interface Sealed {
  /** The placeholder as it appears in JSON text (quoted, its NUL escaped). */
  readonly quoted: string;
  readonly text: string;
}

/** Where a sealed object keeps its {@link Sealed} record (not enumerable: copies and keys never see it). */
const SEALED = Symbol('sealed-json');

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
  Object.defineProperty(value, SEALED, { value: sealed, enumerable: false });
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

/**
 * A sealed copy of `value`, frozen all through, when it is plain JSON data: objects of `Object`'s
 * prototype (or none) and arrays, whose own keys are all enumerable data properties with string
 * names, holding strings, finite numbers, booleans, null or such objects (a few levels deep).
 * Undefined for anything else (a class instance, a `toJSON`, a getter, a symbol key, `undefined`,
 * a cycle): the caller then keeps sending the value itself. The copy is what a caller may seal
 * without trusting its owner: a change to `value` afterwards is not seen, and nobody can change
 * the copy.
 */
export function sealedCopy<T extends object>(value: T): T | undefined {
  const copy = frozenCopy(value, 0);
  return copy === undefined ? undefined : (Object.freeze(sealJson(copy as object)) as T);
}

/** Deep enough for any server or client info; deeper (or a cycle) is not copied. */
const COPY_DEPTH = 16;

function frozenCopy(value: unknown, depth: number): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'object' || depth > COPY_DEPTH) return undefined;
  const proto = Object.getPrototypeOf(value) as unknown;
  const isArray = Array.isArray(value);
  if (isArray ? proto !== Array.prototype : proto !== Object.prototype && proto !== null) return undefined;
  const names = Reflect.ownKeys(value);
  if (isArray && names.length !== (value as unknown[]).length + 1) return undefined; // holes
  const out: Record<string, unknown> | unknown[] = isArray ? [] : {};
  for (const name of names) {
    if (typeof name !== 'string') return undefined;
    const d = Object.getOwnPropertyDescriptor(value, name)!;
    if (isArray && name === 'length') continue;
    if (!d.enumerable || !('value' in d) || name === '__proto__' || name === 'toJSON') return undefined;
    const v = frozenCopy(d.value, depth + 1);
    if (v === undefined) return undefined;
    (out as Record<string, unknown>)[name] = v;
  }
  // The top is frozen by the caller once sealed: the seal defines its hook on it.
  return depth === 0 ? out : Object.freeze(out);
}

/** `JSON.stringify(value)`, with the text of each sealed object in it made once (see {@link sealJson}). */
export function encodeJson(value: unknown): string {
  return frameText(value) ?? spliced(value);
}

/** `JSON.stringify(value)` with every sealed object's placeholder replaced by its text. */
function spliced(value: unknown): string {
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

/** The own keys of a request frame, in the order `JSON.stringify` writes them (the order made). */
const REQUEST_KEYS = ['jsonrpc', 'id', 'method', 'params'];
/** The own keys of a response frame with a result (`RequestCore` makes it in this order). */
const RESPONSE_KEYS = ['jsonrpc', 'id', 'result'];

/**
 * The text of a frame written by hand around its sealed parts: a request
 * `{ jsonrpc: '2.0', id, method, params }` whose `params._meta` is sealed (a modern client's
 * envelope), or a response `{ jsonrpc: '2.0', id, result }` whose `result._meta` holds a sealed
 * value (a modern server's info). The same bytes as `JSON.stringify`: the frame's own keys as
 * constant text, `JSON.stringify` for the caller's values only, each sealed object's text as made.
 * A request: 470 against 1,080 ns for its placeholder splice (alternated in-process; a legacy
 * request, with no envelope, 700). Undefined for any other value (another shape, key order or id
 * type, a `toJSON` of the frame's, the params', result's or `_meta`'s or a value's of theirs):
 * {@link spliced} writes those.
 */
function frameText(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const frame = value as Record<string, unknown>;
  const params = frame.params;
  if (params !== undefined) return requestText(frame, params);
  const result = frame.result;
  return result === undefined ? undefined : responseText(frame, result);
}

function requestText(frame: Record<string, unknown>, params: unknown): string | undefined {
  if (!isPlainObject(params)) return undefined;
  const meta = params._meta;
  if (meta === null || typeof meta !== 'object') return undefined;
  const sealed = (meta as Record<PropertyKey, unknown>)[SEALED] as Sealed | undefined;
  if (sealed === undefined || !hasKeys(frame, REQUEST_KEYS) || typeof frame.method !== 'string') return undefined;
  const id = idText(frame.id);
  if (id === undefined) return undefined;
  const body = membersText(params, meta, sealed.text, false);
  // One string grown left to right: fewer intermediate strings than joining a body in the end.
  return body === undefined ? undefined : '{"jsonrpc":"2.0","id":' + id + methodPart(frame.method) + body + '}';
}

function responseText(frame: Record<string, unknown>, result: unknown): string | undefined {
  // A result without a `_meta` (every legacy one) is told first, by one read.
  if (result === null || typeof result !== 'object') return undefined;
  const meta = (result as Record<string, unknown>)._meta;
  if (meta === null || typeof meta !== 'object' || !isPlainObject(result) || !isPlainObject(meta)) return undefined;
  // A result with no sealed value in its `_meta` (a legacy result's own `_meta`, a server info
  // an interceptor replaced) is stringified whole: quicker than by hand.
  if (!holdsSealed(meta) || !hasKeys(frame, RESPONSE_KEYS)) return undefined;
  const metaText = membersText(meta, undefined, undefined, true);
  if (metaText === undefined) return undefined;
  const id = idText(frame.id);
  if (id === undefined) return undefined;
  const body = membersText(result, meta, '{' + metaText, false);
  return body === undefined ? undefined : '{"jsonrpc":"2.0","id":' + id + ',"result":{' + body + '}';
}

/** Whether `frame`'s enumerable keys are exactly `keys` in order, own and `jsonrpc` "2.0" (inherited enumerable keys, which JSON.stringify skips, fail it too). */
function hasKeys(frame: Record<string, unknown>, keys: readonly string[]): boolean {
  let i = 0;
  for (const key in frame) if (key !== keys[i++]) return false;
  return i === keys.length && frame.jsonrpc === '2.0' && typeof frame.toJSON !== 'function';
}

/** An object that is not an array and has no `toJSON` of its own (JSON.stringify writes its members). */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}

/** The text of a JSON-RPC id that is a number or a string, else undefined. */
function idText(id: unknown): string | undefined {
  if (typeof id === 'number') return Number.isFinite(id) ? '' + id : 'null';
  if (typeof id === 'string') return JSON.stringify(id);
  return undefined;
}

/** Whether one of `obj`'s own enumerable values is a sealed object. */
function holdsSealed(obj: Record<string, unknown>): boolean {
  for (const key in obj) {
    const v = obj[key];
    if (v !== null && typeof v === 'object' && (v as Record<PropertyKey, unknown>)[SEALED] !== undefined && Object.hasOwn(obj, key)) return true;
  }
  return false;
}

/**
 * An object's members as `JSON.stringify` writes them, then `}` (the opening brace is the
 * caller's): the member whose value is `known` as `knownText`, a sealed value as its text where
 * `sealedValues` (a result's `_meta`: elsewhere the look would cost a request's encoding for
 * nothing), any other with `JSON.stringify`. Undefined when a value is an object with a `toJSON`
 * of its own (a sealed one too, where not looked for): called with its key inside the frame and
 * with "" alone, it might answer otherwise.
 */
function membersText(obj: Record<string, unknown>, known: unknown, knownText: string | undefined, sealedValues: boolean): string | undefined {
  let text = '';
  const keys = Object.keys(obj);
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k]!;
    const v = obj[key];
    let value: string | undefined;
    if (v === known && known !== undefined) value = knownText;
    else if (v !== null && typeof v === 'object') {
      const sealed = sealedValues ? ((v as Record<PropertyKey, unknown>)[SEALED] as Sealed | undefined) : undefined;
      if (sealed !== undefined) value = sealed.text;
      else if (typeof (v as { toJSON?: unknown }).toJSON === 'function') return undefined;
      else value = JSON.stringify(v);
    } else value = JSON.stringify(v);
    if (value === undefined) continue; // undefined, a function or a symbol: left out, as JSON.stringify does
    text = text === '' ? keyPart(key) + value : text + ',' + keyPart(key) + value;
  }
  return text + '}';
}

/** At most this many methods, and as many params keys, have their text kept (a few dozen in practice). */
const KEPT_NAMES = 256;
const methodParts = new Map<string, string>();
const keyParts = new Map<string, string>();

/** `,"method":<method>,"params":{`, made once per method. */
function methodPart(method: string): string {
  let text = methodParts.get(method);
  if (text === undefined) {
    text = ',"method":' + JSON.stringify(method) + ',"params":{';
    if (methodParts.size < KEPT_NAMES) methodParts.set(method, text);
  }
  return text;
}

/** `<key>:`, made once per params key. */
function keyPart(key: string): string {
  let text = keyParts.get(key);
  if (text === undefined) {
    text = JSON.stringify(key) + ':';
    if (keyParts.size < KEPT_NAMES) keyParts.set(key, text);
  }
  return text;
}
