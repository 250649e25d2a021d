/**
 * The digest a skill entry carries for each file: `sha256:` and the lowercase hex SHA-256 of its
 * raw bytes (the skills extension). Here, beside the digests, so the protocol layer needs none.
 * @see https://modelcontextprotocol.io/extensions/skills
 */
import { hexEncode } from '../crypto/bytes.js';
import { sha256 } from '../crypto/digest.js';

export function skillDigest(bytes: Uint8Array): string {
  return `sha256:${hexEncode(sha256(bytes))}`;
}
