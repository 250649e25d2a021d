/**
 * The digests the server signs with: SHA-256 and HMAC-SHA-256, synchronous. Our plain TypeScript
 * implementation (`./sha256.ts`) by default, so the Web-standard entry runs on a Worker without
 * `nodejs_compat`; the Node entries register `node:crypto`'s (faster) through
 * {@link useDigests} when they load (`./node-digests.ts`).
 */
import { utf8Encode } from './bytes.js';
import { hmacSha256 as hmacPortable, sha256 as sha256Portable } from './sha256.js';

/** Bytes, or text digested as its UTF-8 bytes (node:crypto takes it as is: no encoding step of ours). */
export type DigestInput = Uint8Array | string;

/** A synchronous SHA-256 and HMAC-SHA-256. */
export interface Digests {
  sha256(data: DigestInput): Uint8Array;
  hmacSha256(key: Uint8Array, data: DigestInput): Uint8Array;
}

const bytesOf = (data: DigestInput): Uint8Array => (typeof data === 'string' ? utf8Encode(data) : data);
const portable: Digests = { sha256: (data) => sha256Portable(bytesOf(data)), hmacSha256: (key, data) => hmacPortable(key, bytesOf(data)) };
let current: Digests = portable;

/** Use `digests` from now on (`undefined`: back to the portable implementation). */
export function useDigests(digests: Digests | undefined): void {
  current = digests ?? portable;
}

/** Which implementation is in use (for benches and diagnostics). */
export function digestsInUse(): 'portable' | 'registered' {
  return current === portable ? 'portable' : 'registered';
}

/** SHA-256 of `data` (text: of its UTF-8). */
export function sha256(data: DigestInput): Uint8Array {
  return current.sha256(data);
}

/** HMAC-SHA-256 of `data` (text: of its UTF-8) under `key`. */
export function hmacSha256(key: Uint8Array, data: DigestInput): Uint8Array {
  return current.hmacSha256(key, data);
}

/**
 * Whether `a` and `b` hold the same bytes, in time that depends on their length only (not on
 * where they differ): for comparing MACs.
 */
export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  let diff = 0;
  for (let i = 0; i < a.byteLength; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}
