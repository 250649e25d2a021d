/**
 * Scope sufficiency for a resource server: which scopes a token effectively holds once broader
 * scopes are expanded to the narrower ones they imply, and the scopes a resource never requires.
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization#step-up-authorization-flow
 */

/**
 * Broader scopes and the narrower scopes each implies, e.g.
 * `{ 'mcp:admin': ['mcp:write'], 'mcp:write': ['mcp:read'] }` (transitive: `mcp:admin` then
 * implies `mcp:read` too), or a function from a granted scope to the scopes it implies.
 */
export type ScopeHierarchy = Readonly<Record<string, readonly string[]>> | ((scope: string) => readonly string[] | undefined);

/**
 * `offline_access` asks an authorization server for a refresh token: it is never something a
 * resource needs, so a resource server neither requires nor advertises it.
 */
export const OFFLINE_ACCESS = 'offline_access';

/** The granted scopes and all the scopes they imply (cycles in the hierarchy are harmless). */
export function impliedScopes(granted: readonly string[], hierarchy: ScopeHierarchy | undefined): ReadonlySet<string> {
  const have = new Set(granted);
  if (hierarchy === undefined) return have;
  const implies = typeof hierarchy === 'function' ? hierarchy : (s: string) => (Object.hasOwn(hierarchy, s) ? hierarchy[s] : undefined);
  const todo = [...have];
  for (let s = todo.pop(); s !== undefined; s = todo.pop()) {
    const narrower = implies(s);
    if (!Array.isArray(narrower)) continue;
    for (const n of narrower) {
      if (typeof n === 'string' && !have.has(n)) {
        have.add(n);
        todo.push(n);
      }
    }
  }
  return have;
}

/** Throws a TypeError naming `what` when a configured scope list holds `offline_access`. */
export function refuseOfflineAccess(scopes: readonly string[] | undefined, what: string): void {
  if (scopes?.includes(OFFLINE_ACCESS)) {
    throw new TypeError(`${what} must not contain "${OFFLINE_ACCESS}": it asks for refresh tokens, which are not a resource requirement; clients add it themselves when the authorization server offers it`);
  }
}
