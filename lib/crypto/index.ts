/**
 * Bytes, randomness and digests for code that must also run where only Web globals exist
 * (Cloudflare Workers without `nodejs_compat`): no `node:` import, no `Buffer` required.
 */
export { randomBytes, randomUUID, randomBase64url, randomHex } from './random.js';
export { sha256, hmacSha256, timingSafeEqual, useDigests, digestsInUse, type Digests, type DigestInput } from './digest.js';
export { utf8Encode, utf8Decode, utf8ByteLength, concatBytes, base64Encode, base64urlEncode, utf8ToBase64url, base64Decode, hexEncode } from './bytes.js';
