/**
 * Random bytes and ids from WebCrypto (`globalThis.crypto`, on Node 20, Bun, Deno and Workers
 * alike), so nothing on the request path imports `node:crypto`.
 * @see https://w3c.github.io/webcrypto/#Crypto-method-getRandomValues
 */
import { base64urlEncode, hexEncode } from './bytes.js';

/** `getRandomValues` fills at most 65 536 bytes per call. */
const MAX_PER_CALL = 65_536;

/**
 * Small requests are served from a pool filled 4 KiB at a time (as node:crypto's randomUUID
 * does): one `getRandomValues` call costs about as much as filling a few KiB.
 */
const POOL_SIZE = 4096;
const POOL_MAX_TAKE = 256;
const pool = new Uint8Array(POOL_SIZE);
let poolAt = POOL_SIZE;

/** `size` cryptographically random bytes (each byte handed out once). */
export function randomBytes(size: number): Uint8Array {
  if (size <= POOL_MAX_TAKE) {
    if (poolAt + size > POOL_SIZE) {
      globalThis.crypto.getRandomValues(pool);
      poolAt = 0;
    }
    const out = pool.slice(poolAt, poolAt + size);
    // Used bytes are zeroed: what was handed out is not left lying in the pool.
    pool.fill(0, poolAt, poolAt + size);
    poolAt += size;
    return out;
  }
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
