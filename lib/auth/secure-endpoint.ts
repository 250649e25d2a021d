/**
 * Communication security of the OAuth flow (OAuth 2.1 §1.5): every authorization server endpoint
 * (metadata, registration, authorization, token), every redirect URI and every server a bearer
 * token goes to must be `https:`. Plain `http:` is allowed only on loopback hosts (`localhost`,
 * `127.0.0.1`, `[::1]`), where nothing crosses a network: local development and tests.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#communication-security
 * @see https://datatracker.ietf.org/doc/html/draft-ietf-oauth-v2-1-13#section-1.5
 */
import type { AuthorizationServerMetadata } from './authorization-server-metadata.js';
import { AuthorizationError } from './authorization-errors.js';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Whether `url`'s host is a loopback host (as `URL.hostname` spells it: `[::1]` with brackets). */
export function isLoopbackUrl(url: URL): boolean {
  return LOOPBACK_HOSTS.has(url.hostname.toLowerCase());
}

/** `https:`, or `http:` on a loopback host. */
export function isSecureOAuthUrl(url: string | URL): boolean {
  const u = new URL(url);
  return u.protocol === 'https:' || (u.protocol === 'http:' && isLoopbackUrl(u));
}

/** A URL for messages: origin and path only (a query may carry anything). */
function shown(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

/**
 * Throws an `insecure_endpoint` {@link AuthorizationError} when the authorization server endpoint
 * `url` (named `what` in the message) is not https, unless on a loopback host. Called before
 * anything is sent to it.
 */
export function requireSecureEndpoint(url: string | URL, what: string): void {
  const u = new URL(url);
  if (isSecureOAuthUrl(u)) return;
  throw new AuthorizationError(
    'insecure_endpoint',
    `The ${what} ${shown(u)} is not an https URL; nothing was sent to it (OAuth 2.1 requires TLS for every authorization server endpoint). ` +
      'Ask the server operator to serve it over https; plain http is accepted only on localhost, 127.0.0.1 and [::1].',
    { url: shown(u) },
  );
}

/** {@link requireSecureEndpoint} for each endpoint of an authorization server's metadata the client may use. */
export function requireSecureAuthorizationServer(metadata: AuthorizationServerMetadata): void {
  if (metadata.authorization_endpoint !== undefined) requireSecureEndpoint(metadata.authorization_endpoint, `authorization endpoint of ${metadata.issuer}`);
  requireSecureEndpoint(metadata.token_endpoint, `token endpoint of ${metadata.issuer}`);
  if (metadata.registration_endpoint !== undefined) requireSecureEndpoint(metadata.registration_endpoint, `registration endpoint of ${metadata.issuer}`);
}

/**
 * Throws a `TypeError` when `redirectUrl` is neither https nor http on a loopback host (MCP:
 * "All redirect URIs MUST be either `localhost` or use HTTPS").
 */
export function requireSecureRedirectUrl(redirectUrl: string): void {
  if (!URL.canParse(redirectUrl)) throw new TypeError(`The redirect URL ${JSON.stringify(redirectUrl)} is not a URL.`);
  if (isSecureOAuthUrl(redirectUrl)) return;
  const u = new URL(redirectUrl);
  throw new TypeError(
    `The redirect URL ${shown(u)} must use https, or http on localhost, 127.0.0.1 or [::1] (an authorization code sent to it could otherwise be read on the way). ` +
      'Use an https callback URL or a loopback one such as http://127.0.0.1:<port>/callback.',
  );
}
