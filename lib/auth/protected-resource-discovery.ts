/**
 * OAuth 2.0 Protected Resource Metadata discovery (RFC 9728) for an MCP server: the URL of the
 * 401's `resource_metadata` parameter when there is one, else the path-based well-known URI
 * (`/.well-known/oauth-protected-resource/<path>`), else the root one. The document's `resource`
 * must cover the server (same origin, same or parent path): a mismatch aborts before anything is
 * sent to an authorization server.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#protected-resource-metadata-discovery-requirements
 * @see https://datatracker.ietf.org/doc/html/rfc9728#section-3
 */
import type { FetchLike } from '../../streams/http-fetch.js';
import { resourceCovers } from './canonical-resource.js';
import { AuthorizationError } from './authorization-errors.js';
import { protectedResourceMetadataUrls, type ProtectedResourceMetadata } from './protected-resource-metadata.js';
import { fetchMetadataDocument, isStringArray } from './well-known-document.js';

/**
 * The server's protected resource metadata, or undefined when no location has it (a server of
 * revision 2025-03-26, which had no PRM). Throws `resource_mismatch` when the document is for
 * another resource, `discovery_failed` when it is invalid.
 */
export async function discoverProtectedResourceMetadata(
  serverUrl: string | URL,
  options: { resourceMetadataUrl?: string; fetch: FetchLike },
): Promise<{ metadata: ProtectedResourceMetadata; url: string } | undefined> {
  for (const url of protectedResourceMetadataUrls(serverUrl, options.resourceMetadataUrl)) {
    const outcome = await fetchMetadataDocument(url, options.fetch, 'protected resource metadata');
    if (!outcome.found) continue;
    const metadata = validateProtectedResourceMetadata(outcome.json, url);
    if (!resourceCovers(metadata.resource, serverUrl)) {
      throw new AuthorizationError(
        'resource_mismatch',
        `The protected resource metadata at ${url.href} is for ${JSON.stringify(metadata.resource)}, not for the MCP server ` +
          `${new URL(serverUrl).href}; no authorization was attempted (a token for another resource could be misused). ` +
          'Check the server URL, or ask the server operator to fix the metadata.',
        { url: url.href, resource: metadata.resource, serverUrl: new URL(serverUrl).href },
      );
    }
    return { metadata, url: url.href };
  }
  return undefined;
}

function validateProtectedResourceMetadata(json: Record<string, unknown>, url: URL): ProtectedResourceMetadata {
  const invalid = (why: string) =>
    new AuthorizationError('discovery_failed', `The protected resource metadata at ${url.href} is invalid: ${why}.`, { url: url.href });
  if (typeof json.resource !== 'string' || json.resource === '') throw invalid('`resource` is missing');
  if (json.authorization_servers !== undefined && !isStringArray(json.authorization_servers)) throw invalid('`authorization_servers` is not an array of URLs');
  if (json.scopes_supported !== undefined && !isStringArray(json.scopes_supported)) throw invalid('`scopes_supported` is not an array of strings');
  return json as ProtectedResourceMetadata;
}
