/**
 * mcp-actors: a Model Context Protocol runtime built as an actor system.
 * @see https://modelcontextprotocol.io/specification/2025-11-25
 */
import './crypto/node-digests.js';
export { Client, createClient, type ClientOptions, type CallToolOptions, type ClientWarning, type DiscoveredServer, type InputRoundEvent } from './client.js';
export { MemoryEraCache, sharedEraCache, type EraCache, type EraVerdict } from './client.js';
export * from './client-features/index.js';
export { fileTaskJournal } from './client-features/file-task-journal.js';
export { Server, ServerSession, createServer, type ServerOptions } from './server.js';
export { McpServer, createMcpServer, type McpServerOptions } from './mcp-server.js';
// The official SDK's shapes beside ours, and the not-found error a resource handler throws (issue 16).
export { ResourceTemplate, type ResourceTemplateCallbacks } from './server-features/resource-template.js';
export { ResourceNotFoundError } from './server-features/resources.js';
export { SkillRegistrationError, type SkillSource, type RegisteredSkill } from './server-features/skills.js';
export { AppRegistrationError, type AppResourceConfig } from './server-features/apps.js';
export { APPS_EXTENSION, APP_MIME_TYPE, APPS_PROTOCOL_VERSION, appsCapability, clientRendersApps, appContentSecurityPolicy, appToolMeta, type AppCsp, type AppPermissions, type AppResourceMeta, type AppToolMeta, type AppToolVisibility } from './protocol/apps.js';
export { SKILLS_EXTENSION, SkillFrontmatterError, MAX_SKILL_FILES, MAX_SKILL_BYTES, type Skill, type SkillResource } from './protocol/skills.js';
export { readSkillDirectory } from './server-features/skill-directory.js';
export { serveDirectory, type ServeDirectoryOptions, type ResourceTemplateRegistrar } from './server-features/file-resources.js';
export type { Listing, ListParams, CallToolParams } from './client-features/sdk-shapes.js';
export type { RawShape, InferShape, StandardSchemaV1 } from './server-features/json-schema.js';
export { text, image, audio, resourceLink, embeddedResource } from './server-features/content.js';
export type { ToolHandle, ToolHandler } from './server-features/tools.js';
export type { PromptHandle, PromptHandler } from './server-features/prompts.js';
export type { FeatureContext } from './server-features/context.js';
export { InvalidLogMessageError, LoggingConfigurationError, RequestLogLevelError, type Logger, type LogRedaction } from './server-features/logging.js';
export type { ServerDiagnostic } from './server-features/diagnostics.js';
export type { CursorScope } from './server-features/session-cursors.js';
export { completeFrom, rankCompletions, type CompleteFromOptions } from './server-features/complete-from.js';
export { trackRoots, RootsTracker, OutsideRootsError, rootContaining, type KnownRoots } from './server-features/roots-cache.js';
export { runChain, type Interceptor, type InterceptedRequest, type InterceptorCaller, type InterceptorNext, type ChainObserver } from './server-features/interceptors/chain.js';
export { runClientChain, type ClientInterceptor, type ClientInterceptorNext, type OutgoingRequest } from './client-features/interceptors/chain.js';
export { logging, type InterceptLogEntry, type InterceptLogger, type LoggingOptions } from './server-features/interceptors/logging.js';
export { rateLimitPerCaller, RateLimitedError, RATE_LIMITED, type RateLimitOptions } from './server-features/interceptors/rate-limit.js';
export { redactArguments, REDACTED } from './server-features/interceptors/redact.js';
export { retry, isTransportFailure, RETRYABLE_CODES, type RetryOptions } from './client-features/interceptors/retry.js';
export {
  completeElicitation,
  completeElicitationFor,
  ElicitationIdentityError,
  type ElicitationCompleter,
  type SampleOptions,
} from './server-features/client-calls.js';
export * from './session/session.js';
export * from './errors.js';
export { ErrorCode } from './jsonrpc/error-codes.js';
export type * from './jsonrpc/message.js';
export { systemClock, ManualClock, type Clock } from './clock.js';
export { Journal } from './journal/journal.js';
export type * from './journal/entry.js';
export { replay, type ReplayOptions, type ReplayResult } from './journal/replay.js';
export { listen, type ListenOptions, type Listening } from './http/listen.js';
export { serveFetch, type FetchHandler, type ServeFetchOptions, type ServedFetch } from './http/serve-fetch.js';
// The protocol's own types; `ProgressToken` comes from the session module above.
export * from './protocol/revisions.js';
export * from './protocol/methods.js';
export * from './protocol/meta-key.js';
export type * from './protocol/schema/index.js';
export * from '../streams/index.js';
export * from './host.js';
// Authorization, client and resource server (also at the `./auth` entry point).
export * from './auth/index.js';
// Revision 2026-07-28 on the server (the request-scoped core, MRTR state, listen events).
export { RequestCore, type ModernOptions, type CacheHint } from './modern/request-core.js';
export { RequestStateCodec, InMemoryReplayGuard, InvalidRequestStateError, type ReplayGuard, type RequestStateOptions } from './modern/request-state.js';
export { InMemoryServerEventBus, type ServerEvent, type ServerEventBus } from './modern/server-events.js';
export { EnvelopeRefusal, type Envelope } from './modern/envelope.js';
export { MissingClientCapabilityError } from './server-features/client-calls.js';
// The tasks extension (io.modelcontextprotocol/tasks) on 2026-07-28 requests.
export { TASKS_EXTENSION, startTask, declaresTasksExtension } from './tasks/modern-tasks.js';
export type { ExtensionMethod } from './modern/request-core.js';
// What the processes of one deployment share (`store` option; on Redis: `mcp-actors/redis`).
export type { ServerStore } from './server-store.js';
// Task stores (the `tasks.store` option, or a store's `tasks` part).
export { MemoryTaskStore, type MemoryTaskStoreOptions } from './tasks/memory-task-store.js';
export { TaskLimitError, InvalidTaskCursorError, type TaskStore, type NewTask, type TaskLookup, type TaskPage, type TaskChange, type TaskInput } from './tasks/task-store.js';
export type { TaskRecord, TaskEffect, TaskMachineEvent, TaskOutcome, TaskStatusName } from './tasks/task-record.js';
export type { TaskAuditEvent } from './tasks/task-audit.js';
