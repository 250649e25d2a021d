/**
 * Everything a client needs to know before it asks for a token, from an MCP server URL and the
 * `WWW-Authenticate` of its 401: the protected resource metadata, the authorization server's
 * metadata, and the `resource` to request tokens for. Shared by the authorization-code flow and
 * the extension grants (`lib/auth/grants/`).
 *
 * Servers of revision 2025-03-26 have no protected resource metadata: the authorization server
 * is then the MCP server's origin, with its metadata at `/.well-known/oauth-authorization-server`
 * or, failing that, the default endpoints `/authorize`, `/token` and `/register`.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#authorization-server-discovery
 * @see https://modelcontextprotocol.io/specification/2025-03-26/basic/authorization#2-3-server-metadata-discovery
 */
import { undiciFetch, type FetchLike } from '../../streams/http-fetch.js';
import { discoverAuthorizationServerMetadata } from './authorization-server-metadata.js';
import { serverResourceUri } from './canonical-resource.js';
import { AuthorizationError } from './authorization-errors.js';
import { discoverProtectedResourceMetadata } from './protected-resource-discovery.js';
import type { AuthorizationDiscovery, AuthorizationServerMetadata } from './discovery-types.js';
import { requireSecureAuthorizationServer, requireSecureEndpoint } from './secure-endpoint.js';
import { resourceChallenge } from './www-authenticate.js';

export type { AuthorizationDiscovery, DiscoverySource } from './discovery-types.js';

export interface DiscoveryOptions {
  /** The `WWW-Authenticate` value of the server's 401 (or 403), whose `resource_metadata` is tried first. */
  wwwAuthenticate?: string | null;
  /** Default: the transports' default fetch. */
  fetch?: FetchLike;
  /** Picks one of the PRM's authorization servers (RFC 9728 §7.6). Default: the first. */
  selectAuthorizationServer?: (servers: string[]) => string;
}

/**
 * Discovers the protected resource metadata, the authorization server metadata and the canonical
 * resource URI of the MCP server at `serverUrl`. Throws {@link AuthorizationError}
 * (`resource_mismatch`, `issuer_mismatch`, `discovery_failed`, and `insecure_endpoint` when the
 * authorization server or one of its endpoints is plain http on a host that is not loopback:
 * the whole flow uses only endpoints accepted here, so no code, secret or verifier ever goes
 * over plain http to another host).
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#authorization-server-discovery
 */
export async function discoverAuthorization(serverUrl: string | URL, options: DiscoveryOptions = {}): Promise<AuthorizationDiscovery> {
  const fetch = options.fetch ?? undiciFetch;
  const server = new URL(serverUrl);
  const challenge = resourceChallenge(options.wwwAuthenticate);
  const prm = await discoverProtectedResourceMetadata(server, {
    fetch,
    ...(challenge?.resourceMetadata !== undefined && { resourceMetadataUrl: challenge.resourceMetadata }),
  });

  if (prm) {
    const servers = prm.metadata.authorization_servers ?? [];
    if (servers.length === 0) {
      throw new AuthorizationError(
        'discovery_failed',
        `The protected resource metadata at ${prm.url} names no authorization server; the client cannot get a token.`,
        { url: prm.url },
      );
    }
    const issuer = options.selectAuthorizationServer ? options.selectAuthorizationServer(servers) : servers[0]!;
    requireSecureEndpoint(issuer, 'authorization server');
    const as = await discoverAuthorizationServerMetadata(issuer, { fetch });
    if (!as) {
      throw new AuthorizationError(
        'discovery_failed',
        `No authorization server metadata for ${issuer} (tried RFC 8414 and OpenID Connect discovery locations).`,
        { issuer },
      );
    }
    requireSecureAuthorizationServer(as.metadata);
    return {
      serverUrl: server.href,
      resource: prm.metadata.resource,
      protectedResource: prm.metadata,
      protectedResourceMetadataUrl: prm.url,
      authorizationServerUrl: issuer,
      authorizationServer: as.metadata,
      authorizationServerMetadataUrl: as.url,
      source: 'protected-resource-metadata',
    };
  }

  // 2025-03-26: the authorization base URL is the MCP server URL without its path.
  const origin = server.origin;
  const resource = serverResourceUri(server);
  // The MCP server's origin is the authorization server here.
  requireSecureEndpoint(origin, 'authorization server (the MCP server origin, 2025-03-26 discovery)');
  const legacy = await discoverAuthorizationServerMetadata(origin, {
    fetch,
    checkIssuer: false,
    urls: [new URL('/.well-known/oauth-authorization-server', origin)],
  });
  if (legacy) {
    requireSecureAuthorizationServer(legacy.metadata);
    return {
      serverUrl: server.href,
      resource,
      authorizationServerUrl: origin,
      authorizationServer: legacy.metadata,
      authorizationServerMetadataUrl: legacy.url,
      source: 'server-origin-metadata',
    };
  }
  return {
    serverUrl: server.href,
    resource,
    authorizationServerUrl: origin,
    authorizationServer: defaultEndpointsMetadata(origin),
    source: 'default-endpoints',
  };
}

/** The metadata a 2025-03-26 server without a metadata document implies (it required PKCE S256). */
export function defaultEndpointsMetadata(origin: string): AuthorizationServerMetadata {
  return {
    issuer: origin,
    authorization_endpoint: new URL('/authorize', origin).href,
    token_endpoint: new URL('/token', origin).href,
    registration_endpoint: new URL('/register', origin).href,
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
  };
}
