/**
 * Cross-app access (SEP-990, enterprise-managed authorization): the user signed in to the
 * enterprise identity provider once; the MCP client exchanges the user's ID token there for an
 * Identity Assertion JWT Authorization Grant (ID-JAG, RFC 8693 token exchange) aimed at the MCP
 * server's authorization server, then presents it with the jwt-bearer grant (RFC 7523) for an
 * access token. No browser, no consent screen: the IdP's policy decides.
 *
 * ```ts
 * const auth = createCrossAppAccessProvider({
 *   clientId, clientSecret,                        // this client at the MCP server's authorization server
 *   idpTokenEndpoint: 'https://idp.example.com/oauth2/token', idpClientId,
 *   getIdToken: () => session.idToken,             // the signed-in user's ID token
 * });
 * ```
 *
 * @see https://www.rfc-editor.org/rfc/rfc8693.html#section-2
 * @see https://www.rfc-editor.org/rfc/rfc7523.html#section-2.1
 * @see https://datatracker.ietf.org/doc/draft-ietf-oauth-identity-assertion-authz-grant/
 */
import { AuthorizationError } from './authorization-errors.js';
import { InMemoryGrantProvider, grantScope, requireGrantType, type GrantRequest } from './grant-provider.js';
import { JWT_BEARER_GRANT, jwtBearerGrant } from './grants/jwt-bearer.js';
import { exchangeIdTokenForIdJag } from './grants/token-exchange.js';
import { secretAuthMethod, type ClientAuthentication, type OAuthTokens } from './token-endpoint.js';

export interface CrossAppAccessProviderOptions {
  /** This client at the MCP server's authorization server (the ID-JAG's `client_id`). */
  clientId: string;
  /** Its secret there; without one it authenticates with `client_id` only. */
  clientSecret?: string;
  /** Default: `client_secret_basic` unless the server supports only `client_secret_post`. */
  authMethod?: 'client_secret_basic' | 'client_secret_post';
  /** The user's ID token from the IdP (fixed) ... */
  idToken?: string;
  /** ... or a function asked for a current one before every exchange (ID tokens expire). */
  getIdToken?: () => string | Promise<string>;
  /** The IdP's token endpoint, where the ID token is exchanged. */
  idpTokenEndpoint: string | URL;
  /** This client at the IdP. Default {@link clientId}. */
  idpClientId?: string;
  /** Its secret at the IdP (`client_secret_basic`); without one, `client_id` in the body. */
  idpClientSecret?: string;
  /** Scopes to ask for besides those the server's challenge or metadata name. */
  scope?: string | readonly string[];
}

/** A cross-app access client keeping its tokens in memory. */
export class CrossAppAccessProvider extends InMemoryGrantProvider {
  readonly grantType = JWT_BEARER_GRANT;
  readonly clientId: string;
  readonly #options: CrossAppAccessProviderOptions;

  constructor(options: CrossAppAccessProviderOptions) {
    super();
    if (typeof options.clientId !== 'string' || options.clientId === '') throw new TypeError('createCrossAppAccessProvider needs a clientId');
    if (options.idToken === undefined && options.getIdToken === undefined) throw new TypeError('createCrossAppAccessProvider needs idToken or getIdToken');
    if (!URL.canParse(String(options.idpTokenEndpoint))) throw new TypeError('createCrossAppAccessProvider needs idpTokenEndpoint, the IdP token endpoint URL');
    this.clientId = options.clientId;
    this.#options = { ...options };
  }

  async requestGrant({ discovery, scopes, fetch, now }: GrantRequest): Promise<OAuthTokens> {
    const o = this.#options;
    const as = discovery.authorizationServer;
    requireGrantType(discovery, JWT_BEARER_GRANT);
    const scope = grantScope(o.scope, scopes);
    const idJag = await exchangeIdTokenForIdJag({
      tokenEndpoint: o.idpTokenEndpoint,
      clientId: o.idpClientId ?? o.clientId,
      auth: o.idpClientSecret !== undefined ? { method: 'client_secret_basic', clientSecret: o.idpClientSecret } : { method: 'none' },
      idToken: await this.idToken(),
      audience: as.issuer,
      resource: discovery.resource,
      ...(scope !== undefined && { scope }),
      fetch,
      now,
    });
    return jwtBearerGrant({
      tokenEndpoint: as.token_endpoint,
      clientId: o.clientId,
      auth: this.authentication(as),
      assertion: idJag.assertion,
      resource: discovery.resource,
      ...(scope !== undefined && { scope }),
      fetch,
      now,
    });
  }

  private authentication(metadata: { issuer: string; token_endpoint_auth_methods_supported?: string[] }): ClientAuthentication {
    const secret = this.#options.clientSecret;
    if (secret === undefined) return { method: 'none' };
    const method = this.#options.authMethod ?? secretAuthMethod(metadata);
    if (method === undefined) {
      throw new AuthorizationError(
        'grant_unsupported',
        `The authorization server ${metadata.issuer} accepts neither client_secret_basic nor client_secret_post (it supports ${metadata.token_endpoint_auth_methods_supported?.join(', ') || 'none'}).`,
        { issuer: metadata.issuer },
      );
    }
    return { method, clientSecret: secret };
  }

  private async idToken(): Promise<string> {
    const o = this.#options;
    let token: unknown;
    try {
      token = o.getIdToken ? await o.getIdToken() : o.idToken;
    } catch (e) {
      throw new AuthorizationError('provider_failed', `getIdToken failed: ${e instanceof Error ? e.message : String(e)}; the user may need to sign in to the identity provider again.`);
    }
    if (typeof token !== 'string' || token === '') {
      throw new AuthorizationError('provider_failed', 'No ID token: getIdToken gave none; the user may need to sign in to the identity provider again.');
    }
    return token;
  }
}

/**
 * A provider for the transports' `auth` option that gets tokens by cross-app access (ID token →
 * ID-JAG at the IdP → access token at the MCP server's authorization server), after the usual
 * discovery, and again whenever the server answers 401 or the token expires.
 */
export function createCrossAppAccessProvider(options: CrossAppAccessProviderOptions): CrossAppAccessProvider {
  return new CrossAppAccessProvider(options);
}
