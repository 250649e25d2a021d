/**
 * What a client that acts without a user gives the OAuth flow: token storage and the grant
 * request that replaces the authorization request and the code exchange. The flow runs it after
 * discovery (the same protected resource and authorization server metadata, the same `resource`
 * checks) with the discovered endpoints; the provider holds its credentials and never hands
 * them to the flow. {@link createClientCredentialsProvider} and {@link createCrossAppAccessProvider}
 * are the two built in.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#authorization-flow-steps
 */
import type { FetchLike } from '../../streams/http-fetch.js';
import type { AuthorizationDiscovery } from './discovery.js';
import { AuthorizationError } from './authorization-errors.js';
import type { StoredTokens } from './provider.js';
import type { DpopProver } from './dpop.js';
import type { OAuthTokens } from './token-endpoint.js';

type MaybePromise<T> = T | Promise<T>;

/** What a grant request works with. */
export interface GrantRequest {
  /** The metadata found for the MCP server: token endpoint, issuer, and the `resource` to ask for. */
  discovery: AuthorizationDiscovery;
  /** The scopes to ask for (MCP's scope selection), or undefined to omit `scope`. */
  scopes: string[] | undefined;
  fetch: FetchLike;
  /** Now, in ms, by the client's clock (assertion timestamps). */
  now: number;
  /** The DPoP key to prove possession of at the token endpoint, when the token should be DPoP-bound (RFC 9449 §5). */
  dpop?: DpopProver;
}

/** Storage and the token request of a client without a user (machine-to-machine, cross-app access). */
export interface OAuthGrantProvider {
  /** The grant it performs at the MCP server's authorization server, e.g. `client_credentials`. */
  readonly grantType: string;
  tokens(): MaybePromise<StoredTokens | undefined>;
  saveTokens(tokens: StoredTokens): MaybePromise<void>;
  /** Forget tokens the server refused. */
  invalidate(what: 'tokens' | 'client', issuer?: string): MaybePromise<void>;
  /**
   * Gets an access token for `request.discovery.resource`. Throws a `TokenEndpointError` (or
   * another `AuthorizationError`) whose message names no secret, assertion or token.
   */
  requestGrant(request: GrantRequest): Promise<OAuthTokens>;
}

/** True for a provider that gets tokens without a user. */
export function isGrantProvider(auth: unknown): auth is OAuthGrantProvider {
  return typeof auth === 'object' && auth !== null && typeof (auth as OAuthGrantProvider).requestGrant === 'function';
}

/**
 * Refuses, before anything is sent, a grant the authorization server does not list in its
 * `grant_types_supported` (when it lists any; the 2025-03-26 default endpoints list nothing real).
 */
export function requireGrantType(discovery: AuthorizationDiscovery, grantType: string): void {
  const supported = discovery.authorizationServer.grant_types_supported;
  if (discovery.source === 'default-endpoints' || supported === undefined || supported.includes(grantType)) return;
  throw new AuthorizationError(
    'grant_unsupported',
    `The authorization server ${discovery.authorizationServer.issuer} does not offer the ${grantType} grant (it lists ${supported.join(', ') || 'none'}); ` +
      'use a client mode it supports, or ask its operator to enable this grant for the client.',
    { issuer: discovery.authorizationServer.issuer, grantType, supported },
  );
}

/** The scopes configured for the client together with those the flow selected (a step-up adds to them). */
export function grantScope(configured: string | readonly string[] | undefined, selected: readonly string[] | undefined): string | undefined {
  const own = typeof configured === 'string' ? configured.split(' ') : (configured ?? []);
  const all = [...new Set([...own, ...(selected ?? [])].filter((s) => s !== ''))];
  return all.length > 0 ? all.join(' ') : undefined;
}

/** In-memory token storage for the grant providers (lost when the process ends). */
export abstract class InMemoryGrantProvider implements OAuthGrantProvider {
  abstract readonly grantType: string;
  private stored: StoredTokens | undefined;
  tokens(): StoredTokens | undefined {
    return this.stored;
  }
  saveTokens(tokens: StoredTokens): void {
    this.stored = tokens;
  }
  invalidate(what: 'tokens' | 'client'): void {
    if (what === 'tokens') this.stored = undefined;
  }
  abstract requestGrant(request: GrantRequest): Promise<OAuthTokens>;
}
