/**
 * The typed errors of the client's OAuth flows. A message says which step failed and what to do;
 * it never carries a token, a secret, an assertion, an authorization code or a PKCE verifier.
 * {@link TokenEndpointError} is the {@link AuthorizationError} of a refused token request.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization
 */

/** Which part of the authorization flow failed. */
export type AuthorizationErrorCode =
  /** No protected resource metadata and no authorization server could be found, or their documents are invalid. */
  | 'discovery_failed'
  /** The protected resource metadata names a different resource than the MCP server we talk to (RFC 9728 §3.3). */
  | 'resource_mismatch'
  /** The authorization server metadata names another issuer than the one it was fetched for (RFC 8414 §3.3). */
  | 'issuer_mismatch'
  /** The authorization server does not offer PKCE with S256. */
  | 'pkce_unsupported'
  /** No client id: no registration endpoint, no CIMD support, no pre-registered client. */
  | 'registration_unavailable'
  /** Dynamic client registration was refused. */
  | 'registration_failed'
  /** The authorization response carried an error, or no code. */
  | 'authorization_denied'
  /** The authorization response's `state` is missing or is not the one we sent. */
  | 'state_mismatch'
  /** The token endpoint refused the grant (code, refresh token, client credentials, assertion), or answered something invalid. */
  | 'token_request_failed'
  /** The authorization server does not offer the grant a non-interactive mode needs (its `grant_types_supported`). */
  | 'grant_unsupported'
  /** The server kept refusing new tokens: the limit of authorization attempts was reached. */
  | 'retry_limit'
  /** A 403 `insufficient_scope` asks for scopes the token already has: no step-up can help, none was started. */
  | 'insufficient_scope'
  /** The provider (storage or user interaction) failed. */
  | 'provider_failed'
  /** An authorization server endpoint, the MCP server a token would go to, or the redirect URL is plain http on a host that is not loopback (OAuth 2.1 §1.5). */
  | 'insecure_endpoint'
  /** A server requires DPoP (RFC 9449) and the client cannot do it: DPoP is off, or no algorithm in common. */
  | 'dpop_unsupported';

/** The client could not obtain or use an access token. */
export class AuthorizationError extends Error {
  override readonly name: string = 'AuthorizationError';
  constructor(
    readonly code: AuthorizationErrorCode,
    message: string,
    /** Non-secret facts: URLs, statuses, OAuth error codes. */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** The OAuth `error`/`error_description` of a JSON error body, for messages (never the whole body). */
export function oauthErrorOf(body: unknown): string {
  if (body === null || typeof body !== 'object') return '';
  const b = body as { error?: unknown; error_description?: unknown };
  const code = typeof b.error === 'string' ? b.error.slice(0, 100) : '';
  const description = typeof b.error_description === 'string' ? b.error_description.slice(0, 300) : '';
  return [code, description].filter(Boolean).join(': ');
}

/**
 * A token endpoint refused a grant or answered something unusable. `error` and
 * `errorDescription` are the server's (RFC 6749 §5.2), or `request_failed` (unreachable) and
 * `invalid_response`; the request's secrets, assertions and tokens are never part of it.
 *
 * @see https://datatracker.ietf.org/doc/html/draft-ietf-oauth-v2-1-13#section-3.2.4
 */
export class TokenEndpointError extends AuthorizationError {
  override readonly name: string = 'TokenEndpointError';
  constructor(
    /** The OAuth error code (`invalid_client`, `invalid_grant`...), `request_failed` or `invalid_response`. */
    readonly error: string,
    readonly errorDescription: string | undefined,
    /** The HTTP status (0 when the endpoint could not be reached). */
    readonly status: number,
    readonly endpoint: string,
    readonly grantType: string,
  ) {
    const description = errorDescription?.slice(0, 300);
    super(
      'token_request_failed',
      `The token endpoint ${endpoint} refused the ${grantType} grant` +
        ` (HTTP ${status}, ${error.slice(0, 100)}${description !== undefined ? `: ${description}` : ''})` +
        (error === 'invalid_client'
          ? '; check the client id and credentials'
          : error === 'invalid_grant'
            ? '; the grant or assertion was not accepted, get a fresh one'
            : error === 'request_failed'
              ? '; is the authorization server reachable?'
              : ''),
      { endpoint, grantType, status, ...(error !== 'request_failed' && error !== 'invalid_response' && { oauthError: error.slice(0, 100) }) },
    );
  }
}
