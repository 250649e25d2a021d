/**
 * MCP authorization (OAuth 2.1), both sides. The client: discovery, registration, PKCE, the
 * token endpoint, scope selection, and {@link OAuthClient}, which runs the flow for a transport
 * with a user's authorization (`createHeadlessOAuthProvider`, `InMemoryOAuthClientProvider`) or
 * without a user (`createClientCredentialsProvider`, `createCrossAppAccessProvider`,
 * `createWorkloadIdentityProvider`). The
 * extension grants (`./grants/`). The resource server (`./server/`): `requireBearerAuth`, the
 * protected resource metadata handler, introspection.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization
 */
export {
  type AuthorizationServerMetadata,
  authorizationServerMetadataUrls,
  discoverAuthorizationServerMetadata,
} from './authorization-server-metadata.js';
export { canonicalResourceUri, resourceCovers, sameResource, serverResourceUri, tryCanonicalResourceUri } from './canonical-resource.js';
export {
  clientCredentialsAuthentication,
  ClientCredentialsProvider,
  type ClientCredentialsProviderOptions,
  type ClientSecretCredentials,
  createClientCredentialsProvider,
  type PrivateKeyJwtCredentials,
} from './client-credentials-provider.js';
export { clientIdMetadataDocument, clientIdMetadataUrlProblem, requireClientIdMetadataUrl } from './client-id-metadata-document.js';
export { applicationTypeFor, type ClientSource, registerClient, registrationAuthMethod, resolveClient } from './client-registration.js';
export { createCrossAppAccessProvider, CrossAppAccessProvider, type CrossAppAccessProviderOptions } from './cross-app-access-provider.js';
export {
  type AuthorizationDiscovery,
  defaultEndpointsMetadata,
  discoverAuthorization,
  type DiscoveryOptions,
  type DiscoverySource,
} from './discovery.js';
export {
  DPOP_ALGORITHM,
  dpopAth,
  dpopHtu,
  type DpopMode,
  type DpopProofInput,
  DpopProver,
  type EcPublicJwk,
  isResourceNonceChallenge,
  useDpopWith,
} from './dpop.js';
export { AuthorizationError, type AuthorizationErrorCode, oauthErrorOf, TokenEndpointError } from './authorization-errors.js';
export {
  type GrantRequest,
  grantScope,
  InMemoryGrantProvider,
  isGrantProvider,
  type OAuthGrantProvider,
  requireGrantType,
} from './grant-provider.js';
export {
  clientAssertion,
  type ClientAssertionOptions,
  clientCredentialsGrant,
  type ClientCredentialsOptions,
  exchangeIdTokenForIdJag,
  ID_JAG_TOKEN_TYPE,
  ID_TOKEN_TYPE,
  type IdJag,
  type IdJagExchangeOptions,
  JWT_BEARER_GRANT,
  type JwtAlgorithm,
  jwtBearerGrant,
  type JwtBearerOptions,
  signJwt,
  type SignJwtOptions,
  TOKEN_EXCHANGE_GRANT,
} from './grants/index.js';
export {
  type HttpClientAuth,
  OAuthClient,
  oauthClientFor,
  type OAuthClientOptions,
  type OAuthClientSnapshot,
} from './oauth-client.js';
export { createPkce, type Pkce, requireS256, s256Challenge } from './pkce.js';
export { discoverProtectedResourceMetadata } from './protected-resource-discovery.js';
export {
  PROTECTED_RESOURCE_WELL_KNOWN,
  type ProtectedResourceMetadata,
  protectedResourceMetadataUrl,
  protectedResourceMetadataUrls,
} from './protected-resource-metadata.js';
export {
  createHeadlessOAuthProvider,
  headlessAuthorize,
  InMemoryOAuthClientProvider,
  type InMemoryOAuthClientProviderOptions,
  type OAuthClientInformation,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type StoredTokens,
} from './provider.js';
export { hasScopes, type ScopeSelectionInput, selectScopes } from './scope-selection.js';
export {
  isLoopbackUrl,
  isSecureOAuthUrl,
  requireSecureAuthorizationServer,
  requireSecureEndpoint,
  requireSecureRedirectUrl,
} from './secure-endpoint.js';
export {
  type AuthInfo,
  type BearerAuthenticate,
  bearerAuthInfo,
  type BearerAuthOptions,
  createProtectedResourceMetadataFetchHandler,
  createProtectedResourceMetadataHandler,
  impliedScopes,
  introspectionVerifier,
  type IntrospectionVerifierOptions,
  InvalidTokenError,
  OFFLINE_ACCESS,
  protectedResourceMetadata,
  type ProtectedResourceMetadataFetchHandler,
  type ProtectedResourceMetadataHandler,
  type ProtectedResourceMetadataOptions,
  requireBearerAuth,
  type ScopeHierarchy,
  type ServedProtectedResourceMetadata,
  type VerifiedToken,
  type VerifyAccessToken,
  type VerifyContext,
} from './server/index.js';
export {
  type ClientAuthentication,
  clientSecretBasicHeader,
  exchangeAuthorizationCode,
  type OAuthTokens,
  parseTokenResponse,
  refreshAccessToken,
  registeredClientAuthentication,
  requestToken,
  secretAuthMethod,
  tokenEndpointAuthMethod,
  type TokenEndpointAuthMethod,
  type TokenRequestOptions,
  type TokenResponse,
} from './token-endpoint.js';
export { type DocumentOutcome, fetchMetadataDocument, isStringArray } from './well-known-document.js';
export {
  type AuthChallenge,
  bearerChallenge,
  type BearerChallenge,
  formatBearerChallenge,
  parseWwwAuthenticate,
  resourceChallenge,
  sanitizeErrorDescription,
} from './www-authenticate.js';
export { createWorkloadIdentityProvider, WorkloadIdentityProvider, type WorkloadIdentityProviderOptions } from './workload-identity-provider.js';
export {
  type Account,
  type AccountStore,
  type AuthorizationServer,
  type AuthorizationServerOptions,
  createAuthorizationServer,
  memoryAccounts,
  memoryAdapter,
  type ProtectedResource,
} from './authorization-server/index.js';
