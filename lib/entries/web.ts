/**
 * `mcp-actors/web`: an MCP server for the runtimes that speak fetch (Cloudflare Workers, Vercel,
 * Deno Deploy, Bun, Deno, Hono anywhere, Node). Nothing imported from here loads a `node:`
 * built-in or needs `Buffer`, so Workers need no `nodejs_compat` (request-state HMACs use our own
 * SHA-256, random ids WebCrypto); `serveFetch` takes `node:http` from the runtime only on Node.
 *
 * ```ts
 * import { createMcpServer, createMcpFetchHandler, text } from 'mcp-actors/web';
 * const mcp = createMcpServer({ name: 'hello', version: '1.0.0' });
 * mcp.registerTool('greet', {}, () => ({ content: [text('Hello!')] }));
 * export default { fetch: createMcpFetchHandler(mcp, { allowedHosts: ['mcp.example.com'] }) };
 * ```
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http
 */
export { createMcpFetchHandler, type McpFetchHandler, type McpFetchHandlerOptions } from '../server-bindings/fetch-handler.js';
// A `trustProxies` entry that is neither an address nor a CIDR range, thrown when the handler is made.
export { InvalidTrustProxiesError } from '../server-bindings/forwarded-client.js';
export { serveFetch, type FetchHandler, type ServeFetchOptions, type ServedFetch } from '../http/serve-fetch.js';
export type { HttpRequestHead } from '../../streams/http-shape.js';
export type { AuthFailure, AuthOutcome, Authenticate, AuthorizeMessages } from '../../streams/http-auth.js';
export type { CorsOptions, EventStore, StoredEvent, LegacySseOptions, HttpServerStats } from '../server-bindings/streamable-http-server.js';
export { MemoryEventStore } from '../../streams/event-store.js';
export { McpServer, createMcpServer, type McpServerOptions } from '../mcp-server.js';
export { Server, ServerSession, createServer, type ServerOptions } from '../server.js';
export { ResourceTemplate, type ResourceTemplateCallbacks } from '../server-features/resource-template.js';
export { ResourceNotFoundError } from '../server-features/resources.js';
export { SkillRegistrationError, type SkillSource, type RegisteredSkill } from '../server-features/skills.js';
export { AppRegistrationError, type AppResourceConfig } from '../server-features/apps.js';
export { APPS_EXTENSION, APP_MIME_TYPE, APPS_PROTOCOL_VERSION, appsCapability, clientRendersApps, appContentSecurityPolicy, appToolMeta, type AppCsp, type AppPermissions, type AppResourceMeta, type AppToolMeta, type AppToolVisibility } from '../protocol/apps-extension.js';
export { SKILLS_EXTENSION, SkillFrontmatterError, MAX_SKILL_FILES, MAX_SKILL_BYTES, type Skill, type SkillResource } from '../protocol/skills-extension.js';
export { text, image, audio, resourceLink, embeddedResource } from '../server-features/content.js';
export type { ToolHandle, ToolHandler } from '../server-features/tools.js';
export type { PromptHandle, PromptHandler } from '../server-features/prompts.js';
export type { FeatureContext } from '../server-features/feature-context.js';
export { completeFrom, type CompleteFromOptions } from '../server-features/complete-from.js';
export type { RawShape, InferShape, StandardSchemaV1 } from '../server-features/json-schema.js';
export {
  CapabilityError,
  ConnectionClosedError,
  McpError,
  PhaseError,
  RequestCancelledError,
  RequestTimeoutError,
  TransportError,
  UpstreamFaultError,
  VersionMismatchError,
} from '../errors.js';
export { ErrorCode } from '../jsonrpc/error-codes.js';
export { requireBearerAuth, type BearerAuthOptions, type BearerAuthenticate } from '../auth/server/bearer-auth.js';
export { InvalidTokenError, type AuthInfo, type VerifiedToken, type VerifyAccessToken } from '../auth/server/auth-info.js';
export {
  createProtectedResourceMetadataFetchHandler,
  protectedResourceMetadata,
  type ProtectedResourceMetadataFetchHandler,
  type ProtectedResourceMetadataOptions,
} from '../auth/server/protected-resource-handler.js';
