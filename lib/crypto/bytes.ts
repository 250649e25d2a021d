/**
 * Bytes and text without `Buffer`: UTF-8 through TextEncoder/TextDecoder, base64 and base64url,
 * joining chunks. Where the host has a `Buffer` global (Node, Bun, Deno; Workers only with
 * `nodejs_compat`) its native codecs are used, found at run time, never imported, so the same
 * code runs on a Worker without it.
 */

/** A Node `Buffer`: a Uint8Array whose `toString` takes an encoding. */
type NodeBufferBytes = Uint8Array & { toString(encoding?: string): string };

interface NodeBufferLike {
  from(data: ArrayBufferLike, offset?: number, length?: number): NodeBufferBytes;
  from(data: string, encoding: string): NodeBufferBytes;
  byteLength(text: string, encoding: 'utf8'): number;
  isBuffer(value: unknown): boolean;
}

/** The host's `Buffer`, when it has one. */
const NodeBuffer = (globalThis as { Buffer?: NodeBufferLike }).Buffer;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** `text` as UTF-8 bytes. */
export function utf8Encode(text: string): Uint8Array {
  return encoder.encode(text);
}

/** UTF-8 `bytes` as text (malformed sequences become U+FFFD, as `Buffer#toString` does). */
export function utf8Decode(bytes: Uint8Array): string {
  if (NodeBuffer !== undefined) return (NodeBuffer.isBuffer(bytes) ? (bytes as NodeBufferBytes) : NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)).toString('utf8');
  return decoder.decode(bytes);
}

/** The length of `text` in UTF-8 bytes, without encoding it. */
export function utf8ByteLength(text: string): number {
  if (NodeBuffer !== undefined) return NodeBuffer.byteLength(text, 'utf8');
  return utf8ByteLengthPortable(text);
}

/** {@link utf8ByteLength} in plain JS (lone surrogates count 3, as their U+FFFD does). */
export function utf8ByteLengthPortable(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** `chunks` joined into one array of `size` bytes (their total). */
export function concatBytes(chunks: readonly Uint8Array[], size?: number): Uint8Array {
  const out = new Uint8Array(size ?? chunks.reduce((n, c) => n + c.byteLength, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const ALPHABET_URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** Sextet of each base64 and base64url character; -1 for anything else. */
const SEXTET = new Int8Array(128).fill(-1);
for (let i = 0; i < 64; i++) {
  SEXTET[ALPHABET.charCodeAt(i)] = i;
  SEXTET[ALPHABET_URL.charCodeAt(i)] = i;
}

/** `bytes` in base64 (RFC 4648 §4, padded). */
export function base64Encode(bytes: Uint8Array): string {
  if (NodeBuffer !== undefined) return NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  return encodePortable(bytes, ALPHABET, true);
}

/** `bytes` in base64url (RFC 4648 §5, unpadded). */
export function base64urlEncode(bytes: Uint8Array): string {
  if (NodeBuffer !== undefined) return NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64url');
  return encodePortable(bytes, ALPHABET_URL, false);
}

/** The UTF-8 of `text` in base64url (one step on Node, where the two-step form costs a TextEncoder pass). */
export function utf8ToBase64url(text: string): string {
  if (NodeBuffer !== undefined) return NodeBuffer.from(text, 'utf8').toString('base64url');
  return encodePortable(utf8Encode(text), ALPHABET_URL, false);
}

/**
 * The bytes of base64 or base64url `text` (padding optional). Like `Buffer.from(text, 'base64url')`
 * it is lenient: characters outside both alphabets are skipped, a trailing lone sextet dropped.
 */
export function base64Decode(text: string): Uint8Array {
  if (NodeBuffer !== undefined) return NodeBuffer.from(text, 'base64url');
  return decodePortable(text);
}

/** {@link base64Encode} / {@link base64urlEncode} in plain JS. */
export function encodePortable(bytes: Uint8Array, alphabet: string = ALPHABET_URL, pad = false): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += alphabet[n >>> 18]! + alphabet[(n >>> 12) & 63]! + alphabet[(n >>> 6) & 63]! + alphabet[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    out += alphabet[n >>> 18]! + alphabet[(n >>> 12) & 63]! + (pad ? '==' : '');
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out += alphabet[n >>> 18]! + alphabet[(n >>> 12) & 63]! + alphabet[(n >>> 6) & 63]! + (pad ? '=' : '');
  }
  return out;
}

/** {@link base64Decode} in plain JS. */
export function decodePortable(text: string): Uint8Array {
  const out = new Uint8Array(Math.floor((text.length * 3) / 4) + 3);
  let n = 0;
  let bits = 0;
  let at = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 61) break; // '=': the end
    const v = code < 128 ? SEXTET[code]! : -1;
    if (v < 0) continue;
    n = (n << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[at++] = (n >>> bits) & 0xff;
    }
  }
  return out.slice(0, at);
}

/** `bytes` as lowercase hex. */
export function hexEncode(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += (bytes[i]! < 16 ? '0' : '') + bytes[i]!.toString(16);
  return out;
}
