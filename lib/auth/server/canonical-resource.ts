/**
 * The canonical URI of an MCP server as an OAuth protected resource (RFC 8707 §2), and the
 * comparison a resource server makes between its own URI and the audience of a token.
 *
 * @see https://modelcontextprotocol.io/specification/draft/basic/authorization#canonical-server-uri
 * @see https://www.rfc-editor.org/rfc/rfc8707.html#section-2
 */

/**
 * The canonical form of a resource URI: absolute http(s), no fragment, lowercase scheme and host
 * (URL parsing does that, and drops a default port), no trailing slash on the path. Throws a
 * TypeError saying what is wrong with the input.
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

/**
 * Whether `candidate` (an audience or `resource` value of a token) names the resource whose
 * canonical URI is `canonical`. Case of scheme and host and a trailing slash do not matter
 * (the spec asks servers to accept both); anything else must be identical.
 */
export function sameResource(canonical: string, candidate: unknown): boolean {
  const c = tryCanonicalResourceUri(candidate);
  return c !== undefined && c === canonical;
}
