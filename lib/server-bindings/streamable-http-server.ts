/**
 * The server side of the Streamable HTTP transport (and, beside it, the legacy HTTP+SSE
 * endpoints): one core (routing, Host/Origin checks, CORS, authentication, sessions) over the
 * request and response shapes of `http-shape.ts`. Node's `(req, res)` fit them as they are
 * (`createStreamableHttpHandler`: `http.createServer`, Express, Fastify); a Web `Request` fits
 * through `fetch-shim.ts` (`createMcpFetchHandler` in `fetch-handler.ts`).
 *
 * Each `Mcp-Session-Id` is one {@link HttpSession}: the transport actor of one `ServerSession`,
 * and the executor of `machines/http-session.machine.ts` (idle / busy / terminated, one idle
 * timer). A POST with requests is an {@link Exchange}: it answers with JSON or opens an SSE stream
 * (per `responseMode`), and every message the session sends with a `relatedRequestId` of one of its
 * requests goes on that stream; everything else goes on the standalone GET stream. SSE events
 * carry ids `<tag>.<stream>.<seq>` (the tag is random per session), kept in an {@link EventStore}
 * so a client can resume a stream with `Last-Event-ID`.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http
 * @see https://modelcontextprotocol.io/specification/2025-03-26/basic/transports#streamable-http
 */
import type { Server } from '../server.js';
import type { HttpRequestIn, HttpResponseOut } from '../../streams/http-shape.js';
import { HttpServerCore } from './http-server-core.js';
import type { StreamableHttpHandler, StreamableHttpOptions } from './http-server-options.js';

export type { AuthFailure, AuthOutcome, Authenticate, AuthorizeMessages } from '../../streams/http-auth.js';
export type { EventStore, StoredEvent } from '../../streams/event-store.js';
export { MemoryEventStore } from '../../streams/event-store.js';
export type { LegacySseOptions } from './legacy-sse-server.js';
export type { HttpSessionStore, SessionCluster, SessionRecord } from './http-cluster.js';
export {
  CLOSE_STREAM_TIMER_NAME,
  DEFAULT_KEEPALIVE_MS,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_RETRY_MS,
  DEFAULT_SESSION_IDLE_TTL_MS,
  parseEventId,
  type CorsOptions,
  type HandlerExtras,
  type HttpServerStats,
  type StreamableHttpHandler,
  type StreamableHttpOptions,
} from './http-server-options.js';


/**
 * Create the Streamable HTTP request handler for `server`.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http
 */
export function createStreamableHttpHandler(server: Server, options: StreamableHttpOptions = {}): StreamableHttpHandler {
  const core = new HttpServerCore(server, options);
  const handler = ((req: HttpRequestIn, res: HttpResponseOut, parsedBody?: unknown) => core.handle(req, res, parsedBody)) as StreamableHttpHandler;
  return core.describe(handler);
}

