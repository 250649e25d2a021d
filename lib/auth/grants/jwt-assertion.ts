/**
 * Signed JWTs with node:crypto: the client assertion of `private_key_jwt` (RFC 7523 §2.2,
 * RFC 7521 §5.1) and any other compact JWS the grants need.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7523.html#section-3
 */
import { createPrivateKey, randomUUID, sign, type KeyObject } from 'node:crypto';

export type JwtAlgorithm = 'ES256' | 'RS256';

export interface SignJwtOptions {
  /** PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`) or a private KeyObject. */
  privateKey: string | KeyObject;
  algorithm: JwtAlgorithm;
  /** `kid` header, when the server needs to pick a key. */
  keyId?: string;
  /** `typ` header. Default `JWT`. */
  type?: string;
}

const b64url = (data: Buffer | string) => Buffer.from(data).toString('base64url');

function keyOf(key: string | KeyObject, algorithm: JwtAlgorithm): KeyObject {
  let k: KeyObject;
  try {
    k = typeof key === 'string' ? createPrivateKey({ key, format: 'pem' }) : key;
  } catch {
    throw new TypeError('The private key is not a PEM private key (expected PKCS#8, "-----BEGIN PRIVATE KEY-----")');
  }
  if (k.type !== 'private') throw new TypeError('A JWT is signed with a private key, not a public one');
  const want = algorithm === 'ES256' ? 'ec' : 'rsa';
  if (k.asymmetricKeyType !== want) throw new TypeError(`${algorithm} needs an ${want.toUpperCase()} key, not ${k.asymmetricKeyType ?? 'this key'}`);
  if (algorithm === 'ES256' && k.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
    throw new TypeError(`ES256 needs a P-256 key, not ${k.asymmetricKeyDetails?.namedCurve ?? 'this curve'}`);
  }
  return k;
}

/** A compact JWS of `claims`. ES256 signatures are the raw r||s form JWS requires (RFC 7518 §3.4). */
export function signJwt(claims: Record<string, unknown>, options: SignJwtOptions): string {
  const key = keyOf(options.privateKey, options.algorithm);
  const header: Record<string, string> = { alg: options.algorithm, typ: options.type ?? 'JWT' };
  if (options.keyId !== undefined) header.kid = options.keyId;
  const input = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(claims))}`;
  const signature =
    options.algorithm === 'ES256'
      ? sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' })
      : sign('sha256', Buffer.from(input), key);
  return `${input}.${b64url(signature)}`;
}

export interface ClientAssertionOptions extends Omit<SignJwtOptions, 'type'> {
  clientId: string;
  /** The authorization server's issuer identifier (the audience the AS checks). */
  audience: string;
  /** Lifetime in seconds. Default 60. */
  lifetimeSeconds?: number;
  /** Now, in ms. Default `Date.now()`. */
  now?: number;
}

/**
 * The `client_assertion` of `private_key_jwt`: iss = sub = the client id, aud = the authorization
 * server's issuer, a short `exp`, and a random `jti` so it cannot be replayed.
 */
export function clientAssertion(options: ClientAssertionOptions): string {
  const iat = Math.floor((options.now ?? Date.now()) / 1000);
  return signJwt(
    { iss: options.clientId, sub: options.clientId, aud: options.audience, iat, exp: iat + (options.lifetimeSeconds ?? 60), jti: randomUUID() },
    options,
  );
}
