/**
 * One request to an OAuth token endpoint: the client's authentication, the form body, and the
 * answer checked (a token response, or an OAuth error turned into {@link TokenEndpointError}).
 *
 * @see https://datatracker.ietf.org/doc/html/draft-ietf-oauth-v2-1-13#section-3.2
 */
import { clientAssertion, type JwtAlgorithm } from './jwt-assertion.js';

/** How the client authenticates at the token endpoint. */
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

/** A successful token response (RFC 6749 §5.1 / RFC 8693 §2.2.1). */
export interface TokenResponse {
  access_token: string;
  token_type: string;
  expires_in?: number;
  refresh_token?: string;
  scope?: string;
  /** RFC 8693: the type of the token issued. */
  issued_token_type?: string;
  [member: string]: unknown;
}

/**
 * The token endpoint refused or failed. `error`/`errorDescription` are the server's (RFC 6749
 * §5.2); the request's secrets and assertions are never part of it.
 */
export class TokenEndpointError extends Error {
  override readonly name = 'TokenEndpointError';
  constructor(
    /** The OAuth error code (`invalid_client`, `invalid_grant`...), or `invalid_response` when the answer was unusable. */
    readonly error: string,
    readonly errorDescription: string | undefined,
    readonly status: number,
    readonly endpoint: string,
    readonly grantType: string,
  ) {
    super(
      `The token endpoint ${endpoint} refused the ${grantType} grant` +
        ` (HTTP ${status}, ${error}${errorDescription !== undefined ? `: ${errorDescription}` : ''})` +
        (error === 'invalid_client' ? '; check the client id and credentials' : error === 'invalid_grant' ? '; the grant or assertion was not accepted, get a fresh one' : ''),
    );
  }
}

export interface TokenRequestOptions {
  /** Default the global fetch. */
  fetch?: typeof fetch;
  /** Now, in ms (assertion timestamps). Default `Date.now()`. */
  now?: number;
  /** Give up after this long, in ms. Default 30 000. */
  timeoutMs?: number;
}

/**
 * POSTs `params` (with `grant_type`) to `endpoint` as the client `clientId` authenticated by
 * `auth`, and checks the answer. `expectBearer`: the token must be a Bearer token (not for RFC
 * 8693 exchanges, whose `token_type` may be `N_A`).
 */
export async function requestToken(
  endpoint: string | URL,
  params: Record<string, string | undefined>,
  clientId: string,
  auth: ClientAuthentication,
  options: TokenRequestOptions & { expectBearer?: boolean } = {},
): Promise<TokenResponse> {
  const url = new URL(String(endpoint)).href;
  const grantType = params.grant_type ?? 'unknown';
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) body.set(k, v);
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
  switch (auth.method) {
    case 'client_secret_basic': {
      // RFC 6749 §2.3.1: each part is form-urlencoded before joining and base64.
      const pair = `${formEncode(clientId)}:${formEncode(auth.clientSecret)}`;
      headers.authorization = `Basic ${Buffer.from(pair, 'utf8').toString('base64')}`;
      break;
    }
    case 'client_secret_post':
      body.set('client_id', clientId);
      body.set('client_secret', auth.clientSecret);
      break;
    case 'private_key_jwt':
      body.set('client_id', clientId);
      body.set('client_assertion_type', 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
      body.set(
        'client_assertion',
        clientAssertion({ clientId, audience: auth.audience, privateKey: auth.privateKeyPem, algorithm: auth.algorithm, keyId: auth.keyId, now: options.now }),
      );
      break;
    case 'none':
      body.set('client_id', clientId);
      break;
  }
  const doFetch = options.fetch ?? fetch;
  let res: Response;
  try {
    res = await doFetch(url, { method: 'POST', headers, body: body.toString(), redirect: 'error', signal: AbortSignal.timeout(options.timeoutMs ?? 30_000) });
  } catch (e) {
    throw new TokenEndpointError('request_failed', `could not reach the token endpoint (${(e as Error).message})`, 0, url, grantType);
  }
  let json: unknown;
  try {
    json = await res.json();
  } catch {
    json = undefined;
  }
  const obj = json !== null && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : undefined;
  if (!res.ok) {
    const error = typeof obj?.error === 'string' ? obj.error : 'invalid_response';
    const description = typeof obj?.error_description === 'string' ? obj.error_description : obj === undefined ? 'the error answer was not JSON' : undefined;
    throw new TokenEndpointError(error, description, res.status, url, grantType);
  }
  if (obj === undefined) throw new TokenEndpointError('invalid_response', 'the answer was not a JSON object', res.status, url, grantType);
  if (typeof obj.access_token !== 'string' || obj.access_token === '') {
    throw new TokenEndpointError('invalid_response', 'the answer has no access_token', res.status, url, grantType);
  }
  if (typeof obj.token_type !== 'string') throw new TokenEndpointError('invalid_response', 'the answer has no token_type', res.status, url, grantType);
  if ((options.expectBearer ?? true) && obj.token_type.toLowerCase() !== 'bearer') {
    throw new TokenEndpointError('invalid_response', `the token type is "${obj.token_type.slice(0, 40)}", not Bearer`, res.status, url, grantType);
  }
  if (obj.expires_in !== undefined && (typeof obj.expires_in !== 'number' || !(obj.expires_in >= 0))) {
    throw new TokenEndpointError('invalid_response', 'expires_in is not a non-negative number', res.status, url, grantType);
  }
  return obj as TokenResponse;
}

/** application/x-www-form-urlencoded of one value (spaces as `+`). */
function formEncode(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice(2);
}
