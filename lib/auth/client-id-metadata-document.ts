/**
 * The client's side of OAuth Client ID Metadata Documents (CIMD): the client id is an https URL
 * where the application serves a JSON document describing the client, and the authorization
 * server fetches it instead of a registration. Here: the check that a URL may be such a client id
 * (https, a path, no dot segments, fragment or credentials), and the document to serve at it,
 * whose `client_id` is that URL exactly.
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization/client-registration#client-id-metadata-documents
 * @see https://datatracker.ietf.org/doc/html/draft-ietf-oauth-client-id-metadata-document-00#section-3
 */
import type { OAuthClientMetadata } from './client-types.js';

/** Why `url` cannot be a client id metadata document URL, or undefined when it can. */
export function clientIdMetadataUrlProblem(url: string): string | undefined {
  if (!URL.canParse(url)) return 'it is not a URL';
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:') return 'it must use the https scheme';
  if (parsed.username !== '' || parsed.password !== '') return 'it must not contain a user name or password';
  if (url.includes('#')) return 'it must not contain a fragment';
  // The URL parser removes dot segments, so they are looked for in the text as given.
  const path = url.replace(/^https:\/\/[^/?#]*/i, '').split(/[?#]/)[0]!;
  if (path === '' || path === '/') return 'it must contain a path (e.g. https://example.com/client.json)';
  if (path.split('/').some((segment) => segment === '.' || segment === '..')) return 'it must not contain "." or ".." path segments';
  return undefined;
}

/** Throws a `TypeError` saying what is wrong unless `url` can be a client id metadata document URL. */
export function requireClientIdMetadataUrl(url: string): void {
  const problem = clientIdMetadataUrlProblem(url);
  if (problem !== undefined) throw new TypeError(`The client metadata URL ${JSON.stringify(url)} cannot be a client id: ${problem}.`);
}

/**
 * The JSON document to serve (as `application/json`) at `clientMetadataUrl`: the client metadata
 * with `client_id` set to that URL exactly, the redirect URL among `redirect_uris`, and the
 * defaults a registration would use. A document client has no shared secret, so secrets are
 * never part of it and a secret-based authentication method is refused. Throws a `TypeError`
 * when the URL cannot be a client id, or `client_name` or `redirect_uris` is missing.
 */
export function clientIdMetadataDocument(options: { clientMetadataUrl: string; clientMetadata: OAuthClientMetadata; redirectUrl?: string }): Record<string, unknown> {
  requireClientIdMetadataUrl(options.clientMetadataUrl);
  const { client_secret: _secret, client_secret_expires_at: _expires, client_id: _id, ...metadata } = options.clientMetadata as OAuthClientMetadata & {
    client_secret?: unknown;
    client_secret_expires_at?: unknown;
    client_id?: unknown;
  };
  const redirectUris = [...(metadata.redirect_uris ?? [])];
  if (options.redirectUrl !== undefined && !redirectUris.includes(options.redirectUrl)) redirectUris.push(options.redirectUrl);
  if (typeof metadata.client_name !== 'string' || metadata.client_name === '') throw new TypeError('A client id metadata document needs a client_name.');
  if (redirectUris.length === 0) throw new TypeError('A client id metadata document needs at least one redirect URI.');
  const authMethod = metadata.token_endpoint_auth_method ?? 'none';
  if (authMethod.startsWith('client_secret_')) {
    throw new TypeError(`A client id metadata document client has no shared secret: token_endpoint_auth_method ${JSON.stringify(authMethod)} is not possible (use none or private_key_jwt).`);
  }
  return {
    ...metadata,
    client_id: options.clientMetadataUrl,
    redirect_uris: redirectUris,
    grant_types: metadata.grant_types ?? ['authorization_code', 'refresh_token'],
    response_types: metadata.response_types ?? ['code'],
    token_endpoint_auth_method: authMethod,
  };
}
