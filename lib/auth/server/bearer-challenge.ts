/**
 * The `WWW-Authenticate: Bearer …` challenge a resource server sends with 401, 403 and 400
 * answers (RFC 6750 §3, with RFC 9728's `resource_metadata`), and the refusals built on it.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6750.html#section-3
 * @see https://datatracker.ietf.org/doc/html/rfc9728#section-5.1
 */
import type { AuthFailure } from '../../../streams/http-auth.js';

export type BearerErrorCode = 'invalid_request' | 'invalid_token' | 'insufficient_scope';

export interface BearerChallenge {
  realm?: string;
  error?: BearerErrorCode;
  errorDescription?: string;
  scopes?: readonly string[];
  resourceMetadata?: string;
}

/**
 * RFC 6750 limits `error_description` to printable ASCII without `"` and `\`: anything else
 * becomes a space, and it is kept short.
 */
function describe(text: string): string {
  return text.replace(/[^\x20\x21\x23-\x5b\x5d-\x7e]/g, ' ').slice(0, 300);
}

function quote(value: string): string {
  return `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/** The header value: `Bearer realm="…", error="…", error_description="…", scope="…", resource_metadata="…"`. */
export function bearerChallenge(c: BearerChallenge): string {
  const params: string[] = [];
  if (c.realm !== undefined) params.push(`realm=${quote(c.realm)}`);
  if (c.error !== undefined) params.push(`error=${quote(c.error)}`);
  if (c.errorDescription !== undefined) params.push(`error_description=${quote(describe(c.errorDescription))}`);
  // Scope tokens cannot hold spaces, quotes or backslashes (RFC 6749 §3.3).
  const scopes = c.scopes?.filter((s) => /^[\x21\x23-\x5b\x5d-\x7e]+$/.test(s));
  if (scopes !== undefined && scopes.length > 0) params.push(`scope=${quote(scopes.join(' '))}`);
  if (c.resourceMetadata !== undefined) params.push(`resource_metadata=${quote(c.resourceMetadata)}`);
  return params.length === 0 ? 'Bearer' : `Bearer ${params.join(', ')}`;
}

const STATUS: Record<BearerErrorCode, 400 | 401 | 403> = { invalid_request: 400, invalid_token: 401, insufficient_scope: 403 };

/**
 * A refusal with its challenge. Without an error code (no credentials at all: RFC 6750 §3.1 says
 * not to send one then) it is a 401 with the default JSON-RPC body; with one, the body is the
 * OAuth error object `{ error, error_description }`.
 */
export function bearerRefusal(c: BearerChallenge): AuthFailure {
  const wwwAuthenticate = bearerChallenge(c);
  if (c.error === undefined) return { ok: false, status: 401, wwwAuthenticate };
  const body: Record<string, string> = { error: c.error };
  if (c.errorDescription !== undefined) body.error_description = describe(c.errorDescription);
  return { ok: false, status: STATUS[c.error], wwwAuthenticate, body };
}
