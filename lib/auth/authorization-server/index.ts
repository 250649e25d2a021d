/**
 * An authorization server for MCP servers (on the optional peer dependency `oidc-provider`).
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization
 */
export { createAuthorizationServer, type AuthorizationServer, type AuthorizationServerOptions, type ProtectedResource } from './authorization-server.js';
export { memoryAccounts, type Account, type AccountStore } from './accounts.js';
export { memoryAdapter } from './memory-adapter.js';
export type { UpstreamProvider, UpstreamIdentity } from './upstream.js';
