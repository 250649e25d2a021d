/**
 * The request-scoped core of revision 2026-07-28: one modern request in, its notifications and
 * its answer out, with no session state kept. Every transport hands it requests that claim the
 * modern era (`lib/modern/classify-era.ts`); the legacy session is a layer beside it that the same
 * handlers serve.
 *
 * The steps, in the order the suite's ladder checks them:
 *   envelope (-32602 malformed, -32022 unsupported version; `envelope.ts`)
 *   → method (-32601 for a method 2026-07-28 removed or nobody serves; HTTP 404)
 *   → requestState of a retry (-32602 when tampered, foreign or expired; `request-state.ts`)
 *   → the handler, dispatched over the request itself (`request-host.ts`: no session; the
 *     capability and parameter checks as on a session; `ctx.session` is the request's caller;
 *     `ctx.elicit/sample/listRoots` become input requests of this round, `input-round.ts`)
 *   → the result: `resultType`, server info, caching hints; errors in this era's codes.
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic
 */
import { isStoreOutageError } from '../shared/store-outage.js';
import { McpError, wireErrorOf } from '../errors.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import type { JsonObject, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse, RequestId } from '../jsonrpc/message.js';
import { copyJsonObject, spreadCopy } from '../jsonrpc/spread-copy.js';
import { SentInfo } from './sent-info.js';
import { MODERN_CLIENT_REQUESTS, REMOVED_IN_MODERN, isKnownMethod } from '../protocol/methods.js';
import type { LoggingLevel } from '../protocol/schema/logging.js';
import {
  CACHEABLE_METHODS,
  INPUT_REQUIRED_METHODS,
  META,
  type CacheScope,
  type CacheableMethod,
  type InputRequiredResult,
} from '../protocol/schema/modern.js';
import type { ServedServer } from './served-server.js';
import type { ModernDispatch, ServerCaller } from '../session/session.js';
import type { ClientGoneWatcher } from '../session/request-scope.js';
import { ServerRequest, type RequestOwner } from '../session/server-request.js';
import { dispatchRequest } from '../session/request-dispatch.js';
import { progressRate } from '../session/progress-rate.js';
import { ModernRequest, type ModernShared } from './request-host.js';
import { systemClock } from '../clock.js';
import { EnvelopeRefusal, hasVersionClaim, readEnvelope, type Envelope } from './envelope.js';
import { InvalidRequestStateError, RequestStateCodec, paramsDigest, type ReplayGuard, type RequestStateOptions } from './request-state.js';
import { discoverResult } from './discover.js';
import { listen, type ListenExtension } from './subscriptions-listen.js';
import { listenView } from '../server-features/interceptors/listen-view.js';
import { answerThroughChain } from '../server-features/interceptors/core-chain.js';
import { principalOf } from '../auth/principal.js';
import type { TransportPeer } from '../../streams/transport.js';

/** Caching hints of a cacheable result. */
export interface CacheHint {
  ttlMs: number;
  cacheScope: CacheScope;
}

/** Options of the modern era (`ServerOptions.modern`). */
export interface ModernOptions {
  /** How `requestState` is signed and how long it lives. Set `key` to continue rounds across processes and restarts. */
  requestState?: RequestStateOptions;
  /**
   * Caching hints for results that carry none: one default, and per method. Default
   * `{ ttlMs: 0, cacheScope: 'private' }`: nothing is cached and nothing shared unless you say so.
   * @see https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/caching
   */
  caching?: { default?: CacheHint; methods?: Partial<Record<CacheableMethod, CacheHint>> };
}

/** An answer and the HTTP status it calls for. */
export interface Answer {
  response: JsonRpcResponse | undefined;
  /** 200, or 400 / 404 for the refusals the transport page names. */
  status: number;
}

/** What a transport gives the core for one request. */
export interface RequestIo {
  /** A notification related to the request (progress, log messages at the request's level). */
  notify(frame: JsonRpcNotification): void;
  /** Who the transport says the caller is. */
  authInfo?: unknown;
  /** What the transport knows of the caller (channel kind, address), for interceptors such as OpenTelemetry. */
  peerFacts?: TransportPeer | undefined;
  /** Aborted when the client goes away (HTTP: response stream closed; stdio: notifications/cancelled). */
  readonly signal?: AbortSignal | undefined;
  /**
   * Where given, the core watches for the client going away through these rather than `signal`,
   * which the session then makes only if something reads it: an AbortSignal and its listener per
   * request were a tenth of a modern call on a session's transport, where few are cancelled.
   */
  readonly cancellation?: RequestCancellation | undefined;
}

/** The client going away, without a signal (see {@link RequestIo.cancellation}). */
export interface RequestCancellation {
  readonly aborted: boolean;
  readonly reason: unknown;
  /** Run `end` once when the client goes away (at once if it has); returns how to stop watching. */
  onAbort(end: () => void): () => void;
  /**
   * Optional, used in place of {@link onAbort} where given: call `request.clientGone()` once when
   * the client goes away (at once if it has), unless the request was answered first. Nothing to
   * stop: the carrier drops the request with its entry. Saves a closure per request.
   */
  watchRequest?(request: ClientGoneWatcher): void;
}


const DEFAULT_HINT: CacheHint = { ttlMs: 0, cacheScope: 'private' };
const CACHEABLE = new Set<string>(CACHEABLE_METHODS);
const INPUT_REQUIRED = new Set<string>(INPUT_REQUIRED_METHODS);

/**
 * A method an extension serves on the modern path itself (the tasks extension's `tasks/get`,
 * `tasks/update`, `tasks/cancel`, whose names the core era removed): params and envelope in,
 * a result out, or an `McpError`.
 */
export type ExtensionMethod = (params: JsonObject | undefined, call: { envelope: Envelope; authInfo: unknown }) => Promise<JsonObject>;

/**
 * Applies the log level a modern request asks for (`io.modelcontextprotocol/logLevel`) before its
 * handler runs; a throw refuses the request (an `McpError` as it is, anything else -32603).
 */
export type LogLevelHook = (level: LoggingLevel, session: ServerCaller) => void | Promise<void>;

export class RequestCore implements ModernDispatch {
  private readonly states: RequestStateCodec;
  private readonly hints: Map<string, CacheHint>;
  private readonly replayGuard: ReplayGuard | undefined;
  /** Open listen streams: how to end each (see {@link close}). */
  private readonly listens = new Set<() => void>();
  /** Methods extensions serve here, checked before the removed-method refusal. */
  private readonly extensionMethods = new Map<string, ExtensionMethod>();
  /** Opt-ins of `subscriptions/listen` extensions serve. */
  private readonly listenExtensions: ListenExtension[] = [];
  private logLevelHook: LogLevelHook | undefined;
  private owner: RequestOwner | undefined;
  /** What every request of this server shares, made at the first (see {@link ModernShared}). */
  private sharedParts: ModernShared | undefined;
  /** The server info each result carries. */
  private readonly sentInfo = new SentInfo();

  constructor(
    private readonly server: ServedServer,
    options: ModernOptions = {},
  ) {
    this.states = new RequestStateCodec({ ...options.requestState, ...(options.requestState?.clock === undefined && server.options.clock && { clock: server.options.clock }) });
    this.replayGuard = options.requestState?.replayGuard;
    const base = options.caching?.default ?? DEFAULT_HINT;
    this.hints = new Map(CACHEABLE_METHODS.map((m) => [m, options.caching?.methods?.[m] ?? base]));
  }

  /**
   * End every open `subscriptions/listen` stream gracefully (server shutdown): each gets
   * `notifications/cancelled` and its result. Requests in flight finish on their own.
   */
  close(): void {
    const ends = [...this.listens];
    this.listens.clear();
    for (const end of ends) end();
  }

  claims(msg: JsonRpcRequest): boolean {
    return hasVersionClaim(msg.params);
  }

  get keepsJournal(): boolean {
    return this.server.requestJournal.journal !== undefined;
  }

  /** Serve one modern request (on any transport): check its envelope, run its handler, shape its answer. */
  answer(msg: JsonRpcRequest, io: RequestIo): Promise<Answer> {
    return promised(() => this.run(msg, undefined, io, undefined)) as Promise<Answer>;
  }

  /**
   * Serve a modern request a carrier (a session) tracks: `finish` turns its answer, or the error
   * it failed with, into what the carrier sends, as the last step of the same async function (a
   * carrier awaiting the answer itself would cost another async frame per request).
   */
  serveCarried<I extends RequestIo, R>(msg: JsonRpcRequest, io: I, finish: CarrierFinish<I, R>): R | Promise<R> {
    // At once when the handler answered at once (the carrier sends it in the same turn, as a
    // legacy session does); anything thrown on the way is a rejection, as from an async step.
    try {
      return this.run(msg, undefined, io, finish as CarrierFinish<RequestIo, R>) as R | Promise<R>;
    } catch (e) {
      return Promise.reject(e as Error);
    }
  }

  /** The envelope, or the refusal to answer with. */
  private envelopeOrRefusal(msg: JsonRpcRequest): Envelope | Answer {
    try {
      return this.envelopeOf(msg);
    } catch (e) {
      if (e instanceof EnvelopeRefusal) return { response: { jsonrpc: '2.0', id: msg.id, error: e.toJSON() }, status: e.status };
      throw e;
    }
  }

  /** The request's envelope, checked; a refusal is journaled (`journal: true`) before it is thrown. */
  envelopeOf(msg: JsonRpcRequest): Envelope {
    try {
      return readEnvelope(msg.params);
    } catch (e) {
      if (e instanceof EnvelopeRefusal) this.server.requestJournal.refused(msg, { jsonrpc: '2.0', id: msg.id, error: e.toJSON() });
      throw e;
    }
  }

  /** Serve an extension's opt-in of `subscriptions/listen` (see {@link ListenExtension}). */
  serveListen(extension: ListenExtension): void {
    this.listenExtensions.push(extension);
  }

  /** Serve `method` on modern requests with `handler` (an extension's method; see {@link ExtensionMethod}). */
  serveExtension(method: string, handler: ExtensionMethod): void {
    this.extensionMethods.set(method, handler);
  }

  /** Run `hook` for each request that carries a log level, before its handler (see {@link LogLevelHook}). */
  applyLogLevelWith(hook: LogLevelHook): void {
    this.logLevelHook = hook;
  }

  /** Whether the modern era serves `method` (its core requests, and extension methods registered on the server). */
  serves(method: string): boolean {
    if (this.extensionMethods.has(method)) return true;
    if (MODERN_CLIENT_REQUESTS.has(method)) return true;
    return !REMOVED_IN_MODERN.has(method) && !isKnownMethod(method) && this.server.handlesRequest(method);
  }

  /**
   * Serve a request whose envelope was checked already (the HTTP edge checks it before its
   * headers). The request is a {@link ServerRequest} from here to its answer, owned by the server.
   */
  answerEnveloped(msg: JsonRpcRequest, envelope: Envelope, received: RequestIo): Promise<Answer> {
    return promised(() => this.run(msg, envelope, received, undefined)) as Promise<Answer>;
  }

  /**
   * Serve one request (its envelope checked here unless given), answered as it is or through
   * `finish`. At once when every step answers at once (a handler that needs no wait: no async
   * step at all, as on a legacy session); from the first step that must wait, {@link later}.
   */
  private run(msg: JsonRpcRequest, given: Envelope | undefined, received: RequestIo, finish: CarrierFinish<RequestIo, unknown> | undefined): unknown {
    let envelope: Envelope;
    try {
      const checked = given ?? this.envelopeOrRefusal(msg);
      if ('response' in checked) return finish === undefined ? checked : finish.answered(checked, received);
      envelope = checked;
    } catch (e) {
      if (finish === undefined) throw e;
      return finish.failed(e, received);
    }
    // Journaled (`journal: true`): the request as received, what its io carries, its end (lib/journal/request-journal.ts).
    const tap = this.server.requestJournal.begin(msg, received);
    const io = tap?.io ?? received;
    const request = new ServerRequest(msg.id, msg.method, msg.params, (this.owner ??= this.modernOwner()), principalOf(io.authInfo));
    // The steps that wait or fail get the request as one object; one answered at once needs none.
    let answer: Answer;
    try {
      const ready = this.prepare(msg, envelope, io, request);
      if (isPromise(ready)) return this.later({ msg, received, finish, tap, io, request }, ready, undefined);
      if (ready instanceof ModernRequest) {
        const out = dispatchRequest(ready, msg, request, false);
        if (isPromise(out)) return this.later({ msg, received, finish, tap, io, request }, ready, out);
        const unwatch = watchAbort(io, ready);
        let settled: Answer | Promise<Answer>;
        try {
          settled = this.afterHandler(ready, msg, out);
        } catch (e) {
          unwatch();
          ready.end();
          throw e;
        }
        if (isPromise(settled)) return this.settleLater({ msg, received, finish, tap, io, request }, ready, unwatch, settled);
        unwatch();
        ready.end();
        answer = settled;
      } else answer = ready;
    } catch (e) {
      return this.failed({ msg, received, finish, tap, io, request }, e);
    }
    return endedWith(request, io, tap, finish, received, answer);
  }

  /** {@link run} from a step that must wait (the host, or the handler's answer), in one async function. */
  private async later(run: Run, ready: Prepared, out: DispatchOutput | undefined): Promise<unknown> {
    const { msg, io, request } = run;
    let answer: Answer;
    try {
      const host = isPromise(ready) ? await ready : ready;
      if (host instanceof ModernRequest) {
        const dispatched = out ?? dispatchRequest(host, msg, request, false);
        const unwatch = watchAbort(io, host);
        try {
          // With interceptors, the chain answers a round that ends input-required itself (it sees, and may rewrite, that result).
          const raced = isPromise(dispatched) ? await (this.server.interceptorList.length > 0 ? dispatched : host.raceRound(dispatched)) : dispatched;
          const settled = this.afterHandler(host, msg, raced);
          answer = isPromise(settled) ? await settled : settled;
        } finally {
          unwatch();
          host.end();
        }
      } else answer = host;
    } catch (e) {
      return this.failed(run, e);
    }
    return this.ended(run, answer);
  }

  /** {@link run} when the handler answered at once but its round's answer must wait (input required). */
  private async settleLater(run: Run, host: ModernRequest, unwatch: () => void, settled: Promise<Answer>): Promise<unknown> {
    let answer: Answer;
    try {
      try {
        answer = await settled;
      } finally {
        unwatch();
        host.end();
      }
    } catch (e) {
      return this.failed(run, e);
    }
    return this.ended(run, answer);
  }

  /** The request's end (see {@link endedWith}). */
  private ended(run: Run, answer: Answer): unknown {
    return endedWith(run.request, run.io, run.tap, run.finish, run.received, answer);
  }

  /** The request failed with `e`: so recorded, then thrown, or made the carrier's answer. */
  private failed(run: Run, e: unknown): unknown {
    run.request.failed({ code: ErrorCode.InternalError, message: (e as Error)?.message ?? String(e) });
    run.tap?.end(undefined, run.request.state, run.request);
    if (run.finish === undefined) throw e;
    return run.finish.failed(e, run.received);
  }

  /** The answer once the handler settled, or its round ended input-required. */
  private afterHandler(host: ModernRequest, msg: JsonRpcRequest, raced: JsonRpcResponse | InputRequiredResult | undefined): Answer | Promise<Answer> {
    const { id, method } = msg;
    // Input required: the handler is abandoned; nothing of this round stays behind.
    if (raced !== undefined && !('jsonrpc' in raced)) return this.complete(id, method, raced as unknown as JsonObject);
    if (raced !== undefined && 'result' in raced && raced.result.resultType === 'input_required' && this.server.interceptorList.length > 0) return this.complete(id, method, spreadCopy(raced.result));
    if (!host.roundSettled(raced !== undefined && 'result' in raced)) return host.inputRequired.then((r) => this.complete(id, method, r));
    return this.shape(raced, method);
  }

  /** Who modern requests belong to: the server (one owner for all; each request names its principal). */
  private modernOwner(): RequestOwner {
    const server = this.server;
    return {
      clock: server.options.clock ?? systemClock,
      era: 'modern',
      caller: () => 'anonymous',
      ended: server.requestEnded,
      inspectParent: server.inspectParent,
    };
  }

  /**
   * What a request needs before its handler runs: its answer already (a refusal, or the core's own
   * methods, answered here), or the host its handler is served over. At once unless it must wait
   * (a retry's replay guard, the log level hook).
   */
  private prepare(msg: JsonRpcRequest, envelope: Envelope, io: RequestIo, request: ServerRequest): Prepared {
    const { id, method } = msg;
    this.server.markServing();
    if (!this.serves(method)) {
      return { response: error(id, ErrorCode.MethodNotFound, `Method not found: ${method}${REMOVED_IN_MODERN.has(method) ? ' (revision 2026-07-28 removed it)' : ''}`), status: 404 };
    }
    if (method === 'server/discover' || method === 'subscriptions/listen' || this.extensionMethods.has(method)) {
      // Answered here, without a handler: through the interceptor chain all the same (when there is one).
      request.start();
      const own = (m: JsonRpcRequest) => this.answerOwn(m, envelope, io);
      const chain = this.server.interceptorList;
      return chain.length === 0 ? own(msg) : answerThroughChain(chain, msg, io, this.server.options.clock, own, (i, r) => this.complete(i, method, r));
    }
    const params = msg.params;
    if (INPUT_REQUIRED.has(method) && params !== undefined) {
      const given = params.inputResponses;
      if (given !== undefined && (given === null || typeof given !== 'object' || Array.isArray(given))) {
        return { response: error(id, ErrorCode.InvalidParams, 'Invalid params: "inputResponses" must be an object of answers by input key'), status: 200 };
      }
      if (params.requestState !== undefined) return this.openRound(msg, params, envelope, io, request);
      // A retry's answers: most requests carry none, and need no object for them.
      if (given) return this.hostFor(msg, envelope, io, request, copyAnswers(given as JsonObject, Object.create(null) as JsonObject));
    }
    return this.hostFor(msg, envelope, io, request, undefined);
  }

  /** A retry with `requestState`: its state opened (and claimed, with a replay guard), then its host. */
  private async openRound(msg: JsonRpcRequest, params: JsonObject, envelope: Envelope, io: RequestIo, request: ServerRequest): Promise<Answer | ModernRequest> {
    const method = msg.method;
    const principal = request.principal;
    let answers: JsonObject;
    let ids: Record<string, string> | undefined;
    let digest: string;
    try {
      digest = paramsDigest(params);
      const state = this.states.open(params.requestState, principal === undefined ? { method, digest } : { method, digest, principal });
      if (this.replayGuard !== undefined && !(await this.replayGuard.claim(state.nonce, state.expiresAt))) throw new InvalidRequestStateError('replayed');
      answers = copyAnswers(state.answers, Object.create(null) as JsonObject);
      if (state.ids !== undefined) ids = state.ids;
      request.round = state.round;
    } catch (e) {
      if (e instanceof InvalidRequestStateError) return { response: { jsonrpc: '2.0', id: msg.id, error: e.toJSON() }, status: 200 };
      throw e;
    }
    const given = params.inputResponses;
    if (given) copyAnswers(given as JsonObject, answers);
    return this.hostFor(msg, envelope, io, request, answers, ids, digest);
  }

  /** The host the handler is served over (no session: the request itself), after the log level hook if it applies. */
  private hostFor(msg: JsonRpcRequest, envelope: Envelope, io: RequestIo, request: ServerRequest, answers: JsonObject | undefined, ids?: Record<string, string>, digest?: string): Prepared {
    const host = new ModernRequest((this.sharedParts ??= this.makeShared()), envelope, io, request);
    if (answers !== undefined) host.givenAnswers = answers;
    if (ids !== undefined) host.ids = ids;
    if (digest !== undefined) host.digest = digest;
    if (envelope.logLevel !== undefined && this.logLevelHook !== undefined) {
      return this.applyLogLevel(msg.id, envelope.logLevel, host).then((refused) => refused ?? host);
    }
    return host;
  }

  /** The parts every request of this server shares: the handler table, the declared capabilities, the clock, the progress interval. */
  private makeShared(): ModernShared {
    const options = this.server.options;
    return {
      table: this.server.requestHandlerTable,
      capabilities: this.server.declaredCapabilities,
      clock: options.clock ?? systemClock,
      progressInterval: progressRate(options.progress).minIntervalMs,
      seal: (state) => this.states.seal(state),
    };
  }

  /** The refusal when the log level hook throws (the handler never runs), or undefined. */
  private async applyLogLevel(id: RequestId, level: LoggingLevel, session: ServerCaller): Promise<Answer | undefined> {
    try {
      await this.logLevelHook!(level, session);
      return undefined;
    } catch (e) {
      // Whatever else went wrong stays on the server: the client learns only that the level was not applied.
      const err = e instanceof McpError ? wireErrorOf(e) : { code: ErrorCode.InternalError, message: `Internal error: the server could not apply log level "${level}"` };
      return { response: { jsonrpc: '2.0', id, error: err }, status: 200 };
    }
  }

  /** The answers of this core's own (`server/discover`, `subscriptions/listen`, extension methods). */
  private async answerOwn(msg: JsonRpcRequest, envelope: Envelope, io: RequestIo): Promise<Answer> {
    const { id, method } = msg;
    if (method === 'server/discover') return this.complete(id, method, discoverResult(this.server));
    const extension = this.extensionMethods.get(method);
    if (extension !== undefined) return this.answerExtension(id, method, extension, msg.params, envelope, io);
    const track = (end: () => void) => {
      this.listens.add(end);
      return () => this.listens.delete(end);
    };
    const call = { clientCapabilities: envelope.clientCapabilities, authInfo: io.authInfo };
    const closed = await listen(msg, this.server.events, this.server.declaredCapabilities, io, track, { list: this.listenExtensions, call }, listenView(this.server, io.authInfo, io.peerFacts));
    return closed === undefined ? { response: undefined, status: 200 } : this.shape(closed, method);
  }

  private async answerExtension(id: RequestId, method: string, handler: ExtensionMethod, params: JsonObject | undefined, envelope: Envelope, io: RequestIo): Promise<Answer> {
    try {
      return this.complete(id, method, await handler(params, { envelope, authInfo: io.authInfo }));
    } catch (e) {
      const err = e instanceof McpError ? wireErrorOf(e) : { code: ErrorCode.InternalError, message: (e as Error)?.message ?? String(e) };
      return this.shape({ jsonrpc: '2.0', id, error: err }, method);
    }
  }

  /** A result as this era sends it: `resultType`, server info, caching hints when complete and cacheable. */
  private complete(id: RequestId, method: string, result: JsonObject): Answer {
    if (result.resultType === undefined) result.resultType = 'complete';
    const meta = (result._meta !== null && typeof result._meta === 'object' ? copyJsonObject(result._meta as JsonObject) : {}) as JsonObject;
    meta[META.serverInfo] = this.sentInfo.of(this.server.options.info);
    result._meta = meta;
    if (result.resultType === 'complete' && CACHEABLE.has(method)) {
      const hint = this.hints.get(method)!;
      if (!(typeof result.ttlMs === 'number' && Number.isInteger(result.ttlMs) && result.ttlMs >= 0)) result.ttlMs = hint.ttlMs;
      if (result.cacheScope !== 'public' && result.cacheScope !== 'private') result.cacheScope = hint.cacheScope;
    }
    return { response: { jsonrpc: '2.0', id, result }, status: 200 };
  }

  private shape(response: JsonRpcResponse | undefined, method: string): Answer {
    if (response === undefined) return { response: undefined, status: 200 };
    if ('result' in response) return this.complete(response.id, method, copyJsonObject(response.result));
    const e = response.error;
    // This era's codes: an unknown resource is -32602 (with its uri), not -32002.
    if (e.code === ErrorCode.ResourceNotFound) {
      return { response: { ...response, error: { code: ErrorCode.InvalidParams, message: e.message, ...(e.data !== undefined && { data: e.data }) } }, status: 200 };
    }
    // A shared store that is down (the task store) is HTTP 503, as on the other paths.
    return { response, status: e.code === ErrorCode.MissingRequiredClientCapability ? 400 : isStoreOutageError(e) ? 503 : 200 };
  }
}

/** The request's end: its final state, its journal entry, then what the caller gets. */
function endedWith(request: ServerRequest, io: RequestIo, tap: Run['tap'], finish: Run['finish'], received: RequestIo, answer: Answer): unknown {
  ended(request, io, answer.response);
  tap?.end(answer.response, request.state, request);
  return finish === undefined ? answer : finish.answered(answer, received);
}

/** The request's final state from its answer: cancelled if the client went away, else failed, input required or answered. */
function ended(request: ServerRequest, io: RequestIo, response: JsonRpcResponse | undefined): void {
  const gone = io.cancellation ?? io.signal;
  if (gone?.aborted === true) request.cancelled(String(gone.reason ?? 'The client went away'));
  else if (response !== undefined && 'error' in response) request.failed(response.error);
  else if (response?.result.resultType === 'input_required') request.inputRequired(Object.keys((response.result.inputRequests ?? {}) as JsonObject));
  else request.answered();
}

/** End `host` when the client goes away; returns how to stop watching. */
function watchAbort(io: RequestIo, host: ModernRequest): () => void {
  const cancellation = io.cancellation;
  if (cancellation?.watchRequest !== undefined) {
    cancellation.watchRequest(host);
    return NOTHING;
  }
  return watchWithClosure(io, host);
}

/** {@link watchAbort} through `onAbort` or the signal (a function of its own: its closure's context is made only here). */
function watchWithClosure(io: RequestIo, host: ModernRequest): () => void {
  const end = () => host.clientGone();
  if (io.cancellation !== undefined) return io.cancellation.onAbort(end);
  const signal = io.signal;
  if (signal === undefined) return NOTHING;
  signal.addEventListener('abort', end, { once: true });
  return () => signal.removeEventListener('abort', end);
}
const NOTHING = (): void => {};

/** How a carrier turns a request's answer (or the error it failed with) into what it sends (see `RequestCore.serveCarried`). */
export interface CarrierFinish<I, R> {
  answered(answer: Answer, io: I): R;
  failed(error: unknown, io: I): R;
}

/** What a request needs before its handler runs (see `RequestCore.prepare`). */
type Prepared = Answer | ModernRequest | Promise<Answer | ModernRequest>;

/** What a dispatch of a request over its host gives: its response at once, or later. */
type DispatchOutput = ReturnType<typeof dispatchRequest>;

/** One request as `RequestCore.run` serves it, handed to its later steps in one object. */
interface Run {
  readonly msg: JsonRpcRequest;
  readonly received: RequestIo;
  readonly finish: CarrierFinish<RequestIo, unknown> | undefined;
  readonly tap: ReturnType<ServedServer['requestJournal']['begin']>;
  readonly io: RequestIo;
  readonly request: ServerRequest;
}

/** `f()` as a promise: its value, or its throw as a rejection. */
function promised(f: () => unknown): Promise<unknown> {
  try {
    return Promise.resolve(f());
  } catch (e) {
    return Promise.reject(e as Error);
  }
}

/** Copy the answers of `from` into `to`: own keys only, and never `__proto__` (they are client input). */
function copyAnswers(from: JsonObject, to: JsonObject): JsonObject {
  for (const key of Object.keys(from)) if (key !== '__proto__') to[key] = from[key]!;
  return to;
}

function error(id: RequestId, code: number, message: string): JsonRpcResponse {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

function isPromise<T>(v: unknown): v is Promise<T> {
  return v !== null && typeof v === 'object' && typeof (v as Promise<T>).then === 'function';
}
