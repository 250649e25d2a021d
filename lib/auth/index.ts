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
export * from './authorization-server-metadata.js';
export * from './canonical-resource.js';
export * from './client-credentials-provider.js';
export * from './client-id-metadata-document.js';
export * from './client-registration.js';
export * from './cross-app-access-provider.js';
export * from './discovery.js';
export * from './dpop.js';
export * from './errors.js';
export * from './grant-provider.js';
export * from './grants/index.js';
export * from './oauth-client.js';
export * from './pkce.js';
export * from './protected-resource-discovery.js';
export * from './protected-resource-metadata.js';
export * from './provider.js';
export * from './scope-selection.js';
export * from './secure-endpoint.js';
export * from './server/index.js';
export * from './token-endpoint.js';
export * from './well-known-document.js';
export * from './www-authenticate.js';
export * from './workload-identity-provider.js';
export * from './authorization-server/index.js';
