/**
 * A session: one transport actor, the frame pipeline of `streams/`, the session machine for the
 * lifecycle, and the request registry for outgoing requests. Client and Server are thin roles
 * on top of it.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic
 */
import { Subject } from 'rxjs';
import {
  type InitializeParamsLike,
  type InitializeResultLike,
  type PeerInfo,
  type SessionEvent,
  type SessionRole
} from '../../machines/session.machine.js';
import type { InvalidInbound } from '../../streams/inbound.js';
import { receiver } from '../../streams/receive.js';
import type { Routed } from '../../streams/route.js';
import type { RawFrame, Transport, TransportState } from '../../streams/transport.js';
import { capabilitiesForCaller } from './caller-capabilities.js';
import { DEFAULT_MAX_FRAME_BYTES } from '../jsonrpc/codec.js';
import { DEFAULT_MAX_FRAME_DEPTH } from '../jsonrpc/depth.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import type {
  JsonObject,
  JsonRpcBatch,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
  RequestId,
} from '../jsonrpc/message.js';
import { errorResponse } from '../jsonrpc/message.js';
import { ConnectionClosedError, McpError, PhaseError } from '../errors.js';
import { initializeParams, initializeResult, invalidInitializeResult, refuseInitialize, toFailure } from './handshake.js';
import { OutboundRequests } from './outbound.js';
import { abandonIncoming, cancelIncoming, dispatchRequest, endRequest, isPromise, runNotification } from './request-dispatch.js';
import { HandlerContext, type Incoming } from './handler-context.js';
import { serveModernOnSession } from './modern-on-session.js';
import { SlotMap } from './slot-map.js';
import type { ModernDispatch, RequestScope } from './request-scope.js';
import { ServerRequest, type RequestOwner } from './server-request.js';
import type { RequestCaller, ServerCaller } from './request-caller.js';
import { allows, isSupportedRevision } from '../protocol/revisions.js';
import { progressRate, type ProgressRateOptions } from './progress-rate.js';
import {
  type Progress,
  type ProgressToken,
  type RequestOptions
} from './request-registry.js';

export type { Progress, ProgressToken, RequestOptions, ProgressRateOptions };
export type { SessionOptions, FrameEvent, Diagnostic } from './session-options.js';
import type { SessionOptions} from './session-options.js';
export type { ModernDispatch, RequestScope } from './request-scope.js';
export type { RequestCaller, ServerCaller } from './request-caller.js';
export type { SessionSnapshot } from './session-core.js';
import { SessionCore, type SessionSnapshot } from './session-core.js';
import type { HandlerTableOf, InterceptHooksOf, NotificationHandlerOf, RequestHandlerContextOf, RequestHandlerOf, RequestWithProgress } from './handler-types.js';

/**
 * What a request handler receives besides the params (see {@link RequestHandlerContextOf});
 * `ctx.session` is the request's {@link ServerCaller} (a `ServerSession` in the legacy era).
 */
export type RequestHandlerContext = RequestHandlerContextOf<ServerCaller>;
export type RequestHandler = RequestHandlerOf<ServerCaller>;
export type NotificationHandler = NotificationHandlerOf<Session>;
/** Handlers a Server shares with all its sessions and its 2026-07-28 requests. */
export type HandlerTable = HandlerTableOf<ServerCaller, Session>;
/** How a session or a 2026-07-28 request hands a request or notification to the Server's interceptor chain. */
export type InterceptHooks = InterceptHooksOf<ServerCaller, Session>;
export type { RequestWithProgress } from './handler-types.js';

const DEFAULT_TIMEOUT = 60_000;

/** Every session answers ping with an empty result unless told otherwise. */
const answerPing: RequestHandler = () => ({});

export class Session extends SessionCore {
  private readonly maxFrameBytes: number;
  private readonly maxFrameDepth: number;
  // Our requests to the peer; made by the first (an idle server session holds none).
  private registryInstance: OutboundRequests | undefined;
  private readonly requestTimeout: number;
  private readonly inboundProgressLimit: { limit: number; windowMs: number } | undefined;
  // This session's own handlers (made on first use) over the ones it shares with its Server.
  private ownRequestHandlers: Map<string, RequestHandler> | undefined;
  private ownNotificationHandlers: Map<string, NotificationHandler> | undefined;
  private readonly shared: HandlerTable | undefined;
  /** @internal The requests this session serves, by id (the dispatch's). */
  // A slot, not a bare Map: a session mostly serves one request at a time (see slot-map.ts).
  readonly incoming = new SlotMap<RequestId, Incoming>();
  /** How this session's requests report (made at the first request: an idle session holds none). */
  private requestOwner: RequestOwner | undefined;
  /** @internal Who this session's peer is in request records (`session-<n>`, set by its Server). */
  callerLabel: string | undefined;
  private batchesAllowed = false;
  /** Outbound progress interval (0: every update is sent). */
  private readonly progressIntervalMs: number;
  /** The transport said the peer's input ended (stdin closed): answer what is owed, then close. */
  private inputEnded = false;

  constructor(role: SessionRole, options: SessionOptions & { instructions?: string }, shared?: HandlerTable) {
    super(role, options);
    this.shared = shared;
    this.maxFrameBytes = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
    this.maxFrameDepth = options.maxFrameDepth ?? DEFAULT_MAX_FRAME_DEPTH;
    const rate = progressRate(options.progress);
    this.progressIntervalMs = rate.minIntervalMs;
    this.inboundProgressLimit = rate.inbound;
    this.requestTimeout = options.timeout ?? DEFAULT_TIMEOUT;
  }

  protected peerInputEnded(): void {
    this.inputEnded = true;
    this.closeWhenAnswered();
  }

  protected releaseRequests(cause: Error | undefined): void {
    this.registryInstance?.closeAll(cause ? new ConnectionClosedError(`Connection closed: ${cause.message}`, cause) : undefined);
    if (this.incoming.size > 0) abandonIncoming(this.incoming, new ConnectionClosedError('The session closed'), true);
  }

  /** The session machine's named effects, whichever way the machine runs. */
  protected effect(name: string, context: SessionSnapshot['context'], event: SessionEvent): void {
    switch (name) {
      case 'sendInitialize':
        this.fixRecordedCapabilities(context.localCapabilities);
        this.sendInitialize();
        return;
      case 'sendInitialized':
        this.sendFrame({ jsonrpc: '2.0', method: 'notifications/initialized' });
        return;
      case 'answerInitialize': {
        if (event.type !== 'INITIALIZE_REQUEST') return;
        const result = initializeResult(context, capabilitiesForCaller(context.localCapabilities, { session: this, authInfo: this.authInfo }));
        this.fixRecordedCapabilities(context.localCapabilities);
        this.onNegotiated(context.protocolVersion!);
        // No id: a stateless HTTP session adopting an initialization that happened elsewhere.
        if (event.id !== undefined) this.sendFrame({ jsonrpc: '2.0', id: event.id, result }, event.id);
        return;
      }
      case 'closeTransport':
        void this.transport?.close().catch(() => {});
        return;
      case 'releaseAll':
        this.releaseAll();
        return;
    }
  }
  /** Number of our requests waiting for an answer. */
  get pendingRequests(): number {
    return this.registryInstance?.size ?? 0;
  }

  private get registry(): OutboundRequests {
    return (this.registryInstance ??= new OutboundRequests(
      this.clock,
      {
        sendCancelled: (id, reason) => {
          this.diagnose('cancelled', `Cancelled our request ${JSON.stringify(id)}: ${reason}`);
          this.sendFrame({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason } });
        },
        timerFired: (name) => this.record({ kind: 'timer', name }),
        check: (method, kind) => this.check(method, kind),
        record: (entry) => this.record(entry),
        send: (frame, related) => this.sendFrame(frame, related),
        progress: this.progressSubject,
        diagnose: (kind, message, detail) => this.diagnose(kind, message, detail),
        inboundProgressLimit: this.inboundProgressLimit,
        progressBeyondRequest: (token, progress) => this.progressBeyondRequest(token, progress),
      },
      this.requestTimeout,
    ));
  }

  // ---------------------------------------------------------------- handlers

  /** Serve requests for `method`. Replaces any earlier handler. */
  onRequest(method: string, handler: RequestHandler): this {
    (this.ownRequestHandlers ??= new Map()).set(method, handler);
    return this;
  }
  /** Receive notifications for `method`. */
  onNotification(method: string, handler: NotificationHandler): this {
    (this.ownNotificationHandlers ??= new Map()).set(method, handler);
    return this;
  }

  /**
   * Declare capabilities (merged one level deep into what was declared) before initialization
   * fixes them; feature APIs call this as handlers are registered.
   * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#capability-negotiation
   */
  declareCapabilities(capabilities: Record<string, unknown>): void {
    if (this.phase !== 'connecting' && this.phase !== 'awaitingInitialize') {
      throw new PhaseError('declareCapabilities', this.phase);
    }
    this.send({ type: 'DECLARE_CAPABILITIES', capabilities });
  }

  // ---------------------------------------------------------------- connecting

  /**
   * Attach a transport and start it. A client then initializes and resolves once operating; a
   * server resolves once the transport is open (see {@link whenOperating}).
   */
  async connect(transport: Transport): Promise<void> {
    if (this.transport) throw new Error('This session is already connected; create a new one for another transport');
    this.attach(transport, false);
    await transport.start();
    if (this.role === 'client') await this.whenOperating();
  }

  /**
   * @internal A hibernated HTTP session's next request (see {@link SessionCore.hibernate}):
   * `transport` replaces the stand-in, already open, the machine still in `operating` (no
   * lifecycle event runs). Journaled as a `revived` note.
   */
  revive(transport: Transport): void {
    this.record({ kind: 'note', note: 'revived' });
    this.attach(transport, true);
  }

  /** A revived session's transport says `open` first: not news to a session already operating. */
  private stateAfterRevival(): (s: TransportState) => void {
    let first = true;
    return (s) => {
      const skip = first && s.phase === 'open';
      first = false;
      if (!skip) this.onTransportState(s);
    };
  }

  private attach(transport: Transport, revived: boolean): void {
    this.transport = transport;
    this.subscriptions = [
      transport.state$.subscribe(revived ? this.stateAfterRevival() : (s) => this.onTransportState(s)),
      // parse → record → decode → correlate → route as one step per frame (streams/receive.ts),
      // subscribed directly: operator subscribers would cost every idle session kilobytes.
      transport.inbound$.subscribe(this.inboundObserver(receiver({
        maxFrameBytes: this.maxFrameBytes,
        maxFrameDepth: this.maxFrameDepth,
        allowBatch: () => this.batchesAllowed,
        record: (raw: RawFrame) => this.recordIn(raw),
        settle: (response) => this.registry.answer(response),
        routes: {
          request: (msg, inBatch) => this.handleRequest(msg, inBatch),
          notification: (msg) => this.handleNotification(msg),
          invalid: (item) => this.replyToInvalid(item),
        },
      }))),
    ];
  }

  /**
   * @internal The client's modern era (2026-07-28): another reader (the modern link) owns the
   * transport's frames; the session stands in `operating` at once with what `server/discover`
   * said (no handshake), follows the transport's state (a stdio server that exits fails it) and
   * closes it on `close()`.
   */
  protected adoptModern(transport: Transport, discovered: { protocolVersion: string; capabilities: Record<string, unknown>; serverInfo: PeerInfo | undefined; instructions?: string }): void {
    if (this.transport) throw new Error('This session is already connected; create a new one for another transport');
    this.transport = transport;
    this.send({ type: 'MODERN_DISCOVERED', result: discovered as InitializeResultLike });
    this.subscriptions.push(transport.state$.subscribe((s) => this.onTransportState(s)));
  }

  /** Close the session: pending requests are rejected, the transport closed. */
  async close(): Promise<void> {
    if (this.phase === 'closed' || this.phase === 'failed') return;
    this.record({ kind: 'call', op: 'close' });
    const done = new Promise<void>((resolve) => this.doneWaiters.push(resolve));
    if (!this.transport) {
      this.send({ type: 'TRANSPORT_CLOSED' });
    } else {
      this.send({ type: 'CLOSE' });
    }
    await done;
  }

  // ---------------------------------------------------------------- sending

  /**
   * Send a request and wait for its result.
   * @see https://modelcontextprotocol.io/specification/2025-11-25/basic#requests
   */
  request(method: string, params?: JsonObject, options?: RequestOptions): Promise<JsonObject> {
    return this.startRequest(method, params, options, undefined, true);
  }

  /** Send a request and observe its progress as it comes. */
  requestWithProgress(method: string, params?: JsonObject, options?: RequestOptions): RequestWithProgress {
    const progress$ = new Subject<Progress>();
    const result = this.startRequest(method, params, options, progress$, true);
    return { result, progress$: this.guard('requestWithProgress().progress$', progress$.asObservable()) };
  }

  /** Send a notification. */
  notify(method: string, params?: JsonObject): void {
    this.check(method, 'notification');
    this.record(params === undefined ? { kind: 'call', op: 'notify', method } : { kind: 'call', op: 'notify', method, params });
    this.sendFrame(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params });
  }

  /** Ping the peer. @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/ping */
  async ping(options?: RequestOptions): Promise<void> {
    await this.request('ping', undefined, options);
  }

  /** @internal Used by handler contexts: a request that is not a user call (not journaled as one). */
  startRequest(
    method: string,
    params: JsonObject | undefined,
    options: RequestOptions | undefined,
    progress$: Subject<Progress> | undefined,
    userCall: boolean,
    relatedRequestId?: RequestId,
  ): Promise<JsonObject> {
    return this.registry.start(method, params, options, progress$, userCall, relatedRequestId);
  }

  /**
   * @internal The ids of requests we send from now on are strings `<prefix><n>`: a session served
   * by several processes names in each id the process that awaits the answer (see
   * `lib/server-bindings/http-cluster.ts`).
   */
  prefixRequestIds(prefix: string): void {
    this.registry.idPrefix = prefix;
  }

  /** @internal Replay support: abort our request `id` as a recorded user abort. */
  abortRequest(id: RequestId, reason?: string): void {
    this.registry.abort(id, reason);
  }

  // ---------------------------------------------------------------- internals: checks and sends





  // ---------------------------------------------------------------- internals: lifecycle

  private sendInitialize(): void {
    const ctx = this.snap.context;
    // Sent directly: the machine is mid-transition, and initialize is not a user call.
    const id = this.registry.takeId();
    const promise = this.registry.register(id, 'initialize', undefined, undefined);
    this.sendFrame({ jsonrpc: '2.0', id, method: 'initialize', params: initializeParams(ctx) });
    promise.then(
      (result) => {
        const invalid = invalidInitializeResult(result);
        if (invalid) return this.send({ type: 'INITIALIZE_FAILED', error: toFailure((this.failure = invalid)) });
        const typed = result as unknown as InitializeResultLike;
        if (ctx.supportedVersions.includes(typed.protocolVersion)) this.onNegotiated(typed.protocolVersion);
        this.send({ type: 'INITIALIZE_RESULT', result: typed });
      },
      (error: Error) => {
        if (this.phase !== 'initializing') return;
        this.failure = error;
        this.send({ type: 'INITIALIZE_FAILED', error: toFailure(error) });
      },
    );
  }

  private onNegotiated(version: string): void {
    this.revision = version;
    this.batchesAllowed = isSupportedRevision(version) && allows(version, 'batches');
    if (this.journal) this.journal.revision = version;
  }

  /**
   * What the keep-alive sends: `ping`. The client's 2026-07-28 era, which has no `ping`, overrides it.
   * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/ping
   */
  protected keepAliveProbe(timeout: number): Promise<unknown> {
    return this.startRequest('ping', undefined, { timeout }, undefined, false);
  }

  // ---------------------------------------------------------------- internals: inbound

  private inboundObserver(step: (raw: RawFrame) => Routed): (raw: RawFrame) => void {
    return (raw) => {
      const routed = step(raw);
      // The frame is routed: an entry still held back was not another journal's (see keptElsewhere).
      this.keepHeldIn();
      if (routed === undefined) return;
      if (routed instanceof Promise) {
        routed.then(
          (frame) => {
            if (frame !== undefined) this.reply(frame);
            if (this.inputEnded) this.closeWhenAnswered();
          },
          (e: unknown) => this.diagnose('handler-error', `Answering a frame failed: ${(e as Error)?.message}`, e),
        );
      } else {
        this.reply(routed);
      }
    };
  }

  /** After the peer's input ended: close the transport once no received request is unanswered. */
  private closeWhenAnswered(): void {
    if (this.incoming.size === 0) void this.transport?.close();
  }

  /** Send a reply that `route` produced, unless the session is on its way out (`kept`: false for an answer another journal keeps). */
  private reply(frame: JsonRpcResponse | JsonRpcBatch, kept = true): void {
    if (this.phase === 'closed' || this.phase === 'failed' || this.phase === 'closing') return;
    if (Array.isArray(frame)) this.sendFrame(frame, (frame[0] as JsonRpcResponse | undefined)?.id ?? undefined);
    else this.sendFrame(frame, (frame as JsonRpcResponse).id ?? undefined, kept);
  }

  private replyToInvalid(inbound: InvalidInbound): JsonRpcResponse | undefined {
    this.diagnose('invalid-frame', inbound.error.message, inbound);
    // A client does not answer unparseable text: a server that prints junk on stdout would
    // otherwise get an error back for every line of it.
    if (this.role === 'client' && inbound.error.code === ErrorCode.ParseError) return undefined;
    return inbound.respond ? { jsonrpc: '2.0', id: inbound.id, error: inbound.error } : undefined;
  }

  private handleNotification(msg: JsonRpcNotification): void {
    const params = msg.params;
    switch (msg.method) {
      case 'notifications/cancelled':
        cancelIncoming(this, params, msg);
        return;
      case 'notifications/progress':
        this.registry.progressIn(params, msg);
        return;
      case 'notifications/initialized':
        if (this.role === 'server' && this.phase === 'awaitingInitialized') this.send({ type: 'INITIALIZED' });
        else this.diagnose('ignored', `Ignored notifications/initialized in phase ${this.phase}`, msg);
        return;
      default:
        this.dispatchNotification(msg.method, params, msg);
    }
  }

  /**
   * Run the handler registered for a notification (a failing one is noted, never thrown); one
   * without a handler is noted as ignored. The client's modern era delivers its notifications here too.
   */
  protected dispatchNotification(method: string, params: JsonObject | undefined, msg: unknown = { jsonrpc: '2.0', method, params }): void {
    const handler = this.ownNotificationHandlers?.get(method) ?? this.shared?.notifications.get(method);
    if (!handler) {
      this.diagnose('ignored', `No handler for notification "${method}"`, msg);
      return;
    }
    runNotification(this, handler, this.shared?.intercept, method, params, this);
  }

  /**
   * Progress whose request was answered but lives on (a task keeps its request's progress token
   * for its whole life); the client claims the tokens of the tasks it follows.
   */
  protected progressBeyondRequest(_token: ProgressToken, _progress: Progress): boolean {
    return false;
  }

  private handleRequest(msg: JsonRpcRequest, inBatch: boolean): JsonRpcResponse | Promise<JsonRpcResponse | undefined> | undefined {
    const { id, method } = msg;
    if (this.incoming.has(id)) {
      return errorResponse(id, ErrorCode.InvalidRequest, `Duplicate request id ${JSON.stringify(id)}: a request with this id is still in progress`);
    }
    // Only a request with `_meta` can claim the modern era: one property read for the rest.
    if (msg.params?._meta !== undefined) {
      const modern = this.shared?.modern;
      if (modern !== undefined && this.role === 'server' && !inBatch && modern.claims(msg)) return this.handleModern(modern, msg);
    }
    if (this.role !== 'server') return this.serveRequest(msg, inBatch, undefined, false);
    // A legacy request: this session owns it and says when it ends (a handler's answer ends it
    // where it is made; what is answered at once, here).
    // initialize's owner is not kept: a session that stays idle after it holds none.
    const request = new ServerRequest(id, method, msg.params, method === 'initialize' ? this.ownerOfRequests() : (this.requestOwner ??= this.ownerOfRequests()));
    const out = this.serveRequest(msg, inBatch, request, true);
    if (!isPromise(out) && !request.done) endRequest(request, out);
    return out;
  }

  private ownerOfRequests(): RequestOwner {
    return {
      clock: this.clock,
      era: 'legacy',
      caller: () => this.callerLabel ?? 'session',
      ended: (r) => {
        // A request that met interceptor stages says so in the journal (none met: nothing written).
        if (r.interceptors !== undefined) this.record({ kind: 'stages', id: r.id, method: r.method, stages: [...r.interceptors], ...(r.shortCircuitBy !== undefined && { shortCircuitBy: r.shortCircuitBy }) });
        this.shared?.requestEnded?.(r);
      },
      inspectParent: () => this.actor,
    };
  }

  /** `owned`: this session ends `request` (a server's requests; a client's have no actor). */
  private serveRequest(msg: JsonRpcRequest, inBatch: boolean, request: ServerRequest | undefined, owned: boolean): JsonRpcResponse | Promise<JsonRpcResponse | undefined> | undefined {
    if (msg.method === 'initialize') {
      request?.start();
      return this.handleInitialize(msg, inBatch);
    }
    return dispatchRequest(this, msg, request, owned);
  }

  /** @internal For the dispatch: this session's handler for `method`, over the ones it shares with its Server. */
  handlerFor(method: string): RequestHandler | undefined {
    return this.ownRequestHandlers?.get(method) ?? this.shared?.requests.get(method) ?? (method === 'ping' ? answerPing : undefined);
  }

  /** @internal For the dispatch: run `handler` with the request's context, through the interceptors. */
  runHandler(handler: RequestHandler, msg: JsonRpcRequest, state: Incoming): JsonObject | void | Promise<JsonObject | void> {
    const ctx = new HandlerContext(this, msg, state);
    const intercept = this.shared?.intercept;
    return intercept === undefined ? handler(msg.params, ctx) : intercept.request(handler, msg, ctx, this);
  }

  /** A modern request on a session's transport: served by the core, cancellable like any other. */
  private handleModern(modern: ModernDispatch, msg: JsonRpcRequest): JsonRpcResponse | undefined | Promise<JsonRpcResponse | undefined> {
    if (this.journal === undefined || !modern.keepsJournal) return serveModernOnSession(this, modern, msg);
    // Its frames are the server's request journal's, which replays them: this journal keeps none of them.
    this.dropHeldIn(msg);
    const out = serveModernOnSession(this, modern, msg);
    return isPromise(out) ? out.then((frame) => this.replyUnkept(frame)) : this.replyUnkept(out);
  }

  private replyUnkept(frame: JsonRpcResponse | undefined): undefined {
    if (frame !== undefined) this.reply(frame, false);
    return undefined;
  }

  /**
   * An inbound request the server's request journal keeps (see `handleModern`): one it will
   * claim, unless it fails to decode or its id is taken (its entry is then kept after all).
   */
  protected override keptElsewhere(frame: unknown): boolean {
    if (this.role !== 'server') return false;
    const msg = frame as Partial<JsonRpcRequest> | null;
    if (msg === null || typeof msg !== 'object' || msg.params?._meta === undefined || typeof msg.method !== 'string' || msg.id === undefined) return false;
    const modern = this.shared?.modern;
    return modern !== undefined && modern.keepsJournal && modern.claims(msg as JsonRpcRequest);
  }

  /** @internal A modern request's notification, related to it (see `modern-on-session.ts`). */
  sendRelated(frame: JsonRpcNotification, id: RequestId): void {
    this.sendFrame(frame, id, this.journal === undefined || this.shared?.modern?.keepsJournal !== true);
  }

  /** A session serves legacy requests: no 2026-07-28 request scope (the modern core serves those with no session). */
  get requestScope(): RequestScope | undefined {
    return undefined;
  }

  protected handleInitialize(msg: JsonRpcRequest, inBatch: boolean): JsonRpcResponse | undefined {
    const refused = refuseInitialize(msg, inBatch, this.role, this.phase);
    if (refused) return refused;
    this.send({ type: 'INITIALIZE_REQUEST', params: msg.params as unknown as InitializeParamsLike, id: msg.id });
    return undefined;
  }

  /**
   * @internal For stateless HTTP: start this server session as if `params` had been negotiated
   * already (each request then arrives on a fresh session without an `initialize`).
   */
  adoptInitialized(params: InitializeParamsLike): void {
    if (this.role !== 'server' || this.phase !== 'awaitingInitialize') {
      throw new Error(`adoptInitialized needs a server session waiting for initialize (it is ${this.phase})`);
    }
    this.send({ type: 'INITIALIZE_REQUEST', params });
    this.send({ type: 'INITIALIZED' });
  }

  /** @internal The outbound progress interval (the `progress.minIntervalMs` option). */
  get progressInterval(): number {
    return this.progressIntervalMs;
  }

  /** @internal A coalescing timer of a handler's progress fired (recorded for replay). */
  progressTimerFired(name: string): void {
    this.record({ kind: 'timer', name });
  }

  /** @internal For handler contexts. */
  progressFor(token: ProgressToken, progress: number, total: number | undefined, message: string | undefined, related: RequestId, meta?: JsonObject): void {
    const params: JsonObject = { progressToken: token, progress };
    if (meta !== undefined) params._meta = meta;
    if (total !== undefined) params.total = total;
    if (message !== undefined && (this.revision === undefined || !isSupportedRevision(this.revision) || allows(this.revision, 'progressMessage'))) {
      params.message = message;
    }
    this.notifyRelated('notifications/progress', params, related);
  }

  /**
   * @internal A notification the runtime sends of itself (a task's status): derived, so not
   * journaled as a call (a replay's server sends it again as its task ends).
   */
  notifyDerived(method: string, params: JsonObject): void {
    this.check(method, 'notification');
    this.sendFrame({ jsonrpc: '2.0', method, params });
  }

  /** @internal A notification tied to an inbound request (for HTTP stream routing). */
  notifyRelated(method: string, params: JsonObject | undefined, related: RequestId): void {
    this.check(method, 'notification');
    this.sendFrame(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params }, related);
  }
}

// A Session is a RequestCaller: checked here rather than with `implements`, because the published
// declarations strip the internal members the interface names (a consumer's compile would fail).
const sessionIsCaller: (session: Session) => RequestCaller & ServerCaller = (session) => session;
void sessionIsCaller;

/**
 * The session a legacy-only request arrived on (`logging/setLevel`, `resources/subscribe`: methods
 * 2026-07-28 removed, so their caller is always a session). A modern request's caller here is a
 * bug in the caller's routing: said plainly rather than failing on a missing member.
 */
export function legacySession(caller: ServerCaller, method: string): Session {
  if (caller instanceof Session) return caller;
  throw new McpError(ErrorCode.MethodNotFound, `Method not found: ${method} (revision 2026-07-28 removed it)`);
}

/** The session a request's caller is, or undefined for a 2026-07-28 request's caller (no session in that revision). */
export function sessionOf(caller: ServerCaller): Session | undefined {
  return caller instanceof Session ? caller : undefined;
}
