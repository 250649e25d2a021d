/**
 * The high-level server API: register tools and prompts, and the server answers `tools/*`,
 * `prompts/*`, `completion/complete` and `logging/setLevel` for every session, declares the
 * capabilities that what is registered needs, and tells clients when a list changes.
 *
 * Registries are immutable state (immer) exposed as observables; a change to a registry *is*
 * the `list_changed` notification: it is derived from the registry's state stream, debounced,
 * and sent to every operating session that was told `listChanged: true`.
 *
 * ```ts
 * const mcp = createMcpServer({ info: { name: 'demo', version: '1.0.0' } });
 * mcp.registerTool('add', { inputSchema: z.object({ a: z.number(), b: z.number() }) }, ({ a, b }) => String(a + b));
 * await mcp.connect(createStdioServerTransport());
 * ```
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server
 */
import type { Interceptor } from './server-features/interceptors/server-chain.js';
import { guarded } from '../streams/guarded.js';
import type { Observable } from 'rxjs';
import type { Transport } from '../streams/transport.js';
import { systemClock, type Clock } from './clock.js';
import { Server, type ServerOptions, type ServerSession } from './server.js';
import type { RequestHandler } from './session/session.js';
import type { RequestRecord } from './session/server-request.js';
import type { Journal } from './journal/journal.js';
import type { JournalEntry } from './journal/entry.js';
import { CompletionFeature, type ResourceCompletionSource } from './server-features/completion.js';
import { ServerDiagnostics, type ServerDiagnostic } from './server-features/diagnostics.js';
import type { FeatureHost } from './server-features/feature-host.js';
import type { ListKind } from './server-features/list-changed.js';
import { LoggingFeature, type Logger, type LoggingLevel, type LoggingOptions, type LoggingState } from './server-features/logging.js';
import { checkPageSize } from './server-features/pagination.js';
import { RateLimiter, type RateLimits } from './server-features/rate-limit.js';
import { PromptsFeature, type PromptConfig, type PromptHandle, type PromptHandler, type RegisteredPrompt } from './server-features/prompts.js';
import type { RegistryState } from './server-features/registry.js';
import {
  ResourcesFeature,
  type ReadResourceCallback,
  type ReadTemplateCallback,
  type RegisteredResource,
  type RegisteredResourceTemplate,
  type ResourceMetadata,
  type ResourcesState,
  type ResourceTemplateMetadata,
} from './server-features/resources.js';
import type { SchemaInput } from './server-features/json-schema.js';
import { PAGINATED_METHODS, bindCursorsToSession, type CursorScope } from './server-features/session-cursors.js';
import { ResourceTemplate } from './server-features/resource-template.js';
import type { PeerInfo } from '../machines/session.machine.js';
import { ToolsFeature, type RegisteredTool, type ToolConfig, type ToolHandle, type ToolHandler } from './server-features/tools.js';
import { ServerTasks, type ServerTaskOptions } from './tasks/server-tasks.js';
import { APP_MIME_TYPE, checkAppResource, type AppResourceConfig } from './server-features/apps.js';
import { SKILLS_EXTENSION, SkillsFeature, type RegisteredSkill, type SkillSource } from './server-features/skills.js';

/** The default quiet time before a list_changed notification goes out. */
export const DEFAULT_LIST_CHANGED_DEBOUNCE_MS = 10;

export interface McpServerOptions extends ServerOptions {
  /**
   * Items per page of `tools/list`, `prompts/list` (and the resources lists). Default 100;
   * `Infinity` for a single page.
   */
  pageSize?: number;
  /** Quiet time in ms before a list_changed notification goes out. Default 10. */
  listChangedDebounceMs?: number;
  /** The log level of a session whose client has not sent `logging/setLevel`. Default `debug` (everything). */
  logLevel?: LoggingLevel;
  /**
   * Per-session rate limits for tool calls, completions and log messages (each off unless
   * given), e.g. `{ toolCalls: { limit: 20, windowMs: 1000 } }`.
   */
  rateLimits?: RateLimits;
  /**
   * Applied to the data of every log message before it is sent. Default: values of keys that
   * name secrets (password, token, api key, authorization, …) become "[REDACTED]". Add rules for
   * personal data your server handles; `false` turns redaction off.
   */
  redactLog?: ((data: unknown) => unknown) | false;
  /**
   * Which sessions receive log messages (all by default): on a server shared by several users,
   * keep the server's logs to those entitled to them (see {@link LoggingOptions.canReceive}).
   */
  logAccess?: LoggingOptions['canReceive'];
  /**
   * Apply a level a client asks for (`logging/setLevel`, or a 2026-07-28 request's
   * `io.modelcontextprotocol/logLevel`, before that request runs) to your own logging; when it
   * throws the client gets -32603: the session's level stays as it was, a 2026-07-28 request is
   * not served (see {@link LoggingOptions.onSetLevel}).
   */
  onLogLevel?: LoggingOptions['onSetLevel'];
  /** The largest log data sent, in JSON characters; larger data is cut. Default 64 KiB. */
  maxLogDataChars?: number;
  /**
   * Where list cursors are valid. `'session'`: only in the session that received them; a
   * cursor kept across sessions is answered -32602 (see `server-features/session-cursors.ts`).
   * Default `'server'`, which a stateless HTTP server needs (each POST is its own session).
   * @see https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/pagination#implementation-guidelines
   */
  cursorScope?: CursorScope;
  /**
   * Tasks (2025-11-25, experimental there): the store (default: the `store` option's tasks, else
   * one in memory), the rate limit of task operations and
   * whether `tasks/list` is offered. Tasks turn on with the first tool registered with
   * `execution: { taskSupport: 'optional' | 'required' }`.
   * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks
   */
  tasks?: ServerTaskOptions;
}

/** A Server whose list methods seal their cursors for the session (`cursorScope: 'session'`). */
class SessionCursorServer extends Server {
  override onRequest(method: string, handler: RequestHandler): this {
    return super.onRequest(method, PAGINATED_METHODS.has(method) ? bindCursorsToSession(handler) : handler);
  }
}

/**
 * An MCP server with registries. Capabilities follow what is registered: the first tool
 * declares `tools: { listChanged: true }`, the first prompt `prompts`, the first resource or
 * template `resources`, a prompt argument or template variable with a completion callback
 * `completions`; `logging` is always declared. A capability is fixed for a
 * session once it initializes: **registering the first tool (or prompt) after a session has
 * initialized does not give that session the `tools` (or `prompts`) capability**; only sessions
 * that initialize afterwards get it. Register before connecting, or declare the capability up
 * front in `options.capabilities` (then later registrations reach every session through
 * list_changed).
 */
export class McpServer {
  /** The underlying server (sessions, raw handlers). */
  readonly server: Server;
  readonly tools: ToolsFeature;
  readonly prompts: PromptsFeature;
  readonly completion: CompletionFeature;
  readonly logging: LoggingFeature;
  readonly resources: ResourcesFeature;
  /** Tasks: the store and the running tasks (see {@link McpServerOptions.tasks}). */
  readonly tasks: ServerTasks;
  private readonly host: FeatureHost;
  private readonly advice = new ServerDiagnostics();

  /** The options the server was created with (`info` included). */
  readonly options: McpServerOptions;

  /**
   * @param options `info` (the server's name and version, sent in `initialize`) and the rest.
   * Or, as the official SDK's `new McpServer({ name, version }, { capabilities, instructions })`:
   * the info first, the other options second.
   */
  constructor(options: McpServerOptions);
  constructor(info: PeerInfo, options?: Omit<McpServerOptions, 'info'>);
  constructor(first: McpServerOptions | PeerInfo, rest?: Omit<McpServerOptions, 'info'>) {
    const options: McpServerOptions = isServerOptions(first) ? first : { ...rest, info: first };
    this.options = options;
    const clock: Clock = options.clock ?? systemClock;
    const declared: Record<string, unknown> = { ...options.capabilities };
    // Lists declared up front get change notifications unless the options say `listChanged: false`.
    for (const kind of ['tools', 'prompts'] as const) {
      const c = declared[kind];
      if (c && typeof c === 'object' && (c as { listChanged?: unknown }).listChanged === undefined) declared[kind] = { ...c, listChanged: true };
    }
    // Every McpServer can log (handlers get a logger), so it says so.
    const scope = options.cursorScope ?? 'server';
    if (scope !== 'server' && scope !== 'session') throw new TypeError(`cursorScope must be "session" or "server"; got ${JSON.stringify(scope)}`);
    const serverOptions = { ...options, capabilities: { logging: {}, ...declared } };
    this.server = scope === 'session' ? new SessionCursorServer(serverOptions) : new Server(serverOptions);
    const server = this.server;
    const debounce = options.listChangedDebounceMs ?? DEFAULT_LIST_CHANGED_DEBOUNCE_MS;
    if (!(debounce >= 0)) throw new TypeError(`listChangedDebounceMs must be 0 or more; got ${debounce}`);
    const limits = options.rateLimits ?? {};
    const limiter = (l: RateLimits[keyof RateLimits]) => (l ? new RateLimiter(clock, l) : undefined);
    const logLimiter = limiter(limits.logMessages);
    this.logging = new LoggingFeature(server, {
      defaultLevel: options.logLevel ?? 'debug',
      ...(logLimiter && { limiter: logLimiter }),
      ...(options.redactLog !== undefined && { redact: options.redactLog }),
      ...(options.logAccess && { canReceive: options.logAccess }),
      ...(options.onLogLevel && { onSetLevel: options.onLogLevel }),
      ...(options.maxLogDataChars !== undefined && { maxDataChars: options.maxLogDataChars }),
    });
    const toolCalls = limiter(limits.toolCalls);
    const completions = limiter(limits.completions);
    const taskStore = options.tasks?.store ?? options.store?.tasks;
    const taskOptions = taskStore === undefined ? options.tasks : { ...options.tasks, store: taskStore };
    this.tasks = new ServerTasks(server, clock, this.logging, (c) => this.host.declareCapabilities(c), taskOptions);
    this.host = {
      server,
      clock,
      tasks: this.tasks,
      pageSize: checkPageSize(options.pageSize),
      listChangedDebounceMs: debounce,
      logging: this.logging,
      diagnostics: this.advice,
      rateLimits: { ...(toolCalls && { toolCalls }), ...(completions && { completions }) },
      declareCapabilities: (capabilities) => {
        server.declareCapabilities(capabilities);
        // Connected sessions still waiting for `initialize` can still be told.
        for (const session of server.sessions) {
          const phase = session.currentPhase;
          if (phase === 'connecting' || phase === 'awaitingInitialize') {
            try {
              session.declareCapabilities(capabilities);
            } catch {
              // It initialized meanwhile: too late for it.
            }
          }
        }
      },
      listChanged: (kind: ListKind) => {
        const flag = (declared[kind] as { listChanged?: unknown } | undefined)?.listChanged;
        return flag === undefined ? true : flag === true;
      },
    };
    this.tools = new ToolsFeature(this.host);
    server.paramHeaders = (name) => this.tools.paramHeaders(name);
    // Prompts call back only on registration, after the constructor: `completion` exists by then.
    this.prompts = new PromptsFeature(this.host, () => this.completion.declare());
    this.completion = new CompletionFeature(this.host, this.prompts);
    const resourceCaps = (declared.resources ?? {}) as { listChanged?: unknown; subscribe?: unknown };
    this.resources = new ResourcesFeature().install(server, {
      pageSize: this.host.pageSize === Infinity ? Number.MAX_SAFE_INTEGER : this.host.pageSize,
      listChangedDebounceMs: debounce,
      clock,
      listChanged: resourceCaps.listChanged !== false,
      subscribe: resourceCaps.subscribe !== false,
    });
    this.completion.resources = this.resources;
    // Templates with completable variables make `completions` worth declaring.
    this.resources.state$.subscribe(() => {
      if (this.resources.hasCompletions) this.completion.declare();
    });
  }

  /**
   * Register a tool. Its arguments are validated against `inputSchema` before `handler` runs;
   * with an `outputSchema`, its `structuredContent` is checked too. Returns a handle to update,
   * disable, enable or remove it; each of those is a list change that connected clients hear
   * about (`notifications/tools/list_changed`, debounced).
   * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools
   */
  registerTool<I extends SchemaInput | undefined = undefined, O extends SchemaInput | undefined = undefined>(
    name: string,
    config: ToolConfig<I, O>,
    handler: ToolHandler<I, O>,
  ): ToolHandle {
    return this.tools.register(name, config, handler);
  }

  /**
   * Register a prompt. Required arguments are checked (-32602 naming the missing ones) before
   * `handler` runs. Returns a handle like {@link registerTool}'s.
   * @see https://modelcontextprotocol.io/specification/2025-11-25/server/prompts
   */
  registerPrompt<A extends SchemaInput | undefined = undefined>(name: string, config: PromptConfig<A>, handler: PromptHandler<A>): PromptHandle {
    return this.prompts.register(name, config, handler);
  }

  /**
   * Register a resource at a fixed URI (see {@link ResourcesFeature.registerResource}). The
   * first resource declares `resources` (with `subscribe` and `listChanged`), under the same
   * rule as tools: sessions already initialized keep the capabilities they were told.
   * @see https://modelcontextprotocol.io/specification/2025-11-25/server/resources
   */
  registerResource(name: string, uri: string, metadata: ResourceMetadata, read: ReadResourceCallback): RegisteredResource;
  /**
   * As the official SDK: a {@link ResourceTemplate} in place of the URI registers a template
   * (same as {@link registerResourceTemplate}).
   */
  registerResource(name: string, template: ResourceTemplate, metadata: ResourceMetadata, read: ReadTemplateCallback): RegisteredResourceTemplate;
  registerResource(
    name: string,
    uri: string | ResourceTemplate,
    metadata: ResourceMetadata,
    read: ReadResourceCallback | ReadTemplateCallback,
  ): RegisteredResource | RegisteredResourceTemplate {
    if (uri instanceof ResourceTemplate) {
      const { size: _size, ...described } = metadata;
      const list = uri.list;
      const complete = uri.callbacks.complete;
      return this.resources.registerResourceTemplate(
        name,
        uri.uriTemplate,
        { ...described, ...(list && { list }), ...(complete && { complete }) },
        read as ReadTemplateCallback,
      );
    }
    return this.resources.registerResource(name, uri, metadata, read as ReadResourceCallback);
  }

  /**
   * Publish an MCP App: a `ui://` resource of type `text/html;profile=mcp-app` whose listing and
   * contents carry `_meta.ui` (the origins its view may reach, `csp`; the browser `permissions`
   * it asks for; `domain`, `prefersBorder`). Link tools to it with `ui: { resourceUri }` in their
   * config. The HTML must be a complete HTML5 document; a URI outside `ui://` or a fragment throws
   * `AppRegistrationError`.
   * @see https://modelcontextprotocol.io/extensions/apps
   */
  registerAppResource(uri: string, config: AppResourceConfig): RegisteredResource {
    const { meta } = checkAppResource(uri, config);
    const metadata: ResourceMetadata = { mimeType: APP_MIME_TYPE, _meta: meta as unknown as ResourceMetadata['_meta'] };
    if (config.title !== undefined) metadata.title = config.title;
    if (config.description !== undefined) metadata.description = config.description;
    const html = config.html;
    return this.resources.registerResource(config.name ?? uri.slice('ui://'.length), uri, metadata, async () => ({
      contents: [{ mimeType: APP_MIME_TYPE, text: typeof html === 'string' ? html : await html(), _meta: meta as never }],
    }));
  }

  /**
   * Publish an agent skill (the `io.modelcontextprotocol/skills` extension): its files become
   * `skill://` resources, and the server answers `skills/list`, `skills/get` and
   * `resources/directory/read`, declaring the extension (and `resources`) from the first skill on.
   * Give the files in memory, or read a directory with `readSkillDirectory(path)` (Node, Bun,
   * Deno). Everything is checked here: SKILL.md and its frontmatter (`name` by the naming rules,
   * `description`), paths inside the skill, at most 512 files and 16 MiB; a problem throws
   * `SkillRegistrationError` naming the file, and nothing of the skill is served.
   * @see https://modelcontextprotocol.io/extensions/skills
   */
  registerSkill(source: SkillSource): RegisteredSkill {
    this.skills ??= new SkillsFeature(
      {
        declareExtension: (settings) => this.host.declareCapabilities({ extensions: { [SKILLS_EXTENSION]: settings } }),
        onRequest: (method, handler) => this.server.onRequest(method, (params) => handler(params)),
        registerResource: (name, uri, metadata, read) => this.resources.registerResource(name, uri, metadata, () => read()),
      },
      { pageSize: this.host.pageSize === Infinity ? Number.MAX_SAFE_INTEGER : this.host.pageSize },
    );
    return this.skills.register(source);
  }
  private skills: SkillsFeature | undefined;

  /**
   * Register a family of resources named by a URI template (see
   * {@link ResourcesFeature.registerResourceTemplate}); its `complete` callbacks answer
   * `completion/complete` for `ref/resource` and declare `completions`.
   * @see https://modelcontextprotocol.io/specification/2025-11-25/server/resources#resource-templates
   */
  registerResourceTemplate(name: string, uriTemplate: string, metadata: ResourceTemplateMetadata, read: ReadTemplateCallback): RegisteredResourceTemplate {
    return this.resources.registerResourceTemplate(name, uriTemplate, metadata, read);
  }

  /**
   * Answer `ref/resource` completions with another source than the resources feature (and
   * declare the `completions` capability).
   */
  setResourceCompletion(source: ResourceCompletionSource | undefined): void {
    this.completion.resources = source;
    if (source) this.completion.declare();
  }

  /** The tools registry: its current state on subscribe, then every change. */
  get tools$(): Observable<RegistryState<RegisteredTool>> {
    return guarded(this.tools.state$, 'mcpServer.tools$');
  }

  /** The prompts registry: its current state on subscribe, then every change. */
  get prompts$(): Observable<RegistryState<RegisteredPrompt>> {
    return guarded(this.prompts.state$, 'mcpServer.prompts$');
  }

  /** The resources registry: its current state on subscribe, then every change. */
  get resources$(): Observable<ResourcesState> {
    return guarded(this.resources.state$, 'mcpServer.resources$');
  }

  /**
   * Advice about how this server's own code follows the protocol's recommendations (a tool
   * returning embedded resources without the `resources` capability, say), each kind once.
   * Unobserved advice goes to Node's warning channel (stderr) instead.
   */
  get diagnostics$(): Observable<ServerDiagnostic> {
    return guarded(this.advice.diagnostics$, 'mcpServer.diagnostics$');
  }

  /** The log level each session set. */
  get logLevels$(): Observable<LoggingState> {
    return guarded(this.logging.levels$, 'mcpServer.logLevels$');
  }

  /**
   * Send a log message to every session whose level lets it through (`notifications/message`).
   * @see https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/logging
   */
  log(level: LoggingLevel, data: unknown, logger?: string): void {
    this.logging.broadcast(level, data, logger);
  }

  /**
   * A logger to every session, named `name`: make one per component and keep it, so that the
   * component's messages always carry the same logger name (`child` names nest: `billing.db`).
   * @see https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/logging#implementation-considerations
   */
  logger(name?: string): Logger {
    return this.logging.logger(name);
  }

  /** Sessions currently open. */
  get sessions(): ReadonlySet<ServerSession> {
    return this.server.sessions;
  }

  /** Each new session as it connects. */
  get sessions$(): Observable<ServerSession> {
    return this.server.sessions$;
  }

  /** With `journal: true`, the 2026-07-28 requests served, on every transport (see {@link Server.journal}). */
  get journal(): Journal | undefined {
    return this.server.journal;
  }

  /** Each entry of {@link journal} as it is recorded (see {@link Server.journal$}). */
  get journal$(): Observable<JournalEntry> {
    return this.server.journal$;
  }

  /** Every request served, as it ends, both eras, every transport (see {@link Server.requests$}). */
  get requests$(): Observable<RequestRecord> {
    return this.server.requests$;
  }

  /**
   * Add an interceptor around every request and notification, both eras, every transport (see
   * {@link Server.use}); built-ins: `logging`, `rateLimitPerCaller`, `redactArguments`.
   * @see https://modelcontextprotocol.io/specification/2025-11-25/basic
   */
  use(interceptor: Interceptor): this {
    this.server.use(interceptor);
    return this;
  }

  /** Serve one client on `transport` (see {@link Server.connect}). */
  connect(transport: Transport): Promise<ServerSession> {
    return this.server.connect(transport);
  }

  /** Close every session. */
  async close(): Promise<void> {
    await this.server.close();
    await this.tasks.close();
  }
}

/**
 * Create an {@link McpServer}: register tools, resources, templates and prompts (capabilities
 * follow), then `connect(transport)` for stdio, or serve `mcp.server` over HTTP with
 * `createStreamableHttpHandler`. `createMcpServer({ name, version })` works too.
 *
 * ```ts
 * const mcp = createMcpServer({ info: { name: 'notes', version: '1.0.0' } });
 * mcp.registerTool('add', { inputSchema: z.object({ a: z.number(), b: z.number() }) }, ({ a, b }) => String(a + b));
 * await mcp.connect(createStdioServerTransport());
 * ```
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server
 */
export function createMcpServer(options: McpServerOptions): McpServer;
export function createMcpServer(info: PeerInfo, options?: Omit<McpServerOptions, 'info'>): McpServer;
export function createMcpServer(first: McpServerOptions | PeerInfo, rest?: Omit<McpServerOptions, 'info'>): McpServer {
  return isServerOptions(first) ? new McpServer(first) : new McpServer(first, rest);
}

/** Our options carry `info`; the SDK's first argument is the info itself. */
function isServerOptions(x: McpServerOptions | PeerInfo): x is McpServerOptions {
  return typeof (x as { info?: unknown }).info === 'object' && (x as { info?: unknown }).info !== null;
}
