/**
 * One 2026-07-28 request as its handler sees it, with no session behind it: the revision has
 * none. It is at once what the request dispatch serves the request over (`DispatchHost`), what the
 * handler context reads (`ContextSession`), the caller features see as `ctx.session`
 * (`ServerCaller`, made from the request's `_meta` envelope) and the request's scope
 * (`RequestScope`: its input round, trace, actor). What the server shares (handlers, declared
 * capabilities, clock, progress interval) is made once per server ({@link ModernShared}).
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/lifecycle
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr
 */
import type { PeerInfo, SessionPhase } from '../../machines/session.machine.js';
import type { Clock } from '../clock.js';
import { ConnectionClosedError } from '../errors.js';
import type { JsonObject, JsonRpcNotification, JsonRpcRequest, RequestId } from '../jsonrpc/message.js';
import { spreadMerge } from '../jsonrpc/spread-copy.js';
import { LOGGING_LEVELS, type LoggingLevel } from '../protocol/schema/logging.js';
import { capabilityFor } from '../session/outbound.js';
import { abandonIncoming, type DispatchHost, type IncomingTable } from '../session/request-dispatch.js';
import { HandlerContext, type Incoming } from '../session/handler-context.js';
import type { ServerRequest } from '../session/server-request.js';
import type { HandlerTable, RequestHandler, RequestScope, ServerCaller } from '../session/session.js';
import type { TransportPeer } from '../../streams/transport.js';
import type { Envelope } from './envelope.js';
import type { Diagnostic } from '../session/session-options.js';
import type { InputRequiredResult } from '../protocol/schema/modern.js';
import { InputRound, type InputRoundHost } from './input-round.js';
import { paramsDigest, type RoundState } from './request-state.js';

/** What every modern request of one server shares: made once per server, read per request. */
export interface ModernShared {
  /** The server's handlers (their `intercept` is read per request: `use()` may come later). */
  readonly table: HandlerTable;
  /** What the server declared (its own object, changed in place as features register). */
  readonly capabilities: Record<string, unknown>;
  readonly clock: Clock;
  /** The outbound progress interval (`progress.minIntervalMs`; 0: every update is sent). */
  readonly progressInterval: number;
  /** Signs the state a round that ends input-required hands the client. */
  seal(state: Omit<RoundState, 'expiresAt' | 'nonce'>): string;
}

/** What the request host uses of its transport's io (`RequestIo` in `request-core.ts`). */
export interface HostIo {
  notify(frame: JsonRpcNotification): void;
  readonly authInfo?: unknown;
  readonly peerFacts?: TransportPeer | undefined;
  /** Journaled requests only (the request journal's tapped io): a timer of the request fired. */
  readonly timerFired?: ((name: string) => void) | undefined;
}

/** The input round a request's `ctx.elicit/sample/listRoots` go to (see `input-round.ts`). */
export type RequestInputs = RequestScope['inputs'];

const LEVEL_RANK = new Map<string, number>(LOGGING_LEVELS.map((l, i) => [l, i]));
const ANONYMOUS: PeerInfo = { name: 'anonymous-client', version: '0' };
/** The answers of a first round: none (read only; a retry's own object replaces it). */
const NO_ANSWERS: JsonObject = Object.freeze(Object.create(null) as JsonObject);

// (Constants and what the envelope says are prototype getters, not fields: one is made per request.)
export class ModernRequest implements DispatchHost<RequestHandler>, ServerCaller, RequestScope, InputRoundHost, IncomingTable {
  // The dispatch's table of the one request it serves is this object (`incoming`): one slot, no
  // table object per request; cancellation ends it through {@link end}.
  private entryId: RequestId | undefined = undefined;
  private entry: Incoming | undefined = undefined;
  private phase: SessionPhase = 'operating';
  // What only a retry, an input round or an end watcher sets is declared, not defined: a request
  // that meets none (most) carries no slots for them (one object per request, 72 B less).
  private declare endWatchers: (() => void)[] | undefined;
  /** @internal Answers of earlier rounds and of this retry, by key (set by the core for a retry; see {@link answers}). */
  declare givenAnswers: JsonObject | undefined;
  /** The URL elicitation ids of earlier rounds (set by the core from a retry's state). */
  declare ids: Readonly<Record<string, string>> | undefined;
  /** The digest of the request's params, once computed (opening a state, or sealing one). */
  declare digest: string | undefined;
  // The input round, made on the first ask: most requests never need one (nor its promise).
  private declare round: InputRound | undefined;
  private declare roundResult: InputRequiredResult | undefined;
  private declare roundPromise: Promise<JsonObject> | undefined;
  private declare roundResolve: ((r: JsonObject) => void) | undefined;
  /** @internal Settles the race of {@link raceRound} with the round's result (set for every handler that answers later). */
  roundRace: ((r: InputRequiredResult) => void) | undefined = undefined;

  constructor(
    private readonly shared: ModernShared,
    private readonly envelope: Envelope,
    private readonly io: HostIo,
    readonly request: ServerRequest,
  ) {}

  /** Answers of earlier rounds and of this retry, by key (none on a first round). */
  get answers(): JsonObject {
    return this.givenAnswers ?? NO_ANSWERS;
  }

  get role(): 'server' {
    return 'server';
  }
  get revision(): string {
    return this.envelope.revision;
  }
  get clientCapabilities(): Record<string, unknown> {
    return this.envelope.clientCapabilities;
  }
  get clientInfo(): PeerInfo {
    return this.envelope.clientInfo ?? ANONYMOUS;
  }
  get trace(): RequestScope['trace'] {
    return this.envelope.trace;
  }
  /**
   * True: a 2026-07-28 request has no session, so nothing ties the caller's next request to this
   * one (`_meta` only says who the client claims to be). Features that keep state per caller
   * (`taskOwner`) then key it by the authenticated identity, or treat the caller as unidentified.
   * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/lifecycle
   */
  get stateless(): boolean {
    return true;
  }
  get inspectActor(): undefined {
    return undefined;
  }
  get callerLabel(): undefined {
    return undefined;
  }

  // ---------------------------------------------------------------- the input round (InputRoundHost)

  /** Where `ctx.elicit/sample/listRoots` go: this request's input round (`input-round.ts`). */
  get inputs(): RequestInputs {
    return (this.round ??= new InputRound(this));
  }

  /** The request's method: only tools/call, prompts/get and resources/read may end input-required. */
  get method(): string {
    return this.request.method;
  }

  /** The state for the next round, signed: the method, the params' digest, the answers, the principal. */
  sealState(answers: JsonObject, urlIds: Record<string, string>): string {
    const request = this.request;
    const digest = (this.digest ??= paramsDigest(request.params));
    const sealed = { method: request.method, digest, answers, round: request.round + 1, ...(Object.keys(urlIds).length > 0 && { ids: urlIds }) };
    return this.shared.seal(request.principal === undefined ? sealed : spreadMerge(sealed, { principal: request.principal }));
  }

  /** The handler's asks ended the round: its `input_required` result stands for the handler. */
  endRound(result: InputRequiredResult): void {
    this.roundResult = result;
    this.roundResolve?.(result as unknown as JsonObject);
    this.roundRace?.(result);
  }

  /** Resolves with the round's `input_required` result, if the handler's asks end the round (see {@link RequestScope.inputRequired}). */
  get inputRequired(): Promise<JsonObject> {
    if (this.roundPromise === undefined) {
      const ended = this.roundResult;
      this.roundPromise = ended !== undefined ? Promise.resolve(ended as unknown as JsonObject) : new Promise<JsonObject>((resolve) => (this.roundResolve = resolve));
    }
    return this.roundPromise;
  }

  /** The handler's outcome, or the round's `input_required` result if its asks end the round first. */
  raceRound<T>(out: Promise<T>): Promise<T | InputRequiredResult> {
    if (this.roundResult !== undefined) return Promise.resolve(this.roundResult);
    // (A module-level executor, handed its request and promise through `racing`: no closure per request.)
    return racePromise(this, out) as Promise<T | InputRequiredResult>;
  }

  /** The handler settled: whether its outcome stands (false once the round ended input-required). */
  roundSettled(ok: boolean): boolean {
    return this.round === undefined || this.round.settled(ok);
  }

  // ---------------------------------------------------------------- the caller (ServerCaller)

  get authInfo(): unknown {
    return this.io.authInfo;
  }
  get peerFacts(): TransportPeer | undefined {
    return this.io.peerFacts;
  }
  get transportPeer(): TransportPeer | undefined {
    return this.io.peerFacts;
  }
  get protocolVersion(): string {
    return this.revision;
  }
  get peerCapabilities(): Record<string, unknown> {
    return this.clientCapabilities;
  }
  get peerInfo(): PeerInfo {
    return this.clientInfo;
  }
  get localCapabilities(): Record<string, unknown> {
    return this.shared.capabilities;
  }
  /** `operating` while the request is served, `closed` once it is answered (or the client went away). */
  get currentPhase(): SessionPhase {
    return this.phase;
  }
  get sessionClock(): Clock {
    return this.shared.clock;
  }
  /** The request's scope: this object (its envelope, input round, trace, actor). */
  get requestScope(): RequestScope {
    return this;
  }

  onEnd(fn: () => void): void {
    if (this.phase === 'closed') fn();
    else (this.endWatchers ??= []).push(fn);
  }

  notify(method: string, params?: JsonObject): void {
    this.notifyRelated(method, params, this.request.id);
  }

  /** The runtime's own notifications (a task's status) go out related to the request too. */
  notifyDerived(method: string, params: JsonObject): void {
    this.notifyRelated(method, params, this.request.id);
  }

  /** A notification goes out related to the request, while it is served; log messages only at or above its level. */
  notifyRelated(method: string, params: JsonObject | undefined, _related: RequestId): void {
    if (this.phase === 'closed') throw new ConnectionClosedError(`Cannot send "${method}": the request was answered`);
    if (method === 'notifications/message' && !admits(this.envelope.logLevel, params?.level)) return;
    this.io.notify((params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params }) as JsonRpcNotification);
  }

  progressFor(token: string | number, progress: number, total: number | undefined, message: string | undefined, related: RequestId, meta?: JsonObject): void {
    const params: JsonObject = { progressToken: token, progress };
    if (meta !== undefined) params._meta = meta;
    if (total !== undefined) params.total = total;
    if (message !== undefined) params.message = message;
    this.notifyRelated('notifications/progress', params, related);
  }

  // ---------------------------------------------------------------- the dispatch (DispatchHost) and the handler context

  /** The dispatch's table of the request: this object, one slot (`IncomingTable`). */
  get incoming(): IncomingTable {
    return this;
  }
  /** @internal The request's entry, if `id` is its id (`IncomingTable`). */
  get(id: RequestId): Incoming | undefined {
    return this.entryId === id ? this.entry : undefined;
  }
  /** @internal (`IncomingTable`) */
  set(id: RequestId, entry: Incoming): this {
    this.entryId = id;
    this.entry = entry;
    return this;
  }
  /** @internal (`IncomingTable`) */
  delete(id: RequestId): boolean {
    if (this.entryId !== id || this.entry === undefined) return false;
    this.entryId = undefined;
    this.entry = undefined;
    return true;
  }
  /** @internal (`IncomingTable`) */
  values(): Incoming[] {
    return this.entry === undefined ? [] : [this.entry];
  }
  /** @internal (`IncomingTable`) */
  clear(): void {
    this.entryId = undefined;
    this.entry = undefined;
  }

  handlerFor(method: string): RequestHandler | undefined {
    return this.shared.table.requests.get(method);
  }
  capabilityFor(method: string): string[] | undefined {
    return capabilityFor(this.revision, method);
  }
  runHandler(handler: RequestHandler, msg: JsonRpcRequest, state: Incoming): JsonObject | void | Promise<JsonObject | void> {
    const ctx = new HandlerContext(this, msg, state);
    const intercept = this.shared.table.intercept;
    return intercept === undefined ? handler(msg.params, ctx) : intercept.request(handler, msg, ctx, this);
  }
  /**
   * What a session notes on its `diagnostics$` (a handler's throw, above all) goes to the
   * request's record in `Server.requests$` (`RequestRecord.diagnostics`): a request has no session.
   */
  diagnose(kind: Diagnostic['kind'], message: string, detail?: unknown): void {
    this.request.diagnosed(detail === undefined ? { kind, message } : { kind, message, detail });
  }

  get progressInterval(): number {
    return this.shared.progressInterval;
  }
  progressTimerFired(name: string): void {
    this.io.timerFired?.(name);
  }
  /** 2026-07-28 has no server-to-client requests: `ctx.sendRequest` asks through the input round instead. */
  startRequest(method: string): Promise<JsonObject> {
    return Promise.reject(new ConnectionClosedError(`Cannot send "${method}": a 2026-07-28 request has no session to send requests on (its asks are input requests)`));
  }

  /** The client went away or cancelled the request (the core's watch; see `RequestCancellation.watchRequest`). */
  clientGone(): void {
    this.end('The request was closed: the client went away or cancelled it');
  }

  /**
   * The request is over (answered, or the client went away): what still runs is cancelled with
   * `reason` (its signal aborts), notifications stop, and what waited for the caller's end runs.
   */
  end(reason = 'The request ended'): void {
    if (this.phase === 'closed') return;
    this.phase = 'closed';
    if (this.entry !== undefined) abandonIncoming(this, new ConnectionClosedError(reason), false);
    const watchers = this.endWatchers;
    if (watchers === undefined) return;
    this.endWatchers = undefined;
    for (const fn of watchers) fn();
  }
}

let racing: ModernRequest | undefined;
let racingOut: Promise<unknown> | undefined;
/** The race of {@link ModernRequest.raceRound}: `out`, or the round's result if it comes first. */
function racePromise(host: ModernRequest, out: Promise<unknown>): Promise<unknown> {
  racing = host;
  racingOut = out;
  return new Promise<unknown>(race);
}
/** Its executor, which `new Promise` runs at once. */
function race(resolve: (v: unknown) => void, reject: (e: unknown) => void): void {
  const host = racing!;
  const out = racingOut!;
  racing = undefined;
  racingOut = undefined;
  host.roundRace = resolve;
  out.then(resolve, reject);
}

/** Log messages go out at or above the level the request asked for; none when it asked for none. */
function admits(asked: LoggingLevel | undefined, level: unknown): boolean {
  if (asked === undefined) return false;
  const threshold = LEVEL_RANK.get(asked)!;
  const rank = typeof level === 'string' ? LEVEL_RANK.get(level as LoggingLevel) : undefined;
  return rank !== undefined && rank >= threshold;
}
