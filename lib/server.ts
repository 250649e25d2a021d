/**
 * The server role. A `Server` holds what every session shares (info, capabilities,
 * instructions, handlers); each `connect(transport)` starts one server session.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle
 */
import { checkMetaKey } from './protocol/meta-key.js';
import { createActor, fromTransition, type AnyActorRef } from 'xstate';
import { Channel } from './session/channel.js';
import type { RequestRecord, ServerRequest } from './session/server-request.js';
import { guarded } from '../streams/guarded.js';
import { Observable, Subject } from 'rxjs';
import type { Transport } from '../streams/transport.js';
import { RequestCore, type ModernOptions } from './modern/request-core.js';
import { systemClock } from './clock.js';
import { RequestJournal } from './journal/request-journal.js';
import type { Journal } from './journal/journal.js';
import type { JournalEntry } from './journal/entry.js';
import { discoverResult } from './modern/discover.js';
import type { ParamHeader } from './modern/param-headers.js';
import { InMemoryServerEventBus, type ServerEvent, type ServerEventBus } from './modern/server-events.js';
import type { SharedSessions } from './server-features/shared-sessions.js';
import { interceptHooks } from './server-features/interceptors/dispatch.js';
import type { Interceptor } from './server-features/interceptors/server-chain.js';
import { modernOptionsWithStore, type ServerStore } from './server-store.js';
import { ErrorCode } from './jsonrpc/error-codes.js';
import { errorResponse, type JsonRpcRequest, type JsonRpcResponse } from './jsonrpc/message.js';
import { LATEST_REVISION, MODERN_REVISIONS, SUPPORTED_REVISIONS, isLegacyRevision } from './protocol/revisions.js';
import {
  Session,
  type HandlerTable,
  type NotificationHandler,
  type RequestHandler,
  type SessionOptions,
} from './session/session.js';

export interface ServerOptions extends SessionOptions {
  /**
   * Revisions this server speaks, latest first: the session revisions `initialize` may
   * negotiate and `2026-07-28`, which is served per request on every transport whatever this
   * says. Without a session revision the server is modern-only: `initialize` is refused with
   * -32022 naming the versions it speaks (all legacy clients can show their user), and the HTTP
   * handler serves no sessions. Default: every revision.
   * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning#backward-compatibility-with-initialization-based-versions
   */
  supportedVersions?: string[];
  /** Instructions for the client, sent in the initialize result. */
  instructions?: string;
  /**
   * Extensions this server supports, by identifier (`{}`: supported, no settings), declared in
   * `capabilities.extensions`. Serve an extension's methods with {@link Server.onRequest}.
   * @see https://modelcontextprotocol.io/specification/2026-07-28/extensions/overview
   */
  extensions?: Record<string, Record<string, unknown>>;
  /** The modern era (2026-07-28): requestState signing, caching hints. */
  modern?: ModernOptions;
  /** Where change events go for `subscriptions/listen` streams. Default: in memory (one process). */
  events?: ServerEventBus;
  /**
   * What the processes of one deployment share (change events, tasks, the `requestState` key
   * and replay guard), as one object: `createRedisStore({ url })` from `mcp-actors/redis`.
   * Explicit options (`events`, `modern.requestState`) win over its parts. The server does not
   * close it. See {@link ServerStore}.
   */
  store?: ServerStore;
}

/** One server-side session (one client). */
export class ServerSession extends Session {
  /**
   * `shared`: handlers of the Server this session belongs to, looked up after its own.
   * `modernOnly`: the server speaks no session revision, so `initialize` is refused.
   */
  constructor(
    options: ServerOptions,
    shared?: HandlerTable,
    private readonly modernOnly = false,
  ) {
    super('server', options, shared);
  }

  protected override handleInitialize(msg: JsonRpcRequest, inBatch: boolean): JsonRpcResponse | undefined {
    if (!this.modernOnly) return super.handleInitialize(msg, inBatch);
    const requested = (msg.params as { protocolVersion?: unknown } | undefined)?.protocolVersion;
    return errorResponse(
      msg.id,
      ErrorCode.UnsupportedProtocolVersion,
      `This server speaks only ${MODERN_REVISIONS.join(', ')}, which has no initialize: send each request with its protocol version in _meta (see server/discover)`,
      { supported: [...MODERN_REVISIONS], requested: typeof requested === 'string' ? requested : null },
    );
  }
}

/**
 * The low-level server: what every session shares (info, capabilities, request and
 * notification handlers by method name). Each `connect(transport)` starts a {@link ServerSession}
 * for one client; `sessions$` gives them as they connect. Handlers get the params and a context
 * (`signal`, `sendProgress`, `session`, `authInfo`). {@link McpServer} builds tools, resources
 * and prompts on top of it.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server
 */
export class Server {
  private readonly requestHandlers = new Map<string, RequestHandler>();
  private readonly notificationHandlers = new Map<string, NotificationHandler>();
  private readonly interceptors: Interceptor[] = [];
  private readonly live = new Set<ServerSession>();
  /** The request-scoped core: serves modern requests, on any transport. */
  readonly core: RequestCore;
  /** Change events for `subscriptions/listen` streams (features publish; see {@link Server.publish}). */
  readonly events: ServerEventBus;
  /**
   * Sessions whose state lives in a store shared by several processes (set by an HTTP handler
   * given a shared `store`); the features ask it for those sessions' log levels and
   * subscriptions, and send it what goes to every session. Undefined: one process, as usual.
   */
  sharedSessions: SharedSessions | undefined;
  /** @internal `x-mcp-header` parameters of a tool (an McpServer supplies them). */
  paramHeaders: ((tool: string) => ReadonlyArray<ParamHeader> | undefined) | undefined;
  private readonly handlers: HandlerTable;
  /** @internal The handlers a 2026-07-28 request runs (no modern routing: it is inside it). */
  readonly requestHandlerTable: HandlerTable = { requests: this.requestHandlers, notifications: this.notificationHandlers };
  private readonly sessionSubject = new Subject<ServerSession>();
  /** Each new session as it connects. */
  readonly sessions$: Observable<ServerSession> = guarded(this.sessionSubject.asObservable(), 'server.sessions$');
  private readonly requestChannel = new Channel<RequestRecord>();
  /**
   * Every request this server served, as it ends, in both eras and on every transport: method,
   * tool/prompt name or resource uri, era, caller (a session's label, or the authenticated
   * principal of a 2026-07-28 request), its input round and asks, outcome (`answered`,
   * `inputRequired`, `failed` with the error, `cancelled`) and duration on the server's clock.
   * Records are built only while someone subscribes.
   * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr
   */
  readonly requests$: Observable<RequestRecord> = guarded(this.requestChannel.asObservable(), 'server.requests$');
  /** @internal The journal of the 2026-07-28 requests this server serves (see {@link journal}). */
  readonly requestJournal: RequestJournal;
  private sessionCount = 0;
  /** The actor modern requests are parented to, made when an inspector is given. */
  private inspectRoot: AnyActorRef | undefined;

  private capabilities: Record<string, unknown>;
  private begun = false;
  /** The session revisions `initialize` may negotiate, latest first; empty for a modern-only server. */
  readonly legacyVersions: readonly string[];

  constructor(readonly options: ServerOptions) {
    this.capabilities = { ...options.capabilities };
    this.legacyVersions = (options.supportedVersions ?? SUPPORTED_REVISIONS).filter((v) => isLegacyRevision(v));
    for (const v of options.supportedVersions ?? []) {
      if (!isLegacyRevision(v) && !(MODERN_REVISIONS as readonly string[]).includes(v)) {
        throw new Error(`Unsupported protocol revision "${v}"; this build speaks ${[...MODERN_REVISIONS, ...SUPPORTED_REVISIONS].join(', ')}`);
      }
    }
    if (options.extensions !== undefined) {
      for (const id of Object.keys(options.extensions)) {
        const wrong = !id.includes('/') ? 'it needs a prefix, as in "com.example/my-extension"' : checkMetaKey(id);
        if (wrong !== undefined) throw new Error(`Extension identifier "${id}" does not follow the _meta key rules: ${wrong}`);
      }
      this.declareCapabilities({ extensions: options.extensions });
    }
    this.events = options.events ?? options.store?.events ?? new InMemoryServerEventBus();
    this.requestJournal = new RequestJournal({ clock: options.clock ?? systemClock, journal: options.journal, info: options.info, capabilities: () => this.capabilities });
    this.core = new RequestCore(this, modernOptionsWithStore(options.modern, options.store));
    this.handlers = { requests: this.requestHandlers, notifications: this.notificationHandlers, modern: this.core, requestEnded: this.requestEnded };
    // Both eras: a session may ask too (a legacy client probing what a server speaks).
    this.requestHandlers.set('server/discover', () => discoverResult(this));
  }

  /**
   * With `journal: true`: the 2026-07-28 requests this server served, on every transport (each
   * as received, its notifications, its answer, input rounds, the client going away, its
   * machine's final state; a sealed `requestState` kept only as a placeholder). Replay it with
   * `replay(journal, { server: ({ clock }) => ... })`. A legacy session keeps its own
   * (`session.journal`). Undefined without the option.
   * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr
   */
  get journal(): Journal | undefined {
    return this.requestJournal.journal;
  }

  /** Each entry of {@link journal} as it is recorded (also without the `journal` option). */
  get journal$(): Observable<JournalEntry> {
    return guarded(this.requestJournal.journal$, 'server.journal$');
  }

  /** @internal A request ended (both eras): its record goes to {@link requests$} if anyone listens. */
  readonly requestEnded = (request: ServerRequest): void => {
    if (this.requestChannel.observed) this.requestChannel.next(request.record());
  };

  /**
   * @internal The parent of a 2026-07-28 request's actor: with an inspector, one actor standing
   * for the server (it does nothing but be the parent its inspector sees); otherwise none.
   */
  readonly inspectParent = (): AnyActorRef | undefined => {
    if (this.options.inspect === undefined) return undefined;
    if (this.inspectRoot === undefined) {
      // On the server's clock: its children's delayed events (an elicitation's completion timer) run on the system's.
      this.inspectRoot = createActor(fromTransition((s: null) => s, null), { id: 'server', inspect: this.options.inspect, ...(this.options.clock && { clock: this.options.clock }) });
      this.inspectRoot.start();
    }
    return this.inspectRoot;
  };

  /** Tell listen streams (2026-07-28) that a list or a resource changed. */
  publish(event: ServerEvent): void {
    this.events.publish(event);
  }

  /**
   * Whether this server has served anyone yet (a session connected, or a modern request came).
   * Lists that change before that are its own setup (registrations at start), not changes to tell
   * listen streams of, which on a shared bus belong to other processes.
   */
  get serving(): boolean {
    return this.begun;
  }

  /** @internal A client is being served (see {@link serving}). */
  markServing(): void {
    this.begun = true;
  }

  /** False for a modern-only server: no `initialize`, no sessions (see {@link ServerOptions.supportedVersions}). */
  get servesLegacy(): boolean {
    return this.legacyVersions.length > 0;
  }

  /** Whether a request handler is registered for `method`. */
  handlesRequest(method: string): boolean {
    return this.requestHandlers.has(method);
  }

  /**
   * Declare capabilities for sessions that start from now on (merged one level deep). Feature
   * APIs call this as tools, resources or prompts are registered.
   */
  declareCapabilities(capabilities: Record<string, unknown>): this {
    for (const [key, value] of Object.entries(capabilities)) {
      const prev = this.capabilities[key];
      this.capabilities[key] = prev && typeof prev === 'object' && value && typeof value === 'object' ? { ...prev, ...value } : value;
    }
    return this;
  }

  /** What sessions starting now declare. */
  get declaredCapabilities(): Record<string, unknown> {
    return this.capabilities;
  }

  /** Serve requests for `method` in every session (present and future). */
  onRequest(method: string, handler: RequestHandler): this {
    this.requestHandlers.set(method, handler);
    return this;
  }

  /**
   * Add an interceptor: a stage around every request and notification this server serves, in
   * both eras and on every transport, run in registration order (the first registered is the
   * outermost). A stage sees the method, params, caller, id, `_meta` and the request's signal,
   * and returns `next()`'s result (params and result may be rewritten) or its own (a
   * short-circuit); a notification comes with `kind: 'notification'`. See {@link Interceptor}.
   * With none registered, requests go straight to their handlers.
   * @see https://modelcontextprotocol.io/specification/2025-11-25/basic
   */
  use(interceptor: Interceptor): this {
    if (typeof interceptor !== 'function') throw new TypeError(`Server.use() takes an interceptor function, got ${interceptor === null ? 'null' : typeof interceptor}`);
    this.interceptors.push(interceptor);
    if (this.handlers.intercept === undefined) {
      const hooks = interceptHooks(this.interceptors);
      this.handlers.intercept = hooks;
      this.requestHandlerTable.intercept = hooks;
    }
    return this;
  }

  /** The interceptors registered with {@link use}, in order. */
  get interceptorList(): readonly Interceptor[] {
    return this.interceptors;
  }

  /** Receive notifications for `method` in every session. */
  onNotification(method: string, handler: NotificationHandler): this {
    this.notificationHandlers.set(method, handler);
    return this;
  }

  /** Sessions currently open. */
  get sessions(): ReadonlySet<ServerSession> {
    return this.live;
  }

  /** Start a session on `transport`. Resolves once the transport is open; the client then initializes. */
  async connect(transport: Transport): Promise<ServerSession> {
    this.begun = true;
    // Handlers are shared, not copied: an idle session should cost as little as possible.
    const supportedVersions = this.servesLegacy ? [...this.legacyVersions] : [LATEST_REVISION];
    const session = new ServerSession({ ...this.options, supportedVersions, capabilities: structuredClone(this.capabilities) }, this.handlers, !this.servesLegacy);
    this.live.add(session);
    session.callerLabel = `session-${++this.sessionCount}`;
    session.onEnd(() => this.live.delete(session));
    this.sessionSubject.next(session);
    await session.connect(transport);
    return session;
  }

  /** Close every session. */
  async close(): Promise<void> {
    this.core.close();
    this.inspectRoot?.stop();
    await Promise.all([...this.live].map((s) => s.close()));
  }
}

/**
 * Create a low-level {@link Server}: `info` (name and version, sent in `initialize`),
 * `capabilities` (declared as given), `instructions`; then `onRequest(method, handler)`.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#initialization
 */
export function createServer(options: ServerOptions): Server {
  return new Server(options);
}

