/**
 * Whether a text is one JSON object, checked without building it: the recorder journals a frame's
 * line as it came when it is valid JSON with nothing to redact, and `JSON.parse` (building every
 * object of the frame only to drop it) was a quarter of its cost per frame. Exact for what it
 * accepts (RFC 8259); it says no to anything else, including valid texts nested deeper than it
 * tracks, and the caller then parses as before, so a "no" is never wrong, only slower.
 */

const MAX_DEPTH = 512;
/** The open containers: 0 an object, 1 an array (one buffer: the check runs on one thread at a time). */
const stack = new Uint8Array(MAX_DEPTH);

const isWs = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isHex = (c: number) => isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);

function skipWs(s: string, i: number): number {
  while (i < s.length && isWs(s.charCodeAt(i))) i++;
  return i;
}

/** No control character anywhere in the text being checked: a string ends at its first unescaped quote. */
let plain = false;
/** Where the next backslash is, at or after the scan (the text's length when there is none; -1 not looked for yet). */
let nextBackslash = -1;
// eslint-disable-next-line no-control-regex -- control characters are exactly what is looked for
const CONTROL = /[\u0000-\u001f]/;

/** The index after the string starting at `i` (a quote), or -1. */
function endOfString(s: string, i: number): number {
  return plain ? endOfPlainString(s, i) : endOfStringByChar(s, i);
}

/**
 * `endOfString` for a text without control characters: the quotes and backslashes are found by
 * `indexOf` (native, many characters per step) instead of one character at a time, which made the
 * check four times slower on frames that are mostly strings.
 */
function endOfPlainString(s: string, i: number): number {
  let j = i + 1;
  for (;;) {
    const quote = s.indexOf('"', j);
    if (quote < 0) return -1;
    if (nextBackslash < j) {
      nextBackslash = s.indexOf('\\', j);
      if (nextBackslash < 0) nextBackslash = s.length;
    }
    if (quote < nextBackslash) return quote + 1;
    // An escape comes first: check it and look on after it.
    j = nextBackslash + 1;
    const e = s.charCodeAt(j);
    if (e === 0x75) {
      if (j + 4 >= s.length || !isHex(s.charCodeAt(j + 1)) || !isHex(s.charCodeAt(j + 2)) || !isHex(s.charCodeAt(j + 3)) || !isHex(s.charCodeAt(j + 4))) return -1;
      j += 5;
    } else if (e === 0x22 || e === 0x5c || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74) j += 1;
    else return -1;
  }
}

function endOfStringByChar(s: string, i: number): number {
  const n = s.length;
  for (let j = i + 1; j < n; j++) {
    const c = s.charCodeAt(j);
    if (c === 0x22) return j + 1;
    if (c < 0x20) return -1;
    if (c === 0x5c) {
      const e = s.charCodeAt(++j);
      if (e === 0x75) {
        if (j + 4 >= n || !isHex(s.charCodeAt(j + 1)) || !isHex(s.charCodeAt(j + 2)) || !isHex(s.charCodeAt(j + 3)) || !isHex(s.charCodeAt(j + 4))) return -1;
        j += 4;
      } else if (!(e === 0x22 || e === 0x5c || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74)) return -1;
    }
  }
  return -1;
}

/** The index after the number starting at `i`, or -1. */
function endOfNumber(s: string, i: number): number {
  if (s.charCodeAt(i) === 0x2d) i++;
  const first = s.charCodeAt(i);
  if (first === 0x30) i++;
  else if (first >= 0x31 && first <= 0x39) while (isDigit(s.charCodeAt(++i)));
  else return -1;
  if (s.charCodeAt(i) === 0x2e) {
    if (!isDigit(s.charCodeAt(++i))) return -1;
    while (isDigit(s.charCodeAt(++i)));
  }
  const e = s.charCodeAt(i);
  if (e === 0x65 || e === 0x45) {
    let k = i + 1;
    const sign = s.charCodeAt(k);
    if (sign === 0x2b || sign === 0x2d) k++;
    if (!isDigit(s.charCodeAt(k))) return -1;
    while (isDigit(s.charCodeAt(++k)));
    i = k;
  }
  return i;
}

/** The index after the object key and its colon starting at `i`, or -1. */
function endOfKey(s: string, i: number): number {
  if (s.charCodeAt(i) !== 0x22) return -1;
  i = endOfString(s, i);
  if (i < 0) return -1;
  i = skipWs(s, i);
  return s.charCodeAt(i) === 0x3a ? skipWs(s, i + 1) : -1;
}

/**
 * True when `text` is exactly one JSON object (whitespace around it allowed). `noControl`: the
 * caller has looked already and found no control character, so the text is not looked through again.
 */
export function isJsonObjectText(text: string, noControl = false): boolean {
  plain = noControl || !CONTROL.test(text);
  nextBackslash = -1;
  const s = text;
  const n = s.length;
  let i = skipWs(s, 0);
  if (s.charCodeAt(i) !== 0x7b) return false;
  let depth = 0;
  for (;;) {
    // A value starts at i.
    const c = s.charCodeAt(i);
    if (c === 0x7b || c === 0x5b) {
      const close = c === 0x7b ? 0x7d : 0x5d;
      i = skipWs(s, i + 1);
      if (s.charCodeAt(i) === close) i++;
      else {
        if (depth === MAX_DEPTH) return false;
        stack[depth++] = c === 0x7b ? 0 : 1;
        if (c === 0x7b && (i = endOfKey(s, i)) < 0) return false;
        continue;
      }
    } else if (c === 0x22) {
      if ((i = endOfString(s, i)) < 0) return false;
    } else if (c === 0x2d || isDigit(c)) {
      if ((i = endOfNumber(s, i)) < 0) return false;
    } else if (c === 0x74 && s.startsWith('true', i)) i += 4;
    else if (c === 0x66 && s.startsWith('false', i)) i += 5;
    else if (c === 0x6e && s.startsWith('null', i)) i += 4;
    else return false;
    // After a value: close containers, or a comma and the next member.
    for (;;) {
      i = skipWs(s, i);
      if (depth === 0) return i === n;
      const inObject = stack[depth - 1] === 0;
      const d = s.charCodeAt(i);
      if (d === 0x2c) {
        i = skipWs(s, i + 1);
        if (inObject && (i = endOfKey(s, i)) < 0) return false;
        break;
      }
      if (d !== (inObject ? 0x7d : 0x5d)) return false;
      i++;
      depth--;
    }
  }
}
