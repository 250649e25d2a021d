/**
 * Workload identity federation (SEP-1933): a workload (a CI job, a pod, a cloud function) holds a
 * JWT its platform issued (a Kubernetes service account token, a GitHub Actions OIDC token...) and
 * presents it to the MCP server's authorization server with the JWT bearer grant (RFC 7523 §2.1)
 * for an access token. No user, no stored secret: the platform's signature is the credential.
 *
 * ```ts
 * const auth = createWorkloadIdentityProvider({
 *   clientId: 'ci-deployer',
 *   getAssertion: ({ audience }) => readFile('/var/run/secrets/tokens/mcp', 'utf8'), // aud = the AS issuer
 * });
 * ```
 *
 * A refused assertion (`invalid_grant`, `invalid_scope`, `unauthorized_client`) is a
 * `TokenEndpointError`, surfaced as it is: the provider neither sends the assertion again nor
 * tries another grant.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7523.html#section-2.1
 */
import { AuthorizationError } from './authorization-errors.js';
import { InMemoryGrantProvider, grantScope, requireGrantType, type GrantRequest } from './grant-provider.js';
import { JWT_BEARER_GRANT, jwtBearerGrant } from './grants/jwt-bearer.js';
import { secretAuthMethod, type ClientAuthentication, type OAuthTokens } from './token-endpoint.js';

export interface WorkloadIdentityProviderOptions {
  /** This client at the authorization server (sent as `client_id`; with no secret, in the body). */
  clientId: string;
  /** A secret, when the authorization server also wants the client authenticated. */
  clientSecret?: string;
  /** The workload's JWT (fixed) ... */
  assertion?: string;
  /**
   * ... or a function asked for a current one before every token request (platform tokens are
   * short-lived); `audience` is the authorization server's issuer, the `aud` the JWT must carry.
   */
  getAssertion?: (request: { audience: string }) => string | Promise<string>;
  /** Scopes to ask for besides those the server's challenge or metadata name. */
  scope?: string | readonly string[];
}

/** A workload identity client keeping its tokens in memory. */
export class WorkloadIdentityProvider extends InMemoryGrantProvider {
  readonly grantType = JWT_BEARER_GRANT;
  readonly clientId: string;
  readonly #options: WorkloadIdentityProviderOptions;

  constructor(options: WorkloadIdentityProviderOptions) {
    super();
    if (typeof options.clientId !== 'string' || options.clientId === '') throw new TypeError('createWorkloadIdentityProvider needs a clientId');
    if (options.assertion === undefined && options.getAssertion === undefined) throw new TypeError('createWorkloadIdentityProvider needs assertion or getAssertion');
    this.clientId = options.clientId;
    this.#options = { ...options };
  }

  async requestGrant({ discovery, scopes, fetch, now }: GrantRequest): Promise<OAuthTokens> {
    const as = discovery.authorizationServer;
    requireGrantType(discovery, JWT_BEARER_GRANT);
    const scope = grantScope(this.#options.scope, scopes);
    return jwtBearerGrant({
      tokenEndpoint: as.token_endpoint,
      clientId: this.clientId,
      auth: this.authentication(as),
      assertion: await this.assertion(as.issuer),
      resource: discovery.resource,
      ...(scope !== undefined && { scope }),
      fetch,
      now,
    });
  }

  private authentication(metadata: { issuer: string; token_endpoint_auth_methods_supported?: string[] }): ClientAuthentication {
    const secret = this.#options.clientSecret;
    if (secret === undefined) return { method: 'none' };
    const method = secretAuthMethod(metadata);
    if (method === undefined) {
      throw new AuthorizationError('grant_unsupported', `The authorization server ${metadata.issuer} accepts neither client_secret_basic nor client_secret_post.`, { issuer: metadata.issuer });
    }
    return { method, clientSecret: secret };
  }

  private async assertion(audience: string): Promise<string> {
    const o = this.#options;
    let jwt: unknown;
    try {
      jwt = o.getAssertion ? await o.getAssertion({ audience }) : o.assertion;
    } catch (e) {
      throw new AuthorizationError('provider_failed', `getAssertion failed: ${e instanceof Error ? e.message : String(e)}; check the workload's identity token.`);
    }
    if (typeof jwt !== 'string' || jwt === '') throw new AuthorizationError('provider_failed', 'No workload assertion: getAssertion gave none.');
    return jwt;
  }
}

/**
 * A provider for the transports' `auth` option that gets tokens with the workload's own JWT (JWT
 * bearer grant), after the usual discovery, and again whenever the server answers 401 or the token expires.
 */
export function createWorkloadIdentityProvider(options: WorkloadIdentityProviderOptions): WorkloadIdentityProvider {
  return new WorkloadIdentityProvider(options);
}
