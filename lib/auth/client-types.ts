/**
 * The OAuth client's data shapes, shared by the provider, the token endpoint and the client ID
 * metadata document (here so that none of those imports another for a type).
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization
 */

/** A token endpoint's successful answer (RFC 6749 §5.1, RFC 8693 §2.2.1). */
export interface OAuthTokens {
  access_token: string;
  token_type: string;
  expires_in?: number;
  refresh_token?: string;
  scope?: string;
  /** RFC 8693: the type of the token issued. */
  issued_token_type?: string;
  [key: string]: unknown;
}

/** Client metadata for registration (RFC 7591 §2) or a client ID metadata document. */
export interface OAuthClientMetadata {
  redirect_uris: string[];
  client_name?: string;
  client_uri?: string;
  logo_uri?: string;
  scope?: string;
  grant_types?: string[];
  response_types?: string[];
  token_endpoint_auth_method?: string;
  software_id?: string;
  software_version?: string;
  [key: string]: unknown;
}

/** A client id and, for confidential clients, its secret and how to present it. */
export interface OAuthClientInformation {
  client_id: string;
  client_secret?: string;
  client_secret_expires_at?: number;
  /** `client_secret_basic`, `client_secret_post` or `none`. */
  token_endpoint_auth_method?: string;
  [key: string]: unknown;
}
