/**
 * The canonical URI of an MCP server as an OAuth protected resource (the `resource` of RFC
 * 8707), and the comparisons both sides make with it: the client, whether a protected resource
 * metadata document covers the server it talks to; the resource server, whether a token's
 * audience names it.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#canonical-server-uri
 * @see https://www.rfc-editor.org/rfc/rfc8707.html#section-2
 */

/**
 * The canonical form of a resource URI: absolute http(s), no fragment, lowercase scheme and host
 * (URL parsing does that, and drops a default port), its path kept (the most specific URI) but
 * without a trailing slash. Throws a TypeError saying what is wrong with the input.
 */
export function canonicalResourceUri(input: string | URL): string {
  let url: URL;
  try {
    url = new URL(String(input));
  } catch {
    throw new TypeError(`"${String(input)}" is not an absolute URI: a resource must be like https://mcp.example.com/mcp`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new TypeError(`The resource URI must use https (or http for a local server), not "${url.protocol}"`);
  }
  if (url.hash !== '' || String(input).includes('#')) {
    throw new TypeError(`The resource URI must not contain a fragment: "${String(input)}"`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new TypeError('The resource URI must not contain credentials');
  }
  const path = url.pathname.length > 1 && url.pathname.endsWith('/') ? url.pathname.slice(0, -1) : url.pathname === '/' ? '' : url.pathname;
  return `${url.protocol}//${url.host}${path}${url.search}`;
}

/** The canonical form, or undefined when the input is not a valid resource URI. */
export function tryCanonicalResourceUri(input: unknown): string | undefined {
  if (typeof input !== 'string' && !(input instanceof URL)) return undefined;
  try {
    return canonicalResourceUri(input);
  } catch {
    return undefined;
  }
}

/** The canonical resource URI of the MCP server the client connects to (a fragment of the URL the user gave is dropped). */
export function serverResourceUri(serverUrl: string | URL): string {
  const url = new URL(serverUrl);
  url.hash = '';
  return canonicalResourceUri(url);
}

/**
 * Whether `candidate` (an audience or `resource` value of a token) names the resource whose
 * canonical URI is `canonical`. Case of scheme and host and a trailing slash do not matter
 * (the spec asks servers to accept both); anything else must be identical.
 */
export function sameResource(canonical: string, candidate: unknown): boolean {
  const c = tryCanonicalResourceUri(candidate);
  return c !== undefined && c === canonical;
}

/**
 * True when the protected resource `advertised` (a PRM `resource`) covers the server at
 * `serverUrl`: same origin, and its path equal to the server's or a parent of it on a segment
 * boundary (`https://host` covers `https://host/mcp`; `https://host/m` does not cover `/mcp`).
 */
export function resourceCovers(advertised: string, serverUrl: string | URL): boolean {
  const a = tryCanonicalResourceUri(advertised);
  let s: string;
  try {
    s = serverResourceUri(serverUrl);
  } catch {
    return false;
  }
  if (a === undefined) return false;
  const au = new URL(a);
  const su = new URL(s);
  if (au.origin !== su.origin) return false;
  const ap = au.pathname.endsWith('/') ? au.pathname : au.pathname + '/';
  const sp = su.pathname.endsWith('/') ? su.pathname : su.pathname + '/';
  return sp.startsWith(ap);
}
