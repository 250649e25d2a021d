/**
 * The client role: connects to a server, initializes, and offers the typed client API (tools,
 * resources, prompts, completion, logging) and the client features the server may use (roots,
 * sampling, elicitation), each declared as its handler is registered.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client
 */
import { Observable, Subject, isObservable, type Subscription } from 'rxjs';
import type { PeerInfo } from '../machines/session.machine.js';
import { systemClock, type Clock } from './clock.js';
import { McpError } from './errors.js';
import { ErrorCode } from './jsonrpc/error-codes.js';
import type { JsonObject } from './jsonrpc/message.js';
import { hasCapability } from './protocol/methods.js';
import { allows, isSupportedRevision, type Revision } from './protocol/revisions.js';
import type {
  CallToolResult,
  CompleteRequestParams,
  CompleteResult,
  CreateMessageRequestParams,
  GetPromptResult,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListToolsResult,
  LoggingMessageNotificationParams,
  Prompt,
  PromptReference,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  ResourceTemplateReference,
  ResourceUpdatedNotificationParams,
  Root,
  Tool,
} from './protocol/schema/index.js';
import { LOGGING_LEVELS, type LoggingLevel } from './protocol/schema/logging.js';
import { Session, type NotificationHandler, type Progress, type ProgressToken, type RequestHandlerContext, type RequestOptions, type SessionOptions } from './session/session.js';
import { ElicitationService, type ElicitationOptions, type ElicitationStatus, type UrlElicitationHandler } from './client-features/elicitation.js';
import { InvalidSamplingResultError, SamplingRejectedError, asUrlElicitationRequired } from './client-features/errors.js';
import { Completer, type CompleterOptions } from './client-features/completer.js';
import { LiveList } from './client-features/live-list.js';
import { OutputValidators } from './client-features/output-schema.js';
import { listAll, pages } from './client-features/pagination.js';
import { checkRoots, rootIsAccessible, sameRoots, type RootVerifier, type SetRootsOptions } from './client-features/roots.js';
import { checkSamplingRequest, checkSamplingResult, toolRounds, type SamplingHandler, type SamplingOptions } from './client-features/sampling.js';
import { RateLimiter } from './server-features/rate-limit.js';
import { ToolCallDeniedError, readDecision, type ToolCallApprover } from './client-features/tool-approval.js';
import { auditError, type ToolCallOutcome, type ToolCallRecord } from './client-features/tool-audit.js';
import { redactSecrets } from './server-features/redaction.js';
import { isListParams, listing, sdkOptions, type CallToolParams, type ListParams, type Listing } from './client-features/sdk-shapes.js';
import type { Task, TaskHandle, TaskHandleOptions } from './client-features/tasks.js';
import { ToolTasks } from './client-features/tool-tasks.js';
import { createActor } from 'xstate';
import { defer, merge } from 'rxjs';
import { versionNegotiationMachine } from '../machines/version-negotiation.machine.js';
import { ModernLink } from './client-modern/modern-link.js';
import { MRTR_METHODS, readResultType, runInputRounds, type InputAnswerer } from './client-modern/input-rounds.js';
import { NoCommonVersionError } from './client-modern/errors.js';
import { ResultCache } from './client-modern/result-cache.js';
import { paramHeadersOf, type ParamHeaderSpec } from './client-modern/wire-headers.js';
import { MODERN_REVISIONS } from './protocol/revisions.js';
import { META } from './protocol/schema/modern.js';
import type { Transport } from '../streams/transport.js';
import type { FrameEvent } from './session/session.js';

/**
 * Options of {@link createClient}: `info` (the client's name and version, sent in `initialize`),
 * the session's (`supportedVersions`, `journal`, `clock`, default request `timeout`,
 * `inspect`...) and the client's own below.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#initialization
 */
export interface ClientOptions extends SessionOptions {
  /**
   * Quiet time in ms after a `list_changed` notification before `tools$`, `resources$` or
   * `prompts$` re-list (a burst of notifications is one re-list). Default 50.
   */
  listChangedDebounceMs?: number;
  /**
   * Asked before every `tools/call` goes out, with the server, the tool, its annotations and the
   * exact arguments (the application's confirmation prompt). A refusal rejects the call with
   * `ToolCallDeniedError` and nothing is sent. Off by default (costs nothing when absent).
   * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#user-interaction-model
   */
  approveToolCall?: ToolCallApprover;
  /**
   * The application trusts this server: its tool annotations are given to `approveToolCall` as
   * trusted. Default false (annotations are untrusted hints).
   * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool
   */
  trustedServer?: boolean;
  /**
   * Applied to tool arguments before they go into a `toolCalls$` audit record. Default: values of
   * secret-named keys (password, token, api key...) become "[REDACTED]"; `false` keeps them.
   */
  redactToolArguments?: ((args: unknown) => unknown) | false;
  /**
   * Which era to speak: 'auto' offers 2026-07-28 first and falls back to `initialize` for a
   * legacy server; 'legacy' (default for now) runs `initialize` at once; 'modern' never falls back.
   * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning
   */
  era?: 'auto' | 'legacy' | 'modern';
  /** How long the era probe waits for an answer before deciding the server is legacy, in ms (default 5000). */
  probeTimeoutMs?: number;
  /** Input-required rounds one modern request may go through before failing (default 8). */
  maxInputRounds?: number;
  /**
   * Ask for log messages at this level and above: in the modern era each request carries it as
   * `io.modelcontextprotocol/logLevel` (set later with `setLoggingLevel`).
   */
  logLevel?: LoggingLevel;
}

/** The tasks extension's identifier (`lib/tasks/modern-tasks.ts` serves it; not imported here: server code). */
const TASKS_EXTENSION_ID = 'io.modelcontextprotocol/tasks';

/** Options of a request in the modern era: OpenTelemetry context passed through in `_meta`. */
export interface TraceOptions {
  /** W3C Trace Context (`traceparent`, `tracestate`) and `baggage`, sent verbatim in `_meta` (2026-07-28). */
  trace?: { traceparent?: string; tracestate?: string; baggage?: string };
  /**
   * Ask the server even when a cached result is still fresh (2026-07-28 `ttlMs` caching hints).
   * @see https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/caching
   */
  fresh?: boolean;
}

/** What `client.discover()` returns. @see https://modelcontextprotocol.io/specification/2026-07-28/server/discover */
export interface DiscoveredServer {
  era: 'modern' | 'legacy';
  /** Versions the server speaks (legacy: the one `initialize` negotiated). */
  supportedVersions: string[];
  capabilities: Record<string, unknown>;
  serverInfo: PeerInfo | undefined;
  instructions?: string;
}

/** Options of {@link Client.callTool}. */
export interface CallToolOptions extends RequestOptions, TraceOptions {
  /**
   * Run the URL elicitations of a -32042 answer with this consent handler, then call the tool
   * again. Without it a -32042 rejects with `UrlElicitationRequiredError`.
   * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#url-elicitation-required-error
   */
  onUrlElicitationRequired?: UrlElicitationHandler;
  /** Check `structuredContent` against the listed `outputSchema` (default true). */
  validateOutput?: boolean;
  /** How many -32042 rounds to go through before giving up (default 3). */
  maxElicitationRounds?: number;
  /**
   * Run the call as a task (2025-11-25): `true` or `{ ttl }` asks for one, `false` never does.
   * Default: only when the tool says `execution.taskSupport: "required"` (from `listTools`) and
   * the server declared task-augmented tool calls. Either way `callTool` polls the task and
   * returns its final result; use {@link Client.callToolAsTask} for a handle instead.
   * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks#tool-level-negotiation
   */
  task?: boolean | { ttl?: number };
}

/** Something the client handled without failing, that a host may want to know. */
export interface ClientWarning {
  kind: 'relist-failed' | 'invalid-tool' | 'invalid-roots' | 'inaccessible-root' | 'unknown-elicitation' | 'unknown-schema-dialect' | 'unsubscribe-failed';
  message: string;
  detail?: unknown;
}

interface ResourceSubscription {
  subject: Subject<ResourceUpdatedNotificationParams>;
  count: number;
  ready: Promise<void>;
}

/** Notifications the client handles itself (a user handler for them runs as well). */
const OWN_NOTIFICATIONS = [
  'notifications/tools/list_changed',
  'notifications/resources/list_changed',
  'notifications/prompts/list_changed',
  'notifications/resources/updated',
  'notifications/message',
  'notifications/elicitation/complete',
] as const;

const DEFAULT_DEBOUNCE_MS = 50;

/**
 * An MCP client session. `await client.connect(transport)` runs the initialization (offering
 * the latest revision it speaks) and resolves once the session is operating. Register client
 * features (`setRoots`, `onSampling`, `onElicitation`) before connecting: they declare the
 * capabilities sent in `initialize`.
 */
export class Client extends Session {
  private readonly clientClock: Clock;
  private readonly toolsLive: LiveList<Tool>;
  private readonly resourcesLive: LiveList<Resource>;
  private readonly promptsLive: LiveList<Prompt>;
  private readonly toolIndex = new Map<string, Tool>();
  private readonly outputValidators = new OutputValidators();
  private readonly logSubject = new Subject<LoggingMessageNotificationParams>();
  private readonly warningSubject = new Subject<ClientWarning>();
  private readonly toolCallSubject = new Subject<ToolCallRecord>();
  private readonly approver: ToolCallApprover | undefined;
  private readonly trustedServer: boolean;
  private readonly redactArguments: ((args: unknown) => unknown) | undefined;
  private readonly resourceSubs = new Map<string, ResourceSubscription>();
  private readonly userNotificationHandlers = new Map<string, NotificationHandler>();
  private readonly elicitation: ElicitationService;
  private rootsDeclared = false;
  private currentRoots: Root[] = [];
  private rootsSubscription: Subscription | undefined;
  private rootVerifier: RootVerifier | undefined;
  private tornDown = false;
  private readonly toolTasks = new ToolTasks({
    request: (m, p, o) => this.request(m, p, o),
    clock: () => this.clientClock,
    revision: () => this.negotiatedRevision,
    serverCapabilities: () => this.serverCapabilities,
    tool: (name) => this.toolIndex.get(name),
  });
  // The modern era (2026-07-28): set once negotiation settles on it.
  private readonly clientOptions: ClientOptions;
  private modern: ModernLink | undefined;
  private modernVersion: string | undefined;
  private discovered: DiscoveredServer | undefined;
  private logLevel: LoggingLevel | undefined;
  private modernTransport: Transport | undefined;
  private readonly inputAnswerers = new Map<string, InputAnswerer>();
  private readonly paramHeaderIndex = new Map<string, ParamHeaderSpec[]>();
  private resultCache: ResultCache | undefined;
  // subscriptions/listen (modern era): one listen request carrying every notification wanted.
  private listsWanted = false;
  private listenAbort: AbortController | undefined;
  private listenKey = 'null';

  /**
   * The server's tools: listed on first subscription, then re-listed (debounced) on each
   * `notifications/tools/list_changed`. Empty when the server has no `tools` capability.
   * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#list-changed-notification
   */
  readonly tools$: Observable<Tool[]>;
  /**
   * The server's resources, kept current like {@link Client.tools$}.
   * @see https://modelcontextprotocol.io/specification/2025-11-25/server/resources#list-changed-notification
   */
  readonly resources$: Observable<Resource[]>;
  /**
   * The server's prompts, kept current like {@link Client.tools$}.
   * @see https://modelcontextprotocol.io/specification/2025-11-25/server/prompts#list-changed-notification
   */
  readonly prompts$: Observable<Prompt[]>;
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
   * One audit record per `callTool` (server, tool, redacted arguments, timing, outcome), built
   * only while observed.
   * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#security-considerations
   */
  readonly toolCalls$: Observable<ToolCallRecord>;

  /**
   * @param options `info` (the client's name and version, sent in `initialize`) and the rest. Or,
   * as the official SDK's `new Client({ name, version }, options)`: the info first.
   */
  constructor(options: ClientOptions);
  constructor(info: PeerInfo, options?: Omit<ClientOptions, 'info'>);
  constructor(first: ClientOptions | PeerInfo, rest?: Omit<ClientOptions, 'info'>) {
    super('client', clientOptions(first, rest));
    const options = clientOptions(first, rest);
    this.clientOptions = options;
    this.logLevel = options.logLevel;
    this.clientClock = options.clock ?? systemClock;
    const debounceMs = options.listChangedDebounceMs ?? DEFAULT_DEBOUNCE_MS;
    const live = <T>(name: string, capability: string, fetch: () => Promise<T[]>) =>
      new LiveList<T>({
        name,
        clock: this.clientClock,
        debounceMs,
        fetch: async () => {
          await this.whenOperating();
          return hasCapability(this.serverCapabilities, [capability]) ? fetch() : [];
        },
        onError: (e) => this.warn('relist-failed', `Re-listing ${name} failed: ${(e as Error)?.message ?? String(e)}`, e),
      });
    this.toolsLive = live('tools', 'tools', () => this.fetchTools());
    this.resourcesLive = live('resources', 'resources', () => listAll<Resource>(this.pageRequester, 'resources/list', 'resources'));
    this.promptsLive = live('prompts', 'prompts', () => listAll<Prompt>(this.pageRequester, 'prompts/list', 'prompts'));
    // Observing a live list in the modern era opens (or widens) the listen stream.
    const watched = <T>(value$: Observable<T>) =>
      defer(() => {
        this.wantLists();
        return value$;
      });
    this.tools$ = this.guard('client.tools$', watched(this.toolsLive.value$));
    this.resources$ = this.guard('client.resources$', watched(this.resourcesLive.value$));
    this.prompts$ = this.guard('client.prompts$', watched(this.promptsLive.value$));
    this.logs$ = this.guard('client.logs$', this.logSubject.asObservable());
    this.warnings$ = this.guard('client.warnings$', this.warningSubject.asObservable());
    this.toolCalls$ = this.guard('client.toolCalls$', this.toolCallSubject.asObservable());
    this.approver = options.approveToolCall;
    this.trustedServer = options.trustedServer === true;
    this.redactArguments = options.redactToolArguments === false ? undefined : (options.redactToolArguments ?? redactSecrets);
    this.elicitation = new ElicitationService({
      clock: this.clientClock,
      serverInfo: () => this.serverInfo,
      revision: () => this.negotiatedRevision,
      localCapabilities: () => this.localCapabilities,
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
    return this.modern ? this.discovered?.serverInfo : this.peerInfo;
  }
  /** The server's capabilities, once initialized (legacy) or discovered (modern). */
  get serverCapabilities(): Record<string, unknown> | undefined {
    return this.modern ? this.discovered?.capabilities : this.peerCapabilities;
  }
  /** The revision in use: negotiated by `initialize` (legacy) or per request (modern). */
  override get protocolVersion(): string | undefined {
    return this.modern ? this.modernVersion : super.protocolVersion;
  }
  /** 'modern' (2026-07-28, per-request metadata), 'legacy' (an `initialize` session), or undefined before connecting. */
  get era(): 'modern' | 'legacy' | undefined {
    if (this.modern) return 'modern';
    return super.protocolVersion !== undefined ? 'legacy' : undefined;
  }
  override get frames$(): Observable<FrameEvent> {
    return this.modern ? merge(super.frames$, this.modern.frames$) : super.frames$;
  }

  // ------------------------------------------------------------------------ era and versions

  /**
   * Connect, finding out the server's era: offer 2026-07-28 first (a `server/discover` probe
   * with the version in `_meta`, and on HTTP in `MCP-Protocol-Version`); on -32022 retry with a
   * version from the server's `supported` list; on anything else that is not a modern answer
   * (another error, a 4xx without a modern error body, no answer within `probeTimeoutMs`) run
   * `initialize` and a session. Rejects with `NoCommonVersionError` when no version is common.
   * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning
   */
  override async connect(transport: Transport): Promise<void> {
    const era = this.clientOptions.era ?? 'legacy';
    if (era === 'legacy') return super.connect(transport);
    await transport.start();
    const http = 'paramHeaders' in transport;
    const link = new ModernLink(transport, {
      clock: this.clientClock,
      defaultTimeout: this.clientOptions.timeout ?? 60_000,
      sendsCancelled: !http,
      onNotification: (method, params) => this.onModernNotification(method, params),
    });
    const actor = createActor(versionNegotiationMachine, { input: { offered: [...MODERN_REVISIONS] } }).start();
    // stdio: a legacy server may never answer an unknown method, so silence means legacy. HTTP
    // always answers (an authorization flow may run first): the ordinary timeout applies.
    const probeTimeout = http ? this.clientOptions.timeout : (this.clientOptions.probeTimeoutMs ?? 5000);
    for (;;) {
      const snap = actor.getSnapshot();
      if (snap.value === 'modern') break;
      if (snap.value === 'failed') {
        link.close(new Error(snap.context.problem ?? 'Version negotiation failed'));
        actor.stop();
        await transport.close().catch(() => {});
        if (snap.context.serverSupported) throw new NoCommonVersionError(snap.context.serverSupported, snap.context.offered);
        throw new Error(snap.context.problem ?? 'Version negotiation failed');
      }
      if (typeof snap.value === 'object' && 'legacy' in snap.value) {
        actor.stop();
        link.detach(new Error('The server speaks a session revision; the probe was abandoned'));
        if (era === 'modern') {
          await transport.close().catch(() => {});
          throw new NoCommonVersionError([], snap.context.offered);
        }
        return super.connect(transport);
      }
      const version = snap.context.version!;
      try {
        const result = await link.request('server/discover', { _meta: this.requestMeta(version) }, probeTimeout === undefined ? undefined : { timeout: probeTimeout });
        this.adoptDiscover(result, version);
        actor.send({ type: 'MODERN_ANSWER' });
      } catch (e) {
        const err = e as { code?: unknown; data?: { supported?: unknown } };
        const supported = err.code === ErrorCode.UnsupportedProtocolVersion && Array.isArray(err.data?.supported) ? (err.data.supported as unknown[]).filter((v): v is string => typeof v === 'string') : undefined;
        // A failed authorization says nothing about the era: it is the answer.
        const authorization = (err.data as { authorization?: unknown } | undefined)?.authorization !== undefined;
        if (supported) actor.send({ type: 'VERSION_UNSUPPORTED', supported });
        else if (authorization) {
          link.close(e as Error);
          actor.stop();
          await transport.close().catch(() => {});
          throw e;
        } else actor.send({ type: 'LEGACY_EVIDENCE', reason: (e as Error).message });
      }
    }
    actor.stop();
    this.modern = link;
    this.modernTransport = transport;
    if (http) (transport as Transport & { paramHeaders?: unknown }).paramHeaders = (tool: string) => this.paramHeaderIndex.get(tool);
    this.refreshListen();
  }

  /**
   * The server's versions, capabilities and identity: `server/discover` in the modern era (a
   * cached answer while its `ttlMs` lasts, unless `fresh`), what `initialize` said in the legacy era.
   * @see https://modelcontextprotocol.io/specification/2026-07-28/server/discover
   */
  async discover(options?: RequestOptions & TraceOptions): Promise<DiscoveredServer> {
    if (this.modern) {
      const result = await this.request('server/discover', {}, options);
      this.adoptDiscover(result, this.modernVersion!);
      return this.discovered!;
    }
    await this.whenOperating();
    const out: DiscoveredServer = { era: 'legacy', supportedVersions: [super.protocolVersion!], capabilities: this.peerCapabilities ?? {}, serverInfo: this.peerInfo };
    if (this.instructions !== undefined) out.instructions = this.instructions;
    return out;
  }

  override whenOperating(): Promise<void> {
    return this.modern ? Promise.resolve() : super.whenOperating();
  }

  /**
   * Send a request. In the modern era it carries the envelope in `_meta` (version, client
   * capabilities and info, log level, trace context), and `input_required` answers to
   * `tools/call`, `prompts/get` and `resources/read` are fulfilled by the client's handlers.
   */
  override request(method: string, params?: JsonObject, options?: RequestOptions & TraceOptions): Promise<JsonObject> {
    const link = this.modern;
    if (!link) return super.request(method, params, options);
    const { trace, fresh, ...requestOptions } = options ?? {};
    const version = this.modernVersion!;
    const cache = ResultCache.cacheable(method) ? (this.resultCache ??= new ResultCache(this.clientClock)) : undefined;
    if (cache && fresh !== true) {
      const kept = cache.get(method, params);
      if (kept) return Promise.resolve(kept);
    }
    const send = (extra: JsonObject) => {
      const own = (params?._meta ?? {}) as JsonObject;
      const meta: JsonObject = { ...own, ...this.requestMeta(version) };
      if (trace) for (const [k, v] of Object.entries(trace)) if (typeof v === 'string') meta[k] = v;
      return link.request(method, { ...params, ...extra, _meta: meta }, requestOptions);
    };
    let rounds = 0;
    const counted = (extra: JsonObject) => {
      rounds++;
      return send(extra);
    };
    const done = MRTR_METHODS.has(method)
      ? runInputRounds(method, counted, this.inputRoundOptions(requestOptions.signal))
      : send({}).then((result) => {
          if (readResultType(method, result) === 'input_required') return runInputRounds(method, async () => result, this.inputRoundOptions(requestOptions.signal));
          return result;
        });
    // Results that took input rounds are never cached.
    return cache ? done.then((result) => (rounds <= 1 && cache.put(method, params, result), result)) : done;
  }

  override async close(): Promise<void> {
    const link = this.modern;
    if (!link) return super.close();
    this.listenAbort?.abort();
    this.listenAbort = undefined;
    link.close(new Error('The client was closed'));
    await this.modernTransport?.close().catch(() => {});
    this.teardown();
  }

  private wantLists(): void {
    if (this.listsWanted) return;
    this.listsWanted = true;
    this.refreshListen();
  }

  /** The notifications to ask `subscriptions/listen` for, or undefined when none is wanted. */
  private listenFilter(): JsonObject | undefined {
    const caps = this.discovered?.capabilities;
    const filter: JsonObject = {};
    if (this.listsWanted) {
      if (hasCapability(caps, ['tools', 'listChanged'])) filter.toolsListChanged = true;
      if (hasCapability(caps, ['prompts', 'listChanged'])) filter.promptsListChanged = true;
      if (hasCapability(caps, ['resources', 'listChanged'])) filter.resourcesListChanged = true;
    }
    const uris = [...this.resourceSubs.keys()];
    if (uris.length > 0) filter.resourceSubscriptions = uris;
    return Object.keys(filter).length > 0 ? filter : undefined;
  }

  /**
   * Keep one `subscriptions/listen` open with what is wanted now: a change replaces it (the old
   * one cancelled); a stream the server ends or that breaks is reopened after a second.
   * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/subscriptions
   */
  private refreshListen(): void {
    if (!this.modern || this.tornDown) return;
    const filter = this.listenFilter();
    const key = JSON.stringify(filter ?? null);
    if (key === this.listenKey) return;
    this.listenKey = key;
    this.listenAbort?.abort();
    this.listenAbort = undefined;
    if (!filter) return;
    const controller = new AbortController();
    this.listenAbort = controller;
    const reopen = () => {
      if (this.listenAbort !== controller || this.tornDown) return;
      this.clientClock.setTimeout(() => {
        if (this.listenAbort !== controller || this.tornDown) return;
        this.listenAbort = undefined;
        this.listenKey = 'null';
        this.refreshListen();
      }, 1000);
    };
    this.request('subscriptions/listen', { notifications: filter }, { signal: controller.signal, timeout: 2 ** 31 - 1 }).then(reopen, (e: unknown) => {
      if (controller.signal.aborted) return;
      this.warn('relist-failed', `subscriptions/listen ended: ${(e as Error)?.message ?? String(e)}; reopening`, e);
      reopen();
    });
  }

  private inputRoundOptions(signal: AbortSignal | undefined) {
    // A client that declares the tasks extension takes a CreateTaskResult (`resultType: "task"`) as the answer.
    const extensions = this.localCapabilities.extensions as Record<string, unknown> | undefined;
    const tasks = extensions !== null && typeof extensions === 'object' && extensions[TASKS_EXTENSION_ID] !== undefined;
    return {
      maxRounds: this.clientOptions.maxInputRounds ?? 8,
      answererFor: (m: string) => this.inputAnswerers.get(m),
      ...(signal !== undefined && { signal }),
      ...(tasks && { extraResultTypes: ['task'] }),
    };
  }

  /** The envelope every modern request carries in `_meta`. */
  private requestMeta(version: string): JsonObject {
    const caps = structuredClone(this.localCapabilities) as JsonObject;
    // 2026-07-28 roots have no list-change notifications.
    if (caps.roots !== undefined) caps.roots = {};
    const meta: JsonObject = { [META.protocolVersion]: version, [META.clientCapabilities]: caps };
    const info = this.clientOptions.info;
    if (info !== undefined) meta[META.clientInfo] = info as unknown as JsonObject;
    if (this.logLevel !== undefined) meta[META.logLevel] = this.logLevel;
    return meta;
  }

  private adoptDiscover(result: JsonObject, version: string): void {
    const meta = (result._meta ?? {}) as JsonObject;
    const info = (meta[META.serverInfo] ?? result.serverInfo) as PeerInfo | undefined;
    const versions = Array.isArray(result.supportedVersions) ? (result.supportedVersions as unknown[]).filter((v): v is string => typeof v === 'string') : [version];
    const out: DiscoveredServer = { era: 'modern', supportedVersions: versions, capabilities: (result.capabilities ?? {}) as Record<string, unknown>, serverInfo: info };
    if (typeof result.instructions === 'string') out.instructions = result.instructions;
    this.discovered = out;
    this.modernVersion = version;
  }

  private onModernNotification(method: string, params: JsonObject | undefined): void {
    this.resultCache?.invalidate(method, params);
    if ((OWN_NOTIFICATIONS as readonly string[]).includes(method)) {
      this.onOwnNotification(method as (typeof OWN_NOTIFICATIONS)[number], params);
      void this.userNotificationHandlers.get(method)?.(params, this);
    }
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

  // ------------------------------------------------------------------------------------ tools

  /**
   * Every tool of the server, all pages. The tools are kept as listed (schemas verbatim) and
   * remembered: `callTool` checks results against their `outputSchema`.
   * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#listing-tools
   */
  async listTools(options?: RequestOptions & TraceOptions): Promise<Listing<Tool, 'tools'>>;
  /** One page, as the official SDK's `listTools({ cursor })`: the page's tools and its `nextCursor`. */
  async listTools(params: ListParams, options?: RequestOptions & TraceOptions): Promise<Listing<Tool, 'tools'>>;
  async listTools(first?: (RequestOptions & TraceOptions) | ListParams, second?: RequestOptions & TraceOptions): Promise<Listing<Tool, 'tools'>> {
    if (isListParams(first)) {
      const page = (await this.request('tools/list', first.cursor === undefined ? undefined : { cursor: first.cursor }, second)) as ListToolsResult & JsonObject;
      for (const tool of page.tools ?? []) this.toolIndex.set(tool.name, tool);
      return listing([...(page.tools ?? [])], 'tools', page.nextCursor);
    }
    const tools = await this.fetchTools(first);
    this.toolsLive.set(tools);
    return listing([...tools], 'tools');
  }

  /**
   * The pages of `tools/list`, one result at a time (cursors followed as opaque tokens).
   * @see https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/pagination
   */
  async *pagesOfTools(options?: RequestOptions): AsyncGenerator<ListToolsResult, void, undefined> {
    for await (const page of pages<ListToolsResult & JsonObject>(this.pageRequester, 'tools/list', options)) {
      for (const tool of page.tools ?? []) this.toolIndex.set(tool.name, tool);
      yield page;
    }
  }

  /**
   * Call a tool. When the tool was listed with an `outputSchema`, a result whose
   * `structuredContent` does not conform rejects with `OutputSchemaError`. A -32042 answer
   * rejects with `UrlElicitationRequiredError`, or, with `onUrlElicitationRequired`, runs the
   * required URL elicitations and calls again once they complete. With `approveToolCall` the
   * user decides first (a refusal rejects with `ToolCallDeniedError`, nothing sent); each call is
   * recorded on `toolCalls$` while it is observed.
   * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#calling-tools
   * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#output-schema
   */
  callTool(name: string, args?: Record<string, unknown>, options?: CallToolOptions): Promise<CallToolResult>;
  /**
   * The official SDK's shape: `callTool({ name, arguments }, resultSchema?, options?)` (a result
   * schema is not needed: results are checked against the tool's `outputSchema`), or
   * `callTool({ name, arguments }, options)`.
   */
  callTool(params: CallToolParams, resultSchemaOrOptions?: unknown, options?: CallToolOptions): Promise<CallToolResult>;
  callTool(first: string | CallToolParams, second?: unknown, third?: CallToolOptions): Promise<CallToolResult> {
    if (typeof first === 'object' && first !== null) {
      return this.callToolNamed(first.name, first.arguments, sdkOptions(second, third) ?? {});
    }
    return this.callToolNamed(first, second as Record<string, unknown> | undefined, third ?? {});
  }

  private callToolNamed(name: string, args: Record<string, unknown> | undefined, options: CallToolOptions): Promise<CallToolResult> {
    const audited = this.toolCallSubject.observed;
    // Not async itself: without approval or audit, the call costs no extra promise.
    if (this.approver === undefined && !audited) return this.sendToolCall(name, args, options);
    return this.callToolWithApproval(name, args, options, audited);
  }

  private async callToolWithApproval(name: string, args: Record<string, unknown> | undefined, options: CallToolOptions, audited: boolean): Promise<CallToolResult> {
    const startedAt = this.clientClock.now();
    try {
      if (this.approver !== undefined) await this.approveToolCall(this.approver, name, args);
      const result = await this.sendToolCall(name, args, options);
      if (audited) this.auditToolCall(name, args, startedAt, result.isError === true ? 'tool-error' : 'success');
      return result;
    } catch (e) {
      if (audited) this.auditToolCall(name, args, startedAt, e instanceof ToolCallDeniedError ? 'denied' : 'failed', e);
      throw e;
    }
  }

  // -------------------------------------------------------------------------------- tasks

  /**
   * Call a tool as a task (2025-11-25) and get a handle: `status$` (polled at the server's
   * `pollInterval`), `result()`, `cancel()`. Rejects with a {@link CapabilityError}-like
   * `McpError` when the server does not run tool calls as tasks.
   * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks#creating-tasks
   */
  async callToolAsTask(name: string, args?: Record<string, unknown>, options: { ttl?: number; signal?: AbortSignal } & RequestOptions = {}): Promise<TaskHandle<CallToolResult & JsonObject>> {
    const { ttl, ...requestOptions } = options;
    return this.toolTasks.callAsTask(name, args, ttl, requestOptions);
  }

  /**
   * A handle on a task created earlier (after a reconnect, or by another process of the same
   * user): the server answers only the identity that created it.
   */
  task(taskId: string, options: TaskHandleOptions = {}): TaskHandle<CallToolResult & JsonObject> {
    return this.toolTasks.resume(taskId, options);
  }

  /** `tasks/get`. */
  async getTask(taskId: string, options?: RequestOptions): Promise<Task> {
    return (await this.request('tasks/get', { taskId }, options)) as unknown as Task;
  }

  /** Every task of this requestor the server lists (`tasks/list`, all pages). */
  async listTasks(options?: RequestOptions): Promise<Task[]> {
    return listAll<Task>(this.pageRequester, 'tasks/list', 'tasks', options);
  }

  // -------------------------------------------------------------------------------- resources

  /**
   * Every resource of the server, all pages.
   * @see https://modelcontextprotocol.io/specification/2025-11-25/server/resources#listing-resources
   */
  async listResources(options?: RequestOptions & TraceOptions): Promise<Listing<Resource, 'resources'>>;
  /** One page, as the official SDK's `listResources({ cursor })`. */
  async listResources(params: ListParams, options?: RequestOptions & TraceOptions): Promise<Listing<Resource, 'resources'>>;
  async listResources(first?: (RequestOptions & TraceOptions) | ListParams, second?: RequestOptions & TraceOptions): Promise<Listing<Resource, 'resources'>> {
    if (isListParams(first)) return this.onePage<Resource, 'resources'>('resources/list', 'resources', first, second);
    const list = await listAll<Resource>(this.pageRequester, 'resources/list', 'resources', first);
    this.resourcesLive.set(list);
    return listing([...list], 'resources');
  }

  /** The pages of `resources/list`. @see https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/pagination */
  pagesOfResources(options?: RequestOptions): AsyncGenerator<ListResourcesResult & JsonObject, void, undefined> {
    return pages<ListResourcesResult & JsonObject>(this.pageRequester, 'resources/list', options);
  }

  /**
   * Every resource template of the server, all pages.
   * @see https://modelcontextprotocol.io/specification/2025-11-25/server/resources#resource-templates
   */
  async listResourceTemplates(options?: RequestOptions): Promise<Listing<ResourceTemplate, 'resourceTemplates'>>;
  /** One page, as the official SDK's `listResourceTemplates({ cursor })`. */
  async listResourceTemplates(params: ListParams, options?: RequestOptions): Promise<Listing<ResourceTemplate, 'resourceTemplates'>>;
  async listResourceTemplates(first?: RequestOptions | ListParams, second?: RequestOptions): Promise<Listing<ResourceTemplate, 'resourceTemplates'>> {
    if (isListParams(first)) return this.onePage<ResourceTemplate, 'resourceTemplates'>('resources/templates/list', 'resourceTemplates', first, second);
    return listing(await listAll<ResourceTemplate>(this.pageRequester, 'resources/templates/list', 'resourceTemplates', first), 'resourceTemplates');
  }

  /** The pages of `resources/templates/list`. @see https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/pagination */
  pagesOfResourceTemplates(options?: RequestOptions): AsyncGenerator<ListResourceTemplatesResult & JsonObject, void, undefined> {
    return pages<ListResourceTemplatesResult & JsonObject>(this.pageRequester, 'resources/templates/list', options);
  }

  /**
   * Read a resource.
   * @see https://modelcontextprotocol.io/specification/2025-11-25/server/resources#reading-resources
   */
  async readResource(uri: string, options?: RequestOptions & TraceOptions): Promise<ReadResourceResult>;
  /** The official SDK's shape: `readResource({ uri })`. */
  async readResource(params: { uri: string }, options?: RequestOptions & TraceOptions): Promise<ReadResourceResult>;
  async readResource(uri: string | { uri: string }, options?: RequestOptions & TraceOptions): Promise<ReadResourceResult> {
    return (await this.request('resources/read', { uri: typeof uri === 'string' ? uri : uri.uri }, options)) as ReadResourceResult;
  }

  /**
   * Updates of one resource. The first observer sends `resources/subscribe`; the last one to
   * unsubscribe sends `resources/unsubscribe`. A failed subscribe errors the observable.
   * @see https://modelcontextprotocol.io/specification/2025-11-25/server/resources#subscriptions
   */
  subscribe(uri: string, options?: RequestOptions): Observable<ResourceUpdatedNotificationParams> {
    return new Observable<ResourceUpdatedNotificationParams>((subscriber) => {
      let entry = this.resourceSubs.get(uri);
      if (!entry) {
        const fresh: ResourceSubscription = { subject: new Subject(), count: 0, ready: Promise.resolve() };
        this.resourceSubs.set(uri, fresh);
        // Modern era: the URI joins the listen stream's resourceSubscriptions.
        fresh.ready = this.modern ? Promise.resolve(this.refreshListen()) : this.request('resources/subscribe', { uri }, options).then(() => undefined);
        fresh.ready.catch((e: unknown) => {
          if (this.resourceSubs.get(uri) === fresh) this.resourceSubs.delete(uri);
          fresh.subject.error(e);
        });
        entry = fresh;
      }
      const e = entry;
      e.count++;
      const inner = e.subject.subscribe(subscriber);
      return () => {
        inner.unsubscribe();
        if (--e.count > 0 || this.resourceSubs.get(uri) !== e) return;
        this.resourceSubs.delete(uri);
        if (this.modern) return this.refreshListen();
        if (this.currentPhase !== 'operating') return;
        e.ready.then(
          () =>
            this.request('resources/unsubscribe', { uri }).then(
              () => undefined,
              (err: unknown) => this.warn('unsubscribe-failed', `resources/unsubscribe for ${uri} failed: ${(err as Error)?.message}`, err),
            ),
          () => undefined,
        );
      };
    });
  }

  // ---------------------------------------------------------------------------------- prompts

  /**
   * Every prompt of the server, all pages.
   * @see https://modelcontextprotocol.io/specification/2025-11-25/server/prompts#listing-prompts
   */
  async listPrompts(options?: RequestOptions & TraceOptions): Promise<Listing<Prompt, 'prompts'>>;
  /** One page, as the official SDK's `listPrompts({ cursor })`. */
  async listPrompts(params: ListParams, options?: RequestOptions & TraceOptions): Promise<Listing<Prompt, 'prompts'>>;
  async listPrompts(first?: (RequestOptions & TraceOptions) | ListParams, second?: RequestOptions & TraceOptions): Promise<Listing<Prompt, 'prompts'>> {
    if (isListParams(first)) return this.onePage<Prompt, 'prompts'>('prompts/list', 'prompts', first, second);
    const list = await listAll<Prompt>(this.pageRequester, 'prompts/list', 'prompts', first);
    this.promptsLive.set(list);
    return listing([...list], 'prompts');
  }

  /** The pages of `prompts/list`. @see https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/pagination */
  pagesOfPrompts(options?: RequestOptions): AsyncGenerator<ListPromptsResult & JsonObject, void, undefined> {
    return pages<ListPromptsResult & JsonObject>(this.pageRequester, 'prompts/list', options);
  }

  /**
   * Get a prompt with its arguments filled in.
   * @see https://modelcontextprotocol.io/specification/2025-11-25/server/prompts#getting-a-prompt
   */
  async getPrompt(name: string, args?: Record<string, string>, options?: RequestOptions & TraceOptions): Promise<GetPromptResult>;
  /** The official SDK's shape: `getPrompt({ name, arguments })`. */
  async getPrompt(params: { name: string; arguments?: Record<string, string> | undefined }, options?: RequestOptions & TraceOptions): Promise<GetPromptResult>;
  async getPrompt(
    first: string | { name: string; arguments?: Record<string, string> | undefined },
    second?: Record<string, string> | (RequestOptions & TraceOptions),
    third?: RequestOptions & TraceOptions,
  ): Promise<GetPromptResult> {
    const [name, args, options] =
      typeof first === 'string' ? [first, second as Record<string, string> | undefined, third] : [first.name, first.arguments, second as (RequestOptions & TraceOptions) | undefined];
    const params: JsonObject = args === undefined ? { name } : { name, arguments: args };
    return (await this.request('prompts/get', params, options)) as GetPromptResult;
  }

  // ------------------------------------------------------------------------------- completion

  /**
   * Ask for completions of a prompt or resource-template argument. `context` (arguments already
   * chosen) is sent only in revisions that have it.
   * @see https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/completion#requesting-completions
   */
  async complete(
    ref: PromptReference | ResourceTemplateReference,
    argument: { name: string; value: string },
    context?: CompleteRequestParams['context'],
    options?: RequestOptions,
  ): Promise<CompleteResult> {
    const params: JsonObject = { ref, argument };
    const rev = this.negotiatedRevision;
    if (context !== undefined && (rev === undefined || allows(rev, 'completionContext'))) params.context = context;
    return (await this.request('completion/complete', params, options)) as CompleteResult;
  }

  /**
   * A debounced, cached completer of one argument, for a text field: `suggest(value)` asks only
   * for the last value of a burst of keystrokes, answers repeated values from its cache, and
   * turns missing or malformed results (or a server without `completions`) into an empty list.
   * @see https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/completion#implementation-considerations
   */
  completer(ref: PromptReference | ResourceTemplateReference, argument: string, options?: CompleterOptions): Completer {
    return new Completer(
      {
        clock: this.clientClock,
        supported: () => hasCapability(this.serverCapabilities, ['completions']),
        complete: (r, a, context) => this.complete(r, a, context),
      },
      ref,
      argument,
      options,
    );
  }

  // ---------------------------------------------------------------------------------- logging

  /**
   * Ask the server to send log messages at `level` and above.
   * @see https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/logging#setting-log-level
   */
  async setLoggingLevel(level: LoggingLevel, options?: RequestOptions): Promise<void> {
    if (!(LOGGING_LEVELS as readonly string[]).includes(level)) {
      throw new TypeError(`Unknown log level ${JSON.stringify(level)}; one of ${LOGGING_LEVELS.join(', ')}`);
    }
    // 2026-07-28 has no setLevel: every request names the level it wants.
    this.logLevel = level;
    if (this.modern) return;
    await this.request('logging/setLevel', { level }, options);
  }

  // ------------------------------------------------------------------------- client features

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
    this.rootVerifier = options.verify === true ? rootIsAccessible : options.verify || undefined;
    if (!isObservable(roots)) {
      const problem = checkRoots(roots);
      if (problem) throw new TypeError(`Invalid roots: ${problem}`);
    }
    if (!this.rootsDeclared) {
      this.declareCapabilities({ roots: { listChanged: true } });
      this.rootsDeclared = true;
      super.onRequest('roots/list', () => this.answerRoots());
      this.inputAnswerers.set('roots/list', () => this.answerRoots());
    }
    this.rootsSubscription?.unsubscribe();
    this.rootsSubscription = undefined;
    if (isObservable(roots)) {
      this.rootsSubscription = roots.subscribe({
        next: (list) => {
          const problem = checkRoots(list);
          if (problem) this.warn('invalid-roots', `Ignored an invalid roots list: ${problem}`, list);
          else this.updateRoots(list);
        },
      });
    } else {
      this.updateRoots(roots);
    }
    return this;
  }

  /** The roots currently exposed. */
  get roots(): readonly Root[] {
    return this.currentRoots;
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
      return this.serveSampling(handler, params, ctx, options);
    };
    super.onRequest('sampling/createMessage', serve);
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
    super.onRequest('elicitation/create', serve);
    this.inputAnswerers.set('elicitation/create', async (m, params, key, signal) => serve(params, this.inputContext(m, key, signal)));
    return this;
  }

  // -------------------------------------------------------------------------------- internals

  private get negotiatedRevision(): Revision | undefined {
    const v = this.protocolVersion;
    return v !== undefined && isSupportedRevision(v) ? v : undefined;
  }

  private async onePage<T, K extends string>(method: string, key: K, params: ListParams, options?: RequestOptions): Promise<Listing<T, K>> {
    const page = await this.request(method, params.cursor === undefined ? undefined : { cursor: params.cursor }, options);
    const items = page[key];
    return listing(Array.isArray(items) ? [...(items as T[])] : [], key, typeof page.nextCursor === 'string' ? page.nextCursor : undefined);
  }

  private readonly pageRequester = (method: string, params: JsonObject | undefined, options?: RequestOptions) => this.request(method, params, options);

  private async fetchTools(options?: RequestOptions & TraceOptions): Promise<Tool[]> {
    let tools = await listAll<Tool>(this.pageRequester, 'tools/list', 'tools', options);
    this.toolIndex.clear();
    this.paramHeaderIndex.clear();
    if (this.modern) {
      // A tool with an invalid x-mcp-header annotation is left out: it cannot be called correctly.
      tools = tools.filter((tool) => {
        const headers = paramHeadersOf(tool.inputSchema);
        if ('invalid' in headers) {
          this.warn('invalid-tool', `Left out tool ${JSON.stringify(tool.name)}: ${headers.invalid}`, tool);
          return false;
        }
        if (headers.specs.length > 0) this.paramHeaderIndex.set(tool.name, headers.specs);
        return true;
      });
    }
    for (const tool of tools) this.toolIndex.set(tool.name, tool);
    return tools;
  }

  private async sendToolCall(name: string, args: Record<string, unknown> | undefined, options: CallToolOptions): Promise<CallToolResult> {
    const { onUrlElicitationRequired, validateOutput = true, maxElicitationRounds = 3, task, ...requestOptions } = options;
    const params: JsonObject = args === undefined ? { name } : { name, arguments: args };
    const tracked = this.toolTasks.prepare(name, task, params, requestOptions.onprogress);
    for (let round = 0; ; round++) {
      let result: JsonObject;
      try {
        result = await this.request('tools/call', params, requestOptions);
        // A task instead of the result: follow it to the end, transparently.
        const taskHandle = this.toolTasks.created(result, requestOptions.signal, tracked);
        if (taskHandle) result = await taskHandle.result();
      } catch (e) {
        const required = asUrlElicitationRequired(e);
        if (!required) throw e;
        if (!onUrlElicitationRequired || round >= maxElicitationRounds) throw required;
        await this.elicitation.runRequired(required.elicitations, onUrlElicitationRequired, requestOptions.signal);
        continue;
      }
      if (validateOutput) this.checkOutput(name, result);
      return result as CallToolResult;
    }
  }

  protected override progressBeyondRequest(token: ProgressToken, progress: Progress): boolean {
    return this.toolTasks.deliverProgress(token, progress);
  }

  /** Ask the approver; anything but an explicit approval (or a throw) refuses the call. */
  private async approveToolCall(approver: ToolCallApprover, name: string, args: Record<string, unknown> | undefined): Promise<void> {
    const definition = this.toolIndex.get(name);
    const decision = readDecision(
      await approver({
        server: this.serverInfo,
        tool: name,
        arguments: args,
        definition,
        annotations: definition?.annotations,
        annotationsTrusted: this.trustedServer,
      }),
    );
    if (!decision.approved) throw new ToolCallDeniedError(name, decision.reason);
  }

  private auditToolCall(name: string, args: Record<string, unknown> | undefined, startedAt: number, outcome: ToolCallOutcome, error?: unknown): void {
    const endedAt = this.clientClock.now();
    const record: ToolCallRecord = {
      server: this.serverInfo,
      tool: name,
      arguments: this.redactArguments ? this.redactArguments(args ?? {}) : (args ?? {}),
      startedAt,
      endedAt,
      durationMs: endedAt - startedAt,
      outcome,
    };
    if (error !== undefined) record.error = auditError(error);
    this.toolCallSubject.next(record);
  }

  private checkOutput(name: string, result: JsonObject): void {
    const tool = this.toolIndex.get(name);
    const rev = this.negotiatedRevision;
    if (!tool?.outputSchema || (rev !== undefined && !allows(rev, 'outputSchema'))) return;
    if (!this.outputValidators.check(name, tool.outputSchema, result, rev)) {
      this.warn('unknown-schema-dialect', `Tool "${name}" has an outputSchema in an unknown dialect (${String(tool.outputSchema.$schema)}); its result was not checked`);
    }
  }

  private async serveSampling(handler: SamplingHandler, params: JsonObject | undefined, ctx: RequestHandlerContext, options: SamplingOptions): Promise<JsonObject> {
    const rev = this.negotiatedRevision;
    const toolsDeclared = hasCapability(this.localCapabilities, ['sampling', 'tools']) && (rev === undefined || allows(rev, 'samplingTools'));
    const problem = checkSamplingRequest(params, toolsDeclared);
    if (problem) throw new McpError(ErrorCode.InvalidParams, `Invalid sampling request: ${problem}`);
    const typed = params as unknown as CreateMessageRequestParams;
    if (options.maxToolRounds !== undefined) {
      const rounds = toolRounds(typed.messages);
      if (rounds > options.maxToolRounds) {
        throw new McpError(ErrorCode.InvalidParams, `The conversation has ${rounds} tool rounds, more than this client allows (${options.maxToolRounds}); end the tool loop.`);
      }
    }
    if (options.approve && (await options.approve(typed, this.serverInfo)) !== true) throw new SamplingRejectedError();
    const result = await handler(typed, ctx);
    const bad = checkSamplingResult(result, typed);
    if (bad) throw new InvalidSamplingResultError(bad);
    return result as unknown as JsonObject;
  }

  private async answerRoots(): Promise<JsonObject> {
    const roots = this.currentRoots.map((r) => ({ ...r }));
    const verify = this.rootVerifier;
    if (!verify) return { roots };
    const ok = await Promise.all(roots.map((r) => verify(r)));
    for (let i = 0; i < roots.length; i++) {
      if (ok[i] !== true) this.warn('inaccessible-root', `Left out root ${roots[i]!.uri}: it is not accessible`, roots[i]);
    }
    return { roots: roots.filter((_r, i) => ok[i] === true) };
  }

  private updateRoots(list: readonly Root[]): void {
    const previous = this.currentRoots;
    this.currentRoots = list.map((r) => ({ ...r }));
    if (this.currentPhase === 'operating' && !sameRoots(previous, this.currentRoots)) {
      this.notify('notifications/roots/list_changed');
    }
  }

  private onOwnNotification(method: (typeof OWN_NOTIFICATIONS)[number], params: JsonObject | undefined): void {
    switch (method) {
      case 'notifications/tools/list_changed':
        this.toolsLive.changed();
        return;
      case 'notifications/resources/list_changed':
        this.resourcesLive.changed();
        return;
      case 'notifications/prompts/list_changed':
        this.promptsLive.changed();
        return;
      case 'notifications/resources/updated': {
        const uri = params?.uri;
        if (typeof uri === 'string') this.resourceSubs.get(uri)?.subject.next(params as unknown as ResourceUpdatedNotificationParams);
        return;
      }
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

  private warn(kind: ClientWarning['kind'], message: string, detail?: unknown): void {
    if (this.warningSubject.observed) this.warningSubject.next(detail === undefined ? { kind, message } : { kind, message, detail });
  }

  private teardown(): void {
    if (this.tornDown) return;
    this.tornDown = true;
    this.listenAbort?.abort();
    this.rootsSubscription?.unsubscribe();
    this.toolsLive.close();
    this.resourcesLive.close();
    this.promptsLive.close();
    this.elicitation.close();
    for (const entry of this.resourceSubs.values()) entry.subject.complete();
    this.resourceSubs.clear();
    this.logSubject.complete();
    this.warningSubject.complete();
    this.toolCallSubject.complete();
  }
}

/**
 * Create a {@link Client}: `connect(transport)` initializes (negotiating the newest revision both
 * sides support) and resolves once operating; then `listTools()`, `callTool()`,
 * `readResource()`, `getPrompt()`... Client features (sampling, elicitation, roots) are declared
 * as their handlers are registered. `createClient({ name, version })` works too.
 *
 * ```ts
 * const client = createClient({ info: { name: 'my-agent', version: '1.0.0' } });
 * await client.connect(createStdioClientTransport({ command: 'node', args: ['server.js'] }));
 * ```
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client
 */
export function createClient(options: ClientOptions): Client;
export function createClient(info: PeerInfo, options?: Omit<ClientOptions, 'info'>): Client;
export function createClient(first: ClientOptions | PeerInfo, rest?: Omit<ClientOptions, 'info'>): Client {
  return new Client(clientOptions(first, rest));
}

/** Our options carry `info`; the SDK's first argument is the info itself. */
function clientOptions(first: ClientOptions | PeerInfo, rest: Omit<ClientOptions, 'info'> | undefined): ClientOptions {
  const info = (first as { info?: unknown }).info;
  return typeof info === 'object' && info !== null ? (first as ClientOptions) : { ...rest, info: first as PeerInfo };
}

export * from './session/session.js';
export * from './client-features/index.js';
