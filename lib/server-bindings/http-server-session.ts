/**
 * One Streamable HTTP session (or one stateless POST): the transport actor of one `ServerSession`
 * and the executor of `machines/http-session.machine.ts` (idle / busy / terminated, its idle
 * timer a place in the clock's idle queue). It routes what the server session sends to the POST exchange of its request or to the
 * standalone GET stream, keeps events for resumption, and works for the handler's core through
 * what {@link SessionCore} names of it.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#session-management
 */
import type { HttpHeadersOut, HttpResponseOut } from '../../streams/http-shape.js';
import { TransportError } from '../errors.js';
import { classifyValue } from '../jsonrpc/codec.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import type { Frame, JsonObject, JsonRpcMessage, JsonRpcRequest, JsonRpcResponse, RequestId } from '../jsonrpc/message.js';
import { allows, isSupportedRevision } from '../protocol/revisions.js';
import type { ServerSession } from '../server.js';
import type { InvalidInbound, SingleInbound } from '../../streams/inbound.js';
import { type Caller } from '../../streams/http-auth.js';
import { errorBody, writeEmpty, writeError, writeJson } from '../../streams/http-body.js';
import { HttpSessionLifecycle } from '../../streams/http-session.js';
import { SseSink } from '../../streams/http-sse-sink.js';
import { type EventStore } from '../../streams/event-store.js';
import { ClusterSessions } from './http-cluster-sessions.js';
import { HotInbound, StateCell } from '../../streams/memory.js';
import { SSE_HEADERS, sseEvent, sseStreamStart } from '../../streams/sse-encode.js';
import type { RawFrame, SendOptions, Transport, TransportPeer } from '../../streams/transport.js';
import { Exchange, type ExchangeCore } from './http-exchange.js';
import type { Hibernatable, HibernatedState, Hibernation } from './http-hibernation.js';
import { SESSION_HEADER, parseEventId } from './http-server-options.js';

/** What an HTTP session uses of the handler's core (`HttpServerCore` has it all). @internal */
export interface SessionCore extends ExchangeCore {
  readonly cluster: ClusterSessions<HttpSession> | undefined;
  readonly store: EventStore | undefined;
  readonly sessions: Map<string, HttpSession>;
  /** Puts idle sessions to sleep (undefined: sessions never hibernate). */
  readonly hibernation: Hibernation<HttpSession> | undefined;
  report(error: unknown): void;
  internalError(res: HttpResponseOut, e: unknown, id?: RequestId | null): void;
}

/**
 * The transport actor of one Streamable HTTP session (or of one stateless POST), and the
 * executor of the http-session machine.
 * @internal
 */
export class HttpSession extends HttpSessionLifecycle implements Transport, Hibernatable {
  private readonly inbound = new HotInbound<RawFrame>();
  private readonly state = new StateCell({ phase: 'open' });
  readonly inbound$ = this.inbound.observable;
  readonly state$ = this.state.observable;
  readonly identity: string | undefined;
  authInfo: unknown;
  serverSession: ServerSession | undefined;
  /** Live requests → the POST exchange carrying them; made by the first, dropped when empty (an idle session holds no map). */
  private live: Map<RequestId, Exchange> | undefined;
  /** The standalone GET stream's open connection, if any. */
  private getSink: SseSink | undefined;
  /** Last seq used on stream 0 (the standalone stream). */
  private getSeq = 0;
  /** The standalone stream has been opened (events for it are kept for resumption). */
  private getOpened = false;
  /** Next request stream number (0 is the standalone stream). */
  nextStreamNo = 1;
  /** @internal Clock time it last went idle (see {@link Hibernation}). */
  quietSince: number;
  /** @internal It waits in the hibernation queue. */
  hibernateQueued = false;

  constructor(
    readonly core: SessionCore,
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
    this.quietSince = core.clock.now();
  }

  /** @internal The session a hibernated one was, rebuilt for its next request: same id, tag, streams and ServerSession. */
  static revived(core: SessionCore, state: HibernatedState, idleTtlMs: number): HttpSession {
    const session = new HttpSession(core, state.id, state.tag, idleTtlMs, { identity: state.identity, authInfo: state.authInfo });
    session.remote = state.remote;
    session.getSeq = state.getSeq;
    session.getOpened = state.getOpened;
    session.nextStreamNo = state.nextStreamNo;
    session.serverSession = state.serverSession;
    return session;
  }

  /** EXCHANGE_CLOSED; going idle, the session may hibernate later. */
  override exchangeClosed(): void {
    const wasBusy = this.lifecycle === 'busy';
    super.exchangeClosed();
    if (wasBusy && this.lifecycle === 'idle') {
      this.quietSince = this.clock.now();
      this.core.hibernation?.wentQuiet(this);
    }
  }

  /** @internal Nothing in flight on the transport's side: no exchange, no standalone stream open. */
  get quiet(): boolean {
    return this.live === undefined && this.getSink === undefined;
  }

  /** @internal What a hibernated session keeps (see {@link Hibernation}). */
  hibernationState(): HibernatedState | undefined {
    const s = this.serverSession;
    if (s === undefined || this.id === '') return undefined;
    return { id: this.id, tag: this.tag, identity: this.identity, authInfo: this.authInfo, serverSession: s, remote: this.remote, getSeq: this.getSeq, getOpened: this.getOpened, nextStreamNo: this.nextStreamNo };
  }

  /** @internal Hibernated: leave the idle queue without ending (the record carries the deadline); this object is dropped. */
  retire(): void {
    // EXCHANGE_OPENED is the machine's one way out of `idle` that does not terminate.
    this.exchangeOpened();
  }

  /** Live requests → the POST exchange carrying them (read-only: see {@link addExchange}, {@link removeExchange}). */
  get exchanges(): ReadonlyMap<RequestId, Exchange> {
    return this.live ?? NO_EXCHANGES;
  }

  private addExchange(id: RequestId, exchange: Exchange): void {
    (this.live ??= new Map()).set(id, exchange);
  }

  /** @internal An exchange is done with request `id`. */
  removeExchange(id: RequestId): void {
    const live = this.live;
    if (live !== undefined && live.delete(id) && live.size === 0) this.live = undefined;
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
        this.addExchange(id, exchange);
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
    for (const id of ids) this.addExchange(id, exchange);
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
    this.live = undefined;
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

const NO_EXCHANGES: ReadonlyMap<RequestId, Exchange> = new Map();

function cancelledId(msg: { method: string; params?: JsonObject }): RequestId | undefined {
  if (msg.method !== 'notifications/cancelled') return undefined;
  const id = msg.params?.requestId;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

export function isPromise<T>(v: unknown): v is Promise<T> {
  return v !== null && typeof v === 'object' && typeof (v as Promise<T>).then === 'function';
}

/** Calls `ok` with the value, at once when it is not a promise. */
export function settle<T>(v: T | Promise<T>, ok: (value: T) => void, fail: (e: unknown) => void): void {
  if (isPromise<T>(v)) v.then(ok, fail);
  else ok(v);
}
