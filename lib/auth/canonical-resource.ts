/**
 * The canonical URI of an MCP server, the `resource` parameter of RFC 8707: an absolute URI with
 * a lower-case scheme and host, no fragment, and no trailing slash unless the path needs one.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#canonical-server-uri
 * @see https://www.rfc-editor.org/rfc/rfc8707.html#section-2
 */

/** The canonical resource URI of the MCP server at `serverUrl` (its most specific URI: path kept, fragment dropped). */
export function canonicalResourceUri(serverUrl: string | URL): string {
  const url = new URL(serverUrl); // WHATWG parsing lower-cases scheme and host
  url.hash = '';
  let text = url.href;
  // `https://host/` and `https://host` name the same resource; use the form without the slash.
  if (url.pathname === '/' && url.search === '') text = text.slice(0, -1);
  return text;
}

/**
 * True when the protected resource `advertised` (a PRM `resource`) covers the server at
 * `serverUrl`: same origin, and its path equal to the server's or a parent of it on a segment
 * boundary (`https://host` covers `https://host/mcp`; `https://host/m` does not cover `/mcp`).
 */
export function resourceCovers(advertised: string, serverUrl: string | URL): boolean {
  let a: URL;
  let s: URL;
  try {
    a = new URL(canonicalResourceUri(advertised));
    s = new URL(canonicalResourceUri(serverUrl));
  } catch {
    return false;
  }
  if (a.origin !== s.origin) return false;
  const ap = a.pathname.endsWith('/') ? a.pathname : a.pathname + '/';
  const sp = s.pathname.endsWith('/') ? s.pathname : s.pathname + '/';
  return sp.startsWith(ap);
}
