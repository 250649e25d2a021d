/**
 * Random bytes and ids from WebCrypto (`globalThis.crypto`, on Node 20, Bun, Deno and Workers
 * alike), so nothing on the request path imports `node:crypto`.
 * @see https://w3c.github.io/webcrypto/#Crypto-method-getRandomValues
 */
import { base64urlEncode, hexEncode } from './bytes.js';

/** `getRandomValues` fills at most 65 536 bytes per call. */
const MAX_PER_CALL = 65_536;

/** `size` cryptographically random bytes. */
export function randomBytes(size: number): Uint8Array {
  const out = new Uint8Array(size);
  for (let at = 0; at < size; at += MAX_PER_CALL) globalThis.crypto.getRandomValues(out.subarray(at, Math.min(size, at + MAX_PER_CALL)));
  return out;
}

/** A random RFC 9562 version 4 UUID. */
export function randomUUID(): string {
  return globalThis.crypto.randomUUID();
}

/** `size` random bytes as base64url (an id that fits headers and URLs). */
export function randomBase64url(size: number): string {
  return base64urlEncode(randomBytes(size));
}

/** `size` random bytes as hex. */
export function randomHex(size: number): string {
  return hexEncode(randomBytes(size));
}
