/**
 * PKCE with S256 (RFC 7636, required by OAuth 2.1 §7.5.2 and MCP): a random verifier, its
 * SHA-256 challenge, and the check that the authorization server supports S256 (a server that
 * does not list it gets no authorization request).
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#authorization-code-protection
 */
import { createHash, randomBytes } from 'node:crypto';
import { AuthorizationError } from './authorization-errors.js';

export interface Pkce {
  /** 43 characters of base64url (32 random bytes): kept by the client, sent to the token endpoint. */
  verifier: string;
  /** BASE64URL(SHA256(verifier)): sent in the authorization request. */
  challenge: string;
  method: 'S256';
}

/** The S256 challenge of a verifier. */
export function s256Challenge(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** A new verifier and its challenge. */
export function createPkce(random: (size: number) => Buffer = randomBytes): Pkce {
  const verifier = random(32).toString('base64url');
  return { verifier, challenge: s256Challenge(verifier), method: 'S256' };
}

/** Throws unless the metadata lists S256 in `code_challenge_methods_supported`. */
export function requireS256(metadata: { issuer?: string; code_challenge_methods_supported?: unknown }): void {
  const methods = metadata.code_challenge_methods_supported;
  if (Array.isArray(methods) && methods.includes('S256')) return;
  throw new AuthorizationError(
    'pkce_unsupported',
    `The authorization server ${metadata.issuer ?? ''} does not list S256 in code_challenge_methods_supported` +
      `${Array.isArray(methods) ? ` (it lists ${JSON.stringify(methods)})` : ' (the field is absent)'}; ` +
      'MCP clients must use PKCE with S256, so no authorization request was made. Ask the server operator to enable PKCE S256.',
    { issuer: metadata.issuer, codeChallengeMethods: methods },
  );
}
