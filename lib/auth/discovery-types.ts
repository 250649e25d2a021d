/**
 * The documents of authorization discovery as the wire has them (RFC 9728 protected resource
 * metadata, RFC 8414 authorization server metadata) and what discovery concludes from them: pure
 * shapes, which the OAuth client machine keeps in its context and the fetching code fills.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#authorization-server-discovery
 * @see https://datatracker.ietf.org/doc/html/rfc9728#section-2
 * @see https://datatracker.ietf.org/doc/html/rfc8414#section-2
 */

/** The metadata document (RFC 9728 §2). Only `resource` is required; other members are kept. */
export interface ProtectedResourceMetadata {
  resource: string;
  /** The issuers of the authorization servers that issue tokens for the resource. */
  authorization_servers?: string[];
  scopes_supported?: string[];
  bearer_methods_supported?: string[];
  resource_name?: string;
  resource_documentation?: string;
  [member: string]: unknown;
}

/** The fields of authorization server metadata the client uses (others are kept). */
export interface AuthorizationServerMetadata {
  issuer: string;
  /** Absent on a server without the authorization-code grant (RFC 8414 §2), e.g. one for machine clients only. */
  authorization_endpoint?: string;
  token_endpoint: string;
  registration_endpoint?: string;
  scopes_supported?: string[];
  response_types_supported?: string[];
  grant_types_supported?: string[];
  token_endpoint_auth_methods_supported?: string[];
  code_challenge_methods_supported?: string[];
  client_id_metadata_document_supported?: boolean;
  [key: string]: unknown;
}

/** How the authorization server was found. */
export type DiscoverySource =
  /** RFC 9728 protected resource metadata named it (the current protocol). */
  | 'protected-resource-metadata'
  /** No PRM; metadata on the MCP server's origin (2025-03-26). */
  | 'server-origin-metadata'
  /** No PRM, no metadata; the default endpoints on the MCP server's origin (2025-03-26). */
  | 'default-endpoints';

export interface AuthorizationDiscovery {
  /** The MCP server URL discovery started from. */
  serverUrl: string;
  /** The `resource` to send in authorization and token requests (RFC 8707). */
  resource: string;
  protectedResource?: ProtectedResourceMetadata;
  protectedResourceMetadataUrl?: string;
  /** The authorization server's issuer identifier (from PRM), or the MCP server's origin. */
  authorizationServerUrl: string;
  authorizationServer: AuthorizationServerMetadata;
  /** Where the metadata came from (undefined for default endpoints). */
  authorizationServerMetadataUrl?: string;
  source: DiscoverySource;
}
