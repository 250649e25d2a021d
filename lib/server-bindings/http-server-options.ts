/**
 * The Streamable HTTP handler's options, what the handler offers besides handling a request, its
 * defaults, and the ids its SSE events carry (`<tag>.<stream>.<seq>`).
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http
 */
import type { HttpRequestIn, HttpResponseOut } from '../../streams/http-shape.js';
import { type Clock } from '../clock.js';
import type { RequestId } from '../jsonrpc/message.js';
import { type ParamHeaderLookup } from './modern-http.js';
import type { ServerSession } from '../server.js';
import type { Authenticate, AuthorizeMessages } from '../../streams/http-auth.js';
import type { EventStore } from '../../streams/event-store.js';
import type { HttpSessionStore } from './http-cluster.js';
import { type LegacySseOptions } from './legacy-sse-server.js';

/** CORS for browser clients (off by default). */
export interface CorsOptions {
  /** `Access-Control-Max-Age` of preflight answers, in seconds. Default 600. */
  maxAgeSeconds?: number;
  /** Send `Access-Control-Allow-Credentials: true`. Default false. */
  allowCredentials?: boolean;
}

export interface StreamableHttpOptions {
  /**
   * 2026-07-28: the `x-mcp-header` parameters of a tool, checked against `Mcp-Param-*` headers
   * (an McpServer's HTTP handler supplies them from its tools' input schemas).
   */
  paramHeaders?: ParamHeaderLookup;
  /** The MCP endpoint path. Default `/mcp`. */
  path?: string;
  /**
   * How a POST with requests is answered: `json` (one JSON body; messages related to the request
   * that come before the result go on the GET stream), `sse` (always an SSE stream), `auto` (JSON
   * unless the handler sends something related to the request before its result). Default `auto`.
   */
  responseMode?: 'json' | 'sse' | 'auto';
  /**
   * No sessions: no `Mcp-Session-Id`, no GET stream, no DELETE; each POST is served by a fresh
   * ServerSession (an `initialize` normally; anything else as if initialized with the revision of
   * the `MCP-Protocol-Version` header, default 2025-03-26). Default false.
   */
  stateless?: boolean;
  /** A session without open HTTP exchanges for this long is terminated. Default 30 minutes; `Infinity` never. */
  sessionIdleTtlMs?: number;
  /**
   * An idle session with nothing in flight (no request, no open stream, no pending request to the
   * client) for this long hibernates: only a compact record of it stays (id, revision, client
   * info and capabilities, auth binding, stream counters; its `ServerSession` with log level and
   * subscriptions), and its next request revives it unchanged. It is still open (`sessions$`
   * shows no close, `sessionCount` counts it) and expires as before. Sessions shared through a
   * store, stateless handlers and sessions with an inspector or a keep-alive never hibernate.
   * `session.transportState$` follows the transport it was read from: a revived session has a
   * new one (read it again). Default 1000 ms; `false`: never.
   * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#session-management
   */
  hibernateAfterMs?: number | false;
  /** Offer the standalone SSE stream on GET. Default true (false: GET → 405). */
  standaloneSse?: boolean;
  /** Let clients terminate sessions with DELETE. Default true (false: DELETE → 405). */
  allowDelete?: boolean;
  /** DNS rebinding protection: accepted `Host` values (see `streams/http-security.ts`). */
  allowedHosts?: string[];
  /** DNS rebinding protection: accepted `Origin` values; `'*'` accepts any. */
  allowedOrigins?: string[];
  /**
   * The reverse proxies in front of this server whose `Forwarded` (RFC 7239) or `X-Forwarded-For`
   * header names the client, by IP address (`10.0.0.2`, `2001:db8::2`) or CIDR range (`10.0.0.0/8`,
   * `fd00::/8`): a request from one of them is the client it forwards (OpenTelemetry's
   * `client.address` / `client.port`). An IPv4 entry also matches a dual-stack socket's
   * IPv4-mapped peer (`::ffff:10.1.2.3`); an IPv6 range never matches an IPv4 peer. Default none: the headers are anyone's to write, so they
   * are never believed unless the request's socket peer is listed here. An entry that is neither
   * (a host name, a prefix length out of range, a range with bits set past its prefix such as
   * `10.1.2.3/8`) throws an `InvalidTrustProxiesError` naming it when the handler is made.
   * @see https://opentelemetry.io/docs/specs/semconv/gen-ai/mcp/#server
   * @see https://www.rfc-editor.org/rfc/rfc7239
   */
  trustProxies?: readonly string[];
  /** CORS: answer preflights and expose `Mcp-Session-Id` to scripts of allowed origins. Default off. */
  cors?: boolean | CorsOptions;
  /** Largest accepted POST body in bytes (413 above). Default 4 MiB. */
  maxBodyBytes?: number;
  /**
   * Time a POST body may take to arrive, in ms, on `clock`: a body still trickling in after it
   * gets 408 and its connection is closed (slowloris). Default 30 000; `Infinity` for none.
   * Slow headers are the node server's business (`headersTimeout`, 60 s by default).
   */
  bodyTimeoutMs?: number;
  /** Authenticates every request; `authInfo` becomes the session transport's `authInfo` (`ctx.authInfo`). */
  authenticate?: Authenticate;
  /**
   * Decides on each POST body, by its JSON-RPC methods, before it reaches the session (e.g.
   * per-method scopes). Default the `authenticate` hook's own `authorizeMessages`, if it has one.
   */
  authorizeMessages?: AuthorizeMessages;
  /** The identity a session is bound to, from `authInfo`. Default `defaultIdentity`. */
  identify?: (authInfo: unknown) => string | undefined;
  /** Interval of SSE keep-alive comments, in ms; false for none. Default 15 000. */
  keepAliveMs?: number | false;
  /**
   * The most unsent text an SSE stream may hold for a client that does not read, in bytes
   * (default 1 MiB; `Infinity` for no limit). Past it the stream is ended and its buffer dropped;
   * a resumable stream is picked up again with `Last-Event-ID` (events are kept in the event store).
   */
  maxSseBufferBytes?: number;
  /** The SSE `retry:` field (client reconnection delay) at the start of each stream; false for none. Default 1000. */
  retryMs?: number | false;
  /** Where sent events are kept for resumption; false: no event ids, no resumption. Default a `MemoryEventStore`. */
  eventStore?: EventStore | false;
  /**
   * Close a request's SSE stream after this many ms without its response, leaving the request
   * running; the client resumes with GET + `Last-Event-ID` and gets the rest (SEP-1699 polling).
   * Only for sessions on a revision that allows it (2025-11-25: the stream was primed). Default off.
   */
  closeSseStreamAfterMs?: number;
  /** Timers (idle TTL, keep-alive, stream closing). Default the system clock. */
  clock?: Clock;
  /** Also serve the 2024-11-05 HTTP+SSE endpoints. Default false; `true` = `{ ssePath: '/sse', messagePath: '/messages' }`. */
  legacySse?: LegacySseOptions | boolean;
  /** Told about failures that have no response to go to (a store that rejects, a handler bug). */
  onError?: (error: Error) => void;
  /**
   * A store shared by every process of a deployment (`createRedisStore` in `mcp-actors/redis`):
   * any process then serves any session's POST, GET and DELETE, without sticky sessions.
   * Sessions, their SSE events and the answers to the server's requests go through it (see
   * `lib/server-bindings/http-cluster.ts`); `eventStore` is then the store's. Default: the server's own
   * `store` option when it has an HTTP part, else none (everything in this process's memory).
   */
  store?: HttpSessionStore;
}

/**
 * The handler: a `(req, res)` request listener with a few extras. `req` and `res` are the shapes
 * of `http-shape.ts`, which node's `IncomingMessage` and `ServerResponse` (and Express', Fastify's
 * raw ones) are as they come.
 */
export interface StreamableHttpHandler extends HandlerExtras {
  (req: HttpRequestIn, res: HttpResponseOut, parsedBody?: unknown): void;
}

/** What every edge's handler carries beside its call: the endpoint, counts, and control. */
export interface HandlerExtras {
  /** The MCP endpoint path. */
  readonly path: string;
  /** Open sessions (Streamable HTTP and legacy). */
  readonly sessionCount: number;
  /** Counters for metrics and tests. */
  readonly stats: HttpServerStats;
  /**
   * Close the SSE stream of a request of `session` now, leaving the request running (SEP-1699);
   * the client resumes it. False when that request has no resumable open stream.
   */
  closeSseStream(session: ServerSession, requestId: RequestId): boolean;
  /** Terminate every session and stop the timers. */
  close(): Promise<void>;
}

export interface HttpServerStats {
  /** Streamable HTTP sessions open now (hibernated ones included). */
  sessions: number;
  /** Of those, hibernated now (see {@link StreamableHttpOptions.hibernateAfterMs}). */
  hibernatedSessions: number;
  /** Legacy HTTP+SSE sessions open now. */
  legacySessions: number;
  /** SSE responses open now (POST streams, GET streams, legacy streams). */
  openStreams: number;
  /** GET requests with Last-Event-ID served so far. */
  resumptions: number;
}

export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
export const DEFAULT_SESSION_IDLE_TTL_MS = 30 * 60 * 1000;
export const DEFAULT_HIBERNATE_AFTER_MS = 1000;
export const DEFAULT_KEEPALIVE_MS = 15_000;
export const DEFAULT_RETRY_MS = 1000;

/** The name of the timer that closes a request stream early (SEP-1699). */
export const CLOSE_STREAM_TIMER_NAME = 'http:close-stream';

/** The header naming a session. */
export const SESSION_HEADER = 'mcp-session-id';

/** `<tag>.<stream>.<seq>` → its parts, or undefined. */
export function parseEventId(id: string): { tag: string; stream: number; seq: number } | undefined {
  const m = /^([0-9a-z]+)\.(\d{1,9})\.(\d{1,15})$/.exec(id);
  if (m === null) return undefined;
  return { tag: m[1], stream: Number(m[2]), seq: Number(m[3]) };
}
