/**
 * The core every HTTP server path runs (node's `(req, res)`, a fetch `Request` through
 * fetch-shim.ts, the legacy HTTP+SSE endpoints): routing, Host/Origin checks, CORS,
 * authentication, bodies, the era of each POST, stateless mode, sessions and, with a shared
 * store, the cluster.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http
 */
import { randomBytes } from '../crypto/random.js';
import { base64urlEncode } from '../crypto/bytes.js';
import type { HttpRequestIn, HttpResponseOut } from '../../streams/http-shape.js';
import type { Subscription } from 'rxjs';
import { systemClock, type Clock } from '../clock.js';
import { classifyValue } from '../jsonrpc/codec.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import type { RequestId } from '../jsonrpc/message.js';
import { eraOf } from '../modern/classify-era.js';
import { refusedUnanswerable, serveModernPost, type ModernPostOptions } from './modern-http.js';
import { REVISION_WITHOUT_VERSION_HEADER, allows, isLegacyRevision, isModernRevision, isSupportedRevision, MODERN_REVISIONS } from '../protocol/revisions.js';
import type { Server, ServerSession } from '../server.js';
import { defaultIdentity, messagesOf, methodsOf, writeAuthFailure, type Authenticate, type AuthorizeMessages, type AuthOutcome, type Caller } from '../../streams/http-auth.js';
import { DEFAULT_BODY_TIMEOUT_MS, acceptedTypes, errorBody, isJsonContentType, readJsonBody, writeEmpty, writeError, writeJson, type BodyDeadline } from '../../streams/http-body.js';
import { HostOriginGuard } from '../../streams/http-security.js';
import { refusesMalformedHeader } from '../../streams/http-malformed-header.js';
import { STORE_RETRY_AFTER_SECONDS, storeOutageResponse, storeUnavailable } from './store-outage-response.js';
import { KeepAliveTicker } from '../../streams/http-sse-sink.js';
import { MemoryEventStore, type EventStore } from '../../streams/event-store.js';
import { ClusterSessions, type TouchNeeds } from './http-cluster-sessions.js';
import { LegacySseEndpoints } from './legacy-sse-server.js';
import type { Transport } from '../../streams/transport.js';
import { HttpSession, isPromise } from './http-server-session.js';
import { Hibernation, type HibernatedState, type HibernationCore } from './http-hibernation.js';
import { DEFAULT_HIBERNATE_AFTER_MS, DEFAULT_KEEPALIVE_MS, DEFAULT_MAX_BODY_BYTES, DEFAULT_RETRY_MS, DEFAULT_SESSION_IDLE_TTL_MS, SESSION_HEADER, parseEventId, type CorsOptions, type HandlerExtras, type HttpServerStats, type StreamableHttpOptions } from './http-server-options.js';
import { httpStoreOf, isInitializeRequest, requestIdOf, touchNeeds } from './http-server-checks.js';
import { remoteResolver, type RemoteOf } from './forwarded-client.js';

/** @internal Shared by the Streamable HTTP and legacy endpoints. */
export class HttpServerCore implements HibernationCore<HttpSession> {
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
  /** The client of a request: its socket's peer, or the one a trusted proxy forwarded (`trustProxies`). */
  private readonly remoteOf: RemoteOf;
  /** Sessions shared with other processes through a store (undefined: this process only). */
  readonly cluster: ClusterSessions<HttpSession> | undefined;
  /** Idle sessions put to sleep (undefined: stateless, shared through a store, or turned off). */
  readonly hibernation: Hibernation<HttpSession> | undefined;

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
    this.remoteOf = remoteResolver(options.trustProxies);
    this.modernOptions = { report: (e) => this.report(e), paramHeaders: options.paramHeaders ?? ((tool) => server.paramHeaders?.(tool)), ticker: this.ticker, remoteOf: this.remoteOf };
    this.cluster = shared !== undefined && !this.stateless ? new ClusterSessions(this, shared.httpSessions) : undefined;
    const hibernateAfter = options.hibernateAfterMs === false ? Infinity : (options.hibernateAfterMs ?? DEFAULT_HIBERNATE_AFTER_MS);
    if (!(hibernateAfter >= 0)) throw new Error(`hibernateAfterMs must be a number of ms >= 0 or false, got ${String(options.hibernateAfterMs)}`);
    // A shared store's sessions have their own record there, renewed by this process while in use.
    const hibernates = Number.isFinite(hibernateAfter) && !this.stateless && this.cluster === undefined && server.servesLegacy;
    this.hibernation = hibernates ? new Hibernation<HttpSession>(this, hibernateAfter) : undefined;
  }

  /** Events of a session's standalone stream are kept for resumption. */
  get resumable(): boolean {
    return this.store !== undefined;
  }

  /** Sessions with a keep-alive ping have a timer of their own: they never hibernate. */
  get keepsAlive(): boolean {
    return Boolean(this.server.options.keepAlive);
  }

  /** @internal A hibernated session, live again: its ServerSession revived on a new HttpSession. */
  revived(state: HibernatedState): HttpSession {
    const session = HttpSession.revived(this, state, this.idleTtlMs);
    this.sessions.set(state.id, session);
    state.serverSession.revive(session);
    // Revived and left unused (a refused request), it sleeps again.
    this.hibernation?.wentQuiet(session);
    return session;
  }

  /** Sessions open now, hibernated ones included. */
  get sessionTotal(): number {
    return this.sessions.size + (this.hibernation?.records.size ?? 0);
  }

  legacyCount(): number {
    return this.legacy?.size ?? 0;
  }

  /** Gives an edge's handler function (node's or fetch's) the handler's extras: path, counts, stats, close. */
  describe<H extends object>(handler: H): H & HandlerExtras {
    Object.defineProperties(handler, {
      path: { value: this.path, enumerable: true },
      sessionCount: { get: () => this.sessionTotal + this.legacyCount(), enumerable: true },
      stats: {
        get: (): HttpServerStats => ({
          sessions: this.sessionTotal,
          hibernatedSessions: this.hibernation?.records.size ?? 0,
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
    let session = this.sessions.get(id);
    if (session === undefined && this.hibernation !== undefined) {
      const record = this.hibernation.records.get(id);
      // Revived before a byte of the request is read: nothing it carries can miss the session.
      if (record !== undefined && record.identity === caller?.identity) session = this.hibernation.wake(record);
    }
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
    if (req !== undefined) session.remote = this.remoteOf(req);
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
        this.report(refusedUnanswerable(value, inbound.error)); // only the operator can see it
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
    session.remote = this.remoteOf(req);
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
    this.hibernation?.wakeAll();
    this.hibernation?.stop();
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
