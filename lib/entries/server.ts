/**
 * `mcp-actors/server`: the low-level server, its sessions and the Web-standard HTTP handler.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server
 */
export { createServer, Server, type ServerOptions, ServerSession } from '../server.js';
export {
  type Diagnostic,
  type FrameEvent,
  type NotificationHandler,
  type Progress,
  type ProgressRateOptions,
  type ProgressToken,
  type RequestHandler,
  type RequestHandlerContext,
  type RequestOptions,
  type RequestWithProgress,
  type ServerCaller,
  Session,
  type SessionOptions,
  type SessionSnapshot,
} from '../session/session.js';
// The Web-standard HTTP handler (also at `mcp-actors/web`, with what a fetch runtime needs).
export { createMcpFetchHandler, type McpFetchHandler, type McpFetchHandlerOptions } from '../server-bindings/fetch-handler.js';
// A `trustProxies` entry that is neither an address nor a CIDR range, thrown when the handler is made.
export { InvalidTrustProxiesError } from '../server-bindings/forwarded-client.js';
// The code of a task request refused for a limit or the task rate limit (-32090), to match on.
export { TASK_LIMIT_REACHED } from '../tasks/task-limit.js';
// What a session, a handler or a transport throws, and what a handler throws to answer with an error.
export {
  CapabilityError,
  ConnectionClosedError,
  McpError,
  PhaseError,
  RequestCancelledError,
  RequestTimeoutError,
  ResourceNotFoundError,
  TransportError,
  UpstreamFaultError,
  VersionMismatchError,
} from '../errors.js';
