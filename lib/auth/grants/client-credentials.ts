/**
 * The client credentials grant: a machine client gets a token for itself, authenticated by a
 * secret (basic or post) or a signed JWT (`private_key_jwt`).
 *
 * @see https://datatracker.ietf.org/doc/html/draft-ietf-oauth-v2-1-13#section-4.2
 * @see https://www.rfc-editor.org/rfc/rfc7523.html#section-2.2
 */
import { requestToken, type ClientAuthentication, type TokenRequestOptions, type TokenResponse } from '../token-endpoint.js';

export interface ClientCredentialsOptions extends TokenRequestOptions {
  /** The authorization server's token endpoint (from its metadata). */
  tokenEndpoint: string | URL;
  clientId: string;
  auth: ClientAuthentication;
  /** RFC 8707: the canonical URI of the MCP server the token is for. */
  resource: string | URL;
  /** Space-separated scopes, if any. */
  scope?: string;
}

/** `grant_type=client_credentials` with `resource` (and `scope`); the checked token response. */
export function clientCredentialsGrant(options: ClientCredentialsOptions): Promise<TokenResponse> {
  return requestToken(
    options.tokenEndpoint,
    { grant_type: 'client_credentials', resource: String(options.resource), scope: options.scope || undefined },
    options.clientId,
    options.auth,
    options,
  );
}
