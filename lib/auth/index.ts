/**
 * The client side of MCP authorization (OAuth 2.1): discovery, registration, PKCE, the token
 * endpoint, scope selection, and {@link OAuthClient}, which runs the flow for a transport.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization
 */
export * from './authorization-server-metadata.js';
export * from './canonical-resource.js';
export * from './client-registration.js';
export * from './discovery.js';
export * from './errors.js';
export * from './oauth-client.js';
export * from './pkce.js';
export * from './protected-resource-metadata.js';
export * from './provider.js';
export * from './scope-selection.js';
export * from './token-endpoint.js';
export * from './www-authenticate.js';
