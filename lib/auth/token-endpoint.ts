/**
 * Requests to an OAuth token endpoint (OAuth 2.1 §3.2), for every grant the client uses: the
 * client's authentication, the form body, and the answer checked (a token response, or a
 * {@link TokenEndpointError}). The client authenticates with `client_secret_basic` (id and
 * secret form-urlencoded, then base64, RFC 6749 §2.3.1), `client_secret_post` (both in the body),
 * `private_key_jwt` (a signed assertion, RFC 7523 §2.2) or `none` (client_id only).
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#resource-parameter-implementation
 * @see https://datatracker.ietf.org/doc/html/rfc6749#section-2.3.1
 */
import type { FetchLike } from '../../streams/http-fetch.js';
import type { AuthorizationServerMetadata } from './authorization-server-metadata.js';
import type { DpopProver } from './dpop.js';
import { TokenEndpointError } from './authorization-errors.js';
import { clientAssertion, type JwtAlgorithm } from './grants/jwt-assertion.js';
import type { OAuthClientInformation, OAuthTokens } from './client-types.js';
import { requireSecureEndpoint } from './secure-endpoint.js';

export type { OAuthTokens } from './client-types.js';

/** The name the extension grants use for {@link OAuthTokens}. */
export type TokenResponse = OAuthTokens;

export type TokenEndpointAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt' | 'none';

/** How the client authenticates at the token endpoint, with what it needs to. */
export type ClientAuthentication =
  | { method: 'none' }
  | { method: 'client_secret_basic'; clientSecret: string }
  | { method: 'client_secret_post'; clientSecret: string }
  | {
      method: 'private_key_jwt';
      /** PKCS#8 PEM. */
      privateKeyPem: string;
      algorithm: JwtAlgorithm;
      /** The authorization server's issuer: the assertion's audience. */
      audience: string;
      keyId?: string;
    };

/**
 * The secret method for a client with a secret and no registered method: basic when the server
 * supports it (or says nothing, basic being the default), else post when it supports that.
 */
export function secretAuthMethod(metadata: Pick<AuthorizationServerMetadata, 'token_endpoint_auth_methods_supported'>): 'client_secret_basic' | 'client_secret_post' | undefined {
  const supported = metadata.token_endpoint_auth_methods_supported;
  if (supported === undefined || supported.includes('client_secret_basic')) return 'client_secret_basic';
  if (supported.includes('client_secret_post')) return 'client_secret_post';
  return undefined;
}

/**
 * How a registered client authenticates: as registered when that is known, else the first of
 * basic, post the server supports for a client with a secret, else `none`.
 */
export function tokenEndpointAuthMethod(client: OAuthClientInformation, metadata: AuthorizationServerMetadata): 'client_secret_basic' | 'client_secret_post' | 'none' {
  const registered = client.token_endpoint_auth_method;
  if (registered === 'client_secret_basic' || registered === 'client_secret_post' || registered === 'none') {
    return client.client_secret === undefined ? 'none' : registered;
  }
  if (client.client_secret === undefined) return 'none';
  return secretAuthMethod(metadata) ?? 'none';
}

/** The {@link ClientAuthentication} of a registered client. */
export function registeredClientAuthentication(client: OAuthClientInformation, metadata: AuthorizationServerMetadata): ClientAuthentication {
  const method = tokenEndpointAuthMethod(client, metadata);
  return method === 'none' ? { method } : { method, clientSecret: client.client_secret ?? '' };
}

export interface TokenRequestOptions {
  /** Default the global fetch. */
  fetch?: FetchLike | typeof fetch;
  /** Now, in ms (assertion timestamps). Default `Date.now()`. */
  now?: number;
  /** Give up after this long, in ms. Default 30 000. */
  timeoutMs?: number;
  /**
   * Prove possession of this key (RFC 9449 §5): a `DPoP` proof on the request, one retry with the
   * server's nonce on `use_dpop_nonce`, and a `DPoP` token type accepted as well as Bearer.
   */
  dpop?: DpopProver;
}

/** `application/x-www-form-urlencoded` encoding of one value (RFC 6749 Appendix B: spaces as `+`). */
function formEncode(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice(2);
}

/** `Authorization: Basic` of a client: id and secret form-urlencoded before base64 (RFC 6749 §2.3.1). */
export function clientSecretBasicHeader(clientId: string, clientSecret: string): string {
  return `Basic ${Buffer.from(`${formEncode(clientId)}:${formEncode(clientSecret)}`, 'utf8').toString('base64')}`;
}

/** Adds the client's authentication to a token request's headers and body. */
function authenticate(clientId: string, auth: ClientAuthentication, headers: Record<string, string>, body: URLSearchParams, now: number | undefined): void {
  switch (auth.method) {
    case 'client_secret_basic':
      headers.authorization = clientSecretBasicHeader(clientId, auth.clientSecret);
      return;
    case 'client_secret_post':
      body.set('client_id', clientId);
      body.set('client_secret', auth.clientSecret);
      return;
    case 'private_key_jwt':
      body.set('client_id', clientId);
      body.set('client_assertion_type', 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
      body.set('client_assertion', clientAssertion({ clientId, audience: auth.audience, privateKey: auth.privateKeyPem, algorithm: auth.algorithm, keyId: auth.keyId, now }));
      return;
    case 'none':
      body.set('client_id', clientId);
      return;
  }
}

/**
 * POSTs `params` (with `grant_type`) to `endpoint` as the client `clientId` authenticated by
 * `auth`, and checks the answer. `expectBearer` (default true): the token must be a Bearer token
 * (not for RFC 8693 exchanges, whose `token_type` may be `N_A`).
 */
export async function requestToken(
  endpoint: string | URL,
  params: Record<string, string | undefined>,
  clientId: string,
  auth: ClientAuthentication,
  options: TokenRequestOptions & { expectBearer?: boolean } = {},
): Promise<OAuthTokens> {
  const url = new URL(String(endpoint)).href;
  // Also for endpoints that were not discovered (an IdP's, given by the application): a grant and
  // the client's credentials never go over plain http to another host.
  requireSecureEndpoint(url, 'token endpoint');
  const grantType = params.grant_type ?? 'unknown';
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) body.set(k, v);
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
  const doFetch = (options.fetch ?? fetch) as FetchLike;
  const dpop = options.dpop;
  const send = async (): Promise<Response> => {
    // Again for a retry: a fresh client assertion (its jti), like a fresh proof.
    authenticate(clientId, auth, headers, body, options.now);
    if (dpop) headers.dpop = dpop.proof({ method: 'POST', url, ...(options.now !== undefined && { nowSeconds: Math.floor(options.now / 1000) }) });
    try {
      return await doFetch(url, { method: 'POST', headers, body: body.toString(), redirect: 'manual', signal: AbortSignal.timeout(options.timeoutMs ?? 30_000) });
    } catch (e) {
      throw new TokenEndpointError('request_failed', `could not reach the token endpoint (${(e as Error).message})`, 0, url, grantType);
    }
  };
  let res = await send();
  if (dpop) {
    const nonce = dpop.rememberNonce(url, res);
    // RFC 9449 §8: a 400 use_dpop_nonce with a new nonce is answered once, with a proof carrying it.
    if (nonce !== undefined && res.status === 400 && (await oauthErrorCode(res)) === 'use_dpop_nonce') {
      await res.body?.cancel().catch(() => {});
      res = await send();
      dpop.rememberNonce(url, res);
    }
  }
  return parseTokenResponse(res, url, grantType, options.expectBearer ?? true, dpop !== undefined);
}

/** The `error` of a JSON error answer, read from a clone (the answer stays readable). */
async function oauthErrorCode(res: Response): Promise<string | undefined> {
  try {
    const json = (await res.clone().json()) as { error?: unknown };
    return typeof json?.error === 'string' ? json.error : undefined;
  } catch {
    return undefined;
  }
}

/** The checked token response of `res`, or the {@link TokenEndpointError} it amounts to. */
export async function parseTokenResponse(res: Response, endpoint: string, grantType: string, expectBearer = true, dpopSent = false): Promise<OAuthTokens> {
  let json: unknown;
  try {
    json = await res.json();
  } catch {
    json = undefined;
  }
  const obj = json !== null && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : undefined;
  const invalid = (why: string) => new TokenEndpointError('invalid_response', why, res.status, endpoint, grantType);
  if (!res.ok) {
    const error = typeof obj?.error === 'string' ? obj.error : 'invalid_response';
    const description = typeof obj?.error_description === 'string' ? obj.error_description : obj === undefined ? 'the error answer was not JSON' : undefined;
    throw new TokenEndpointError(error, description, res.status, endpoint, grantType);
  }
  if (obj === undefined) throw invalid('the answer was not a JSON object');
  if (typeof obj.access_token !== 'string' || obj.access_token === '') throw invalid('the answer has no access_token');
  if (typeof obj.token_type !== 'string') throw invalid('the answer has no token_type');
  const type = obj.token_type.toLowerCase();
  // A DPoP-bound token only in answer to a proof (RFC 9449 §5); a Bearer one is always acceptable.
  if (expectBearer && type !== 'bearer' && !(dpopSent && type === 'dpop')) {
    throw invalid(`the token type is "${obj.token_type.slice(0, 40)}", not Bearer${dpopSent ? ' or DPoP' : ''}`);
  }
  if (obj.expires_in !== undefined && (typeof obj.expires_in !== 'number' || !(obj.expires_in >= 0))) throw invalid('expires_in is not a non-negative number');
  return obj as OAuthTokens;
}

/** The authorization code grant (OAuth 2.1 §4.1.3) with PKCE and `resource`. */
export function exchangeAuthorizationCode(options: {
  metadata: AuthorizationServerMetadata;
  client: OAuthClientInformation;
  code: string;
  codeVerifier: string;
  redirectUri: string;
  resource: string;
  fetch: FetchLike;
  dpop?: DpopProver;
  /** Now, in ms (the proof's `iat`). Default `Date.now()`. */
  now?: number;
}): Promise<OAuthTokens> {
  return requestToken(
    options.metadata.token_endpoint,
    {
      grant_type: 'authorization_code',
      code: options.code,
      code_verifier: options.codeVerifier,
      redirect_uri: options.redirectUri,
      resource: options.resource,
    },
    options.client.client_id,
    registeredClientAuthentication(options.client, options.metadata),
    { fetch: options.fetch, ...(options.dpop && { dpop: options.dpop }), ...(options.now !== undefined && { now: options.now }) },
  );
}

/** The refresh token grant (OAuth 2.1 §4.3) with `resource`. */
export function refreshAccessToken(options: {
  metadata: AuthorizationServerMetadata;
  client: OAuthClientInformation;
  refreshToken: string;
  resource: string;
  fetch: FetchLike;
  dpop?: DpopProver;
  /** Now, in ms (the proof's `iat`). Default `Date.now()`. */
  now?: number;
}): Promise<OAuthTokens> {
  return requestToken(
    options.metadata.token_endpoint,
    { grant_type: 'refresh_token', refresh_token: options.refreshToken, resource: options.resource },
    options.client.client_id,
    registeredClientAuthentication(options.client, options.metadata),
    { fetch: options.fetch, ...(options.dpop && { dpop: options.dpop }), ...(options.now !== undefined && { now: options.now }) },
  );
}
