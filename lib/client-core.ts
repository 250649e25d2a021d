/**
 * The client role's plumbing, under the typed API of {@link Client}: connecting in the era the
 * server speaks (revision 2026-07-28 per request, or an `initialize` session; `lib/client-modern/`),
 * sending requests either way, the client features the server uses (roots, sampling, elicitation:
 * server-to-client requests in the legacy era, input requests in the modern one), the
 * notifications the client handles itself and the user's handlers.
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client
 */
import { BehaviorSubject, EMPTY, Subject, filter, merge, switchMap, type Observable, type Subscription } from 'rxjs';
import type { PeerInfo } from '../machines/session.machine.js';
import type { RestoreAnswer, SessionRestorer, Transport } from '../streams/transport.js';
import { SubscriptionLostError } from './client-features/client-feature-errors.js';
import { ElicitationService, type ElicitationOptions, type ElicitationStatus } from './client-features/elicitation.js';
import { RootsProvider } from './client-features/roots-provider.js';
import type { SetRootsOptions } from './client-features/roots.js';
import { serveSampling, type SamplingHandler, type SamplingOptions } from './client-features/sampling.js';
import { LegacyServerError } from './client-modern/modern-client-errors.js';
import type { InputAnswerer } from './client-modern/input-rounds.js';
import { ModernEra, type DiscoveredServer, type InputRoundEvent, type TraceOptions } from './client-modern/modern-era.js';
import { TASKS_EXTENSION } from './client-modern/extension-tasks.js';
import type { ModernLink } from './client-modern/modern-link.js';
import { isHttpTransport, negotiateEra } from './client-modern/negotiate.js';
import type { JournalEntryInput } from './journal/entry.js';
import type { ClientEra } from './client-era/era.js';
import { ClientRequest } from './client-era/client-request.js';
import { requestTimeoutClock } from './client-era/deadline-clock.js';
import { LegacyEra } from './client-era/legacy.js';
import { ModernClientEra, errorOf } from './client-era/modern.js';
import { eraCacheKey, sharedEraCache } from './client-modern/era-cache.js';
import type { ClientOptions, ClientWarning } from './client-options.js';
import { systemClock, type Clock } from './clock.js';
import { ConnectionClosedError, McpError, undeliveredAsTransportError } from './errors.js';
import { answerRelatedTask } from './tasks/wire-2025-11-25.js';
import { ErrorCode } from './jsonrpc/error-codes.js';
import type { JsonObject } from './jsonrpc/message.js';
import { sealJson } from './jsonrpc/sealed-json.js';
import { hasCapability } from './protocol/methods.js';
import { allows, isSupportedRevision, type Revision } from './protocol/revisions.js';
import type { LoggingMessageNotificationParams, ResourceUpdatedNotificationParams, Root } from './protocol/schema/index.js';
import type { LoggingLevel } from './protocol/schema/logging.js';
import { META } from './protocol/schema/modern.js';
import { RateLimiter } from './server-features/rate-limit.js';
import { Session, type FrameEvent, type NotificationHandler, type RequestHandler, type RequestHandlerContext, type RequestOptions } from './session/session.js';
import { runAnswerStages, type AnswerStage } from './client-features/interceptors/client-chain.js';

/** Notifications the client handles itself (a user handler for them runs as well). */
export const OWN_NOTIFICATIONS = [
  'notifications/tools/list_changed',
  'notifications/resources/list_changed',
  'notifications/prompts/list_changed',
  'notifications/resources/updated',
  'notifications/message',
  'notifications/elicitation/complete',
] as const;

/** @internal What a replay of a modern client's journal puts in place of the live inputs. */
export interface ModernReplayHooks {
  probeId: string;
  /** Answers every input request with the answer recorded for it. */
  answerer: InputAnswerer;
  /** The listen filter the replay has reached. */
  listen(): JsonObject | undefined;
}

/** See {@link ClientOptions.probeTimeoutMs}. */
const DEFAULT_PROBE_TIMEOUT_MS = 30_000;

export class ClientCore extends Session {
  protected readonly clientClock: Clock;
  protected readonly clientOptions: ClientOptions;
  /**
   * The era in use: the session era (an `initialize` session) until negotiation settles on
   * 2026-07-28, then the modern one. Every era-dependent step goes through it.
   */
  protected current: ClientEra;
  protected logLevel: LoggingLevel | undefined;
  protected readonly elicitation: ElicitationService;
  protected tornDown = false;
  private readonly logSubject = new Subject<LoggingMessageNotificationParams>();
  private readonly warningSubject = new Subject<ClientWarning>();
  private readonly inputRoundSubject = new Subject<InputRoundEvent>();
  /** The modern-era link of this connection, from the probe on (its frames are on `frames$`). */
  private readonly link = new BehaviorSubject<ModernLink | undefined>(undefined);
  private readonly userNotificationHandlers = new Map<string, NotificationHandler>();
  private readonly inputAnswerers = new Map<string, InputAnswerer>();
  /** Stages around each request the client answers (`Client.use` of an interceptor with `answering`); none costs nothing. */
  protected answerStages: AnswerStage[] | undefined;
  private rootsProvider: RootsProvider | undefined;
  private listsWanted = false;
  /** With `keepAlive` in the modern era: every frame from the server postpones the keep-alive. */
  private heard: Subscription | undefined;
  /** The last `_meta` envelope built, and what it was built for (compared field by field: read on every call). */
  private envelope: { version: string; logLevel: LoggingLevel | undefined; tasks: boolean; meta: JsonObject } | undefined;
  /** The listen filter last journaled (a change is a `listen` call entry). */
  private journaledListen = 'null';
  /** The link's frames go into the journal (the modern era with `journal: true`). */
  private linkJournaled = false;
  /** @internal Set by replay: the recorded probe id, input answers and listen filter stand in for the live ones. */
  replaying: ModernReplayHooks | undefined;

  /**
   * Log messages the server sends (`notifications/message`).
   * @see https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/logging#log-message-notifications
   */
  readonly logs$: Observable<LoggingMessageNotificationParams>;
  /** State changes of every elicitation (form and URL), for a UI. */
  readonly elicitations$: Observable<ElicitationStatus>;
  /** Things the client handled without failing: failed re-lists, ignored notifications... */
  readonly warnings$: Observable<ClientWarning>;
  /**
   * Requests going through input rounds (2026-07-28 multi round-trip requests): each move of a
   * `tools/call`, `prompts/get` or `resources/read` the server answered `input_required`, e.g.
   * `answering` round 1 with the input requests asked, `sent` again with the responses, `complete`.
   * The calls themselves resolve with the final result only; the frames are on `frames$`.
   * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr
   */
  readonly inputRounds$: Observable<InputRoundEvent>;

  constructor(options: ClientOptions) {
    // Over the system clock, the legacy session's timers (request timeouts above all) are deadlines
    // in a queue with one Node timer, as the 2026-07-28 link's are; any other clock is used as given.
    super('client', { ...options, clock: requestTimeoutClock(options.clock ?? systemClock) });
    this.clientOptions = options;
    this.logLevel = options.logLevel;
    this.clientClock = options.clock ?? systemClock;
    this.current = new LegacyEra({
      request: (m, p, o) => super.request(m, p, o),
      send: (m, p, o) => this.request(m, p, o),
      ping: (o) => super.ping(o),
      keepAliveProbe: (timeout) => super.keepAliveProbe(timeout),
      whenOperating: () => this.whenOperating(),
      notify: (method) => this.notify(method),
      operating: () => this.currentPhase === 'operating',
      warn: (kind, message, detail) => this.warn(kind, message, detail),
      protocolVersion: () => super.protocolVersion,
      peerInfo: () => this.peerInfo,
      peerCapabilities: () => this.peerCapabilities,
      instructions: () => this.instructions,
    });
    this.logs$ = this.guard('client.logs$', this.logSubject.asObservable());
    this.warnings$ = this.guard('client.warnings$', this.warningSubject.asObservable());
    this.inputRounds$ = this.guard('client.inputRounds$', this.inputRoundSubject.asObservable());
    this.elicitation = new ElicitationService({
      clock: this.clientClock,
      serverInfo: () => this.serverInfo,
      revision: () => this.negotiatedRevision,
      localCapabilities: () => this.localCapabilities,
      // With an inspector the session runs as an actor: elicitations are its children there.
      parent: () => this.actor,
    });
    this.elicitations$ = this.guard('client.elicitations$', this.elicitation.statuses$);
    for (const method of OWN_NOTIFICATIONS) {
      super.onNotification(method, (params, session) => {
        this.onOwnNotification(method, params);
        return this.userNotificationHandlers.get(method)?.(params, session);
      });
    }
    this.state$.subscribe({
      next: (s) => {
        if (s && (s.value === 'closed' || s.value === 'failed')) this.teardown();
      },
      complete: () => this.teardown(),
    });
  }

  /** The server's name and version, once initialized (legacy) or discovered (modern). */
  get serverInfo(): PeerInfo | undefined {
    return this.current.serverInfo;
  }
  /** The server's capabilities, once initialized (legacy) or discovered (modern). */
  get serverCapabilities(): Record<string, unknown> | undefined {
    return this.current.serverCapabilities;
  }
  /** The revision in use: negotiated by `initialize` (legacy) or per request (modern). */
  override get protocolVersion(): string | undefined {
    return this.current.protocolVersion;
  }
  /** 'modern' (2026-07-28, per-request metadata), 'legacy' (an `initialize` session), or undefined before connecting. */
  get era(): 'modern' | 'legacy' | undefined {
    return this.current.name;
  }
  /** Every frame in and out, in either era: from the era probe on, whenever one subscribes. */
  override get frames$(): Observable<FrameEvent> {
    // Guarded as a whole: merge hands the user's observer to plain subscribers, which an exception would escape.
    // A modern client's journal holds the link's frames too: shown once, from the link.
    const session$ = super.frames$.pipe(filter(() => !this.linkJournaled));
    return this.guard('session.frames$', merge(session$, this.link.pipe(switchMap((link) => link?.frames$ ?? EMPTY))));
  }

  // ------------------------------------------------------------------------ era and versions

  /**
   * Connect, finding out the server's era (unless `era: 'legacy'`): offer 2026-07-28 first (a
   * `server/discover` probe with the version in `_meta`, and on HTTP in `MCP-Protocol-Version`);
   * on -32022 retry with a version from the server's `supported` list; on anything else that is
   * not a modern answer (another error, a 4xx without a modern error body, on stdio a `ping`
   * answered while the probe is not, or no answer within `probeTimeoutMs`) run `initialize` and a
   * session. Rejects with `NoCommonVersionError` when no version is common, and with
   * `ServerExitedOnProbeError` when a stdio server exits when probed.
   * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning
   */
  override async connect(transport: Transport): Promise<void> {
    // A Streamable HTTP session the server lost is started anew by the transport: what the old one had is set again.
    if ('restoreSession' in transport) (transport as { restoreSession?: SessionRestorer }).restoreSession = (request) => this.restoreSession(request);
    // An HTTP request that never reached a server is a TransportError, as documented, in either era.
    return this.connectInEra(transport).catch(async (e: unknown) => {
      // A connect that failed leaves nothing running: a stdio server that ignored the end of its
      // stdin is stopped (SIGTERM, then SIGKILL) before the caller hears, so a CLI that exits on
      // the error does not leave the process behind.
      await transport.close().catch(() => {});
      throw undeliveredAsTransportError(e);
    });
  }

  private async connectInEra(transport: Transport): Promise<void> {
    const era = this.replaying ? 'modern' : (this.clientOptions.era ?? (transport.legacyOnly === true ? 'legacy' : 'auto'));
    if (era === 'legacy') return super.connect(transport);
    const cache = this.clientOptions.eraCache === false ? undefined : (this.clientOptions.eraCache ?? sharedEraCache);
    const key = cache && eraCacheKey(transport);
    if (era === 'auto' && key !== undefined && cache!.get(key)?.era === 'legacy') {
      // Origin and path only: a query may carry an API key, and warnings get logged.
      const where = new URL(key);
      this.warn('legacy-era', `The server at ${where.origin}${where.pathname} spoke a session revision when probed earlier: connecting with initialize`);
      // "re-probing if the cached assumption later fails": forgotten, so the next connect probes.
      return super.connect(transport).catch((e: unknown) => {
        cache!.delete(key);
        throw e;
      });
    }
    await transport.start();
    // The probe is journaled once it settles on the modern era (a legacy session's journal starts at initialize).
    const probeEntries: { entry: JournalEntryInput; t: number }[] | undefined = this.journal ? [] : undefined;
    let journalTo: ((entry: JournalEntryInput) => void) | undefined = probeEntries && ((entry) => probeEntries.push({ entry, t: this.clientClock.now() }));
    const outcome = await negotiateEra(transport, {
      ...(journalTo && { record: (entry: JournalEntryInput) => journalTo!(entry) }),
      ...(this.replaying && { probeId: this.replaying.probeId }),
      era,
      clock: this.clientClock,
      timeoutMs: this.clientOptions.timeout ?? 60_000,
      probeTimeoutMs: this.clientOptions.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS,
      meta: (version) => this.requestMeta(version),
      onNotification: (method, params) => this.current.onNotification(method, params),
      onLink: (link) => this.link.next(link),
      // A line that is not JSON-RPC is a diagnostic in this era too, as the session era reports it.
      invalid: (inbound) => this.diagnose('invalid-frame', inbound.error.message, inbound),
    }).catch(async (e: unknown) => {
      await this.giveUp(transport);
      throw e;
    });
    if (outcome.era === 'legacy') {
      if (era === 'modern') {
        await this.giveUp(transport);
        throw new LegacyServerError(outcome.reason);
      }
      this.warn('legacy-era', `The server speaks a session revision (${outcome.reason}): connecting with initialize`);
      await super.connect(transport);
      // Remembered once initialize worked: a server that refuses both is not called legacy.
      if (key !== undefined) cache!.set(key, { era: 'legacy' });
      return;
    }
    if (key !== undefined) cache!.set(key, { era: 'modern', version: outcome.version });
    if (this.journal) {
      this.journal.revision = outcome.version;
      this.journal.era = 'modern';
      this.journal.link = { http: isHttpTransport(transport), probe: outcome.probe };
      // Declared by the feature APIs (onElicitation, ...) after construction: the replay declares them at once.
      if (this.journal.session) this.journal.session.capabilities = structuredClone(this.localCapabilities);
      this.linkJournaled = true;
      for (const { entry, t } of probeEntries!) this.record(entry, t);
      journalTo = (entry) => this.record(entry);
    }
    const modern = new ModernEra(
      {
        clock: this.clientClock,
        random: this.clientOptions.random ?? Math.random,
        maxInputRounds: this.clientOptions.maxInputRounds ?? 8,
        ...(this.clientOptions.listenBackoff !== undefined && { listenBackoff: this.clientOptions.listenBackoff }),
        meta: (version) => this.requestMeta(version),
        answererFor: (method) => this.answererFor(method),
        reportInputRound: (event) => {
          if (this.journal) {
            const keys = event.inputRequests?.map((r) => r.key);
            this.record({ kind: 'round', method: event.method, ...(event.name !== undefined && { name: event.name }), state: event.state, round: event.round, ...(keys && { keys }) });
          }
          if (this.inputRoundSubject.observed) this.inputRoundSubject.next(event);
        },
        ...(this.journal && { timerFired: (name: string) => this.record({ kind: 'timer', name }) }),
        ...(this.actor !== undefined && { inspectParent: () => this.actor }),
        declaresTasks: () => {
          const extensions = this.localCapabilities.extensions as Record<string, unknown> | undefined;
          return extensions !== null && typeof extensions === 'object' && extensions[TASKS_EXTENSION] !== undefined;
        },
        dispatchNotification: (method, params) => this.dispatchNotification(method, params),
        listenFilter: (caps) => this.listenFilter(caps),
        warn: (kind, message, detail) => this.warn(kind, message, detail),
        ...(typeof (transport as { authContext?: unknown }).authContext === 'function' && {
          authContext: () => (transport as unknown as { authContext(): Promise<string | undefined> }).authContext(),
        }),
      },
      outcome.link,
      transport,
      outcome.version,
      outcome.discover,
    );
    this.current = new ModernClientEra(modern, {
      send: (m, p, o) => this.request(m, p, o),
      ...(this.journal && { record: (entry: JournalEntryInput) => this.record(entry) }),
    });
    const found = modern.discovered;
    // The keep-alive waits for a quiet interval: the modern link reads the frames the session would have seen.
    if (this.clientOptions.keepAlive) this.heard = transport.inbound$.subscribe(() => this.heardFromPeer());
    this.adoptModern(transport, {
      protocolVersion: outcome.version,
      capabilities: found.capabilities,
      serverInfo: found.serverInfo,
      ...(found.instructions !== undefined && { instructions: found.instructions }),
    });
    this.current.refreshListen();
  }

  /** Negotiation failed: the transport is closed and the session ends (nothing waits for it). */
  private async giveUp(transport: Transport): Promise<void> {
    await transport.close().catch(() => {});
    await super.close().catch(() => {});
  }

  /**
   * Check that the server answers: `ping` in the session era; in 2026-07-28, which removed `ping`
   * (servers answer it -32601), a `server/discover` that skips the cache, as every server of that
   * revision must answer it.
   * @see https://modelcontextprotocol.io/specification/2026-07-28/changelog
   */
  override async ping(options?: RequestOptions): Promise<void> {
    return this.current.ping(options);
  }

  /** The keep-alive (`keepAlive` option) checks the server as {@link ping} does: `server/discover` in 2026-07-28. */
  protected override keepAliveProbe(timeout: number): Promise<unknown> {
    return this.current.keepAliveProbe(timeout);
  }

  /**
   * The server's versions, capabilities and identity: `server/discover` in the modern era (a
   * cached answer while its `ttlMs` lasts, unless `fresh`), what `initialize` said in the legacy era.
   * @see https://modelcontextprotocol.io/specification/2026-07-28/server/discover
   */
  async discover(options?: RequestOptions & TraceOptions): Promise<DiscoveredServer> {
    return this.current.discover(options);
  }

  /**
   * Send a request. In the modern era it carries the envelope in `_meta` (version, client
   * capabilities and info, log level, trace context), and `input_required` answers to
   * `tools/call`, `prompts/get` and `resources/read` are fulfilled by the client's handlers.
   */
  override request(method: string, params?: JsonObject, options?: RequestOptions & TraceOptions): Promise<JsonObject> {
    // With an inspector: the request is an actor too, a child of the session's (its input rounds its own children).
    if (this.actor === undefined) return this.current.request(method, params, options);
    const request = new ClientRequest(method, this.actor);
    return request.follow(this.current.request(method, params, options, request));
  }

  /** Who answers an input request: the client's handler (its answer journaled), or on replay the recorded answer. */
  private answererFor(method: string): InputAnswerer | undefined {
    if (this.replaying) return this.replaying.answerer;
    const answer = this.staged(this.inputAnswerers.get(method));
    if (!answer || !this.journal) return answer;
    return async (m, params, key, signal) => {
      try {
        const result = await answer(m, params, key, signal);
        this.record({ kind: 'answer', method: m, key, result });
        return result;
      } catch (e) {
        this.record({ kind: 'answer', method: m, key, error: errorOf(e) });
        throw e;
      }
    };
  }

  override async close(): Promise<void> {
    // Modern era: the listen and pending requests end first; the session closes the transport.
    // Typed as in the legacy era: calls made after (or pending at) close reject with ConnectionClosedError.
    this.current.stop(new ConnectionClosedError('The client was closed'));
    return super.close();
  }

  /** @internal Replay reached a journaled change of the listen filter. */
  refreshListenForReplay(): void {
    this.current.refreshListen();
  }

  /** A live list is observed: in the modern era the listen stream carries its changes. */
  protected wantLists(): void {
    if (this.listsWanted) return;
    this.listsWanted = true;
    this.current.refreshListen();
  }

  /** The notifications to ask `subscriptions/listen` for, or undefined when none is wanted. */
  private listenFilter(caps: Record<string, unknown>): JsonObject | undefined {
    if (this.replaying) return this.tornDown ? undefined : this.replaying.listen();
    const filter = this.wantedListen(caps);
    if (this.journal) {
      // What the user asked for (live lists, subscriptions) is an input: journaled when it changes.
      const key = JSON.stringify(filter ?? null);
      if (key !== this.journaledListen) {
        this.journaledListen = key;
        this.record(filter === undefined ? { kind: 'call', op: 'listen' } : { kind: 'call', op: 'listen', filter });
      }
    }
    return filter;
  }

  private wantedListen(caps: Record<string, unknown>): JsonObject | undefined {
    if (this.tornDown) return undefined;
    const filter: JsonObject = {};
    if (this.listsWanted) {
      if (hasCapability(caps, ['tools', 'listChanged'])) filter.toolsListChanged = true;
      if (hasCapability(caps, ['prompts', 'listChanged'])) filter.promptsListChanged = true;
      if (hasCapability(caps, ['resources', 'listChanged'])) filter.resourcesListChanged = true;
    }
    const uris = this.subscribedUris();
    if (uris.length > 0) filter.resourceSubscriptions = uris;
    return Object.keys(filter).length > 0 ? filter : undefined;
  }

  /** The envelope every modern request carries in `_meta` (built once per version and log level). */
  private requestMeta(version: string): JsonObject {
    const tasks = this.current.tasksExtension;
    const kept = this.envelope;
    if (kept !== undefined && kept.version === version && kept.logLevel === this.logLevel && kept.tasks === tasks) return kept.meta;
    const caps = structuredClone(this.localCapabilities) as JsonObject;
    // 2026-07-28 roots have no list-change notifications.
    if (caps.roots !== undefined) caps.roots = {};
    // The tasks extension, when the server offers it: its tasks are followed like any result.
    if (tasks) caps.extensions = { ...(caps.extensions as JsonObject | undefined), [TASKS_EXTENSION]: {} };
    const meta: JsonObject = { [META.protocolVersion]: version, [META.clientCapabilities]: caps };
    const info = this.clientOptions.info;
    // A copy: the envelope's text is made once (sealed), so it must not follow later changes.
    if (info !== undefined) meta[META.clientInfo] = structuredClone(info) as unknown as JsonObject;
    if (this.logLevel !== undefined) meta[META.logLevel] = this.logLevel;
    // Serialized once: stdio and HTTP splice this text into every request instead of encoding it again.
    sealJson(meta);
    this.envelope = { version, logLevel: this.logLevel, tasks, meta };
    return meta;
  }

  override declareCapabilities(capabilities: Record<string, unknown>): void {
    super.declareCapabilities(capabilities);
    this.envelope = undefined;
  }


  /** The context an input request's handler gets (the handlers are the session-era ones). */
  private inputContext(method: string, key: string, signal: AbortSignal | undefined): RequestHandlerContext {
    return {
      session: this,
      requestId: key,
      method,
      signal: signal ?? new AbortController().signal,
      meta: undefined,
      authInfo: undefined,
      sendProgress: () => {},
      sendNotification: () => {},
      sendRequest: () => Promise.reject(new McpError(ErrorCode.InvalidRequest, 'An input request cannot send requests in the modern era')),
    };
  }

  /**
   * Receive notifications for `method`. For the notifications the client handles itself (list
   * changes, resource updates, log messages, elicitation completions) the handler runs too.
   */
  override onNotification(method: string, handler: NotificationHandler): this {
    if ((OWN_NOTIFICATIONS as readonly string[]).includes(method)) {
      this.userNotificationHandlers.set(method, handler);
      return this;
    }
    return super.onNotification(method, handler);
  }

  /** In the modern era with the tasks extension: how a task's input requests are answered. */
  protected tasksExtension(): { answererFor(method: string): InputAnswerer | undefined } | undefined {
    return this.current.tasksExtension ? { answererFor: (m) => this.staged(this.inputAnswerers.get(m)) } : undefined;
  }

  /**
   * Serve requests for `method` (a server-to-client request); the answer passes the answer stages
   * of the client's interceptors (see {@link staged}).
   */
  override onRequest(method: string, handler: RequestHandler): this {
    return super.onRequest(method, (params, ctx) => {
      const stages = this.answerStages;
      if (stages === undefined) return handler(params, ctx);
      return runAnswerStages(stages, { kind: 'answer', method, params, id: ctx.requestId, era: 'legacy' }, async () => (await handler(params, ctx)) ?? {});
    });
  }

  /** An input answerer through the answer stages, read when it answers (stages added later count). */
  private staged(answer: InputAnswerer | undefined): InputAnswerer | undefined {
    if (answer === undefined) return undefined;
    return (m, params, key, signal) => {
      const stages = this.answerStages;
      return stages === undefined ? answer(m, params, key, signal) : runAnswerStages(stages, { kind: 'answer', method: m, params, era: 'modern' }, () => answer(m, params, key, signal));
    };
  }

  /** The URIs whose updates the client wants (the typed API's resource subscriptions). */
  protected subscribedUris(): string[] {
    return [];
  }

  /** The level the server was told with `logging/setLevel` (legacy era), set again on a new session. */
  protected sessionLogLevel: LoggingLevel | undefined;

  /** A resource subscription could not be carried to a new session: its observers get the error. */
  protected subscriptionLost(_uri: string, _error: Error): void {}

  /**
   * The transport started a new session after the server lost ours (HTTP 404): set the log level
   * and every resource subscription again, in that order, before anything else goes out. A
   * subscription the new session refuses ends with a {@link SubscriptionLostError}. The live lists
   * held (`tools$`...) are listed again: changes told to the old session are lost with it.
   * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#session-management
   */
  private async restoreSession(request: Parameters<SessionRestorer>[0]): Promise<void> {
    const failure = (answer: RestoreAnswer | undefined, e: unknown) =>
      answer?.error ? `${answer.error.message} (${answer.error.code})` : e instanceof Error ? e.message : answer ? 'no result' : String(e);
    const level = this.sessionLogLevel;
    if (level !== undefined) {
      const answer: RestoreAnswer = await request('logging/setLevel', { level }).catch((e: unknown) => ({ error: { code: ErrorCode.InternalError, message: failure(undefined, e) } }));
      if (!answer.result) this.warn('log-level-lost', `Setting the log level ${level} again on the new session failed: ${failure(answer, undefined)}`, answer.error);
    }
    for (const uri of this.subscribedUris()) {
      let answer: RestoreAnswer | undefined;
      let thrown: unknown;
      try {
        answer = await request('resources/subscribe', { uri });
      } catch (e) {
        thrown = e;
      }
      if (answer?.result) continue;
      this.subscriptionLost(uri, new SubscriptionLostError(uri, failure(answer, thrown), answer?.error?.code, answer?.error?.data));
    }
    // List changes the old session would have told are lost with it: the live lists held are listed again.
    for (const kind of ['tools', 'resources', 'prompts']) this.onListChanged(`notifications/${kind}/list_changed`);
  }

  // ------------------------------------------------------------------------- client features

  /** @internal Answer a 2026-07-28 input request for `method` with `answer` (the gateway answers `roots/list` from its own caller). */
  answerInput(method: string, answer: () => Promise<JsonObject>): void {
    this.inputAnswerers.set(method, () => answer());
  }

  /**
   * Expose roots to the server: a list, or an observable of lists. Declares
   * `roots: { listChanged: true }` (call before connecting) and answers `roots/list`; once
   * initialized, each change sends `notifications/roots/list_changed`. Every root must be a
   * `file://` URI without `.`/`..` segments; an invalid list throws (from an observable it is
   * skipped and reported on `warnings$`). With `verify`, each root is checked at every
   * `roots/list` and the inaccessible ones are left out (reported on `warnings$`).
   * @see https://modelcontextprotocol.io/specification/2025-11-25/client/roots
   */
  setRoots(roots: readonly Root[] | Observable<readonly Root[]>, options: SetRootsOptions = {}): this {
    if (!this.rootsProvider) {
      const provider = new RootsProvider({
        changed: () => this.current.rootsChanged(),
        warn: (kind, message, detail) => this.warn(kind, message, detail),
      });
      // Checked before anything is declared: an invalid list throws and changes nothing.
      provider.set(roots, options);
      this.rootsProvider = provider;
      this.declareCapabilities({ roots: { listChanged: true } });
      this.onRequest('roots/list', async (params) => answerRelatedTask(params, await provider.answer()));
      this.inputAnswerers.set('roots/list', () => provider.answer());
      return this;
    }
    this.rootsProvider.set(roots, options);
    return this;
  }

  /** The roots currently exposed. */
  get roots(): readonly Root[] {
    return this.rootsProvider?.current ?? [];
  }

  /**
   * Answer the server's `sampling/createMessage` with `handler`. Declares `sampling` (and
   * `sampling.tools` / `sampling.context` as the options say); call before connecting. Requests
   * are checked first (tools only when declared, every `tool_use` answered by `tool_result`s,
   * tool results never mixed with other content: -32602), and so is the handler's result.
   * @see https://modelcontextprotocol.io/specification/2025-11-25/client/sampling
   */
  onSampling(handler: SamplingHandler, options: SamplingOptions = {}): this {
    const capability: Record<string, unknown> = {};
    if (options.tools) capability.tools = {};
    if (options.context) capability.context = {};
    this.declareCapabilities({ sampling: capability });
    const limiter = options.rateLimit ? new RateLimiter(this.clientClock, options.rateLimit) : undefined;
    if (options.maxToolRounds !== undefined && !(options.maxToolRounds >= 0)) throw new TypeError(`maxToolRounds must be 0 or more; got ${options.maxToolRounds}`);
    const serve = (params: JsonObject | undefined, ctx: RequestHandlerContext) => {
      if (limiter && !limiter.take(this)) {
        throw new McpError(ErrorCode.InternalError, `Too many sampling requests; retry in ${limiter.retryAfter(this)} ms`);
      }
      const rev = this.negotiatedRevision;
      const toolsDeclared = hasCapability(this.localCapabilities, ['sampling', 'tools']) && (rev === undefined || allows(rev, 'samplingTools'));
      return serveSampling(handler, params, ctx, options, { toolsDeclared, server: this.serverInfo });
    };
    // Answers to a task's requests carry its related-task _meta (2025-11-25 tasks).
    this.onRequest('sampling/createMessage', async (params, ctx) => answerRelatedTask(params, await serve(params, ctx)));
    this.inputAnswerers.set('sampling/createMessage', async (m, params, key, signal) => serve(params, this.inputContext(m, key, signal)));
    return this;
  }

  /**
   * Answer the server's `elicitation/create` with the given handlers. Declares
   * `elicitation: { form, url }` for the modes given; call before connecting. A request in a
   * mode not declared is answered -32602. Form answers are validated against the requested
   * schema before they are sent; URL elicitations ask consent (showing the domain) before
   * anything is opened.
   * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation
   */
  onElicitation(options: ElicitationOptions): this {
    const capability = ElicitationService.capabilityFor(options);
    this.declareCapabilities({ elicitation: capability });
    this.elicitation.configure(options);
    const limiter = options.rateLimit ? new RateLimiter(this.clientClock, options.rateLimit) : undefined;
    const serve = (params: JsonObject | undefined, ctx: RequestHandlerContext) => {
      if (limiter && !limiter.take(this)) {
        throw new McpError(ErrorCode.InternalError, `Too many elicitation requests; retry in ${limiter.retryAfter(this)} ms`);
      }
      return this.elicitation.handleRequest(params, ctx) as Promise<JsonObject>;
    };
    this.onRequest('elicitation/create', async (params, ctx) => answerRelatedTask(params, await serve(params, ctx)));
    this.inputAnswerers.set('elicitation/create', async (m, params, key, signal) => serve(params, this.inputContext(m, key, signal)));
    return this;
  }

  // -------------------------------------------------------------------------------- internals

  protected get negotiatedRevision(): Revision | undefined {
    const v = this.protocolVersion;
    return v !== undefined && isSupportedRevision(v) ? v : undefined;
  }

  /** A notification the client handles itself; the list and resource ones go to the typed API. */
  protected onOwnNotification(method: (typeof OWN_NOTIFICATIONS)[number], params: JsonObject | undefined): void {
    switch (method) {
      case 'notifications/tools/list_changed':
      case 'notifications/resources/list_changed':
      case 'notifications/prompts/list_changed':
        this.onListChanged(method);
        return;
      case 'notifications/resources/updated':
        if (typeof params?.uri === 'string') this.onResourceUpdated(params as unknown as ResourceUpdatedNotificationParams);
        return;
      case 'notifications/message':
        if (params) this.logSubject.next(params as unknown as LoggingMessageNotificationParams);
        return;
      case 'notifications/elicitation/complete':
        if (!this.elicitation.complete(params?.elicitationId)) {
          this.warn('unknown-elicitation', `Ignored a completion for unknown or finished elicitation ${JSON.stringify(params?.elicitationId)}`, params);
        }
        return;
    }
  }

  /** A list the server says changed. */
  protected onListChanged(_method: string): void {}

  /** An update of a subscribed resource. */
  protected onResourceUpdated(_params: ResourceUpdatedNotificationParams): void {}

  protected warn(kind: ClientWarning['kind'], message: string, detail?: unknown): void {
    if (this.warningSubject.observed) this.warningSubject.next(detail === undefined ? { kind, message } : { kind, message, detail });
  }

  /** The connection ended: release what the client holds (once). */
  protected teardown(): void {
    if (this.tornDown) return;
    this.tornDown = true;
    this.current.stop(this.error ?? new Error('The connection ended'));
    this.heard?.unsubscribe();
    this.rootsProvider?.close();
    this.elicitation.close();
    this.logSubject.complete();
    this.warningSubject.complete();
    this.inputRoundSubject.complete();
    this.link.complete();
  }
}

