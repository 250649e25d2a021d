/**
 * The JWT bearer grant (RFC 7523 §2.1) at the MCP server's authorization server: an assertion
 * (e.g. the ID-JAG from the IdP) for an access token.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7523.html#section-2.1
 */
import { requestToken, type ClientAuthentication, type TokenRequestOptions, type TokenResponse } from '../token-endpoint.js';

export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

export interface JwtBearerOptions extends TokenRequestOptions {
  /** The authorization server's token endpoint. */
  tokenEndpoint: string | URL;
  clientId: string;
  /** Default client_secret_basic needs a secret; give the method explicitly. */
  auth: ClientAuthentication;
  /** The signed assertion (an ID-JAG). */
  assertion: string;
  /** RFC 8707 resource, when the AS wants it repeated. */
  resource?: string | URL;
  scope?: string;
}

/** `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer&assertion=…`; the checked Bearer token response. */
export function jwtBearerGrant(options: JwtBearerOptions): Promise<TokenResponse> {
  return requestToken(
    options.tokenEndpoint,
    {
      grant_type: JWT_BEARER_GRANT,
      assertion: options.assertion,
      resource: options.resource !== undefined ? String(options.resource) : undefined,
      scope: options.scope || undefined,
    },
    options.clientId,
    options.auth,
    options,
  );
}
