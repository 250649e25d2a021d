/**
 * An MCP server as an OAuth 2.1 resource server: the bearer-token hook, the Protected Resource
 * Metadata handler, and an introspection-based verifier.
 * @see https://modelcontextprotocol.io/specification/draft/basic/authorization
 */
export { requireBearerAuth, type BearerAuthOptions, type BearerAuthenticate } from './bearer-auth.js';
export { InvalidTokenError, bearerAuthInfo, type AuthInfo, type VerifiedToken, type VerifyAccessToken, type VerifyContext } from './auth-info.js';
export { PROTECTED_RESOURCE_WELL_KNOWN, protectedResourceMetadataUrl, type ProtectedResourceMetadata } from '../protected-resource-metadata.js';
export {
  createProtectedResourceMetadataHandler,
  createProtectedResourceMetadataFetchHandler,
  protectedResourceMetadata,
  type ProtectedResourceMetadataHandler,
  type ProtectedResourceMetadataFetchHandler,
  type ProtectedResourceMetadataOptions,
  type ServedProtectedResourceMetadata,
} from './protected-resource-handler.js';
export { impliedScopes, OFFLINE_ACCESS, type ScopeHierarchy } from './scope-hierarchy.js';
export { introspectionVerifier, type IntrospectionVerifierOptions } from './introspection.js';
export { checkDpopProof, DpopReplayCache, InvalidDpopProofError, type DpopProofCheck } from './dpop-proof.js';
