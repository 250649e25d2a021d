/**
 * A token verifier that asks the authorization server (OAuth 2.0 Token Introspection, RFC 7662):
 * for opaque tokens, or to learn of revocation. `requireBearerAuth` still checks the audience,
 * expiry and scopes of what it returns.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7662.html
 */
import { InvalidTokenError, type VerifiedToken, type VerifyAccessToken } from './auth-info.js';
import { sameResource } from '../canonical-resource.js';
import { clientSecretBasicHeader } from '../token-endpoint.js';

export interface IntrospectionVerifierOptions {
  /** The introspection endpoint. */
  endpoint: string | URL;
  /** How this resource server authenticates to it (client_secret_basic), if it must. */
  clientId?: string;
  clientSecret?: string;
  /** Default the global fetch. */
  fetch?: typeof fetch;
  /** Give up after this long, in ms. Default 10 000. */
  timeoutMs?: number;
}

/**
 * A {@link VerifyAccessToken} calling an RFC 7662 endpoint. Inactive tokens, and active ones whose
 * `aud` (or `resource`) does not name this server, are refused with {@link InvalidTokenError};
 * a `cnf.jkt` in the answer is passed on, so a DPoP-bound token needs a proof by its key;
 * an unreachable or failing endpoint is an error (the request gets a 500, not a 401).
 */
export function introspectionVerifier(options: IntrospectionVerifierOptions): VerifyAccessToken {
  const endpoint = new URL(String(options.endpoint)).href;
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
  if (options.clientId !== undefined) headers.authorization = clientSecretBasicHeader(options.clientId, options.clientSecret ?? '');
  return async (token, { resource }) => {
    const res = await doFetch(endpoint, {
      method: 'POST',
      headers,
      body: new URLSearchParams({ token, token_type_hint: 'access_token' }).toString(),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!res.ok) throw new Error(`Token introspection at ${endpoint} answered HTTP ${res.status}`);
    let body: Record<string, unknown>;
    try {
      body = (await res.json()) as Record<string, unknown>;
    } catch {
      throw new Error(`Token introspection at ${endpoint} did not answer JSON`);
    }
    if (body === null || typeof body !== 'object') throw new Error(`Token introspection at ${endpoint} did not answer a JSON object`);
    if (body.active !== true) throw new InvalidTokenError('The access token is not active');
    const aud = typeof body.aud === 'string' ? [body.aud] : Array.isArray(body.aud) ? body.aud.filter((a): a is string => typeof a === 'string') : [];
    const res8707 = typeof body.resource === 'string' ? body.resource : undefined;
    if (![...aud, res8707].some((a) => sameResource(resource, a))) throw new InvalidTokenError('The access token was not issued for this resource');
    const verified: VerifiedToken = {
      clientId: typeof body.client_id === 'string' ? body.client_id : '',
      scopes: typeof body.scope === 'string' ? body.scope.split(' ').filter((s) => s !== '') : [],
      audience: aud,
    };
    if (res8707 !== undefined) verified.resource = res8707;
    if (typeof body.sub === 'string') verified.subject = body.sub;
    if (typeof body.exp === 'number') verified.expiresAt = body.exp;
    // A DPoP-bound token (RFC 9449 §6.2): requireBearerAuth then wants a proof by this key.
    const cnf = body.cnf as { jkt?: unknown } | null | undefined;
    if (cnf !== null && typeof cnf === 'object' && typeof cnf.jkt === 'string') verified.cnf = { jkt: cnf.jkt };
    const extra: Record<string, unknown> = {};
    for (const k of ['iss', 'username', 'iat', 'nbf', 'token_type']) if (body[k] !== undefined) extra[k] = body[k];
    if (Object.keys(extra).length > 0) verified.extra = extra;
    return verified;
  };
}
