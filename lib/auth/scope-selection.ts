/**
 * Which scopes to ask for (MCP's scope selection strategy): the `scope` of the server's challenge
 * when it sent one, else every scope of the protected resource metadata's `scopes_supported`,
 * else none (the parameter is omitted). On a 403 `insufficient_scope` the new request keeps the
 * scopes already asked for and adds the challenged ones, so a step-up never loses a permission.
 * `offline_access` (for a refresh token) is added only when the authorization server lists it.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#scope-selection-strategy
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#step-up-authorization-flow
 */

export interface ScopeSelectionInput {
  /** Scopes of the `WWW-Authenticate` challenge (401 or 403). */
  challenged?: readonly string[];
  /** `scopes_supported` of the protected resource metadata. */
  protectedResourceScopes?: readonly string[];
  /** `scopes_supported` of the authorization server metadata. */
  authorizationServerScopes?: readonly string[];
  /** `grant_types_supported` of the authorization server metadata. */
  authorizationServerGrantTypes?: readonly string[];
  /** The scopes of the previous authorization request: kept on a step-up. */
  previous?: readonly string[];
  /** Ask for `offline_access` when the authorization server supports it and refresh tokens. */
  offlineAccess?: boolean;
}

/** The scopes to request, or undefined to omit the `scope` parameter. */
export function selectScopes(input: ScopeSelectionInput): string[] | undefined {
  const base = input.challenged?.length ? input.challenged : input.protectedResourceScopes?.length ? input.protectedResourceScopes : undefined;
  const scopes = new Set<string>(input.previous ?? []);
  for (const s of base ?? []) scopes.add(s);
  if (scopes.size === 0) return undefined;
  const refreshable = input.authorizationServerGrantTypes === undefined || input.authorizationServerGrantTypes.includes('refresh_token');
  if (input.offlineAccess && refreshable && input.authorizationServerScopes?.includes('offline_access')) scopes.add('offline_access');
  return [...scopes];
}

/** True when every scope of `required` is in `held`. */
export function hasScopes(held: readonly string[] | undefined, required: readonly string[] | undefined): boolean {
  if (!required || required.length === 0) return true;
  return !!held && required.every((s) => held.includes(s));
}
