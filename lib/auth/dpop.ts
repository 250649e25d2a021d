/**
 * DPoP (RFC 9449, MCP's DPoP extension SEP-1932): the client proves possession of a key with
 * every token request and every request that presents a DPoP-bound access token. A
 * {@link DpopProver} holds one ES256 key pair (P-256, made with node:crypto) for the life of an
 * OAuth client, signs the proof JWTs (`typ: dpop+jwt`, the public key as `jwk` in the header;
 * `jti`, `htm`, `htu` without query or fragment, `iat`, `ath` for a resource request, `nonce`
 * when the server gave one) and remembers the newest `DPoP-Nonce` of each server (origin).
 *
 * @see https://www.rfc-editor.org/rfc/rfc9449.html#section-4.2
 * @see https://github.com/modelcontextprotocol/modelcontextprotocol/pull/1932
 */
import { createHash, generateKeyPairSync, randomUUID, sign, type KeyObject } from 'node:crypto';
import { AuthorizationError } from './authorization-errors.js';
import { parseWwwAuthenticate } from './www-authenticate.js';

/** The one algorithm the prover signs with. */
export const DPOP_ALGORITHM = 'ES256';

/** When the OAuth client uses DPoP: `auto` when the authorization server advertises ES256 for it, `always`, or `off`. */
export type DpopMode = 'auto' | 'always' | 'off';

export interface DpopProofInput {
  /** The HTTP method of the request the proof goes with. */
  method: string;
  /** The request's URL; its query and fragment are left out of `htu`. */
  url: string | URL;
  /** The access token the request presents (resource requests): its hash goes in `ath`. */
  accessToken?: string;
  /** Seconds since the epoch for `iat`. Default now by `Date.now()`. */
  nowSeconds?: number;
}

function base64url(data: Buffer | string): string {
  return Buffer.from(data).toString('base64url');
}

/** `htu`: the URL without query and fragment (RFC 9449 §4.2). */
export function dpopHtu(url: string | URL): string {
  const u = new URL(String(url));
  return `${u.origin}${u.pathname}`;
}

/** `ath`: base64url of the SHA-256 of the access token (RFC 9449 §4.2). */
export function dpopAth(accessToken: string): string {
  return createHash('sha256').update(accessToken, 'ascii').digest('base64url');
}

/**
 * An EC P-256 public key as a JWK (RFC 7517). Our own type: `@types/node` 24 and later no longer
 * export `JsonWebKey` from `node:crypto`, and the shipped declarations must compile against every
 * `@types/node` a consumer may have.
 */
export type EcPublicJwk = {
  kty: string;
  crv: string;
  x: string;
  y: string;
};

/** One client's DPoP key pair, its proofs, and the nonces servers gave it. */
export class DpopProver {
  readonly #privateKey: KeyObject;
  /** The public key as a JWK (`kty`, `crv`, `x`, `y`): what servers bind tokens to. */
  readonly publicJwk: EcPublicJwk;
  /** Newest nonce per origin (authorization and resource servers each keep their own). */
  readonly #nonces = new Map<string, string>();

  constructor() {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.#privateKey = privateKey;
    const { kty, crv, x, y } = publicKey.export({ format: 'jwk' });
    this.publicJwk = { kty: kty!, crv: crv!, x: x!, y: y! };
  }

  /** The RFC 7638 thumbprint of the public key (base64url SHA-256): a bound token's `cnf.jkt`. */
  get thumbprint(): string {
    const { crv, kty, x, y } = this.publicJwk;
    return createHash('sha256').update(JSON.stringify({ crv, kty, x, y })).digest('base64url');
  }

  /** The nonce last given by the server of `url`, if any. */
  nonceFor(url: string | URL): string | undefined {
    return this.#nonces.get(new URL(String(url)).origin);
  }

  /** Remembers a `DPoP-Nonce` answer header of the server of `url` (the newest wins). */
  rememberNonce(url: string | URL, response: Response): string | undefined {
    const nonce = response.headers.get('dpop-nonce');
    // A nonce is opaque but printable ASCII (RFC 9449 §8.1: NQCHAR); anything else is ignored.
    if (nonce === null || nonce === '' || !/^[\x21\x23-\x5b\x5d-\x7e]+$/.test(nonce)) return undefined;
    this.#nonces.set(new URL(String(url)).origin, nonce);
    return nonce;
  }

  /** A fresh proof JWT for one request (a new `jti` each time), with the server's nonce if it gave one. */
  proof(input: DpopProofInput): string {
    const header = { typ: 'dpop+jwt', alg: DPOP_ALGORITHM, jwk: this.publicJwk };
    const nonce = this.nonceFor(input.url);
    const payload = {
      jti: randomUUID(),
      htm: input.method.toUpperCase(),
      htu: dpopHtu(input.url),
      iat: input.nowSeconds ?? Math.floor(Date.now() / 1000),
      ...(input.accessToken !== undefined && { ath: dpopAth(input.accessToken) }),
      ...(nonce !== undefined && { nonce }),
    };
    const signingInput = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(payload))}`;
    // JWS ES256 signatures are r || s (64 bytes), not DER (RFC 7518 §3.4).
    const signature = sign('sha256', Buffer.from(signingInput), { key: this.#privateKey, dsaEncoding: 'ieee-p1363' });
    return `${signingInput}.${base64url(signature)}`;
  }
}

/**
 * True for a resource server's 401 asking for a nonce: `WWW-Authenticate: DPoP error="use_dpop_nonce"`
 * (RFC 9449 §9).
 */
export function isResourceNonceChallenge(res: Response): boolean {
  if (res.status !== 401 || !res.headers.has('dpop-nonce')) return false;
  const header = res.headers.get('www-authenticate');
  return header !== null && parseWwwAuthenticate(header).some((c) => c.scheme === 'dpop' && c.params.error === 'use_dpop_nonce');
}

/**
 * Whether to use DPoP with an authorization server: `auto` when its metadata lists ES256 in
 * `dpop_signing_alg_values_supported`; `always` also then, and with a server that says nothing;
 * `always` with a server that lists only other algorithms is an {@link AuthorizationError}
 * `dpop_unsupported`.
 */
export function useDpopWith(mode: DpopMode, metadata: { issuer: string; dpop_signing_alg_values_supported?: unknown }): boolean {
  if (mode === 'off') return false;
  const algs = metadata.dpop_signing_alg_values_supported;
  const listed = Array.isArray(algs) ? algs.filter((a): a is string => typeof a === 'string') : undefined;
  if (listed?.includes(DPOP_ALGORITHM)) return true;
  if (mode === 'auto') return false;
  if (listed === undefined) return true;
  throw new AuthorizationError(
    'dpop_unsupported',
    `The authorization server ${metadata.issuer} signs DPoP proofs with ${listed.join(', ') || 'no algorithm'} only; this client signs with ES256. ` +
      "Use the dpop: 'auto' option to fall back to Bearer tokens with such a server.",
    { issuer: metadata.issuer, supported: listed },
  );
}
