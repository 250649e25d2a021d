/**
 * A session: one transport actor, the frame pipeline of `streams/`, the session machine for the
 * lifecycle, and the request registry for outgoing requests. Client and Server are thin roles
 * on top of it.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic
 */
import { EMPTY, Observable, Subject, filter, map, type Subscription } from 'rxjs';
import { createActor, initialTransition, transition, type Actor, type AnyActorRef, type SnapshotFrom } from 'xstate';
import {
  sessionMachine,
  type InitializeParamsLike,
  type InitializeResultLike,
  type PeerInfo,
  type SessionFailure,
  type SessionEvent,
  type SessionPhase,
  type SessionRole,
} from '../../machines/session.machine.js';
import type { InvalidInbound } from '../../streams/inbound.js';
import { guarded, warnObserverFault, type ObserverFault } from '../../streams/guarded.js';
import { receiver } from '../../streams/receive.js';
import type { Routed } from '../../streams/route.js';
import { DeepFrame, OversizeFrame, type RawFrame, type Transport, type TransportPeer, type TransportState } from '../../streams/transport.js';
import { systemClock, type Clock } from '../clock.js';
import { capabilitiesForCaller } from './caller-capabilities.js';
import { DEFAULT_MAX_FRAME_BYTES } from '../jsonrpc/codec.js';
import { DEFAULT_MAX_FRAME_DEPTH } from '../jsonrpc/depth.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import type {
  Frame,
  JsonObject,
  JsonRpcBatch,
  JsonRpcErrorResponse,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
  RequestId,
} from '../jsonrpc/message.js';
import { errorResponse } from '../jsonrpc/message.js';
import {
  CapabilityError,
  ConnectionClosedError,
  McpError,
  PhaseError,
  TransportError,
  VersionMismatchError,
  wireErrorOf,
} from '../errors.js';
import type { InEntry, JournalEntry, JournalEntryInput, NoteEntry, OutEntry } from '../journal/entry.js';
import { Channel } from './channel.js';
import { HandlerContext, afterProgress, type Incoming } from './handler-context.js';
import { operatingSnapshot, type ModernDispatch, type RequestScope, type RequestScopedInput } from './request-scope.js';
import { ServerRequest, type RequestOwner } from './server-request.js';
import type { RequestCaller } from './request-caller.js';
import { Journal } from '../journal/journal.js';
import { hasCapability, requiredCapability } from '../protocol/methods.js';
import { SUPPORTED_REVISIONS, allows, isSupportedRevision } from '../protocol/revisions.js';
import { inboundRequestAllowed, outboundVerdict } from './phase-gate.js';
import { InboundProgressLimiter, progressRate, type ProgressRateOptions } from './progress-rate.js';
import {
  RequestRegistry,
  type Progress,
  type ProgressToken,
  type RequestOptions,
} from './request-registry.js';

export type { Progress, ProgressToken, RequestOptions, ProgressRateOptions };
export type { ModernDispatch, RequestScope, RequestScopedInput } from './request-scope.js';
export type { RequestCaller } from './request-caller.js';
export { operatingSnapshot } from './request-scope.js';

/** Options common to clients and servers. */
export interface SessionOptions {
  /** Our name and version (clientInfo / serverInfo). */
  info: PeerInfo;
  /** Capabilities we declare. */
  capabilities?: Record<string, unknown>;
  /** Revisions we speak, latest first. Default: all four supported revisions. */
  supportedVersions?: string[];
  /** The session clock (timeouts, journal times). Default: the system clock. */
  clock?: Clock;
  /** Default request timeout in ms. Default 60 000. */
  timeout?: number;
  /** Largest accepted inbound frame in bytes. Default 4 MiB. */
  maxFrameBytes?: number;
  /**
   * Deepest accepted nesting of an inbound frame, the message itself being level 1. Deeper
   * frames are refused with -32600 (under the request's id) before anything walks them. Default
   * 128 (see `lib/jsonrpc/depth.ts`).
   */
  maxFrameDepth?: number;
  /**
   * Ping the peer once `interval` ms pass without a frame from it while operating (a busy
   * connection is not pinged, and one ping at a time); a ping that fails (no answer within
   * `timeout`, default the interval) is treated as a lost connection and fails the session.
   * Both must be positive numbers of milliseconds (a TypeError otherwise). Choose them for the
   * network: a local process answers in milliseconds, a remote server over a slow link may not.
   * A client in the 2026-07-28 era, which has no `ping`, sends `server/discover` instead (as `client.ping()` does).
   * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/ping#implementation-considerations
   */
  keepAlive?: { interval: number; timeout?: number };
  /** An XState inspector for the session actor (for example `@statelyai/inspect`'s `inspect`). */
  inspect?: Parameters<typeof createActor>[1] extends infer O ? (O extends { inspect?: infer I } ? I : never) : never;
  /**
   * @internal With an inspector: the actor this session's actor is a child of (a host's server
   * connection), whose system's inspector and clock it then shares.
   */
  inspectParent?: AnyActorRef;
  /**
   * Keep a journal of this session (see {@link Session.journal}). Default false. Its entries have
   * secrets hidden (keys like password or token, credentials in text, also inside strings that
   * hold JSON); `{ redact: false }` records frames as they came.
   */
  journal?: boolean | { redact?: boolean };
  /**
   * Rate limits on progress, per request: outbound updates coalesced to one per
   * `minIntervalMs` (default 0: off), inbound notifications beyond `inbound` (default 10,000 per
   * second) dropped with one `rate-limited` diagnostic.
   * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/progress#implementation-notes
   */
  progress?: ProgressRateOptions;
  /**
   * Refuse to send a request for a capability the peer did not declare (default true).
   * Incoming requests for capabilities we did not declare are always answered -32601.
   */
  enforceCapabilities?: boolean;
}

/** A frame as `frames$` shows it. */
export interface FrameEvent {
  seq: number;
  /** Session clock time in ms. */
  t: number;
  direction: 'in' | 'out';
  /**
   * The frame: a JSON-RPC message or batch, or the raw text of an inbound line that was not JSON.
   * Inbound frames are shown as received, before validation: one the session answered as invalid
   * may lack fields its type promises. An inbound line over `maxFrameBytes` is its journal entry
   * (`{ oversize: { size, limit, head } }`), and one nested deeper than `maxFrameDepth` is its
   * journal entry without the value (`{ tooDeep: { limit, id, respond } }`).
   */
  frame: Frame | string | Extract<InEntry, { oversize: unknown } | { tooDeep: unknown }>;
}

/** Something the session noticed and handled without failing (ignored frames, late answers...). */
export interface Diagnostic {
  kind:
    | 'late-response'
    | 'unknown-response'
    | 'unknown-progress'
    | 'unknown-cancel'
    | 'suppressed-response'
    | 'handler-error'
    | 'invalid-frame'
    | 'ping-failed'
    | 'cancelled'
    | 'rate-limited'
    | 'observer-error'
    | 'ignored';
  message: string;
  detail?: unknown;
}

/** What a request handler receives besides the params. */
export interface RequestHandlerContext {
  /** The session serving the request. */
  readonly session: Session;
  readonly requestId: RequestId;
  readonly method: string;
  /** Aborted when the peer sends `notifications/cancelled` for this request or the session closes. */
  readonly signal: AbortSignal;
  /** The request's `_meta`, untouched. */
  readonly meta: JsonObject | undefined;
  /** What the transport's `authenticate` hook said about the caller, if anything. */
  readonly authInfo: unknown;
  /** Report progress (no-op when the request carried no progress token). Values must increase. */
  sendProgress(progress: number, total?: number, message?: string): void;
  /** Send a notification related to this request. */
  sendNotification(method: string, params?: JsonObject): void;
  /**
   * The request being served: its state in `machines/server-request.machine.ts`, its rounds and
   * asks. The same object in both eras (a server's requests; undefined on a client).
   */
  readonly request?: ServerRequest | undefined;
  /** Send a request to the peer related to this one; aborted with it by default. */
  sendRequest(method: string, params?: JsonObject, options?: RequestOptions): Promise<JsonObject>;
  /**
   * OpenTelemetry `traceparent` / `tracestate` / `baggage` the request carried in `_meta`
   * (2026-07-28), untouched; undefined when it carried none.
   * @see https://modelcontextprotocol.io/specification/2026-07-28/basic#meta
   */
  readonly trace?: { traceparent?: string; tracestate?: string; baggage?: string } | undefined;
}

export type RequestHandler = (params: JsonObject | undefined, ctx: RequestHandlerContext) => JsonObject | void | Promise<JsonObject | void>;
export type NotificationHandler = (params: JsonObject | undefined, session: Session) => void | Promise<void>;

/** A request with its progress as an observable. */
export interface RequestWithProgress {
  result: Promise<JsonObject>;
  progress$: Observable<Progress>;
}

type SessionActor = Actor<typeof sessionMachine>;
export type SessionSnapshot = SnapshotFrom<typeof sessionMachine>;


const DEFAULT_TIMEOUT = 60_000;

/** Handlers a Server shares with all its sessions. */
export interface HandlerTable {
  requests: ReadonlyMap<string, RequestHandler>;
  notifications: ReadonlyMap<string, NotificationHandler>;
  /**
   * Serves a request that claims the modern era (2026-07-28, a protocol version in `_meta`)
   * arriving on this session's transport (stdio, WebSocket...): such a request is answered by the
   * request-scoped core, whatever the session's phase, and never touches the session's state.
   */
  modern?: ModernDispatch;
  /** Told of each request a session served once it ended (the Server's `requests$`). */
  requestEnded?(request: ServerRequest): void;
  /** The Server's interceptors (`Server.use`): set once one is registered, so none costs nothing. */
  intercept?: InterceptHooks;
}

/**
 * How a session hands a request or notification to the Server's interceptor chain.
 * The chain lives with the server's features; a session only calls these.
 */
export interface InterceptHooks {
  request(handler: RequestHandler, msg: JsonRpcRequest, ctx: RequestHandlerContext, session: Session): Promise<JsonObject | void>;
  notification(handler: NotificationHandler, method: string, params: JsonObject | undefined, session: Session): void | Promise<void>;
}


/** Every session answers ping with an empty result unless told otherwise. */
const answerPing: RequestHandler = () => ({});

/**
 * The capability a method needs, per revision: the same for every session, so cached once, by
 * revision then method (two lookups, no key string built per call).
 */
const capabilityCache = new Map<string, Map<string, string[] | null>>();

/** Which session each session actor belongs to (see `Session.machine`). */
const owners = new WeakMap<object, Session>();
function ownerOf(actor: object): Session {
  const session = owners.get(actor);
  if (!session) throw new Error('Session actor without a session');
  return session;
}

/** Diagnostics that also go into the journal: inputs that were ignored (the rest is derived). */
const NOTED = new Set<Diagnostic['kind']>(['late-response', 'unknown-response', 'unknown-progress', 'unknown-cancel', 'suppressed-response', 'ignored']);

export class Session {
  readonly role: SessionRole;
  /** The journal, when the `journal` option is on. */
  readonly journal: Journal | undefined;

  private readonly clock: Clock;
  private readonly maxFrameBytes: number;
  private readonly maxFrameDepth: number;
  private readonly enforceCapabilities: boolean;
  // Our requests to the peer; made by the first (an idle server session holds none).
  private registryInstance: RequestRegistry | undefined;
  private readonly requestTimeout: number;
  // The machine runs as pure transitions on `snapshot`, or as `actor` when an inspector is attached.
  protected readonly actor: SessionActor | undefined;
  private snapshot!: SessionSnapshot;
  private lastNotified: SessionSnapshot | undefined;
  private mailbox: SessionEvent[] | undefined;
  // This session's own handlers (made on first use) over the ones it shares with its Server.
  private ownRequestHandlers: Map<string, RequestHandler> | undefined;
  private ownNotificationHandlers: Map<string, NotificationHandler> | undefined;
  private readonly shared: HandlerTable | undefined;
  private readonly incoming: Map<RequestId, Incoming> = new Map();
  // Arrays of waiters and subscriptions made to size: a push onto an empty array reserves 17 slots.
  private subscriptions: Subscription[] = [];
  // Created on first subscription (see Channel): an idle session carries no Subjects.
  private readonly stateChannel = new Channel<SessionSnapshot>();
  private readonly journalSubject = new Channel<JournalEntry>();
  private readonly diagnosticsSubject = new Channel<Diagnostic>();
  private readonly progressSubject = new Channel<Progress & { requestId: RequestId; method: string }>();
  private isOver = false;
  private transport: Transport | undefined;
  private scope: RequestScope | undefined;
  /** How this session's requests report (made at the first request: an idle session holds none). */
  private requestOwner: RequestOwner | undefined;
  /** @internal Who this session's peer is in request records (`session-<n>`, set by its Server). */
  callerLabel: string | undefined;
  /** A request-scoped session's machine input, until serveRequestScope places it. */
  private requestInput: RequestScopedInput | undefined;
  private phase: SessionPhase = 'connecting';
  private nextId = 0;
  /** Set when several processes send requests on one session: our ids become `<prefix><n>` strings. */
  private idPrefix: string | undefined;
  private seq = 0;
  private batchesAllowed = false;
  private revision: string | undefined;
  private failure: Error | undefined;
  private transportError: Error | undefined;
  private readyWaiters: { resolve: () => void; reject: (e: Error) => void }[] = [];
  private readonly keepAlive: { interval: number; timeout: number } | undefined;
  private keepAliveTimer: unknown;
  /** When the peer last sent a frame (session clock), kept only with keepAlive. */
  private lastHeardAt = -Infinity;
  private doneWaiters: (() => void)[] = [];
  /** Outbound progress interval (0: every update is sent). */
  private readonly progressIntervalMs: number;
  private readonly inboundProgressLimit: { limit: number; windowMs: number } | undefined;
  /** The transport said the peer's input ended (stdin closed): answer what is owed, then close. */
  private inputEnded = false;
  // Made on the first progress notification that arrives.
  private progressLimiter: InboundProgressLimiter | undefined;

  /**
   * The session machine with the runtime's effects, built once for all sessions: `provide`
   * copies the machine, which would cost every idle session kilobytes. Each action finds its
   * session through the actor it runs in.
   */
  private static readonly machine = sessionMachine.provide({
    actions: {
      sendInitialize: ({ self, context, event }) => ownerOf(self).effect('sendInitialize', context, event),
      sendInitialized: ({ self, context, event }) => ownerOf(self).effect('sendInitialized', context, event),
      answerInitialize: ({ self, context, event }) => ownerOf(self).effect('answerInitialize', context, event),
      closeTransport: ({ self, context, event }) => ownerOf(self).effect('closeTransport', context, event),
      releaseAll: ({ self, context, event }) => ownerOf(self).effect('releaseAll', context, event),
    },
  });

  /** The session machine's named effects, whichever way the machine runs. */
  private effect(name: string, context: SessionSnapshot['context'], event: SessionEvent): void {
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
        const result: JsonObject = {
          protocolVersion: context.protocolVersion,
          capabilities: capabilitiesForCaller(context.localCapabilities, { session: this, authInfo: this.authInfo }),
          serverInfo: context.localInfo,
        };
        if (context.instructions !== undefined) result.instructions = context.instructions;
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

  /** Capabilities declared after construction (by feature APIs) must reach the journal header too. */
  private fixRecordedCapabilities(capabilities: Record<string, unknown>): void {
    if (this.journal?.session) this.journal.session.capabilities = capabilities;
  }

  /** The machine's current snapshot. */
  private get snap(): SessionSnapshot {
    return this.actor ? this.actor.getSnapshot() : this.snapshot;
  }

  /**
   * Send the session machine an event. Without an inspector the machine runs as pure
   * transitions (`xstate`'s `transition`) on one snapshot: an actor and its actor system cost an
   * idle session about 4 KB. Events raised while effects run wait their turn, as in an actor's
   * mailbox.
   */
  private send(event: SessionEvent): void {
    if (this.actor) {
      this.actor.send(event);
      return;
    }
    if (this.mailbox) {
      this.mailbox.push(event);
      return;
    }
    const mailbox: SessionEvent[] = (this.mailbox = [event]);
    try {
      for (let i = 0; i < mailbox.length; i++) {
        if (this.snapshot.status !== 'active') break;
        const [next, actions] = transition(sessionMachine, this.snapshot, mailbox[i]!);
        this.snapshot = next;
        for (const action of actions) this.effect(action.type, action.info.context as SessionSnapshot['context'], action.info.event as SessionEvent);
        if (next !== this.lastNotified) {
          this.lastNotified = next;
          this.onSnapshot(next);
        }
      }
    } finally {
      this.mailbox = undefined;
    }
  }

  /** Every frame in and out, with sequence number, clock time and direction. */
  get frames$(): Observable<FrameEvent> {
    return this.guard('session.frames$', this.journalSubject.asObservable().pipe(
      filter((e): e is InEntry | OutEntry => e.kind === 'in' || e.kind === 'out'),
      map((e) =>
        e.kind === 'out'
          ? { seq: e.seq, t: e.t, direction: 'out' as const, frame: e.frame }
          : { seq: e.seq, t: e.t, direction: 'in' as const, frame: 'frame' in e ? (e.frame as Frame) : 'text' in e ? e.text : e },
      ),
    ));
  }
  /** Session machine snapshots: the current one on subscribe, then every change. */
  get state$(): Observable<SessionSnapshot> {
    return this.guard('session.state$', new Observable<SessionSnapshot>((subscriber) => {
      subscriber.next(this.snap);
      if (this.isOver) {
        subscriber.complete();
        return;
      }
      return this.stateChannel.asObservable().subscribe(subscriber);
    }));
  }
  /** Every journal entry as it happens (whether or not the journal is kept). */
  get journal$(): Observable<JournalEntry> {
    return this.guard('session.journal$', this.journalSubject.asObservable());
  }
  /**
   * The transport's own states, with its details: a stdio exit code, an HTTP session that was
   * re-initialized after a 404, a reconnect in progress. Empty until `connect`.
   */
  get transportState$(): Observable<TransportState> {
    return this.guard('session.transportState$', this.transport ? this.transport.state$ : EMPTY);
  }
  /** Frames and events the session handled without failing: late responses, unknown ids... */
  get diagnostics$(): Observable<Diagnostic> {
    // Faults of diagnostics observers go to the warning channel only: reporting them on
    // diagnostics$ would feed the observer that threw.
    return guarded(this.diagnosticsSubject.asObservable(), 'session.diagnostics$');
  }
  /** Progress of every outgoing request that asked for it. */
  get progress$(): Observable<Progress & { requestId: RequestId; method: string }> {
    return this.guard('session.progress$', this.progressSubject.asObservable());
  }

  /**
   * `source` with its observers isolated (`streams/guarded.ts`): an exception one of them throws
   * is reported as an `observer-error` diagnostic and once per subscription as a process warning,
   * and neither ends the process nor disturbs the session.
   */
  protected guard<T>(name: string, source: Observable<T>): Observable<T> {
    return guarded(source, name, (fault) => this.onObserverFault(fault));
  }

  private onObserverFault(fault: ObserverFault): void {
    const message = fault.error instanceof Error ? fault.error.message : String(fault.error);
    this.diagnose('observer-error', `An observer of ${fault.observable} threw in ${fault.callback}: ${message}`, fault);
    warnObserverFault(fault);
  }

  constructor(role: SessionRole, options: SessionOptions & { instructions?: string }, shared?: HandlerTable, requestScoped = false) {
    this.role = role;
    this.shared = shared;
    this.clock = options.clock ?? systemClock;
    this.maxFrameBytes = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
    this.maxFrameDepth = options.maxFrameDepth ?? DEFAULT_MAX_FRAME_DEPTH;
    this.enforceCapabilities = options.enforceCapabilities ?? true;
    if (options.keepAlive) {
      const { interval, timeout = interval } = options.keepAlive;
      for (const [name, v] of [['interval', interval], ['timeout', timeout]] as const) {
        if (!(typeof v === 'number' && v > 0 && Number.isFinite(v))) throw new TypeError(`keepAlive.${name} must be a positive number of milliseconds; got ${String(v)}`);
      }
      this.keepAlive = { interval, timeout };
    }
    const supportedVersions = options.supportedVersions ?? [...SUPPORTED_REVISIONS];
    const rate = progressRate(options.progress);
    this.progressIntervalMs = rate.minIntervalMs;
    this.inboundProgressLimit = rate.inbound;
    // A request-scoped session is dropped with its request: a journal of it would be lost.
    if (options.journal && !requestScoped) {
      this.journal = new Journal({ redact: options.journal === true || options.journal.redact !== false });
      this.journal.role = role;
      this.journal.startedAt = this.clock.now();
      this.journal.session = {
        info: options.info,
        capabilities: options.capabilities ?? {},
        supportedVersions,
        ...(options.instructions !== undefined && { instructions: options.instructions }),
        ...(options.timeout !== undefined && { timeout: options.timeout }),
        ...(options.maxFrameBytes !== undefined && { maxFrameBytes: options.maxFrameBytes }),
        ...(options.maxFrameDepth !== undefined && { maxFrameDepth: options.maxFrameDepth }),
        ...(options.progress !== undefined && { progress: options.progress }),
      };
    }
    for (const v of supportedVersions) {
      if (!isSupportedRevision(v)) throw new Error(`Unsupported protocol revision "${v}"; this build speaks ${SUPPORTED_REVISIONS.join(', ')}`);
    }
    if (supportedVersions.length === 0) throw new Error('supportedVersions must name at least one revision');

    this.requestTimeout = options.timeout ?? DEFAULT_TIMEOUT;

    const input = {
      role,
      supportedVersions,
      localInfo: options.info,
      localCapabilities: options.capabilities ?? {},
      instructions: options.instructions,
    };
    if (requestScoped) {
      // Placed straight in `operating` by serveRequestScope: no transitions to pay per request.
      this.actor = undefined;
      this.requestInput = input;
    } else if (options.inspect !== undefined || options.inspectParent !== undefined) {
      // An inspector needs a live actor to watch.
      const parent = options.inspectParent;
      this.actor = createActor(Session.machine, parent ? { input, parent, id: 'session' } : { input, clock: this.clock, inspect: options.inspect });
      owners.set(this.actor, this);
      this.actor.subscribe((snapshot) => {
        // A request actor's end reaches this actor too (as its parent) and changes nothing.
        if (snapshot === this.lastNotified) return;
        this.lastNotified = snapshot;
        this.onSnapshot(snapshot);
      });
      this.actor.start();
    } else {
      this.actor = undefined;
      this.snapshot = initialTransition(sessionMachine, input)[0];
    }

  }

  // ---------------------------------------------------------------- public state

  /** @internal The session's actor (only with an inspector): the parent its inspector sees for what the session owns. */
  get inspectActor(): AnyActorRef | undefined {
    return this.actor;
  }

  /** The session clock (timeouts, journal times). */
  get sessionClock(): Clock {
    return this.clock;
  }

  /** The lifecycle phase (the session machine's state). */
  get currentPhase(): SessionPhase {
    return this.phase;
  }
  /** The negotiated protocol revision, once initialized. */
  get protocolVersion(): string | undefined {
    return this.revision;
  }
  /** What the peer declared during initialization. */
  get peerCapabilities(): Record<string, unknown> | undefined {
    return this.snap.context.peerCapabilities;
  }
  /** The peer's name and version. */
  get peerInfo(): PeerInfo | undefined {
    return this.snap.context.peerInfo;
  }
  /** What we declared. */
  get localCapabilities(): Record<string, unknown> {
    return this.snap.context.localCapabilities;
  }
  /** Server instructions (the server's own, or what the server sent, on a client). */
  get instructions(): string | undefined {
    return this.snap.context.instructions;
  }
  /** Number of our requests waiting for an answer. */
  get pendingRequests(): number {
    return this.registryInstance?.size ?? 0;
  }

  private get registry(): RequestRegistry {
    return (this.registryInstance ??= new RequestRegistry(
      this.clock,
      {
        sendCancelled: (id, reason) => {
          this.diagnose('cancelled', `Cancelled our request ${JSON.stringify(id)}: ${reason}`);
          this.sendFrame({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason } });
        },
        timerFired: (name) => this.record({ kind: 'timer', name }),
      },
      this.requestTimeout,
    ));
  }
  /** The error the session failed with, if it failed. */
  get error(): Error | undefined {
    return this.failure;
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
    this.transport = transport;
    this.subscriptions = [
      transport.state$.subscribe((s) => this.onTransportState(s)),
      // parse → record → decode → correlate → route as one step per frame (streams/receive.ts),
      // subscribed directly: operator subscribers would cost every idle session kilobytes.
      transport.inbound$.subscribe(this.inboundObserver(receiver({
        maxFrameBytes: this.maxFrameBytes,
        maxFrameDepth: this.maxFrameDepth,
        allowBatch: () => this.batchesAllowed,
        record: (raw: RawFrame) => this.recordIn(raw),
        settle: (response) => this.handleResponse(response),
        routes: {
          request: (msg, inBatch) => this.handleRequest(msg, inBatch),
          notification: (msg) => this.handleNotification(msg),
          invalid: (item) => this.replyToInvalid(item),
        },
      }))),
    ];
    await transport.start();
    if (this.role === 'client') await this.whenOperating();
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

  /** Resolves when the session is operating; rejects if it fails or closes first. */
  whenOperating(): Promise<void> {
    if (this.phase === 'operating') return Promise.resolve();
    if (this.phase === 'failed' || this.phase === 'closed') {
      return Promise.reject(this.failure ?? new ConnectionClosedError('The session closed before it was initialized'));
    }
    return new Promise((resolve, reject) => this.readyWaiters.push({ resolve, reject }));
  }

  /** @internal Call `fn` once when the session ends (cheaper than a promise per session). */
  onEnd(fn: () => void): void {
    if (this.phase === 'closed' || this.phase === 'failed') fn();
    else this.doneWaiters = this.doneWaiters.concat(fn);
  }

  /** Resolves when the session has ended (closed or failed). */
  ended(): Promise<void> {
    if (this.phase === 'closed' || this.phase === 'failed') return Promise.resolve();
    return new Promise<void>((resolve) => this.doneWaiters.push(resolve));
  }

  /** Close the session: pending requests are rejected, the transport closed. */
  async close(): Promise<void> {
    if (this.phase === 'closed' || this.phase === 'failed') return;
    if (this.requestInput !== undefined) {
      // A request-scoped session ends with its request: abort what runs, complete the streams.
      this.phase = 'closed';
      this.releaseAll();
      this.dispose();
      return;
    }
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
    try {
      this.check(method, 'request');
    } catch (e) {
      return Promise.reject(e);
    }
    const id: RequestId = this.idPrefix === undefined ? this.nextId++ : `${this.idPrefix}${this.nextId++}`;
    options?.onRequestId?.(id);
    let token: ProgressToken | undefined;
    const wantsProgress = options?.onprogress !== undefined || options?.resetTimeoutOnProgress === true || progress$ !== undefined;
    const ownToken = (params?._meta as JsonObject | undefined)?.progressToken as ProgressToken | undefined;
    if (ownToken !== undefined) {
      if (this.registry.isTokenInUse(ownToken)) {
        return Promise.reject(
          new McpError(ErrorCode.InvalidParams, `Progress token ${JSON.stringify(ownToken)} is already used by a request in flight; tokens must be unique`),
        );
      }
      token = ownToken;
    } else if (wantsProgress) {
      token = id;
      params = { ...params, _meta: { ...(params?._meta as JsonObject | undefined), progressToken: token } };
    }
    if (progress$ !== undefined || this.progressSubject.observed) {
      const subject = progress$ ?? new Subject<Progress>();
      if (this.progressSubject.observed) {
        subject.subscribe((p) => this.progressSubject.next({ ...p, requestId: id, method }));
      }
      progress$ = subject;
    }
    if (userCall) {
      const recorded: JournalEntryInput = { kind: 'call', op: 'request', id, method };
      if (params !== undefined) recorded.params = params;
      if (options) {
        const o: Record<string, unknown> = {};
        if (options.timeout !== undefined) o.timeout = options.timeout;
        if (options.maxTotalTimeout !== undefined) o.maxTotalTimeout = options.maxTotalTimeout;
        if (options.resetTimeoutOnProgress !== undefined) o.resetTimeoutOnProgress = options.resetTimeoutOnProgress;
        if (wantsProgress) o.progress = true;
        recorded.options = o;
      }
      this.record(recorded);
      if (options?.signal) {
        options.signal.addEventListener('abort', () => {
          if (this.registry.has(id)) this.record({ kind: 'call', op: 'abort', id, reason: String(options.signal!.reason ?? '') });
        }, { once: true });
      }
    }
    const promise = this.registry.register(id, method, options, token, progress$);
    const frame: JsonRpcRequest = params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params };
    try {
      this.sendFrame(frame, relatedRequestId);
    } catch (e) {
      this.registry.closeOne(id, e as Error);
    }
    return promise;
  }

  /**
   * @internal The ids of requests we send from now on are strings `<prefix><n>`: a session served
   * by several processes names in each id the process that awaits the answer (see
   * `lib/server-bindings/http-cluster.ts`).
   */
  prefixRequestIds(prefix: string): void {
    this.idPrefix = prefix;
  }

  /** @internal Replay support: abort our request `id` as a recorded user abort. */
  abortRequest(id: RequestId, reason?: string): void {
    this.registry.abort(id, reason);
  }

  // ---------------------------------------------------------------- internals: checks and sends

  private check(method: string, kind: 'request' | 'notification'): void {
    const verdict = outboundVerdict(this.role, this.phase, kind, method);
    if (verdict === 'closed') {
      throw new ConnectionClosedError(`Cannot send "${method}": the session is ${this.phase}`, this.failure);
    }
    if (verdict !== 'ok') throw new PhaseError(method, this.phase);
    if (kind === 'request' && this.enforceCapabilities && this.phase === 'operating') {
      const needed = this.capabilityFor(method);
      if (needed && !hasCapability(this.peerCapabilities, needed)) {
        throw new CapabilityError(method, needed.join('.'), this.role === 'client' ? 'server' : 'client');
      }
    }
  }

  /** The capability a request needs of its receiver, per negotiated revision; cached per method. */
  private capabilityFor(method: string): string[] | undefined {
    const rev = this.revision !== undefined && isSupportedRevision(this.revision) ? this.revision : undefined;
    if (rev === undefined) return requiredCapability(method);
    let byMethod = capabilityCache.get(rev);
    if (byMethod === undefined) capabilityCache.set(rev, (byMethod = new Map()));
    let needed = byMethod.get(method);
    if (needed === undefined) {
      needed = requiredCapability(method, rev) ?? null;
      byMethod.set(method, needed);
    }
    return needed ?? undefined;
  }

  private sendFrame(frame: Frame, relatedRequestId?: RequestId): void {
    const transport = this.transport;
    if (!transport) throw new ConnectionClosedError('Not connected: call connect(transport) first');
    this.record({ kind: 'out', frame });
    const sent = relatedRequestId === undefined ? transport.send(frame) : transport.send(frame, { relatedRequestId });
    if (sent && typeof (sent as Promise<void>).catch === 'function') {
      (sent as Promise<void>).catch((e: unknown) => this.diagnose('ignored', `Sending a frame failed: ${(e as Error).message}`, frame));
    }
  }

  /** @internal Journal an entry (at `t`, default now): the client's modern era records its requests here. */
  protected record(entry: JournalEntryInput, t = this.clock.now()): void {
    if (!this.journal && !this.journalSubject.observed) return;
    const stamped = { ...entry, seq: this.seq++, t } as JournalEntry;
    this.journal?.push(stamped);
    this.journalSubject.next(stamped);
  }

  private recordIn(raw: RawFrame): void {
    // Anything the peer sends shows it is there: keep-alive pings wait for a quiet interval.
    if (this.keepAlive) this.lastHeardAt = this.clock.now();
    if (!this.journal && !this.journalSubject.observed) return;
    if (typeof raw === 'string') this.record({ kind: 'in', text: raw });
    else if (raw instanceof OversizeFrame) {
      this.record({ kind: 'in', oversize: raw.head === undefined ? { size: raw.size, limit: raw.limit } : { size: raw.size, limit: raw.limit, head: raw.head } });
    }
    else if (raw instanceof DeepFrame) this.record({ kind: 'in', tooDeep: { limit: raw.limit, id: raw.id, respond: raw.respond } });
    else this.record({ kind: 'in', frame: raw });
  }

  private diagnose(kind: Diagnostic['kind'], message: string, detail?: unknown): void {
    if (NOTED.has(kind)) this.record({ kind: 'note', note: kind as NoteEntry['note'], detail });
    if (this.diagnosticsSubject.observed) this.diagnosticsSubject.next({ kind, message, detail });
  }

  // ---------------------------------------------------------------- internals: lifecycle

  private sendInitialize(): void {
    const ctx = this.snap.context;
    const params: JsonObject = {
      protocolVersion: ctx.supportedVersions[0],
      capabilities: ctx.localCapabilities,
      clientInfo: ctx.localInfo,
    };
    // Sent directly: the machine is mid-transition, and initialize is not a user call.
    const id = this.nextId++;
    const promise = this.registry.register(id, 'initialize', undefined, undefined);
    this.sendFrame({ jsonrpc: '2.0', id, method: 'initialize', params });
    promise.then(
      (result) => {
        const problem = checkInitializeResult(result);
        if (problem) {
          this.failure = new McpError(ErrorCode.InvalidRequest, `Invalid initialize result from the server: ${problem}`);
          this.send({ type: 'INITIALIZE_FAILED', error: toFailure(this.failure) });
          return;
        }
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

  private onSnapshot(snapshot: SessionSnapshot): void {
    const previous = this.phase;
    this.phase = snapshot.value as SessionPhase;
    if (this.phase === 'failed' && !this.failure) {
      const err = snapshot.context.error;
      if (err?.name === 'VersionMismatchError') {
        const data = err.data as { supported: string[]; answered: string };
        this.failure = new VersionMismatchError(data.supported, data.answered);
      } else {
        this.failure = this.transportError ?? new ConnectionClosedError(err?.message ?? 'Session failed');
      }
    }
    this.stateChannel.next(snapshot);
    if (previous !== this.phase) {
      if (this.phase === 'operating') {
        this.settleReady();
        this.scheduleKeepAlive();
      }
      if (this.phase === 'closed' || this.phase === 'failed') {
        this.settleReady();
        for (const done of this.doneWaiters.splice(0)) done();
        this.dispose();
      }
    }
  }

  private settleReady(): void {
    const waiters = this.readyWaiters.splice(0);
    for (const w of waiters) {
      if (this.phase === 'operating') w.resolve();
      else w.reject(this.failure ?? new ConnectionClosedError('The session closed before it was initialized'));
    }
  }

  private onTransportState(state: TransportState): void {
    this.record(state.error ? { kind: 'transport', phase: state.phase, error: state.error.message } : { kind: 'transport', phase: state.phase });
    switch (state.phase) {
      case 'open':
        this.send({ type: 'TRANSPORT_OPEN' });
        break;
      case 'closing':
        // The peer's input ended (stdio: stdin closed) while answers may be owed: close the
        // transport once every request received is answered (see closeWhenAnswered).
        if (state.details?.['inputEnded'] === true) {
          this.inputEnded = true;
          this.closeWhenAnswered();
        }
        break;
      case 'closed':
        this.send({ type: 'TRANSPORT_CLOSED' });
        break;
      case 'failed': {
        const error = state.error ?? new TransportError('Transport failed', state.details);
        this.transportError = error;
        this.send({ type: 'TRANSPORT_CLOSED', error: toFailure(error) });
        break;
      }
      default:
        break;
    }
  }

  /**
   * Ping after `interval` ms without a frame from the peer (PING-005: a busy connection is not
   * pinged; one ping at a time).
   */
  private scheduleKeepAlive(delay?: number): void {
    const ka = this.keepAlive;
    if (!ka) return;
    this.keepAliveTimer = this.clock.setTimeout(
      () => {
        this.keepAliveTimer = undefined;
        if (this.phase !== 'operating') return;
        const quiet = this.clock.now() - this.lastHeardAt;
        if (quiet < ka.interval) return this.scheduleKeepAlive(ka.interval - quiet);
        this.record({ kind: 'timer', name: 'keepalive' });
        this.keepAliveProbe(ka.timeout).then(
          () => this.scheduleKeepAlive(),
          (error: Error) => {
            if (this.phase !== 'operating') return;
            // A ping that goes unanswered means the connection is gone, whatever the transport says.
            this.diagnose('ping-failed', `Keep-alive ping failed: ${error.message}`, error);
            this.transportError = new ConnectionClosedError(`The peer stopped answering pings (${error.message})`, error);
            this.send({ type: 'TRANSPORT_CLOSED', error: toFailure(this.transportError) });
          },
        );
      },
      delay ?? ka.interval,
      'keepalive',
    );
  }

  /**
   * What the keep-alive sends: `ping`. The client's 2026-07-28 era, which has no `ping`, overrides it.
   * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/ping
   */
  protected keepAliveProbe(timeout: number): Promise<unknown> {
    return this.startRequest('ping', undefined, { timeout }, undefined, false);
  }

  /** The peer sent a frame the session's own reader does not see (the client's modern link): the keep-alive waits. */
  protected heardFromPeer(): void {
    if (this.keepAlive) this.lastHeardAt = this.clock.now();
  }

  /** Entry of `closed` and `failed`: nothing stays waiting. */
  private releaseAll(): void {
    if (this.keepAliveTimer !== undefined) this.clock.clearTimeout(this.keepAliveTimer);
    const cause = this.transportError ?? this.failure;
    this.registryInstance?.closeAll(
      cause
        ? new ConnectionClosedError(`Connection closed: ${cause.message}`, cause)
        : undefined,
    );
    for (const entry of this.incoming.values()) {
      entry.cancelled = true;
      entry.cancelReason = new ConnectionClosedError('The session closed');
      entry.controller?.abort(entry.cancelReason);
      entry.onCancel?.();
      // A request-scoped session closes at every request's end: its request's end is the core's to say.
      if (this.scope === undefined) entry.request?.cancelled('The session closed');
    }
    this.incoming.clear();
  }

  private dispose(): void {
    // Deferred: the final snapshot must reach state$ subscribers before streams complete.
    queueMicrotask(() => {
      for (const s of this.subscriptions.splice(0)) s.unsubscribe();
      this.isOver = true;
      this.stateChannel.complete();
      this.journalSubject.complete();
      this.diagnosticsSubject.complete();
      this.progressSubject.complete();
    });
  }

  // ---------------------------------------------------------------- internals: inbound

  private inboundObserver(step: (raw: RawFrame) => Routed): (raw: RawFrame) => void {
    return (raw) => {
      const routed = step(raw);
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

  /** Send a reply that `route` produced, unless the session is on its way out. */
  private reply(frame: JsonRpcResponse | JsonRpcBatch): void {
    if (this.phase === 'closed' || this.phase === 'failed' || this.phase === 'closing') return;
    if (Array.isArray(frame)) this.sendFrame(frame, (frame[0] as JsonRpcResponse | undefined)?.id ?? undefined);
    else this.sendFrame(frame, (frame as JsonRpcResponse).id ?? undefined);
  }

  private replyToInvalid(inbound: InvalidInbound): JsonRpcResponse | undefined {
    this.diagnose('invalid-frame', inbound.error.message, inbound);
    // A client does not answer unparseable text: a server that prints junk on stdout would
    // otherwise get an error back for every line of it.
    if (this.role === 'client' && inbound.error.code === ErrorCode.ParseError) return undefined;
    return inbound.respond ? { jsonrpc: '2.0', id: inbound.id, error: inbound.error } : undefined;
  }

  private handleResponse(msg: JsonRpcResponse): void {
    if (msg.id === null) {
      this.diagnose('unknown-response', `The peer answered an unreadable frame: ${(msg as JsonRpcErrorResponse).error.message}`, msg);
      return;
    }
    const isError = 'error' in msg;
    const outcome = this.registry.settle(msg.id, isError ? undefined : msg.result, isError ? msg.error : undefined);
    if (outcome === 'late') this.diagnose('late-response', `Ignored a late response to request ${msg.id} (it had already ${this.registry.stateOf(msg.id)})`, msg);
    else if (outcome === 'unknown') this.diagnose('unknown-response', `Ignored a response to unknown request id ${JSON.stringify(msg.id)}`, msg);
  }

  private handleNotification(msg: JsonRpcNotification): void {
    const params = msg.params;
    switch (msg.method) {
      case 'notifications/cancelled': {
        const id = params?.requestId as RequestId | undefined;
        const entry = id === undefined ? undefined : this.incoming.get(id);
        // Unknown or finished ids are ignored; `initialize` cannot be cancelled.
        if (!entry || entry.method === 'initialize') {
          this.diagnose('unknown-cancel', `Ignored a cancellation for ${entry ? 'initialize' : `unknown request id ${JSON.stringify(id)}`}`, msg);
          return;
        }
        entry.cancelled = true;
        entry.cancelReason = params?.reason ?? 'Cancelled by the peer';
        entry.request?.cancelled(String(entry.cancelReason));
        this.diagnose('cancelled', `The peer cancelled request ${JSON.stringify(id)} ("${entry.method}"): ${String(entry.cancelReason)}`, msg);
        entry.controller?.abort(entry.cancelReason);
        entry.onCancel?.();
        return;
      }
      case 'notifications/progress': {
        const token = params?.progressToken as ProgressToken | undefined;
        if (token !== undefined && this.inboundProgressLimit !== undefined && this.registry.isTokenInUse(token) && !this.admitProgress(token)) return;
        const progress: Progress = { progress: params?.progress as number };
        if (params?.total !== undefined) progress.total = params.total as number;
        if (params?.message !== undefined) progress.message = params.message as string;
        if (token === undefined || (!this.registry.progress(token, progress) && !this.progressBeyondRequest(token, progress))) {
          this.diagnose('unknown-progress', `Ignored progress for unknown token ${JSON.stringify(token)}`, msg);
        }
        return;
      }
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
    try {
      const intercept = this.shared?.intercept;
      const r = intercept === undefined ? handler(params, this) : intercept.notification(handler, method, params, this);
      if (isPromise(r)) r.catch((e: unknown) => this.diagnose('handler-error', `Notification handler for "${method}" failed: ${(e as Error)?.message}`, e));
    } catch (e) {
      this.diagnose('handler-error', `Notification handler for "${method}" failed: ${(e as Error)?.message}`, e);
    }
  }

  /**
   * Progress whose request was answered but lives on (a task keeps its request's progress token
   * for its whole life); the client claims the tokens of the tasks it follows.
   */
  protected progressBeyondRequest(_token: ProgressToken, _progress: Progress): boolean {
    return false;
  }

  /** Whether a progress notification for our request with `token` is within the inbound limit. */
  private admitProgress(token: ProgressToken): boolean {
    const limit = this.inboundProgressLimit!;
    this.progressLimiter ??= new InboundProgressLimiter(this.clock, limit, (t) => this.registry.isTokenInUse(t));
    const verdict = this.progressLimiter.admit(token);
    if (verdict === 'admit') return true;
    if (verdict === 'drop-first') {
      this.diagnose(
        'rate-limited',
        `Dropping progress for token ${JSON.stringify(token)}: more than ${limit.limit} notifications in ${limit.windowMs} ms (the peer is flooding; the request itself goes on)`,
        { progressToken: token, ...limit },
      );
    }
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
    const scoped = this.scope?.request;
    if (scoped !== undefined) return this.serveRequest(msg, inBatch, scoped, false);
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
      ended: (r) => this.shared?.requestEnded?.(r),
      inspectParent: () => this.actor,
    };
  }

  /** `owned`: this session ends `request` (its own legacy request, not a request-scoped one). */
  private serveRequest(msg: JsonRpcRequest, inBatch: boolean, request: ServerRequest | undefined, owned: boolean): JsonRpcResponse | Promise<JsonRpcResponse | undefined> | undefined {
    const { id, method } = msg;
    if (method === 'initialize') {
      request?.start();
      return this.handleInitialize(msg, inBatch);
    }
    if (!inboundRequestAllowed(this.role, this.phase, method)) {
      return errorResponse(id, ErrorCode.InvalidRequest, `Received "${method}" before initialize: the client must send initialize first`);
    }
    if (method.startsWith('notifications/')) {
      return errorResponse(id, ErrorCode.InvalidRequest, `"${method}" is a notification and must be sent without an id`);
    }
    const handler = this.ownRequestHandlers?.get(method) ?? this.shared?.requests.get(method) ?? (method === 'ping' ? answerPing : undefined);
    if (!handler) return errorResponse(id, ErrorCode.MethodNotFound, `Method not found: ${method}`);
    const needed = this.capabilityFor(method);
    if (needed && !hasCapability(this.localCapabilities, needed)) {
      return errorResponse(
        id,
        ErrorCode.MethodNotFound,
        `Method not found: "${method}" needs the "${needed.join('.')}" capability, which this ${this.role} did not declare`,
      );
    }
    const state: Incoming = { method, controller: undefined, cancelled: false, done: false, progressed: false, request };
    this.incoming.set(id, state);
    request?.start();
    let out: JsonObject | void | Promise<JsonObject | void>;
    try {
      const ctx = new HandlerContext(this, msg, state);
      const intercept = this.shared?.intercept;
      out = intercept === undefined ? handler(msg.params, ctx) : intercept.request(handler, msg, ctx, this);
    } catch (e) {
      this.incoming.delete(id);
      state.coalescer?.flush();
      return this.errorFrom(id, method, e);
    }
    if (isPromise(out)) {
      return out.then(
        (result) => {
          const response = this.finishIncoming(id, state, result);
          if (owned) endRequest(request!, response);
          return afterProgress(state, response);
        },
        (e: unknown) => {
          state.done = true;
          this.incoming.delete(id);
          if (state.cancelled) state.coalescer?.stop();
          else state.coalescer?.flush();
          const response = state.cancelled ? undefined : this.errorFrom(id, method, e);
          if (owned) endRequest(request!, response);
          return response;
        },
      );
    }
    const response = this.finishIncoming(id, state, out);
    if (owned) endRequest(request!, response);
    return afterProgress(state, response);
  }

  /** A modern request on a session's transport: served by the core, cancellable like any other. */
  private handleModern(modern: ModernDispatch, msg: JsonRpcRequest): Promise<JsonRpcResponse | undefined> {
    // No AbortController unless something reads `signal`: the core watches `cancellation`.
    const state: Incoming = { method: msg.method, controller: undefined, cancelled: false, done: false, progressed: false };
    this.incoming.set(msg.id, state);
    const io = {
      notify: (frame: JsonRpcNotification) => {
        if (!state.cancelled && !state.done) this.sendFrame(frame, msg.id);
      },
      authInfo: this.authInfo,
      peerFacts: this.transportPeer,
      get signal(): AbortSignal {
        if (state.controller === undefined) {
          state.controller = new AbortController();
          if (state.cancelled) state.controller.abort(state.cancelReason);
        }
        return state.controller.signal;
      },
      cancellation: {
        get aborted(): boolean {
          return state.cancelled;
        },
        get reason(): unknown {
          return state.cancelReason;
        },
        onAbort(end: () => void): () => void {
          if (state.cancelled) {
            end();
            return () => {};
          }
          const once = () => {
            state.onCancel = undefined;
            end();
          };
          state.onCancel = once;
          return () => {
            if (state.onCancel === once) state.onCancel = undefined;
          };
        },
      },
    };
    return modern.serve(msg, io).then(
      (response) => {
        state.done = true;
        if (this.incoming.get(msg.id) === state) this.incoming.delete(msg.id);
        return state.cancelled ? undefined : response;
      },
      (e: unknown) => {
        state.done = true;
        this.incoming.delete(msg.id);
        return state.cancelled ? undefined : this.errorFrom(msg.id, msg.method, e);
      },
    );
  }

  /**
   * @internal The request-scoped core's dispatch: serve one modern request on this fresh server
   * session. The request's `_meta` envelope stands in for `initialize` (no handshake, nothing
   * negotiated beyond this request), and the handler runs exactly as on a session, with its
   * phase, capability and parameter checks; its client calls become input requests.
   */
  serveRequestScope(msg: JsonRpcRequest, scope: RequestScope): JsonRpcResponse | Promise<JsonRpcResponse | undefined> | undefined {
    const input = this.requestInput;
    if (this.role !== 'server' || this.transport !== undefined || input === undefined) throw new Error('serveRequestScope needs a fresh, unconnected, request-scoped server session');
    this.scope = scope;
    this.transport = {
      inbound$: EMPTY,
      state$: EMPTY,
      start: () => Promise.resolve(),
      send: (frame: Frame) => scope.send(frame),
      close: () => Promise.resolve(),
      authInfo: scope.authInfo,
      peerFacts: scope.peerFacts,
    } as Transport;
    // The snapshot a handshake would lead to, with this request's envelope in its context: no
    // lifecycle events are replayed per request.
    this.snapshot = operatingSnapshot(input, scope);
    this.lastNotified = this.snapshot;
    this.phase = 'operating';
    this.onNegotiated(scope.revision);
    return this.handleRequest(msg, false);
  }

  /** @internal The request scope of a request-scoped session (modern era), if this is one. */
  get requestScope(): RequestScope | undefined {
    return this.scope;
  }

  private finishIncoming(id: RequestId, state: Incoming, result: JsonObject | void): JsonRpcResponse | undefined {
    state.done = true;
    if (this.incoming.get(id) === state) this.incoming.delete(id);
    if (state.cancelled) {
      // The peer cancelled: no response, as the cancellation utility says.
      this.diagnose('suppressed-response', `Suppressed the response to cancelled request ${JSON.stringify(id)}`);
      return undefined;
    }
    if (result === undefined || result === null) return { jsonrpc: '2.0', id, result: {} };
    if (typeof result !== 'object' || Array.isArray(result)) {
      return errorResponse(id, ErrorCode.InternalError, `The "${state.method}" handler returned ${Array.isArray(result) ? 'an array' : typeof result}; a result must be an object`);
    }
    return { jsonrpc: '2.0', id, result };
  }

  private errorFrom(id: RequestId, method: string, e: unknown): JsonRpcErrorResponse {
    if (e instanceof McpError) return { jsonrpc: '2.0', id, error: wireErrorOf(e) };
    this.diagnose('handler-error', `The "${method}" handler threw: ${(e as Error)?.message ?? String(e)}`, e);
    return errorResponse(id, ErrorCode.InternalError, (e as Error)?.message ?? 'Internal error');
  }

  protected handleInitialize(msg: JsonRpcRequest, inBatch: boolean): JsonRpcResponse | undefined {
    const { id } = msg;
    if (this.role === 'client') return errorResponse(id, ErrorCode.MethodNotFound, 'Method not found: initialize (this side is a client)');
    if (inBatch) return errorResponse(id, ErrorCode.InvalidRequest, 'initialize must not be part of a JSON-RPC batch');
    if (this.phase !== 'awaitingInitialize') {
      return errorResponse(id, ErrorCode.InvalidRequest, 'The session is already initialized; initialize may be sent only once per session');
    }
    const problem = checkInitializeParams(msg.params);
    if (problem) return errorResponse(id, ErrorCode.InvalidParams, `Invalid initialize params: ${problem}`);
    const params = msg.params as unknown as InitializeParamsLike;
    this.send({ type: 'INITIALIZE_REQUEST', params, id });
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

  /** What the transport knows of its peer (HTTP session id, channel kind, address), for interceptors. */
  get transportPeer(): TransportPeer | undefined {
    return this.transport?.peerFacts;
  }

  /** Who the transport says the peer is (set by an `authenticate` hook), if anyone. */
  get authInfo(): unknown {
    return this.transport?.authInfo;
  }

  /** Serves one request of a stateless transport: the session says nothing about who sent the next. */
  get stateless(): boolean {
    return this.transport?.stateless === true;
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

  /** @internal A notification tied to an inbound request (for HTTP stream routing). */
  notifyRelated(method: string, params: JsonObject | undefined, related: RequestId): void {
    this.check(method, 'notification');
    this.sendFrame(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params }, related);
  }
}

function isPromise<T>(v: unknown): v is Promise<T> {
  return v !== null && typeof v === 'object' && typeof (v as Promise<T>).then === 'function';
}

/** The machine's last event for a request a session answered (or, when undefined, did not answer). */
function endRequest(request: ServerRequest, response: JsonRpcResponse | undefined): void {
  // No response: cancelled (already final), or `initialize`, answered by the session machine.
  if (response !== undefined && 'error' in response) request.failed(response.error);
  else request.answered();
}

function toFailure(e: Error): SessionFailure {
  const f: SessionFailure = { name: e.name, message: e.message };
  if (e instanceof McpError && e.data !== undefined) f.data = e.data;
  if (e instanceof TransportError && e.details !== undefined) f.data = e.details;
  return f;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function checkInitializeParams(p: JsonObject | undefined): string | undefined {
  if (!p) return 'params are required';
  if (typeof p.protocolVersion !== 'string') return '"protocolVersion" must be a string';
  if (!isObject(p.capabilities)) return '"capabilities" must be an object';
  if (!isObject(p.clientInfo)) return '"clientInfo" must be an object';
  if (typeof p.clientInfo.name !== 'string') return '"clientInfo.name" must be a string';
  if (typeof p.clientInfo.version !== 'string') return '"clientInfo.version" must be a string';
  return undefined;
}

function checkInitializeResult(r: JsonObject): string | undefined {
  if (typeof r.protocolVersion !== 'string') return '"protocolVersion" must be a string';
  if (!isObject(r.capabilities)) return '"capabilities" must be an object';
  if (!isObject(r.serverInfo)) return '"serverInfo" must be an object';
  return undefined;
}

// A Session is a RequestCaller: checked here rather than with `implements`, because the published
// declarations strip the internal members the interface names (a consumer's compile would fail).
const sessionIsCaller: (session: Session) => RequestCaller = (session) => session;
void sessionIsCaller;
