/**
 * Machine-to-machine authorization: the MCP client is its own resource owner and gets tokens
 * with the client credentials grant, authenticated by a secret (`client_secret_basic` or
 * `client_secret_post`) or by a signed JWT (`private_key_jwt`, ES256 or RS256).
 *
 * ```ts
 * const auth = createClientCredentialsProvider({ clientId: 'reporting-bot', clientSecret: process.env.SECRET! });
 * await client.connect(createStreamableHttpClientTransport(url, { auth }));
 * ```
 *
 * @see https://datatracker.ietf.org/doc/html/draft-ietf-oauth-v2-1-13#section-4.2
 * @see https://www.rfc-editor.org/rfc/rfc7523.html#section-2.2
 */
import { AuthorizationError } from './authorization-errors.js';
import { InMemoryGrantProvider, grantScope, requireGrantType, type GrantRequest } from './grant-provider.js';
import { clientCredentialsGrant } from './grants/client-credentials.js';
import type { JwtAlgorithm } from './grants/jwt-assertion.js';
import { secretAuthMethod, type ClientAuthentication, type OAuthTokens } from './token-endpoint.js';

interface CommonOptions {
  clientId: string;
  /** Scopes to ask for besides those the server's challenge or metadata name. */
  scope?: string | readonly string[];
}

/** A client authenticated by a shared secret. */
export interface ClientSecretCredentials extends CommonOptions {
  clientSecret: string;
  /** Default: `client_secret_basic` unless the server supports only `client_secret_post`. */
  authMethod?: 'client_secret_basic' | 'client_secret_post';
}

/** A client authenticated by a signed assertion (`private_key_jwt`); its audience is the authorization server's issuer. */
export interface PrivateKeyJwtCredentials extends CommonOptions {
  /** PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`). */
  privateKeyPem: string;
  algorithm: JwtAlgorithm;
  /** `kid` of the key, when the server needs it to pick one. */
  keyId?: string;
}

export type ClientCredentialsProviderOptions = ClientSecretCredentials | PrivateKeyJwtCredentials;

/** How this client authenticates at the authorization server of `issuer`. */
export function clientCredentialsAuthentication(
  options: ClientCredentialsProviderOptions,
  metadata: { issuer: string; token_endpoint_auth_methods_supported?: string[] },
): ClientAuthentication {
  const supported = metadata.token_endpoint_auth_methods_supported;
  if ('privateKeyPem' in options) {
    if (supported !== undefined && !supported.includes('private_key_jwt')) throw unsupportedMethod(metadata.issuer, 'private_key_jwt', supported);
    return { method: 'private_key_jwt', privateKeyPem: options.privateKeyPem, algorithm: options.algorithm, audience: metadata.issuer, ...(options.keyId !== undefined && { keyId: options.keyId }) };
  }
  const method = options.authMethod ?? secretAuthMethod(metadata);
  if (method === undefined) throw unsupportedMethod(metadata.issuer, 'client_secret_basic or client_secret_post', supported ?? []);
  return { method, clientSecret: options.clientSecret };
}

function unsupportedMethod(issuer: string, method: string, supported: readonly string[]): AuthorizationError {
  return new AuthorizationError(
    'grant_unsupported',
    `The authorization server ${issuer} does not accept ${method} client authentication (it supports ${supported.join(', ') || 'none'}); configure the client with credentials of a supported kind.`,
    { issuer, supported },
  );
}

/** A client credentials client keeping its tokens in memory. */
export class ClientCredentialsProvider extends InMemoryGrantProvider {
  readonly grantType = 'client_credentials';
  readonly clientId: string;
  readonly #options: ClientCredentialsProviderOptions;

  constructor(options: ClientCredentialsProviderOptions) {
    super();
    if (typeof options.clientId !== 'string' || options.clientId === '') throw new TypeError('createClientCredentialsProvider needs a clientId');
    if (!('privateKeyPem' in options) && typeof options.clientSecret !== 'string') throw new TypeError('createClientCredentialsProvider needs a clientSecret or a privateKeyPem');
    this.clientId = options.clientId;
    this.#options = { ...options };
  }

  requestGrant({ discovery, scopes, fetch, now, dpop }: GrantRequest): Promise<OAuthTokens> {
    requireGrantType(discovery, this.grantType);
    return clientCredentialsGrant({
      tokenEndpoint: discovery.authorizationServer.token_endpoint,
      clientId: this.clientId,
      auth: clientCredentialsAuthentication(this.#options, discovery.authorizationServer),
      resource: discovery.resource,
      scope: grantScope(this.#options.scope, scopes),
      fetch,
      now,
      ...(dpop && { dpop }),
    });
  }
}

/**
 * A provider for the transports' `auth` option that gets tokens with the client credentials
 * grant, after the usual discovery, and again whenever the server answers 401 or the token expires.
 */
export function createClientCredentialsProvider(options: ClientCredentialsProviderOptions): ClientCredentialsProvider {
  return new ClientCredentialsProvider(options);
}
