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
import { randomBytes } from '../crypto/random.js';
import { base64urlEncode, utf8ByteLength } from '../crypto/bytes.js';
import type { HttpRequestIn, HttpHeadersOut, HttpResponseOut } from '../../streams/http-shape.js';
import type { Subscription } from 'rxjs';
import { systemClock, type Clock } from '../clock.js';
import { TransportError } from '../errors.js';
import { classifyValue } from '../jsonrpc/codec.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import type { Frame, JsonObject, JsonRpcMessage, JsonRpcRequest, JsonRpcResponse, RequestId } from '../jsonrpc/message.js';
import { eraOf } from '../modern/classify.js';
import { serveModernPost, type ModernPostOptions, type ParamHeaderLookup } from './modern-http.js';
import { REVISION_WITHOUT_VERSION_HEADER, allows, isLegacyRevision, isModernRevision, isSupportedRevision, MODERN_REVISIONS } from '../protocol/revisions.js';
import type { Server, ServerSession } from '../server.js';
import type { InvalidInbound, SingleInbound } from '../../streams/inbound.js';
import { defaultIdentity, messagesOf, methodsOf, writeAuthFailure, type Authenticate, type AuthorizeMessages, type AuthOutcome, type Caller } from '../../streams/http-auth.js';
import { DEFAULT_BODY_TIMEOUT_MS, acceptedTypes, errorBody, isJsonContentType, readJsonBody, writeEmpty, writeError, writeJson, type BodyDeadline } from '../../streams/http-body.js';
import { HostOriginGuard } from '../../streams/http-security.js';
import { refusesMalformedHeader } from '../../streams/http-malformed-header.js';
import { STORE_RETRY_AFTER_SECONDS, storeOutageResponse, storeUnavailable } from '../../streams/store-outage.js';
import { HttpSessionLifecycle } from '../../streams/http-session.js';
import { KeepAliveTicker, SseSink } from '../../streams/http-sse-sink.js';
import { MemoryEventStore, type EventStore } from '../../streams/event-store.js';
import { ClusterSessions, type TouchNeeds } from './http-cluster-sessions.js';
import type { HttpSessionStore } from './http-cluster.js';
import { LegacySseEndpoints, type LegacySseOptions } from './legacy-sse-server.js';
import { HotInbound, StateCell } from '../../streams/memory.js';
import { SSE_HEADERS, sseEvent, sseStreamStart } from '../../streams/sse-encode.js';
import type { RawFrame, SendOptions, Transport, TransportPeer } from '../../streams/transport.js';

export type { AuthFailure, AuthOutcome, Authenticate, AuthorizeMessages } from '../../streams/http-auth.js';
export type { EventStore, StoredEvent } from '../../streams/event-store.js';
export { MemoryEventStore } from '../../streams/event-store.js';
export type { LegacySseOptions } from './legacy-sse-server.js';
export type { HttpSessionStore, SessionCluster, SessionRecord } from './http-cluster.js';

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
  /** Offer the standalone SSE stream on GET. Default true (false: GET → 405). */
  standaloneSse?: boolean;
  /** Let clients terminate sessions with DELETE. Default true (false: DELETE → 405). */
  allowDelete?: boolean;
  /** DNS rebinding protection: accepted `Host` values (see `streams/http-security.ts`). */
  allowedHosts?: string[];
  /** DNS rebinding protection: accepted `Origin` values; `'*'` accepts any. */
  allowedOrigins?: string[];
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
  /** The identity a session is bound to, from `authInfo`. Default {@link defaultIdentity}. */
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
  /** Where sent events are kept for resumption; false: no event ids, no resumption. Default a {@link MemoryEventStore}. */
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
  /** Streamable HTTP sessions open now. */
  sessions: number;
  /** Legacy HTTP+SSE sessions open now. */
  legacySessions: number;
  /** SSE responses open now (POST streams, GET streams, legacy streams). */
  openStreams: number;
  /** GET requests with Last-Event-ID served so far. */
  resumptions: number;
}

export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
export const DEFAULT_SESSION_IDLE_TTL_MS = 30 * 60 * 1000;
export const DEFAULT_KEEPALIVE_MS = 15_000;
export const DEFAULT_RETRY_MS = 1000;

/** The name of the timer that closes a request stream early (SEP-1699). */
export const CLOSE_STREAM_TIMER_NAME = 'http:close-stream';

const SESSION_HEADER = 'mcp-session-id';

/**
 * Create the Streamable HTTP request handler for `server`.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http
 */
export function createStreamableHttpHandler(server: Server, options: StreamableHttpOptions = {}): StreamableHttpHandler {
  const core = new HttpServerCore(server, options);
  const handler = ((req: HttpRequestIn, res: HttpResponseOut, parsedBody?: unknown) => core.handle(req, res, parsedBody)) as StreamableHttpHandler;
  return core.describe(handler);
}

// ------------------------------------------------------------------------------------------------
// The core: routing, checks, sessions

/** @internal Shared by the Streamable HTTP and legacy endpoints. */
export class HttpServerCore {
  readonly path: string;
  readonly sessions = new Map<string, HttpSession>();
  readonly clock: Clock;
  readonly ticker: KeepAliveTicker;
  readonly store: EventStore | undefined;
  readonly responseMode: 'json' | 'sse' | 'auto';
  readonly stateless: boolean;
  readonly idleTtlMs: number;
  readonly retryMs: number | undefined;
  readonly closeStreamAfterMs: number | undefined;
  readonly maxBodyBytes: number;
  /** See {@link StreamableHttpOptions.bodyTimeoutMs}. */
  readonly bodyDeadline: BodyDeadline;
  readonly standaloneSse: boolean;
  readonly allowDelete: boolean;
  private readonly guard: HostOriginGuard;
  private readonly cors: CorsOptions | undefined;
  private readonly authenticate: Authenticate | undefined;
  private readonly authorizeMessages: AuthorizeMessages | undefined;
  private readonly identify: (authInfo: unknown) => string | undefined;
  private readonly legacy: LegacySseEndpoints | undefined;
  private readonly onError: ((error: Error) => void) | undefined;
  private readonly capture: Subscription;
  /** The ServerSession `server.connect` created last (it announces it synchronously). */
  private lastConnected: ServerSession | undefined;
  private closed = false;
  /** GET requests with Last-Event-ID served. */
  resumptions = 0;
  private readonly modernOptions: ModernPostOptions;
  /** Sessions shared with other processes through a store (undefined: this process only). */
  readonly cluster: ClusterSessions<HttpSession> | undefined;

  constructor(
    readonly server: Server,
    options: StreamableHttpOptions,
  ) {
    this.path = options.path ?? '/mcp';
    this.clock = options.clock ?? systemClock;
    this.responseMode = options.responseMode ?? 'auto';
    this.stateless = options.stateless ?? false;
    this.idleTtlMs = options.sessionIdleTtlMs ?? DEFAULT_SESSION_IDLE_TTL_MS;
    this.retryMs = options.retryMs === false ? undefined : (options.retryMs ?? DEFAULT_RETRY_MS);
    this.closeStreamAfterMs = options.closeSseStreamAfterMs;
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.bodyDeadline = { clock: this.clock, ms: options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS };
    this.standaloneSse = options.standaloneSse ?? true;
    this.allowDelete = options.allowDelete ?? true;
    const shared = options.store ?? httpStoreOf(server.options.store);
    this.store = shared !== undefined ? shared.httpSessions.events : options.eventStore === false ? undefined : (options.eventStore ?? new MemoryEventStore());
    this.ticker = new KeepAliveTicker(this.clock, options.keepAliveMs === false ? undefined : (options.keepAliveMs ?? DEFAULT_KEEPALIVE_MS), options.maxSseBufferBytes);
    this.guard = new HostOriginGuard({ allowedHosts: options.allowedHosts, allowedOrigins: options.allowedOrigins });
    this.cors = options.cors === true ? {} : options.cors === false ? undefined : options.cors;
    this.authenticate = options.authenticate;
    this.authorizeMessages = options.authorizeMessages ?? options.authenticate?.authorizeMessages;
    this.identify = options.identify ?? defaultIdentity;
    this.onError = options.onError;
    const legacy = options.legacySse === true ? {} : options.legacySse === false ? undefined : options.legacySse;
    if (legacy !== undefined && !server.servesLegacy) {
      throw new Error('legacySse: this server speaks only 2026-07-28 (supportedVersions), which has no HTTP+SSE endpoints; leave legacySse off');
    }
    this.legacy = legacy === undefined ? undefined : new LegacySseEndpoints(this, legacy);
    this.capture = server.sessions$.subscribe((s) => (this.lastConnected = s));
    this.modernOptions = { report: (e) => this.report(e), paramHeaders: options.paramHeaders ?? ((tool) => server.paramHeaders?.(tool)), ticker: this.ticker };
    this.cluster = shared !== undefined && !this.stateless ? new ClusterSessions(this, shared.httpSessions) : undefined;
  }

  legacyCount(): number {
    return this.legacy?.size ?? 0;
  }

  /** Gives an edge's handler function (node's or fetch's) the handler's extras: path, counts, stats, close. */
  describe<H extends object>(handler: H): H & HandlerExtras {
    Object.defineProperties(handler, {
      path: { value: this.path, enumerable: true },
      sessionCount: { get: () => this.sessions.size + this.legacyCount(), enumerable: true },
      stats: {
        get: (): HttpServerStats => ({
          sessions: this.sessions.size,
          legacySessions: this.legacyCount(),
          openStreams: this.ticker.size,
          resumptions: this.resumptions,
        }),
        enumerable: true,
      },
      closeSseStream: { value: (session: ServerSession, requestId: RequestId) => this.closeSseStream(session, requestId) },
      close: { value: () => this.close() },
    });
    return handler as H & HandlerExtras;
  }

  /** Report a failure nobody else hears about. */
  report(error: unknown): void {
    const e = error instanceof Error ? error : new Error(String(error));
    if (this.onError) this.onError(e);
  }

  /**
   * Connect a transport to the server; the ServerSession is subscribed (and waiting for
   * initialize) when this returns.
   */
  connect(transport: Transport & { serverSession: ServerSession | undefined }): Promise<ServerSession> {
    this.lastConnected = undefined;
    const pending = this.server.connect(transport);
    // `Server.connect` announces the session on `sessions$` before it awaits anything, so the
    // session is known at once; the promise is the fallback should that ever change.
    transport.serverSession = this.lastConnected as ServerSession | undefined;
    this.lastConnected = undefined;
    pending.then(
      (s) => (transport.serverSession ??= s),
      (e: unknown) => this.report(e),
    );
    return pending;
  }

  handle(req: HttpRequestIn, res: HttpResponseOut, parsedBody: unknown): void {
    try {
      // Express and Connect pass `next` third: a function is never a parsed body (`req.body`, set by
      // express.json(), is read in http-body.ts).
      if (parsedBody !== undefined && typeof parsedBody !== 'function') req.body = parsedBody;
      const url = req.originalUrl ?? req.url ?? '/';
      const q = url.indexOf('?');
      const pathname = q < 0 ? url : url.slice(0, q);
      let endpoint: 'mcp' | 'sse' | 'messages';
      if (pathname === this.path) endpoint = 'mcp';
      else if (this.legacy !== undefined && pathname === this.legacy.ssePath) endpoint = 'sse';
      else if (this.legacy !== undefined && pathname === this.legacy.messagePath) endpoint = 'messages';
      else {
        writeError(res, 404, ErrorCode.InvalidRequest, `Not Found: the MCP endpoint is ${this.path}`);
        return;
      }
      if (refusesMalformedHeader(req, res, this.maxBodyBytes, this.bodyDeadline)) return;
      const refused = this.guard.check(req);
      if (refused !== undefined) {
        writeError(res, 403, ErrorCode.InvalidRequest, refused);
        return;
      }
      if (this.cors !== undefined && req.headers.origin !== undefined) {
        this.corsHeaders(req, res);
        if (req.method === 'OPTIONS') {
          this.preflight(req, res);
          return;
        }
      }
      if (this.closed) {
        writeError(res, 503, ErrorCode.InvalidRequest, 'Service Unavailable: the server is shutting down');
        return;
      }
      if (this.authenticate === undefined) {
        this.route(endpoint, req, res, undefined);
        return;
      }
      let outcome: AuthOutcome | Promise<AuthOutcome>;
      try {
        outcome = this.authenticate(req);
      } catch (e) {
        this.internalError(res, e);
        return;
      }
      if (isPromise(outcome)) outcome.then((o) => this.authenticated(endpoint, req, res, o), (e: unknown) => this.internalError(res, e));
      else this.authenticated(endpoint, req, res, outcome);
    } catch (e) {
      this.internalError(res, e);
    }
  }

  private authenticated(endpoint: 'mcp' | 'sse' | 'messages', req: HttpRequestIn, res: HttpResponseOut, outcome: AuthOutcome): void {
    try {
      if (!outcome.ok) {
        writeAuthFailure(res, outcome);
        return;
      }
      this.route(endpoint, req, res, { authInfo: outcome.authInfo, identity: this.identify(outcome.authInfo) });
    } catch (e) {
      this.internalError(res, e);
    }
  }

  /**
   * The per-message step of authorization on a parsed POST body: true after answering a refusal
   * (nothing of the body reaches the session).
   */
  refusesMessages(res: HttpResponseOut, value: unknown, caller: Caller | undefined): boolean {
    if (this.authorizeMessages === undefined) return false;
    const refused = this.authorizeMessages(methodsOf(value), caller?.authInfo, messagesOf(value));
    if (refused === undefined) return false;
    writeAuthFailure(res, refused);
    return true;
  }

  private route(endpoint: 'mcp' | 'sse' | 'messages', req: HttpRequestIn, res: HttpResponseOut, caller: Caller | undefined): void {
    if (endpoint === 'sse') {
      if (req.method === 'GET') this.legacy!.get(req, res, caller);
      else this.methodNotAllowed(res, 'GET');
      return;
    }
    if (endpoint === 'messages') {
      if (req.method === 'POST') this.legacy!.post(req, res, caller);
      else this.methodNotAllowed(res, 'POST');
      return;
    }
    switch (req.method) {
      case 'POST':
        this.post(req, res, caller);
        return;
      case 'GET':
      case 'DELETE':
        // A modern-only server has no sessions to stream or end (2026-07-28, backward compatibility).
        if (!this.server.servesLegacy) this.methodNotAllowed(res, 'POST');
        else if (req.method === 'GET') this.get(req, res, caller);
        else this.delete(req, res, caller);
        return;
      default:
        this.methodNotAllowed(res, this.allowedMethods());
    }
  }

  private allowedMethods(): string {
    if (this.stateless || !this.server.servesLegacy) return 'POST';
    return ['POST', this.standaloneSse ? 'GET' : '', this.allowDelete ? 'DELETE' : ''].filter((m) => m !== '').join(', ');
  }

  methodNotAllowed(res: HttpResponseOut, allow: string): void {
    writeError(res, 405, ErrorCode.InvalidRequest, `Method Not Allowed: this endpoint accepts ${allow}`, { allow });
  }

  internalError(res: HttpResponseOut, e: unknown, id: RequestId | null = null): void {
    this.report(e);
    // A store outage is said as such, with a retry hint; its own message may name
    // hosts or credentials, so it goes to the report only.
    if (!res.headersSent && storeUnavailable(e)) {
      writeJson(res, 503, JSON.stringify(storeOutageResponse(id, e)), { 'retry-after': String(STORE_RETRY_AFTER_SECONDS) });
    } else if (!res.headersSent) writeError(res, 500, ErrorCode.InternalError, 'Internal Server Error', undefined, id);
    else if (!res.writableEnded) res.end();
  }

  // ---------------------------------------------------------------------------------- CORS

  private corsHeaders(req: HttpRequestIn, res: HttpResponseOut): void {
    // The Origin passed the DNS rebinding check already; echo it.
    res.setHeader('access-control-allow-origin', req.headers.origin!);
    res.setHeader('vary', 'Origin');
    res.setHeader('access-control-expose-headers', 'Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate');
    if (this.cors!.allowCredentials) res.setHeader('access-control-allow-credentials', 'true');
  }

  private preflight(req: HttpRequestIn, res: HttpResponseOut): void {
    const requested = req.headers['access-control-request-headers'];
    writeEmpty(res, 204, {
      'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
      'access-control-allow-headers':
        typeof requested === 'string' && requested !== ''
          ? requested
          : 'Content-Type, Accept, Authorization, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID',
      'access-control-max-age': String(this.cors!.maxAgeSeconds ?? 600),
    });
  }

  // ---------------------------------------------------------------------------------- sessions

  /** The request's `Mcp-Session-Id`, or undefined after answering 400. */
  private sessionIdOf(req: HttpRequestIn, res: HttpResponseOut): string | undefined {
    const id = req.headers[SESSION_HEADER];
    if (typeof id !== 'string' || id === '') {
      writeError(res, 400, ErrorCode.InvalidRequest, 'Bad Request: the Mcp-Session-Id header is required (send initialize first to get one)');
      return undefined;
    }
    return id;
  }

  /**
   * Call `then` with the session named `id`, or answer 404. With a shared store the session is
   * looked up there (renewed, and built here if this process has no copy of it yet).
   */
  private withSession(
    id: string,
    res: HttpResponseOut,
    caller: Caller | undefined,
    needs: TouchNeeds,
    then: (session: HttpSession, streamNo?: number) => void,
    requestId: RequestId | null = null,
  ): void {
    if (this.cluster === undefined) {
      const session = this.lookup(id, res, caller);
      if (session !== undefined) then(session);
      return;
    }
    this.cluster.resolve(id, caller, needs).then(
      (found) => {
        if (res.destroyed) return;
        if (found === undefined) writeError(res, 404, ErrorCode.InvalidRequest, 'Not Found: no such session (it may have expired or been terminated); initialize a new one');
        else then(found.session, found.streamNo);
      },
      (e: unknown) => this.internalError(res, e, requestId),
    );
  }

  /** @internal A copy of a session another process created (see ClusterSessions). */
  replica(id: string, tag: string, caller: Caller | undefined): HttpSession {
    const session = new HttpSession(this, id, tag, this.idleTtlMs, caller);
    this.sessions.set(id, session);
    void this.connect(session);
    return session;
  }

  private lookup(id: string, res: HttpResponseOut, caller: Caller | undefined): HttpSession | undefined {
    const session = this.sessions.get(id);
    // Another identity's session is answered exactly like an unknown one: no oracle, and a
    // compliant client starts its own session on 404.
    if (session === undefined || session.lifecycle === 'terminated' || session.identity !== caller?.identity) {
      writeError(res, 404, ErrorCode.InvalidRequest, 'Not Found: no such session (it may have expired or been terminated); initialize a new one');
      return undefined;
    }
    if (caller !== undefined) session.authInfo = caller.authInfo;
    return session;
  }

  /**
   * Checks `MCP-Protocol-Version`. A session that negotiated a revision without the header ignores
   * it; otherwise a value must be a supported revision (400).
   */
  private versionOk(req: HttpRequestIn, res: HttpResponseOut, negotiated: string | undefined): boolean {
    const v = req.headers['mcp-protocol-version'];
    if (v === undefined) return true;
    if (negotiated !== undefined && isSupportedRevision(negotiated) && !allows(negotiated, 'protocolVersionHeader')) return true;
    if (typeof v === 'string' && isLegacyRevision(v)) return true;
    writeError(res, 400, ErrorCode.InvalidRequest, `Bad Request: unsupported MCP-Protocol-Version "${String(v).slice(0, 40)}"`);
    return false;
  }

  private newSession(caller: Caller | undefined, req?: HttpRequestIn): HttpSession {
    const bytes = randomBytes(20);
    // 16 random bytes (128 bits) in base64url: visible ASCII only, as the spec requires.
    const id = base64urlEncode(bytes.subarray(0, 16));
    const tag = new DataView(bytes.buffer, bytes.byteOffset + 16, 4).getUint32(0).toString(36);
    const session = new HttpSession(this, id, tag, this.idleTtlMs, caller);
    if (req !== undefined) session.remote = remoteOf(req);
    this.sessions.set(id, session);
    return session;
  }

  // ---------------------------------------------------------------------------------- POST

  private post(req: HttpRequestIn, res: HttpResponseOut, caller: Caller | undefined): void {
    const accept = acceptedTypes(req.headers.accept);
    if (!accept.json || !accept.sse) {
      writeError(res, 406, ErrorCode.InvalidRequest, 'Not Acceptable: the Accept header must list both application/json and text/event-stream');
      return;
    }
    if (!isJsonContentType(req.headers['content-type'])) {
      writeError(res, 415, ErrorCode.InvalidRequest, 'Unsupported Media Type: the Content-Type must be application/json');
      return;
    }
    let session: HttpSession | undefined;
    const sid = req.headers[SESSION_HEADER];
    const versionHeader = req.headers['mcp-protocol-version'];
    // A modern client sends no session id (and a modern header): its era is decided on the body.
    const maybeModern = typeof versionHeader !== 'string' || !isLegacyRevision(versionHeader);
    // A modern-only server ignores Mcp-Session-Id: it neither mints nor echoes session ids.
    const sessions = !this.stateless && this.server.servesLegacy;
    if (sessions && typeof sid === 'string' && sid !== '' && !maybeModern && this.cluster === undefined) {
      session = this.lookup(sid, res, caller);
      if (session === undefined) return;
      if (!this.versionOk(req, res, session.revision)) return;
    }
    readJsonBody(req, res, this.maxBodyBytes, (value) => {
      try {
        if (session !== undefined && session.lifecycle === 'terminated') {
          writeError(res, 404, ErrorCode.InvalidRequest, 'Not Found: no such session (it may have expired or been terminated); initialize a new one');
          return;
        }
        if (this.refusesMessages(res, value, caller)) return;
        // The era, once, from the body; the header only cross-checks (2026-07-28 versioning). A
        // version claim in the body is modern even under a legacy header: the cross-check then
        // answers it (-32020, or -32022 naming what we speak), not the session checks.
        if (eraOf(value, typeof versionHeader === 'string' ? versionHeader : undefined) === 'modern') {
          serveModernPost(this.server.core, req, res, value, caller?.authInfo, this.modernOptions);
          return;
        }
        if (!this.server.servesLegacy) {
          this.refuseLegacy(res, value, versionHeader);
          return;
        }
        if (session === undefined && sessions && typeof sid === 'string' && sid !== '') {
          if (this.cluster !== undefined) {
            this.withSession(sid, res, caller, touchNeeds(value), (shared, streamNo) => {
              if (this.versionOk(req, res, shared.revision)) shared.post(res, value, false, streamNo);
            }, requestIdOf(value));
            return;
          }
          session = this.lookup(sid, res, caller);
          if (session === undefined || !this.versionOk(req, res, session.revision)) return;
        }
        if (this.stateless) this.postStateless(req, res, value, caller);
        else if (session !== undefined) session.post(res, value);
        else this.postWithoutSession(res, value, caller, versionHeader, req);
      } catch (e) {
        this.internalError(res, e);
      }
    }, this.bodyDeadline, this.server.options.maxFrameDepth);
  }

  /**
   * A legacy-era POST to a modern-only server: a notification is accepted and ignored (as a
   * stateless server does); a request gets 400 and -32022 naming the versions we speak, the only
   * diagnostic a legacy client, which cannot fall forward, can show its user.
   * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning#backward-compatibility-with-initialization-based-versions
   */
  private refuseLegacy(res: HttpResponseOut, value: unknown, versionHeader: string | string[] | undefined): void {
    const kind = classifyValue(value, false);
    if (kind.kind === 'notification') {
      writeEmpty(res, 202);
      return;
    }
    const id = kind.kind === 'request' ? kind.msg.id : null;
    const params = kind.kind === 'request' ? (kind.msg.params as { protocolVersion?: unknown } | undefined) : undefined;
    const requested = typeof params?.protocolVersion === 'string' ? params.protocolVersion : typeof versionHeader === 'string' ? versionHeader : null;
    const message = `This server speaks only ${MODERN_REVISIONS.join(', ')}, which has no initialize and no sessions: send each request with its protocol version in _meta and the MCP-Protocol-Version header (see server/discover)`;
    writeJson(res, 400, errorBody(ErrorCode.UnsupportedProtocolVersion, message, id, { supported: [...MODERN_REVISIONS], requested }));
  }

  /** A POST without `Mcp-Session-Id`: only `initialize` may start a session. */
  private postWithoutSession(res: HttpResponseOut, value: unknown, caller: Caller | undefined, versionHeader: string | string[] | undefined, req?: HttpRequestIn): void {
    // A 2026-07-28 notification (notifications carry no version claim, only the header): accepted
    // with 202 and nothing to act on; a stateless request is cancelled by closing its stream.
    if (isModernRevision(versionHeader)) {
      const inbound = classifyValue(value, false);
      if (inbound.kind === 'notification') {
        writeEmpty(res, 202);
        return;
      }
      // An invalid notification (string params, say): never answered as a message, so no id,
      // but the POST needs an error status and the reason (JSON-RPC's own code for it).
      if (inbound.kind === 'invalid' && !inbound.respond) {
        writeJson(res, 400, JSON.stringify({ jsonrpc: '2.0', error: inbound.error }));
        return;
      }
    }
    if (!isInitializeRequest(value)) {
      if (Array.isArray(value)) {
        writeError(res, 400, ErrorCode.InvalidRequest, 'Invalid Request: JSON-RPC batches are only allowed when protocol revision 2025-03-26 is negotiated, and initialize must not be batched');
      } else {
        writeError(res, 400, ErrorCode.InvalidRequest, 'Bad Request: the Mcp-Session-Id header is required (send initialize first to get one)');
      }
      return;
    }
    const session = this.newSession(caller, req);
    void this.connect(session);
    this.cluster?.created(session);
    session.post(res, value, true);
  }

  private postStateless(req: HttpRequestIn, res: HttpResponseOut, value: unknown, caller: Caller | undefined): void {
    const init = isInitializeRequest(value);
    let revision: string = REVISION_WITHOUT_VERSION_HEADER;
    if (!init) {
      const header = req.headers['mcp-protocol-version'];
      if (header !== undefined) {
        if (typeof header !== 'string' || !isLegacyRevision(header)) {
          writeError(res, 400, ErrorCode.InvalidRequest, `Bad Request: unsupported MCP-Protocol-Version "${String(header).slice(0, 40)}"`);
          return;
        }
        revision = header;
      }
    }
    const session = new HttpSession(this, '', '', Infinity, caller);
    session.remote = remoteOf(req);
    const pending = this.connect(session);
    if (init) {
      session.post(res, value, true);
      return;
    }
    const adopt = (serverSession: ServerSession) => {
      serverSession.adoptInitialized({
        protocolVersion: revision,
        capabilities: {},
        clientInfo: { name: 'stateless-http-client', version: '0' },
      });
      if (serverSession.protocolVersion === undefined) {
        void serverSession.close();
        writeError(res, 400, ErrorCode.InvalidRequest, `Bad Request: this server does not speak MCP-Protocol-Version "${revision}"`);
        return;
      }
      session.post(res, value);
    };
    if (session.serverSession !== undefined) adopt(session.serverSession);
    else pending.then(adopt, (e: unknown) => this.internalError(res, e));
  }

  // ---------------------------------------------------------------------------------- GET

  private get(req: HttpRequestIn, res: HttpResponseOut, caller: Caller | undefined): void {
    if (this.stateless || !this.standaloneSse) {
      this.methodNotAllowed(res, this.allowedMethods());
      return;
    }
    if (!acceptedTypes(req.headers.accept).sse) {
      writeError(res, 406, ErrorCode.InvalidRequest, 'Not Acceptable: the Accept header must list text/event-stream');
      return;
    }
    const id = this.sessionIdOf(req, res);
    if (id === undefined) return;
    const lastEventId = req.headers['last-event-id'];
    const resuming = typeof lastEventId === 'string' && lastEventId !== '';
    const standalone = !resuming || parseEventId(lastEventId)?.stream === 0;
    this.withSession(id, res, caller, { standalone }, (session) => {
      if (!this.versionOk(req, res, session.revision)) return;
      if (resuming) {
        this.resumptions++;
        session.resume(res, lastEventId);
      } else {
        session.openStandalone(res);
      }
    });
  }

  // ---------------------------------------------------------------------------------- DELETE

  private delete(req: HttpRequestIn, res: HttpResponseOut, caller: Caller | undefined): void {
    if (this.stateless || !this.allowDelete) {
      this.methodNotAllowed(res, this.allowedMethods());
      return;
    }
    const id = this.sessionIdOf(req, res);
    if (id === undefined) return;
    this.withSession(id, res, caller, {}, (session) => {
      if (!this.versionOk(req, res, session.revision)) return;
      const cluster = this.cluster;
      if (cluster === undefined) {
        session.deleted();
        writeEmpty(res, 204);
        return;
      }
      cluster.end(session).then(
        () => writeEmpty(res, 204),
        (e: unknown) => this.internalError(res, e),
      );
    });
  }

  // ---------------------------------------------------------------------------------- control

  closeSseStream(target: ServerSession, requestId: RequestId): boolean {
    for (const session of this.sessions.values()) {
      if (session.serverSession === target) return session.closeRequestStream(requestId);
    }
    return false;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.capture.unsubscribe();
    // With a shared store the sessions go on in the other processes: only this process's copies end.
    this.cluster?.close();
    this.server.core.close();
    const ending: Promise<void>[] = [];
    for (const session of [...this.sessions.values()]) {
      const s = session.serverSession;
      session.sessionEnded();
      if (s !== undefined) ending.push(s.close().catch(() => {}));
    }
    if (this.legacy !== undefined) ending.push(this.legacy.close());
    for (const sink of this.ticker.all()) sink.end();
    this.ticker.stop();
    await Promise.all(ending);
  }
}

// ------------------------------------------------------------------------------------------------
// One session: the transport of one ServerSession

/**
 * The transport actor of one Streamable HTTP session (or of one stateless POST), and the
 * executor of the http-session machine.
 * @internal
 */
export class HttpSession extends HttpSessionLifecycle implements Transport {
  private readonly inbound = new HotInbound<RawFrame>();
  private readonly state = new StateCell({ phase: 'open' });
  readonly inbound$ = this.inbound.observable;
  readonly state$ = this.state.observable;
  readonly identity: string | undefined;
  authInfo: unknown;
  serverSession: ServerSession | undefined;
  /** Live requests → the POST exchange carrying them. */
  readonly exchanges = new Map<RequestId, Exchange>();
  /** The standalone GET stream's open connection, if any. */
  private getSink: SseSink | undefined;
  /** Last seq used on stream 0 (the standalone stream). */
  private getSeq = 0;
  /** The standalone stream has been opened (events for it are kept for resumption). */
  private getOpened = false;
  /** Next request stream number (0 is the standalone stream). */
  nextStreamNo = 1;

  constructor(
    readonly core: HttpServerCore,
    /** `Mcp-Session-Id`; '' when stateless. */
    readonly id: string,
    /** Random per session: the first part of every event id. */
    readonly tag: string,
    idleTtlMs: number,
    caller: Caller | undefined,
  ) {
    super(core.clock, idleTtlMs);
    this.identity = caller?.identity;
    this.authInfo = caller?.authInfo;
  }

  get stateless(): boolean {
    return this.id === '';
  }

  /** Where the session's initializing (or, stateless, its only) request came from. */
  remote: { readonly address?: string | undefined; readonly port?: number | undefined } | undefined;
  private facts: TransportPeer | undefined;

  /** The `Mcp-Session-Id` and the client's address, for interceptors (OpenTelemetry's `mcp.session.id`, `client.*`); made once. */
  get peerFacts(): TransportPeer {
    return (this.facts ??= { sessionId: this.id === '' ? undefined : this.id, transport: 'tcp', protocolName: 'http', address: this.remote?.address, port: this.remote?.port });
  }

  /** The negotiated revision. */
  get revision(): string | undefined {
    return this.serverSession?.protocolVersion;
  }

  /** Events get ids and are kept (stateful sessions with an event store). */
  get resumable(): boolean {
    return this.id !== '' && this.core.store !== undefined;
  }

  /** Streams start with a priming event (2025-11-25: clients accept empty data). */
  get primes(): boolean {
    const rev = this.revision;
    return this.resumable && rev !== undefined && isSupportedRevision(rev) && allows(rev, 'sseServerDisconnect');
  }

  // ------------------------------------------------------------------ Transport

  start(): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    // The ServerSession closes its transport when it ends (or fails).
    this.sessionEnded();
    return Promise.resolve();
  }

  send(frame: Frame, options?: SendOptions): void {
    let exchange: Exchange | undefined;
    let reply = false;
    if (Array.isArray(frame)) {
      reply = true;
      for (const m of frame) {
        const id = (m as { id?: RequestId | null }).id;
        if (!('method' in m) && id !== undefined && id !== null) {
          exchange = this.exchanges.get(id);
          if (exchange !== undefined) break;
        }
      }
    } else if (!('method' in frame)) {
      reply = true;
      const id = (frame as { id: RequestId | null }).id;
      if (id !== null) exchange = this.exchanges.get(id);
    } else if (options?.relatedRequestId !== undefined) {
      exchange = this.exchanges.get(options.relatedRequestId);
    }
    if (exchange !== undefined && (reply || exchange.takesMessages)) {
      const cluster = this.core.cluster;
      if (cluster !== undefined && exchange.initialize && reply && !Array.isArray(frame)) {
        // The session goes into the shared store before its id reaches the client.
        cluster.initializeAnswered(this, frame as JsonRpcResponse, (answer) => exchange.deliver(answer, true));
        return;
      }
      exchange.deliver(frame, reply);
      return;
    }
    // A response never goes on the standalone stream; its POST is gone.
    if (reply) return;
    this.sendStandalone(frame as JsonRpcMessage);
  }

  /** A message unrelated to any open request: the standalone GET stream. */
  private sendStandalone(message: JsonRpcMessage): void {
    if (this.core.cluster !== undefined && this.id !== '') {
      this.core.cluster.sendStandalone(this, message);
      return;
    }
    const isRequest = 'id' in message && (message as JsonRpcRequest).id !== undefined;
    if (this.lifecycle === 'terminated') {
      if (isRequest) throw new TransportError('Cannot send: the HTTP session is terminated');
      return;
    }
    const sink = this.getSink;
    const keep = this.getOpened && this.resumable;
    if (sink === undefined && !keep) {
      if (isRequest) {
        throw new TransportError(
          this.stateless
            ? 'Cannot send a request to the client: a stateless HTTP server has no stream outside a POST'
            : 'Cannot send a request to the client: it has no open GET stream',
        );
      }
      return;
    }
    const data = JSON.stringify(message);
    let id: string | undefined;
    let seq = 0;
    if (keep) {
      seq = ++this.getSeq;
      id = `${this.tag}.0.${seq}`;
      this.keep('0', seq, data);
    }
    sink?.deliver(seq, sseEvent(data, id));
  }

  /**
   * Store an event; a store's failure is reported, not thrown into the session. Returns the
   * store's promise when it answers later (settled either way).
   */
  keep(streamId: string, seq: number, data: string): Promise<void> | undefined {
    try {
      const r = this.core.store!.append(this.id, streamId, seq, data);
      if (isPromise(r)) return r.catch((e: unknown) => this.core.report(e));
    } catch (e) {
      this.core.report(e);
    }
    return undefined;
  }

  /** Hand a frame to the ServerSession. */
  push(value: unknown): void {
    this.inbound.push(value as RawFrame);
  }

  // ------------------------------------------------------------------ POST

  /**
   * A parsed POST body for this session. `creating`: the POST that creates the session (its
   * initialize decides whether the session stays).
   */
  post(res: HttpResponseOut, value: unknown, creating = false, streamNo?: number): void {
    const revision = this.revision;
    const allowBatch = revision !== undefined && isSupportedRevision(revision) && allows(revision, 'batches');
    const inbound = classifyValue(value, allowBatch);
    switch (inbound.kind) {
      case 'invalid':
        if (!inbound.respond) {
          this.refuseUnanswerable(res, value, inbound);
          return;
        }
        this.refuse(res, inbound);
        return;
      case 'notification':
      case 'response':
        this.accepted(res, value, inbound.kind === 'notification' ? cancelledId(inbound.msg) : undefined);
        return;
      case 'request': {
        const id = inbound.msg.id;
        if (this.exchanges.has(id)) {
          writeError(res, 400, ErrorCode.InvalidRequest, `Invalid Request: a request with id ${JSON.stringify(id)} is still in progress in this session`, undefined, id);
          this.finishStateless();
          return;
        }
        const exchange = new Exchange(this, res, id, 1, creating && inbound.msg.method === 'initialize', streamNo);
        this.exchanges.set(id, exchange);
        this.push(value);
        return;
      }
      case 'batch':
        this.postBatch(res, value as unknown[], inbound.items, streamNo);
        return;
    }
  }

  private postBatch(res: HttpResponseOut, values: unknown[], items: SingleInbound[], streamNo: number | undefined): void {
    const ids: RequestId[] = [];
    const unanswerable: unknown[] = [];
    const cancels: RequestId[] = [];
    let allValid = true;
    for (const item of items) {
      if (item.kind === 'request') ids.push(item.msg.id);
      else if (item.kind === 'notification') {
        const c = cancelledId(item.msg);
        if (c !== undefined) cancels.push(c);
      } else if (item.kind === 'invalid') {
        allValid = false;
        if (item.respond && item.id !== null) ids.push(item.id);
        else if (item.respond) unanswerable.push({ jsonrpc: '2.0', id: null, error: item.error });
      }
    }
    if (ids.length === 0) {
      if (unanswerable.length > 0) {
        // Nothing in it will be answered on a stream: answer the broken parts here, pass the rest on.
        const valid = allValid ? values : values.filter((_, i) => items[i].kind !== 'invalid');
        if (valid.length > 0) this.push(valid);
        writeJson(res, 400, JSON.stringify(unanswerable));
        this.afterNotifications(cancels);
        return;
      }
      this.accepted(res, values, undefined, cancels);
      return;
    }
    for (const id of ids) {
      if (this.exchanges.has(id)) {
        writeError(res, 400, ErrorCode.InvalidRequest, `Invalid Request: a request with id ${JSON.stringify(id)} is still in progress in this session`, undefined, id);
        this.finishStateless();
        return;
      }
    }
    const exchange = new Exchange(this, res, ids.length === 1 ? ids[0] : ids, ids.length, false, streamNo);
    for (const id of ids) this.exchanges.set(id, exchange);
    this.push(values);
    this.afterNotifications(cancels);
  }

  /** Notifications and responses only: 202, no body. */
  private accepted(res: HttpResponseOut, value: unknown, cancelled: RequestId | undefined, cancels?: RequestId[]): void {
    // Activity: the idle timer starts over.
    this.exchangeOpened();
    // With a shared store, what belongs to another process (an answer it awaits, a request it runs) goes there.
    const local = this.core.cluster === undefined ? value : this.core.cluster.routeInbound(this, value);
    if (local !== undefined) this.push(local);
    res.writeHead(202, this.id === '' ? undefined : { [SESSION_HEADER]: this.id });
    res.end();
    if (cancelled !== undefined) this.afterCancel(cancelled);
    if (cancels !== undefined) this.afterNotifications(cancels);
    this.exchangeClosed();
    this.finishStateless();
  }

  private afterNotifications(cancels: RequestId[]): void {
    for (const id of cancels) this.afterCancel(id);
  }

  /** @internal A cancellation POSTed to another process, for a request running here. */
  cancelledElsewhere(notification: unknown, id: RequestId): void {
    this.push(notification);
    this.afterCancel(id);
  }

  /** The client cancelled a request: its POST gets no response, so it ends here. */
  private afterCancel(id: RequestId): void {
    const exchange = this.exchanges.get(id);
    if (exchange !== undefined && !exchange.initialize) exchange.cancelled(id);
  }

  /**
   * A notification or response that cannot be accepted. JSON-RPC never answers one, but the
   * transport needs an HTTP error status; its body is an error response without an id (the
   * spec's MAY), and the session sees the frame (it reports it on `diagnostics$`).
   * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#sending-messages-to-the-server
   */
  private refuseUnanswerable(res: HttpResponseOut, value: unknown, inbound: InvalidInbound): void {
    this.push(value);
    writeJson(res, 400, JSON.stringify({ jsonrpc: '2.0', error: inbound.error }));
    this.finishStateless();
  }

  private refuse(res: HttpResponseOut, inbound: InvalidInbound): void {
    writeJson(res, 400, errorBody(inbound.error.code, inbound.error.message, inbound.id, inbound.error.data));
    this.finishStateless();
  }

  /** A stateless session serves one POST: it ends when that POST is answered. */
  finishStateless(): void {
    if (this.id === '' && this.exchanges.size === 0) {
      const s = this.serverSession;
      if (s !== undefined) void s.close().catch(() => {});
      else this.sessionEnded();
    }
  }

  // ------------------------------------------------------------------ GET

  openStandalone(res: HttpResponseOut): void {
    if (this.core.cluster !== undefined) {
      this.core.cluster.openStandalone(this, res, undefined);
      return;
    }
    // One standalone connection at a time: a new GET replaces the old one (which may be dead
    // without our knowing), so a message is never sent on two streams.
    this.getSink?.end();
    let first = '';
    if (this.resumable) {
      this.getOpened = true;
      if (this.primes) first = sseStreamStart(`${this.tag}.0.${++this.getSeq}`, this.core.retryMs);
      else first = sseStreamStart(undefined, this.core.retryMs);
    }
    const sink = this.attachStandalone(res);
    sink.open(this.sseHeaders(), first);
  }

  /** @internal The standalone stream's connection is now `res` (an older one ends). */
  attachStandalone(res: HttpResponseOut, onClosed?: () => void): SseSink {
    this.getSink?.end();
    const sink = new SseSink(res, this.core.ticker, (s) => {
      if (this.getSink === s) this.getSink = undefined;
      onClosed?.();
      this.exchangeClosed();
    });
    this.getSink = sink;
    this.exchangeOpened();
    return sink;
  }

  /** @internal Another process took the standalone stream over: ours ends. */
  endStandalone(): void {
    this.getSink?.end();
  }

  /**
   * GET with `Last-Event-ID`: replay what was sent after that event on its stream, then go on
   * live if the stream is still going.
   *
   * An id that is malformed, of another session (its tag differs), or of a stream this session
   * never had is answered 400, not 404: 404 tells a client its session is gone (it would have to
   * initialize again), while the session is fine and only the request is wrong.
   */
  resume(res: HttpResponseOut, lastEventId: string): void {
    const store = this.core.store;
    const parsed = parseEventId(lastEventId);
    const cluster = this.core.cluster;
    // With a shared store stream numbers are the store's: a stream unknown to it is refused below.
    const unknownStream = parsed !== undefined && cluster === undefined && parsed.stream >= this.nextStreamNo;
    if (store === undefined || parsed === undefined || parsed.tag !== this.tag || unknownStream) {
      writeError(
        res,
        400,
        ErrorCode.InvalidRequest,
        store === undefined
          ? 'Bad Request: this server does not keep events, streams cannot be resumed'
          : `Bad Request: Last-Event-ID "${lastEventId.slice(0, 80)}" is not an event of this session`,
      );
      return;
    }
    const { stream, seq } = parsed;
    const start = sseStreamStart(undefined, this.core.retryMs);
    const prefix = `${this.tag}.${stream}.`;
    if (stream === 0 && cluster !== undefined) {
      cluster.openStandalone(this, res, seq);
      return;
    }
    if (stream === 0) {
      this.getOpened = true;
      const sink = this.attachStandalone(res);
      sink.startReplay();
      sink.open(this.sseHeaders(), start);
      this.replayInto(sink, '0', seq, prefix);
      return;
    }
    for (const exchange of this.exchanges.values()) {
      if (exchange.streamNo === stream) {
        exchange.reattach(res, start, seq, prefix);
        return;
      }
    }
    // Served by another process (or by none any more): from the store, to its end.
    if (cluster !== undefined) {
      cluster.resumeElsewhere(this, res, stream, seq);
      return;
    }
    // The stream has ended: hand out what is left of it, if anything.
    const streamId = String(stream);
    settle(
      store.after(this.id, streamId, seq),
      (events) => {
        if (res.destroyed) return;
        if (events.length === 0) {
          // Nothing more will ever come on that stream: 204 tells an SSE client to stop reconnecting.
          writeEmpty(res, 204, { [SESSION_HEADER]: this.id });
          return;
        }
        let text = start;
        for (const e of events) text += sseEvent(e.data, prefix + e.seq);
        res.writeHead(200, this.sseHeaders());
        res.end(text);
        this.storeDone(streamId);
      },
      (e) => this.core.internalError(res, e),
    );
  }

  /** Writes the stored events of `streamId` after `seq` into `sink`, then its live events. */
  replayInto(sink: SseSink, streamId: string, seq: number, prefix: string): void {
    settle(
      this.core.store!.after(this.id, streamId, seq),
      (events) => sink.replay(events, prefix),
      (e) => {
        this.core.report(e);
        sink.replay([], prefix);
        sink.end();
      },
    );
  }

  /** A shared store learns of a request stream before its events (who serves it, for which requests). */
  storeOpened(streamId: string, ids: RequestId | RequestId[]): Promise<void> | undefined {
    const store = this.core.store;
    if (store?.streamOpened === undefined) return undefined;
    return this.storeCall(() => store.streamOpened!(this.id, streamId, Array.isArray(ids) ? ids : [ids]));
  }

  /** A shared store learns where a request stream ended (followers elsewhere end it there). */
  storeEnded(streamId: string, lastSeq: number): void {
    const store = this.core.store;
    if (store?.streamEnded === undefined) return;
    this.storeCall(() => store.streamEnded!(this.id, streamId, lastSeq));
  }

  private storeCall(call: () => void | Promise<void>): Promise<void> | undefined {
    try {
      const r = call();
      if (isPromise(r)) return r.catch((e: unknown) => this.core.report(e));
    } catch (e) {
      this.core.report(e);
    }
    return undefined;
  }

  storeDone(streamId: string): void {
    const store = this.core.store;
    if (store?.streamDone === undefined) return;
    try {
      const r = store.streamDone(this.id, streamId);
      if (isPromise(r)) r.catch((e: unknown) => this.core.report(e));
    } catch (e) {
      this.core.report(e);
    }
  }

  sseHeaders(): HttpHeadersOut {
    return this.id === '' ? SSE_HEADERS : { ...SSE_HEADERS, [SESSION_HEADER]: this.id };
  }

  closeRequestStream(requestId: RequestId): boolean {
    const exchange = this.exchanges.get(requestId);
    return exchange !== undefined && exchange.closeEarly();
  }

  // ------------------------------------------------------------------ termination

  /** The machine's `terminate` action. */
  protected terminate(): void {
    if (this.id !== '' && this.core.sessions.get(this.id) === this) this.core.sessions.delete(this.id);
    const exchanges = new Set(this.exchanges.values());
    this.exchanges.clear();
    for (const exchange of exchanges) exchange.abandon();
    this.getSink?.end();
    this.getSink = undefined;
    if (this.id !== '' && this.core.store !== undefined) {
      try {
        const r = this.core.store.deleteSession(this.id);
        if (isPromise(r)) r.catch((e: unknown) => this.core.report(e));
      } catch (e) {
        this.core.report(e);
      }
    }
    this.state.set({ phase: 'closed' });
    this.inbound.complete();
    const s = this.serverSession;
    if (s !== undefined) void s.close().catch(() => {});
  }
}

// ------------------------------------------------------------------------------------------------
// One POST with requests

const PENDING = 0;
const JSON_MODE = 1;
const SSE_MODE = 2;
const DONE = 3;

/**
 * One POST carrying requests, from the body to the last response: a JSON answer, or an SSE
 * stream (which may be closed early and resumed, SEP-1699). Executes nothing per message beyond a
 * switch on its mode.
 * @internal
 */
export class Exchange {
  private mode: number;
  private sink: SseSink | undefined;
  /** This exchange's stream number when its events are kept (0: not resumable). */
  streamNo = 0;
  private seq = 0;
  private closeTimer: unknown;
  /** Requests still to be answered. */
  private remaining: number;
  /** Whether the response to initialize was a success (for the session id header). */
  private initOk = false;
  /**
   * With a shared store: what this stream writes goes out once the store has it, so a client never
   * holds an event id a killed process did not store (its resumption elsewhere finds everything).
   */
  private durable: Promise<void> | undefined;
  /** The sink `finish` ends once the durable writes before it are out. */
  private endingSink: SseSink | undefined;

  constructor(
    readonly session: HttpSession,
    private readonly res: HttpResponseOut,
    private readonly ids: RequestId | RequestId[],
    count: number,
    readonly initialize: boolean,
    /** The stream number a shared store reserved for this POST. */
    private readonly reservedStreamNo?: number,
  ) {
    this.remaining = count;
    const mode = session.core.responseMode;
    this.mode = mode === 'json' ? JSON_MODE : PENDING;
    session.exchangeOpened();
    // `sse` mode opens at once (a primed stream can be resumed even if nothing comes for a while);
    // initialize waits for its answer, which decides whether the session exists.
    if (mode === 'sse' && !initialize) this.openSse();
  }

  /** Messages other than responses go on this POST (not in JSON mode). */
  get takesMessages(): boolean {
    return this.mode !== JSON_MODE && this.mode !== DONE;
  }

  deliver(frame: Frame, reply: boolean): void {
    if (this.mode === DONE) return;
    if (this.mode === PENDING) {
      if (reply && this.session.core.responseMode !== 'sse') this.mode = JSON_MODE;
      else this.openSse();
    }
    if (this.mode === JSON_MODE) {
      if (reply) this.answerJson(frame);
      return;
    }
    if (Array.isArray(frame)) for (const m of frame) this.event(m);
    else this.event(frame);
    if (reply) {
      if (this.initialize) this.initOk = !Array.isArray(frame) && 'result' in frame;
      this.finish();
    }
  }

  private answerJson(frame: Frame): void {
    const session = this.session;
    const body = JSON.stringify(frame);
    if (this.initialize) this.initOk = !Array.isArray(frame) && 'result' in frame;
    const res = this.res;
    if (!res.destroyed && !res.headersSent) {
      const headers: HttpHeadersOut = { 'content-type': 'application/json', 'content-length': utf8ByteLength(body) };
      if (session.id !== '' && (!this.initialize || this.initOk)) headers[SESSION_HEADER] = session.id;
      res.writeHead(200, headers);
      res.end(body);
    }
    this.finish();
  }

  private openSse(): void {
    const session = this.session;
    this.mode = SSE_MODE;
    let first = '';
    if (session.resumable && !this.initialize) {
      this.streamNo = this.reservedStreamNo ?? session.nextStreamNo++;
      const opened = session.storeOpened(String(this.streamNo), this.ids);
      if (session.core.cluster !== undefined) this.durable = opened ?? Promise.resolve();
      if (session.primes) {
        first = sseStreamStart(`${session.tag}.${this.streamNo}.0`, session.core.retryMs);
        const after = session.core.closeStreamAfterMs;
        if (after !== undefined) this.closeTimer = session.core.clock.setTimeout(() => this.closeEarly(), after, CLOSE_STREAM_TIMER_NAME);
      } else {
        first = sseStreamStart(undefined, session.core.retryMs);
      }
    }
    if (this.res.destroyed) return;
    const sink = new SseSink(this.res, session.core.ticker, (s, byClient) => this.sinkClosed(s, byClient));
    this.sink = sink;
    if (this.durable === undefined) sink.open(session.sseHeaders(), first);
    else this.afterStored(() => !sink.closed && sink.open(session.sseHeaders(), first));
  }

  /** Run `step` once what was stored before it is stored (see {@link durable}). */
  private afterStored(step: () => void, kept?: Promise<void>): void {
    const run = () => {
      try {
        step();
      } catch (e) {
        this.session.core.report(e);
      }
    };
    this.durable = (kept === undefined ? this.durable! : Promise.all([this.durable, kept])).then(run);
  }

  private event(message: JsonRpcMessage): void {
    const data = JSON.stringify(message);
    let id: string | undefined;
    let seq = 0;
    if (this.streamNo !== 0) {
      seq = ++this.seq;
      id = `${this.session.tag}.${this.streamNo}.${seq}`;
      const kept = this.session.keep(String(this.streamNo), seq, data);
      if (this.durable !== undefined) {
        const text = sseEvent(data, id);
        this.afterStored(() => (this.sink ?? this.endingSink)?.deliver(seq, text), kept);
        return;
      }
    }
    this.sink?.deliver(seq, sseEvent(data, id));
  }

  private sinkClosed(sink: SseSink, _byClient: boolean): void {
    // The client went away or we closed early: the requests go on (a disconnection is not a
    // cancellation); a resumable stream keeps its events for a GET with Last-Event-ID.
    if (this.sink === sink) this.sink = undefined;
  }

  /** GET with Last-Event-ID of this live stream: replay, then continue on the new connection. */
  reattach(res: HttpResponseOut, start: string, afterSeq: number, prefix: string): void {
    this.sink?.end();
    const sink = new SseSink(res, this.session.core.ticker, (s, byClient) => this.sinkClosed(s, byClient));
    this.sink = sink;
    sink.startReplay();
    sink.open(this.session.sseHeaders(), start);
    this.session.replayInto(sink, String(this.streamNo), afterSeq, prefix);
  }

  /** Close the stream now, leaving the requests running (SEP-1699). */
  closeEarly(): boolean {
    if (this.closeTimer !== undefined) {
      this.session.core.clock.clearTimeout(this.closeTimer);
      this.closeTimer = undefined;
    }
    if (this.mode !== SSE_MODE || this.streamNo === 0 || this.sink === undefined) return false;
    this.sink.end();
    return true;
  }

  /** The client cancelled one of the requests: it will not be answered. */
  cancelled(_id: RequestId): void {
    if (this.mode === DONE) return;
    if (--this.remaining > 0) return;
    // Every request of this POST was cancelled: end it with an empty stream (no response follows).
    if (this.mode === PENDING || this.mode === JSON_MODE) {
      this.mode = SSE_MODE;
      if (!this.res.destroyed && !this.res.headersSent) {
        this.res.writeHead(200, this.session.sseHeaders());
        this.res.end();
      }
    }
    this.finish();
  }

  private finish(): void {
    if (this.mode === DONE) return;
    const wasSse = this.mode === SSE_MODE;
    this.mode = DONE;
    const session = this.session;
    if (this.closeTimer !== undefined) {
      session.core.clock.clearTimeout(this.closeTimer);
      this.closeTimer = undefined;
    }
    const ids = this.ids;
    if (Array.isArray(ids)) for (const id of ids) session.exchanges.delete(id);
    else session.exchanges.delete(ids);
    if (wasSse && this.streamNo !== 0) session.storeEnded(String(this.streamNo), this.seq);
    if (wasSse) {
      const sink = this.sink;
      this.sink = undefined;
      if (sink !== undefined) {
        const end = () => {
          this.endingSink = undefined;
          const open = !sink.closed;
          sink.end();
          // The last event reached an open connection: its stream will hardly be asked for again.
          if (this.streamNo !== 0 && open) session.storeDone(String(this.streamNo));
        };
        if (this.durable === undefined) end();
        else {
          this.endingSink = sink;
          this.afterStored(end);
        }
      }
    }
    if (this.initialize && !this.initOk && session.id !== '') {
      // A failed initialize leaves no session behind.
      session.deleted();
      return;
    }
    session.exchangeClosed();
    session.finishStateless();
  }

  /** The session ended under this POST. */
  abandon(): void {
    if (this.mode === DONE) return;
    const mode = this.mode;
    this.mode = DONE;
    if (this.closeTimer !== undefined) this.session.core.clock.clearTimeout(this.closeTimer);
    if (mode === SSE_MODE) {
      this.sink?.end();
      this.sink = undefined;
    } else if (!this.res.destroyed) {
      writeError(this.res, 404, ErrorCode.InvalidRequest, 'Not Found: the session was terminated before this request was answered');
    }
  }
}

// ------------------------------------------------------------------------------------------------
// helpers

function isInitializeRequest(value: unknown): boolean {
  return (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    (value as JsonObject).method === 'initialize' &&
    (value as JsonObject).id !== undefined
  );
}

/** A server's `store` option, if it has a part for HTTP sessions. */
function httpStoreOf(store: unknown): HttpSessionStore | undefined {
  const part = (store as { httpSessions?: unknown } | undefined)?.httpSessions;
  return part !== undefined && part !== null ? (store as HttpSessionStore) : undefined;
}

/** What the shared store must do for a POST body before it is served (see ClusterSessions.resolve). */
function touchNeeds(value: unknown): TouchNeeds {
  let stream = false;
  let initialized = false;
  for (const m of Array.isArray(value) ? value : [value]) {
    if (m === null || typeof m !== 'object') continue;
    const msg = m as JsonObject;
    if (typeof msg.method !== 'string') continue;
    if (msg.id !== undefined) stream = true;
    else if (msg.method === 'notifications/initialized') initialized = true;
  }
  return { stream, initialized };
}

function cancelledId(msg: { method: string; params?: JsonObject }): RequestId | undefined {
  if (msg.method !== 'notifications/cancelled') return undefined;
  const id = msg.params?.requestId;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

/** `<tag>.<stream>.<seq>` → its parts, or undefined. */
export function parseEventId(id: string): { tag: string; stream: number; seq: number } | undefined {
  const m = /^([0-9a-z]+)\.(\d{1,9})\.(\d{1,15})$/.exec(id);
  if (m === null) return undefined;
  return { tag: m[1], stream: Number(m[2]), seq: Number(m[3]) };
}

function isPromise<T>(v: unknown): v is Promise<T> {
  return v !== null && typeof v === 'object' && typeof (v as Promise<T>).then === 'function';
}

/** Calls `ok` with the value, at once when it is not a promise. */
function settle<T>(v: T | Promise<T>, ok: (value: T) => void, fail: (e: unknown) => void): void {
  if (isPromise<T>(v)) v.then(ok, fail);
  else ok(v);
}

/** The id of a single JSON-RPC request, so that an error answer can carry it; null otherwise. */
function requestIdOf(value: unknown): RequestId | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const id = (value as { id?: unknown }).id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}


/** The client's address and port as the socket saw them (a proxy's, behind one). */
function remoteOf(req: HttpRequestIn): { address?: string | undefined; port?: number | undefined } {
  return { address: req.socket?.remoteAddress, port: req.socket?.remotePort };
}
