/**
 * Requests to the token endpoint (OAuth 2.1 §3.2): the `authorization_code` grant with the PKCE
 * verifier, and the `refresh_token` grant; both carry `resource` (RFC 8707). The client
 * authenticates as it registered: `client_secret_basic` (id and secret form-urlencoded, then
 * base64, RFC 6749 §2.3.1), `client_secret_post` (in the body) or `none` (client_id only).
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#resource-parameter-implementation
 * @see https://datatracker.ietf.org/doc/html/rfc6749#section-2.3.1
 */
import type { FetchLike } from '../../streams/http-fetch.js';
import type { AuthorizationServerMetadata } from './authorization-server-metadata.js';
import { AuthorizationError, oauthErrorOf } from './errors.js';
import type { OAuthClientInformation, OAuthTokens } from './provider.js';

export type TokenEndpointAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'none';

/**
 * How the client authenticates at the token endpoint: as registered when that is known, else
 * the first of basic, post the server supports for a client with a secret, else `none`.
 */
export function tokenEndpointAuthMethod(client: OAuthClientInformation, metadata: AuthorizationServerMetadata): TokenEndpointAuthMethod {
  const registered = client.token_endpoint_auth_method;
  if (registered === 'client_secret_basic' || registered === 'client_secret_post' || registered === 'none') {
    return client.client_secret === undefined ? 'none' : registered;
  }
  if (client.client_secret === undefined) return 'none';
  const supported = metadata.token_endpoint_auth_methods_supported;
  if (supported === undefined || supported.includes('client_secret_basic')) return 'client_secret_basic';
  if (supported.includes('client_secret_post')) return 'client_secret_post';
  return 'none';
}

/** `application/x-www-form-urlencoded` encoding of one value (RFC 6749 Appendix B). */
function formEncode(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice(2);
}

/** Adds the client's authentication to a token request's headers and body. */
export function applyClientAuthentication(
  method: TokenEndpointAuthMethod,
  client: OAuthClientInformation,
  headers: Headers,
  body: URLSearchParams,
): void {
  switch (method) {
    case 'client_secret_basic': {
      const credentials = `${formEncode(client.client_id)}:${formEncode(client.client_secret ?? '')}`;
      headers.set('authorization', `Basic ${Buffer.from(credentials, 'utf8').toString('base64')}`);
      return;
    }
    case 'client_secret_post':
      body.set('client_id', client.client_id);
      body.set('client_secret', client.client_secret ?? '');
      return;
    case 'none':
      body.set('client_id', client.client_id);
      return;
  }
}

/** POSTs a token request and validates the answer. Throws `token_request_failed` with the OAuth error code. */
export async function requestToken(options: {
  endpoint: string;
  params: Record<string, string | undefined>;
  client: OAuthClientInformation;
  authMethod: TokenEndpointAuthMethod;
  fetch: FetchLike;
}): Promise<OAuthTokens> {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(options.params)) if (v !== undefined) body.set(k, v);
  const headers = new Headers({ 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' });
  applyClientAuthentication(options.authMethod, options.client, headers, body);
  const grant = options.params.grant_type ?? 'unknown';
  let res: Response;
  try {
    res = await options.fetch(options.endpoint, { method: 'POST', headers, body: body.toString() });
  } catch (e) {
    throw new AuthorizationError('token_request_failed', `The token request (${grant}) to ${options.endpoint} failed: ${e instanceof Error ? e.message : String(e)}.`, {
      endpoint: options.endpoint,
      grantType: grant,
    });
  }
  const json: unknown = await res.json().catch(() => undefined);
  if (!res.ok) {
    const oauthError = json && typeof json === 'object' ? (json as { error?: unknown }).error : undefined;
    const why = oauthErrorOf(json);
    throw new AuthorizationError(
      'token_request_failed',
      `The token endpoint ${options.endpoint} refused the ${grant} grant (HTTP ${res.status}${why ? `, ${why}` : ''}).` +
        (oauthError === 'invalid_client' ? ' The client credentials were rejected: check them or register again.' : ''),
      { endpoint: options.endpoint, grantType: grant, status: res.status, ...(typeof oauthError === 'string' && { oauthError }) },
    );
  }
  const tokens = json as Partial<OAuthTokens> | undefined;
  if (!tokens || typeof tokens.access_token !== 'string' || tokens.access_token === '' || typeof tokens.token_type !== 'string') {
    throw new AuthorizationError('token_request_failed', `The token endpoint ${options.endpoint} answered without access_token or token_type.`, {
      endpoint: options.endpoint,
      grantType: grant,
    });
  }
  if (tokens.token_type.toLowerCase() !== 'bearer') {
    throw new AuthorizationError('token_request_failed', `The token endpoint ${options.endpoint} issued a ${JSON.stringify(tokens.token_type)} token; MCP uses Bearer tokens.`, {
      endpoint: options.endpoint,
      grantType: grant,
    });
  }
  return tokens as OAuthTokens;
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
}): Promise<OAuthTokens> {
  return requestToken({
    endpoint: options.metadata.token_endpoint,
    params: {
      grant_type: 'authorization_code',
      code: options.code,
      code_verifier: options.codeVerifier,
      redirect_uri: options.redirectUri,
      resource: options.resource,
    },
    client: options.client,
    authMethod: tokenEndpointAuthMethod(options.client, options.metadata),
    fetch: options.fetch,
  });
}

/** The refresh token grant (OAuth 2.1 §4.3) with `resource`. */
export function refreshAccessToken(options: {
  metadata: AuthorizationServerMetadata;
  client: OAuthClientInformation;
  refreshToken: string;
  resource: string;
  fetch: FetchLike;
}): Promise<OAuthTokens> {
  return requestToken({
    endpoint: options.metadata.token_endpoint,
    params: { grant_type: 'refresh_token', refresh_token: options.refreshToken, resource: options.resource },
    client: options.client,
    authMethod: tokenEndpointAuthMethod(options.client, options.metadata),
    fetch: options.fetch,
  });
}
