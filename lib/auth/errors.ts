/**
 * The typed error of the client's OAuth flow. Its message says which step failed and what to do;
 * it never carries a token, a secret, an authorization code or a PKCE verifier.
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
  /** The token endpoint refused the code or the refresh token, or answered something invalid. */
  | 'token_request_failed'
  /** The server kept refusing new tokens: the limit of authorization attempts was reached. */
  | 'retry_limit'
  /** The provider (storage or user interaction) failed. */
  | 'provider_failed';

/** The client could not obtain or use an access token. */
export class AuthorizationError extends Error {
  override readonly name = 'AuthorizationError';
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
