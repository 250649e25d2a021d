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
import { LOGGING_LEVELS, type LoggingLevel } from '../protocol/schema/logging.js';
import { capabilityFor } from '../session/outbound.js';
import { abandonIncoming, type DispatchHost } from '../session/request-dispatch.js';
import { HandlerContext, type Incoming } from '../session/handler-context.js';
import type { ServerRequest } from '../session/server-request.js';
import type { HandlerTable, RequestHandler, RequestScope, ServerCaller } from '../session/session.js';
import type { TransportPeer } from '../../streams/transport.js';
import type { Envelope } from './envelope.js';

/** What every modern request of one server shares: made once per server, read per request. */
export interface ModernShared {
  /** The server's handlers (their `intercept` is read per request: `use()` may come later). */
  readonly table: HandlerTable;
  /** What the server declared (its own object, changed in place as features register). */
  readonly capabilities: Record<string, unknown>;
  readonly clock: Clock;
  /** The outbound progress interval (`progress.minIntervalMs`; 0: every update is sent). */
  readonly progressInterval: number;
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

export class ModernRequest implements DispatchHost<RequestHandler>, ServerCaller, RequestScope {
  readonly role = 'server' as const;
  /** The one request it serves (the dispatch's table; cancellation ends it through {@link end}). */
  readonly incoming = new Map<RequestId, Incoming>();
  readonly revision: string;
  readonly clientCapabilities: Record<string, unknown>;
  readonly clientInfo: PeerInfo;
  readonly trace: RequestScope['trace'];
  /** A 2026-07-28 request has no session: nothing but `_meta` ties it to the caller's other requests. */
  readonly stateless = false;
  readonly inspectActor = undefined;
  readonly callerLabel = undefined;
  private phase: SessionPhase = 'operating';
  private endWatchers: (() => void)[] | undefined;
  /** Log messages go out at or above the level the request asked for; none when it asked for none. */
  private readonly threshold: number | undefined;

  constructor(
    private readonly shared: ModernShared,
    envelope: Envelope,
    private readonly io: HostIo,
    readonly inputs: RequestInputs,
    readonly request: ServerRequest,
    readonly inputRequired: Promise<JsonObject>,
  ) {
    this.revision = envelope.revision;
    this.clientCapabilities = envelope.clientCapabilities;
    this.clientInfo = envelope.clientInfo ?? ANONYMOUS;
    this.trace = envelope.trace;
    this.threshold = envelope.logLevel === undefined ? undefined : LEVEL_RANK.get(envelope.logLevel);
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
    if (method === 'notifications/message' && !admits(this.threshold, params?.level)) return;
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
  /** What a session notes on its `diagnostics$` has no watcher here: the client gets the error, and the request's record its outcome. */
  diagnose(): void {}

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

  /**
   * The request is over (answered, or the client went away): what still runs is cancelled with
   * `reason` (its signal aborts), notifications stop, and what waited for the caller's end runs.
   */
  end(reason = 'The request ended'): void {
    if (this.phase === 'closed') return;
    this.phase = 'closed';
    if (this.incoming.size > 0) abandonIncoming(this.incoming, new ConnectionClosedError(reason), false);
    const watchers = this.endWatchers;
    this.endWatchers = undefined;
    if (watchers !== undefined) for (const fn of watchers) fn();
  }
}

function admits(threshold: number | undefined, level: unknown): boolean {
  if (threshold === undefined) return false;
  const rank = typeof level === 'string' ? LEVEL_RANK.get(level as LoggingLevel) : undefined;
  return rank !== undefined && rank >= threshold;
}
