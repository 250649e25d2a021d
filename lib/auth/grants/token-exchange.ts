/**
 * Token exchange (RFC 8693) at the enterprise identity provider: the user's ID token for an
 * Identity Assertion JWT Authorization Grant (ID-JAG) aimed at the MCP server's authorization
 * server (SEP-990, cross-app access).
 *
 * @see https://www.rfc-editor.org/rfc/rfc8693.html#section-2
 * @see https://datatracker.ietf.org/doc/draft-ietf-oauth-identity-assertion-authz-grant/
 */
import { TokenEndpointError } from '../authorization-errors.js';
import { requestToken, type ClientAuthentication, type TokenRequestOptions } from '../token-endpoint.js';

export const TOKEN_EXCHANGE_GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
export const ID_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id_token';
export const ID_JAG_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id-jag';

export interface IdJagExchangeOptions extends TokenRequestOptions {
  /** The IdP's token endpoint. */
  tokenEndpoint: string | URL;
  /** This client at the IdP. */
  clientId: string;
  /** How it authenticates there. Default none (`client_id` in the body). */
  auth?: ClientAuthentication;
  /** The user's ID token from the IdP. */
  idToken: string;
  /** The issuer of the MCP server's authorization server. */
  audience: string;
  /** The MCP server's canonical URI (its PRM `resource`). */
  resource: string | URL;
  scope?: string;
}

export interface IdJag {
  /** The ID-JAG, to present at the authorization server with the jwt-bearer grant. */
  assertion: string;
  expiresIn?: number;
  scope?: string;
}

/** Exchanges the ID token for an ID-JAG and checks the IdP issued that type. */
export async function exchangeIdTokenForIdJag(options: IdJagExchangeOptions): Promise<IdJag> {
  const res = await requestToken(
    options.tokenEndpoint,
    {
      grant_type: TOKEN_EXCHANGE_GRANT,
      requested_token_type: ID_JAG_TOKEN_TYPE,
      subject_token: options.idToken,
      subject_token_type: ID_TOKEN_TYPE,
      audience: options.audience,
      resource: String(options.resource),
      scope: options.scope || undefined,
    },
    options.clientId,
    options.auth ?? { method: 'none' },
    { ...options, expectBearer: false },
  );
  if (res.issued_token_type !== ID_JAG_TOKEN_TYPE) {
    throw new TokenEndpointError(
      'invalid_response',
      `issued_token_type is ${typeof res.issued_token_type === 'string' ? `"${res.issued_token_type.slice(0, 80)}"` : 'missing'}, not ${ID_JAG_TOKEN_TYPE}`,
      200,
      new URL(String(options.tokenEndpoint)).href,
      TOKEN_EXCHANGE_GRANT,
    );
  }
  return {
    assertion: res.access_token,
    ...(typeof res.expires_in === 'number' ? { expiresIn: res.expires_in } : {}),
    ...(typeof res.scope === 'string' ? { scope: res.scope } : {}),
  };
}
