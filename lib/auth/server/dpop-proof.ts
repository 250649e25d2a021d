/**
 * The resource server's side of DPoP (RFC 9449 §7): a request presenting a DPoP-bound access
 * token (`Authorization: DPoP <token>`) carries a proof JWT in the `DPoP` header, signed by the
 * key the token is bound to. {@link checkDpopProof} checks one proof (ES256 only, the algorithm
 * MCP clients sign with) and answers the key's RFC 7638 thumbprint, which the caller compares
 * with the token's `cnf.jkt`; a proof's `jti` is accepted once ({@link DpopReplayCache}).
 *
 * @see https://www.rfc-editor.org/rfc/rfc9449.html#section-4.3
 * @see https://www.rfc-editor.org/rfc/rfc9449.html#section-7
 */
// WebCrypto and our portable digest, not node:crypto: the Web-standard entry (Workers) reaches this file.
import { base64Decode, base64urlEncode, utf8Decode, utf8Encode } from '../../crypto/bytes.js';
import { sha256 } from '../../crypto/digest.js';

/** A refused proof: the resource server answers 401 `invalid_dpop_proof` with this description. */
export class InvalidDpopProofError extends Error {
  override readonly name = 'InvalidDpopProofError';
  constructor(readonly description: string) {
    super(description);
  }
}

/**
 * The proofs already seen (by `jti`), kept for as long as they could be accepted, so that none is
 * accepted twice. At most `maxEntries` are held; when full, new proofs are refused (a flood of
 * proofs must not let a replay through).
 */
export class DpopReplayCache {
  readonly #seen = new Map<string, number>();
  constructor(readonly maxEntries = 100_000) {}

  /** True the first time `jti` is seen before `until` (seconds); false for a replay or when full. */
  accept(jti: string, nowSeconds: number, until: number): boolean {
    // Insertion order is nearly time order: drop the expired from the front.
    for (const [key, expires] of this.#seen) {
      if (expires > nowSeconds) break;
      this.#seen.delete(key);
    }
    if (this.#seen.has(jti) || this.#seen.size >= this.maxEntries) return false;
    this.#seen.set(jti, until);
    return true;
  }
}

export interface DpopProofCheck {
  /** The `DPoP` request header (undefined when absent; several are refused). */
  proof: string | string[] | undefined;
  /** The request's method. */
  method: string;
  /** The request's URL as the client addressed it (query and fragment are ignored). */
  url: string | URL;
  /** The access token presented with it (its hash must be the proof's `ath`). */
  accessToken: string;
  /** Now, in seconds since the epoch. */
  nowSeconds: number;
  /** How far `iat` may be from now, in seconds. Default 300. */
  maxAgeSeconds?: number;
  replay: DpopReplayCache;
}

const b64json = (part: string): Record<string, unknown> => {
  const value: unknown = JSON.parse(utf8Decode(base64urlDecode(part)));
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error('not an object');
  return value as Record<string, unknown>;
};

/** The RFC 7638 thumbprint of an EC public JWK. */
export function ecJwkThumbprint(jwk: { crv: string; kty: string; x: string; y: string }): string {
  return base64urlEncode(sha256(JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y })));
}

function base64urlDecode(part: string): Uint8Array {
  const b64 = part.replace(/-/g, '+').replace(/_/g, '/');
  return base64Decode(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
}

/** A public P-256 key as a JWK (our own type: `JsonWebKey` differs across @types/node versions and the DOM lib). */
interface EcPublicJwk {
  kty: string;
  crv: string;
  x: string;
  y: string;
}

/** ES256 over `signed` with the P-256 public key `key` (the signature is r||s, WebCrypto's form). */
async function verifiesEs256(key: EcPublicJwk, signed: string, signature: Uint8Array): Promise<boolean> {
  const subtle = globalThis.crypto?.subtle;
  if (subtle === undefined) throw new Error('DPoP proofs need WebCrypto (globalThis.crypto.subtle), which this runtime lacks');
  try {
    const publicKey = await subtle.importKey('jwk', key as never, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify']);
    return await subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, publicKey, signature as Uint8Array<ArrayBuffer>, utf8Encode(signed) as Uint8Array<ArrayBuffer>);
  } catch {
    return false;
  }
}

/**
 * Checks a DPoP proof for a resource request (RFC 9449 §4.3 with §7's `ath`) and answers the
 * thumbprint of its key. Throws {@link InvalidDpopProofError} saying what is wrong (never quoting
 * the proof or the token).
 */
export async function checkDpopProof(input: DpopProofCheck): Promise<{ jkt: string }> {
  const refuse = (why: string): never => {
    throw new InvalidDpopProofError(`The DPoP proof ${why}`);
  };
  const proof = input.proof;
  if (proof === undefined || proof === '') return refuse('is missing (send it in the DPoP header)');
  if (typeof proof !== 'string') return refuse('must be one DPoP header');
  const parts = proof.split('.');
  if (parts.length !== 3 || parts.some((p) => !/^[A-Za-z0-9_-]+$/.test(p))) return refuse('is not a compact JWS');
  let header: Record<string, unknown>;
  let claims: Record<string, unknown>;
  try {
    header = b64json(parts[0]!);
    claims = b64json(parts[1]!);
  } catch {
    return refuse('is not a compact JWS');
  }
  if (header['typ'] !== 'dpop+jwt') refuse('must have typ dpop+jwt');
  if (header['alg'] !== 'ES256') refuse('must be signed with ES256');
  const jwk = header['jwk'] as Record<string, unknown> | undefined;
  if (jwk === null || typeof jwk !== 'object' || jwk['kty'] !== 'EC' || jwk['crv'] !== 'P-256' || typeof jwk['x'] !== 'string' || typeof jwk['y'] !== 'string' || 'd' in jwk) {
    return refuse('must carry a public P-256 jwk');
  }
  const key = { kty: 'EC', crv: 'P-256', x: jwk['x'], y: jwk['y'] };
  if (!(await verifiesEs256(key as EcPublicJwk, `${parts[0]}.${parts[1]}`, base64urlDecode(parts[2]!)))) refuse('signature does not verify');
  const u = new URL(String(input.url));
  if (claims['htm'] !== input.method.toUpperCase()) refuse('is for another method');
  if (claims['htu'] !== `${u.origin}${u.pathname}`) refuse('is for another URL');
  if (claims['ath'] !== base64urlEncode(sha256(input.accessToken))) refuse('is not for this access token (ath)');
  const maxAge = input.maxAgeSeconds ?? 300;
  const iat = claims['iat'];
  if (typeof iat !== 'number' || !Number.isFinite(iat) || Math.abs(iat - input.nowSeconds) > maxAge) refuse('was not made now (iat)');
  const jti = claims['jti'];
  if (typeof jti !== 'string' || jti.length < 8 || jti.length > 256) refuse('must have a jti');
  // Kept until no proof with this iat could be accepted any more.
  if (!input.replay.accept(jti as string, input.nowSeconds, (iat as number) + maxAge + 1)) refuse('was already used (replay)');
  return { jkt: ecJwkThumbprint(key) };
}
