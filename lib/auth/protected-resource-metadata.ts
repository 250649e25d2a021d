/**
 * OAuth 2.0 Protected Resource Metadata (RFC 9728): the document both sides share (the resource
 * server serves it, the client discovers it) and its well-known URLs, `/.well-known/oauth-
 * protected-resource` inserted between the host and the path of the resource (RFC 9728 §3.1).
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#authorization-server-location
 * @see https://datatracker.ietf.org/doc/html/rfc9728#section-3
 */
import { canonicalResourceUri, serverResourceUri } from './canonical-resource.js';

export type { ProtectedResourceMetadata } from './discovery-types.js';

export const PROTECTED_RESOURCE_WELL_KNOWN = '/.well-known/oauth-protected-resource';

/**
 * The well-known URL of the metadata of `resource`, e.g.
 * `https://h/mcp` → `https://h/.well-known/oauth-protected-resource/mcp`.
 */
export function protectedResourceMetadataUrl(resource: string | URL): string {
  const url = new URL(canonicalResourceUri(resource));
  const path = url.pathname === '/' ? '' : url.pathname;
  return `${url.origin}${PROTECTED_RESOURCE_WELL_KNOWN}${path}${url.search}`;
}

/**
 * Where a client looks for the metadata of the server at `serverUrl`, in order: the 401's
 * `resource_metadata` when there is one, the path-based well-known URL, the root one.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#protected-resource-metadata-discovery-requirements
 */
export function protectedResourceMetadataUrls(serverUrl: string | URL, resourceMetadataUrl?: string): URL[] {
  const server = new URL(serverResourceUri(serverUrl));
  const urls: URL[] = [];
  if (resourceMetadataUrl !== undefined) urls.push(new URL(resourceMetadataUrl, server));
  const root = new URL(PROTECTED_RESOURCE_WELL_KNOWN, server.origin);
  const pathBased = new URL(protectedResourceMetadataUrl(server));
  if (pathBased.href !== root.href) urls.push(pathBased);
  urls.push(root);
  return urls;
}
