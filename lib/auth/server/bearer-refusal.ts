/**
 * The refusals of a resource server: a status, the `WWW-Authenticate: Bearer …` challenge
 * (RFC 6750 §3, with RFC 9728's `resource_metadata`), and the OAuth error body.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6750.html#section-3.1
 * @see https://datatracker.ietf.org/doc/html/rfc9728#section-5.1
 */
import type { AuthFailure } from '../../../streams/http-auth.js';
import { formatBearerChallenge, sanitizeErrorDescription, type BearerChallenge } from '../www-authenticate.js';

export type BearerErrorCode = 'invalid_request' | 'invalid_token' | 'insufficient_scope';

const STATUS: Record<BearerErrorCode, 400 | 401 | 403> = { invalid_request: 400, invalid_token: 401, insufficient_scope: 403 };

/**
 * A refusal with its challenge. Without an error code (no credentials at all: RFC 6750 §3.1 says
 * not to send one then) it is a 401 with the default JSON-RPC body; with one, the body is the
 * OAuth error object `{ error, error_description }`.
 */
export function bearerRefusal(c: BearerChallenge & { error?: BearerErrorCode }): AuthFailure {
  const wwwAuthenticate = formatBearerChallenge(c);
  if (c.error === undefined) return { ok: false, status: 401, wwwAuthenticate };
  const body: Record<string, string> = { error: c.error };
  if (c.errorDescription !== undefined) body.error_description = sanitizeErrorDescription(c.errorDescription);
  return { ok: false, status: STATUS[c.error], wwwAuthenticate, body };
}
