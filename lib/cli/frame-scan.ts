/**
 * The recorder's one look at a captured line, on its bytes: whether it is exactly one JSON object
 * (RFC 8259) that redaction would leave as it is, so that its bytes can go into the journal as
 * they came, without a string, a parse or a copy for the garbage collector. The JSON check and the
 * redaction's look were two passes over a decoded copy, most of the recorder's work per frame.
 *
 * "Redaction would leave it as it is" is judged like `Redactor.value` judges a parsed frame, and
 * on the safe side: no key `isSecretKey` would hide (`sessionId` included, hidden on request), no
 * key `--redact` names, no `Bearer` or `Basic` before a space in a string, and nothing an escape
 * could spell (a `\u` escape of an ASCII character, any escape in a key). A string value that
 * holds JSON (its first character past white space `{` or `[`), which the redaction parses and
 * looks into, passes only without any secret word anywhere in it, escaped backslash, `--redact`
 * key, or more than {@link MAX_PLAIN_EMBEDDED_BRACKETS} brackets. A "no" is never wrong, only
 * slower: the caller then decodes, parses and redacts as before.
 */
import { isUtf8 } from 'node:buffer';
import { SECRET_KEY_WORDS } from '../server-features/redaction.js';
import { MAX_EMBEDDED_JSON_CHARS } from '../shared/redactor.js';

const MAX_DEPTH = 512;
/** The open containers: 0 an object, 1 an array (one buffer: the scan runs on one thread at a time). */
const stack = new Uint8Array(MAX_DEPTH);

/**
 * An automaton that reads a key's bytes once and knows at the end whether the key's letters and
 * digits, in lower case, end with a secret word, as `isSecretKey` asks (Aho-Corasick, one table
 * row of 128 ASCII bytes per state): uppercase letters move like lowercase ones, and every other
 * byte leaves the state as it is (as `isSecretKey` drops it).
 */
function secretWordMachine(words: readonly string[]): { table: Uint8Array; ends: Uint8Array } {
  const next: Map<number, number>[] = [new Map()];
  const accepting = [false];
  for (const w of words) {
    let s = 0;
    for (const ch of w) {
      const c = ch.charCodeAt(0);
      let t = next[s]!.get(c);
      if (t === undefined) {
        t = next.length;
        next.push(new Map());
        accepting.push(false);
        next[s]!.set(c, t);
      }
      s = t;
    }
    accepting[s] = true;
  }
  const alnum = [...'abcdefghijklmnopqrstuvwxyz0123456789'].map((c) => c.charCodeAt(0));
  // Breadth first: each state's moves, falling back as Aho-Corasick does.
  const move: number[][] = next.map(() => []);
  const fail = next.map(() => 0);
  for (const c of alnum) move[0]![c] = next[0]!.get(c) ?? 0;
  const queue = [...next[0]!.values()];
  while (queue.length > 0) {
    const s = queue.shift()!;
    accepting[s] ||= accepting[fail[s]!]!;
    for (const c of alnum) {
      const t = next[s]!.get(c);
      if (t === undefined) move[s]![c] = move[fail[s]!]![c]!;
      else {
        fail[t] = move[fail[s]!]![c]!;
        move[s]![c] = t;
        queue.push(t);
      }
    }
  }
  if (next.length > 256) throw new RangeError('too many secret words for a byte-sized automaton');
  const table = new Uint8Array(next.length * 128);
  for (let s = 0; s < next.length; s++) {
    for (let c = 0; c < 128; c++) table[s * 128 + c] = move[s]![c >= 0x41 && c <= 0x5a ? c + 0x20 : c] ?? s;
  }
  return { table, ends: Uint8Array.from(accepting, (a) => (a ? 1 : 0)) };
}

/** The moves, and the states in which a secret word has just been read. */
const { table: SECRET_MACHINE, ends: SECRET_END } = secretWordMachine(SECRET_KEY_WORDS);

const bytesOf = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
/** The one key with a secret word that is no secret: it only pairs progress with its request. */
const PROGRESS_TOKEN = bytesOf('progressToken');

/**
 * What a byte inside a string value asks of the scan: 0 nothing (most bytes), 1 the end (a
 * quote), 2 an escape, 3 invalid (a control character), 4 past ASCII, 5 a look for "Bearer" or
 * "Basic" (a credential in the text, which `Redactor.value` hides).
 */
const VALUE_BYTE = new Uint8Array(256);
for (let c = 0; c < 0x20; c++) VALUE_BYTE[c] = 3;
for (let c = 0x80; c < 0x100; c++) VALUE_BYTE[c] = 4;
VALUE_BYTE[0x22] = 1;
VALUE_BYTE[0x5c] = 2;
VALUE_BYTE[0x42] = 5;

const isWs = (c: number) => c === 0x20 || c === 0x09 || c === 0x0d;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isHex = (c: number) => isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
/** An ASCII letter, digit or underscore (`undefined`, past the buffer, is not). */
const isWordByte = (c: number | undefined) => c !== undefined && ((c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a) || c === 0x5f);
const hex = (c: number) => (c <= 0x39 ? c - 0x30 : (c | 0x20) - 0x57);

function sameBytes(b: Uint8Array, s: number, e: number, word: Uint8Array): boolean {
  if (e - s !== word.length) return false;
  for (let k = 0; k < word.length; k++) if (b[s + k] !== word[k]) return false;
  return true;
}

/** Set by `endOfString`: the string had a byte past ASCII (its UTF-8 is checked once, at the end). */
let high = false;

/**
 * Brackets a string holding JSON may have and still pass: so few that the redaction's walk into
 * it (one level below the string, at most 512 deep) never reaches its depth limit.
 */
export const MAX_PLAIN_EMBEDDED_BRACKETS = 64;

/** Whether the string value whose opening quote is at `i` starts, past JSON white space (raw or escaped), with `{` or `[`. */
function holdsJson(b: Uint8Array, i: number, end: number): boolean {
  let k = i + 1;
  while (k < end) {
    const c = b[k]!;
    if (c === 0x7b || c === 0x5b) return true;
    if (c === 0x20 || c === 0x09) k++;
    else if (c === 0x5c && (b[k + 1] === 0x6e || b[k + 1] === 0x72 || b[k + 1] === 0x74)) k += 2;
    else return false;
  }
  return false;
}

/**
 * {@link endOfString} for a string holding JSON, which the redaction parses: -1 also for any
 * secret word in it (as a key would be read), an escaped backslash (which could make an escape
 * inside), `--redact` keys, too many brackets, or a length past what the redaction looks into.
 */
function endOfJsonString(b: Uint8Array, i: number, end: number, extra: ReadonlySet<string> | null): number {
  if (extra !== null) return -1;
  let state = 0;
  let brackets = 0;
  for (let j = i + 1; j < end; j++) {
    const c = b[j]!;
    if (c === 0x22) return j - i - 1 > MAX_EMBEDDED_JSON_CHARS ? -1 : j + 1;
    if (c < 0x20) return -1;
    if (c >= 0x80) {
      high = true;
      continue;
    }
    if (c === 0x5c) {
      const e = b[++j];
      if (e === 0x75) {
        if (j + 4 >= end || !isHex(b[j + 1]!) || !isHex(b[j + 2]!) || !isHex(b[j + 3]!) || !isHex(b[j + 4]!)) return -1;
        if (b[j + 1] === 0x30 && b[j + 2] === 0x30 && hex(b[j + 3]!) < 8) return -1;
        j += 4;
      } else if (!(e === 0x22 || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74)) return -1;
      continue;
    }
    if ((c === 0x7b || c === 0x5b) && ++brackets > MAX_PLAIN_EMBEDDED_BRACKETS) return -1;
    if (c === 0x42) {
      const d = b[j + 1];
      if (d === 0x65 ? b[j + 2] === 0x61 && b[j + 3] === 0x72 && b[j + 4] === 0x65 && b[j + 5] === 0x72 && !isWordByte(b[j + 6]) : d === 0x61 && b[j + 2] === 0x73 && b[j + 3] === 0x69 && b[j + 4] === 0x63 && !isWordByte(b[j + 5])) return -1;
    }
    state = SECRET_MACHINE[state * 128 + c]!;
    if (SECRET_END[state] === 1) return -1;
  }
  return -1;
}

/**
 * The index after the string value whose opening quote is at `i`, or -1: not valid JSON, or
 * holding a credential scheme or an escaped ASCII character (which could spell one), or JSON that
 * may hold a secret ({@link endOfJsonString}).
 */
function endOfString(b: Uint8Array, i: number, end: number, extra: ReadonlySet<string> | null): number {
  const first = b[i + 1];
  // Only a string starting with `{`, `[` or white space can hold JSON: two comparisons for the others.
  if ((first === 0x7b || first === 0x5b || first === 0x20 || first === 0x09 || first === 0x5c) && holdsJson(b, i, end)) return endOfJsonString(b, i, end, extra);
  for (let j = i + 1; j < end; j++) {
    const kind = VALUE_BYTE[b[j]!]!;
    if (kind === 0) continue;
    if (kind === 1) return j + 1;
    if (kind === 2) {
      const e = b[++j];
      if (e === 0x75) {
        if (j + 4 >= end || !isHex(b[j + 1]!) || !isHex(b[j + 2]!) || !isHex(b[j + 3]!) || !isHex(b[j + 4]!)) return -1;
        // An ASCII character spelled as an escape could be part of a word redaction looks for.
        if (b[j + 1] === 0x30 && b[j + 2] === 0x30 && hex(b[j + 3]!) < 8) return -1;
        j += 4;
      } else if (!(e === 0x22 || e === 0x5c || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74)) return -1;
    } else if (kind === 4) high = true;
    else if (kind === 3) return -1;
    else {
      // "Bearer" or "Basic" followed by anything but a word character: what Redactor.value's
      // pattern (the word, white space, a credential) may match.
      const d = b[j + 1];
      if (d === 0x65 ? b[j + 2] === 0x61 && b[j + 3] === 0x72 && b[j + 4] === 0x65 && b[j + 5] === 0x72 && !isWordByte(b[j + 6]) : d === 0x61 && b[j + 2] === 0x73 && b[j + 3] === 0x69 && b[j + 4] === 0x63 && !isWordByte(b[j + 5])) return -1;
    }
  }
  return -1;
}

/**
 * The index after the key whose opening quote is at `i`, or -1: not valid JSON, escaped or past
 * ASCII (left to the slow path, which decodes it), or a key that may name a secret.
 */
function endOfKeyString(b: Uint8Array, i: number, end: number, extra: ReadonlySet<string> | null): number {
  let state = 0;
  for (let j = i + 1; j < end; j++) {
    const c = b[j]!;
    if (c === 0x22) {
      if (SECRET_END[state] === 1 && !sameBytes(b, i + 1, j, PROGRESS_TOKEN)) return -1;
      // A key too long to spread into a call is left to the slow path, which compares it whole.
      if (extra !== null && (j - i > 1024 || extra.has(String.fromCharCode(...b.subarray(i + 1, j)).toLowerCase()))) return -1;
      return j + 1;
    }
    if (c < 0x20 || c === 0x5c || c >= 0x80) return -1;
    state = SECRET_MACHINE[state * 128 + c]!;
  }
  return -1;
}

/** The index after the number starting at `i`, or -1. */
function endOfNumber(b: Uint8Array, i: number): number {
  if (b[i] === 0x2d) i++;
  const first = b[i]!;
  if (first === 0x30) i++;
  else if (first >= 0x31 && first <= 0x39) while (isDigit(b[++i]!));
  else return -1;
  if (b[i] === 0x2e) {
    if (!isDigit(b[++i]!)) return -1;
    while (isDigit(b[++i]!));
  }
  const e = b[i];
  if (e === 0x65 || e === 0x45) {
    let k = i + 1;
    const sign = b[k];
    if (sign === 0x2b || sign === 0x2d) k++;
    if (!isDigit(b[k]!)) return -1;
    while (isDigit(b[++k]!));
    i = k;
  }
  return i;
}

function skipWs(b: Uint8Array, i: number, end: number): number {
  while (i < end && isWs(b[i]!)) i++;
  return i;
}

/** The index after an object member's key and colon, the key starting at `i`, or -1 (also for a key that may name a secret). */
function endOfKey(b: Uint8Array, i: number, end: number, extra: ReadonlySet<string> | null): number {
  if (b[i] !== 0x22) return -1;
  const close = endOfKeyString(b, i, end, extra);
  if (close < 0) return -1;
  i = skipWs(b, close, end);
  return b[i] === 0x3a ? skipWs(b, i + 1, end) : -1;
}

function matchesWord(b: Uint8Array, i: number, word: string): boolean {
  for (let k = 0; k < word.length; k++) if (b[i + k] !== word.charCodeAt(k)) return false;
  return true;
}

/**
 * Where the line starting at `start` ends (the index of its line feed, before `end`) when it is
 * exactly one JSON object (whitespace around it allowed, a carriage return too), in valid UTF-8,
 * that redaction with `extraKeys` (the `--redact` keys in lower case) would leave unchanged; -1
 * otherwise, which says nothing: the line may still be valid and safe (nested deeper than 512,
 * say), and the caller parses it then.
 */
export function plainObjectLine(b: Uint8Array, start: number, end: number, extraKeys: ReadonlySet<string> | null = null): number {
  high = false;
  let i = skipWs(b, start, end);
  if (i >= end || b[i] !== 0x7b) return -1;
  let depth = 0;
  for (;;) {
    // A value starts at i.
    if (i >= end) return -1;
    const c = b[i]!;
    if (c === 0x7b || c === 0x5b) {
      const close = c === 0x7b ? 0x7d : 0x5d;
      i = skipWs(b, i + 1, end);
      if (b[i] === close && i < end) i++;
      else {
        if (depth === MAX_DEPTH) return -1;
        stack[depth++] = c === 0x7b ? 0 : 1;
        if (c === 0x7b && (i = endOfKey(b, i, end, extraKeys)) < 0) return -1;
        continue;
      }
    } else if (c === 0x22) {
      if ((i = endOfString(b, i, end, extraKeys)) < 0) return -1;
    } else if (c === 0x2d || isDigit(c)) {
      if ((i = endOfNumber(b, i)) < 0 || i > end) return -1;
    } else if (c === 0x74 && i + 4 <= end && matchesWord(b, i, 'true')) i += 4;
    else if (c === 0x66 && i + 5 <= end && matchesWord(b, i, 'false')) i += 5;
    else if (c === 0x6e && i + 4 <= end && matchesWord(b, i, 'null')) i += 4;
    else return -1;
    // After a value: close containers, or a comma and the next member.
    for (;;) {
      i = skipWs(b, i, end);
      if (depth === 0) return i < end && b[i] === 0x0a && (!high || isUtf8(b.subarray(start, i))) ? i : -1;
      if (i >= end) return -1;
      const inObject = stack[depth - 1] === 0;
      const d = b[i];
      if (d === 0x2c) {
        i = skipWs(b, i + 1, end);
        if (inObject && (i = endOfKey(b, i, end, extraKeys)) < 0) return -1;
        break;
      }
      if (d !== (inObject ? 0x7d : 0x5d)) return -1;
      i++;
      depth--;
    }
  }
}
