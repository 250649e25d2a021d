/**
 * The client role's typed API over {@link ClientCore}: tools (with approval, audit and output
 * checks), tasks, resources (all pages, subscriptions), prompts, completion and logging, and the
 * live lists `tools$`, `resources$`, `prompts$`. The same in both eras.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic
 */
import { runClientChain, type ClientInterceptor, type OutgoingRequest } from './client-features/interceptors/client-chain.js';
import { ClientSkills } from './client-features/client-skills.js';
import { Observable, Subject, defer } from 'rxjs';
import type { PeerInfo } from '../machines/session.machine.js';
import { Completer, type CompleterOptions } from './client-features/completer.js';
import { LiveList } from './client-features/live-list.js';
import { OutputValidators } from './client-features/output-schema.js';
import { listAll, pages } from './client-features/list-pages.js';
import { ResourceSubscriptions } from './client-features/resource-subscriptions.js';
import { isListParams, listing, sdkOptions, type CallToolParams, type ListParams, type Listing } from './client-features/sdk-shapes.js';
import type { Task, TaskHandle, TaskHandleOptions } from './client-features/tasks.js';
import type { TaskJournalEntry } from './client-features/task-journal.js';
import type { TaskLifecycleEvent } from './client-features/task-watch.js';
import type { ToolCallRecord } from './client-features/tool-audit.js';
import { ToolCalls, type CallToolOptions } from './client-features/tool-calls.js';
import { ToolTasks } from './client-features/tool-tasks.js';
import type { TraceOptions } from './client-modern/modern-era.js';
import { ClientCore } from './client-core.js';
import { clientOptions, type ClientOptions } from './client-options.js';
import { ResourceNotFoundError } from './errors.js';
import type { JsonObject, RequestId } from './jsonrpc/message.js';
import { hasCapability } from './protocol/methods.js';
import { allows } from './protocol/revisions.js';
import type {
  CallToolResult,
  CompleteRequestParams,
  CompleteResult,
  GetPromptResult,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListToolsResult,
  Prompt,
  PromptReference,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  ResourceTemplateReference,
  ResourceUpdatedNotificationParams,
  Tool,
} from './protocol/schema/index.js';
import { LOGGING_LEVELS, type LoggingLevel } from './protocol/schema/logging.js';
import { redactSecrets } from './server-features/redaction.js';
import type { Progress, ProgressToken, RequestOptions } from './session/session.js';

export type { CallToolOptions } from './client-features/tool-calls.js';
export type { DiscoveredServer, InputRoundEvent, TraceOptions } from './client-modern/modern-era.js';
export type { ClientOptions, ClientWarning } from './client-options.js';
export { MemoryEraCache, sharedEraCache, type EraCache, type EraVerdict } from './client-modern/era-cache.js';

const DEFAULT_DEBOUNCE_MS = 50;

/**
 * An MCP client. `await client.connect(transport)` finds the era the server speaks (2026-07-28
 * per request, or an `initialize` session) and resolves once it can be used; the API is the same
 * either way. Register client features (`setRoots`, `onSampling`, `onElicitation`) before
 * connecting: they declare the capabilities the server sees.
 */
export class Client extends ClientCore {
  /**
   * The skills the server publishes (the `io.modelcontextprotocol/skills` extension): `list()`,
   * `get(uri)` and `load(entry)`, which reads nothing ahead of need and verifies every file it
   * reads against the skill's entry (size, digest, frontmatter).
   * @see https://modelcontextprotocol.io/extensions/skills
   */
  get skills(): ClientSkills {
    return (this.skillsFeature ??= new ClientSkills(this));
  }
  private skillsFeature: ClientSkills | undefined;
  /** Interceptors (`use`); undefined until one is registered, so none costs nothing. */
  private clientInterceptors: ClientInterceptor[] | undefined;

  /**
   * Add an interceptor around each request this client sends, in both eras and on every
   * transport, run in registration order (the first is the outermost). A stage may rewrite params
   * (add `_meta`: in 2026-07-28 it is merged with the request's envelope), rewrite the result,
   * answer itself, or call `next` again (built-in: `retry`). See {@link ClientInterceptor}.
   * @see https://modelcontextprotocol.io/specification/2025-11-25/basic
   */
  use(interceptor: ClientInterceptor): this {
    if (typeof interceptor !== 'function') throw new TypeError(`Client.use() takes an interceptor function, got ${interceptor === null ? 'null' : typeof interceptor}`);
    (this.clientInterceptors ??= []).push(interceptor);
    if (interceptor.answering) (this.answerStages ??= []).push(interceptor.answering);
    return this;
  }

  /** Send a request, through the interceptors (see {@link use}) when there are any. */
  override request(method: string, params?: JsonObject, options?: RequestOptions & TraceOptions): Promise<JsonObject> {
    const list = this.clientInterceptors;
    if (list === undefined) return super.request(method, params, options);
    const listeners: ((id: RequestId) => void)[] = [];
    const req: OutgoingRequest = { kind: 'request', method, params, era: this.era, options, signal: options?.signal, clock: this.clientClock, onRequestId: (l) => void listeners.push(l) };
    const told: RequestOptions & TraceOptions = {
      ...options,
      onRequestId: (id) => {
        options?.onRequestId?.(id);
        for (const l of listeners) l(id);
      },
    };
    return runClientChain(list, req, (p) => super.request(method, p, told));
  }
  private readonly toolsLive: LiveList<Tool>;
  private readonly resourcesLive: LiveList<Resource>;
  private readonly promptsLive: LiveList<Prompt>;
  private readonly toolIndex = new Map<string, Tool>();
  private readonly outputValidators = new OutputValidators();
  private readonly toolCallSubject = new Subject<ToolCallRecord>();
  private readonly taskEventSubject = new Subject<TaskLifecycleEvent>();
  private readonly toolCalls: ToolCalls;
  private readonly resourceSubs: ResourceSubscriptions;
  private readonly toolTasks = new ToolTasks({
    request: (m, p, o) => this.request(m, p, o),
    clock: () => this.clientClock,
    revision: () => this.negotiatedRevision,
    serverCapabilities: () => this.serverCapabilities,
    tool: (name) => this.toolIndex.get(name),
    extension: () => this.tasksExtension(),
    taskEvents: () => (this.taskEventSubject.observed ? (e) => this.taskEventSubject.next({ ...e, at: this.clientClock.now() }) : undefined),
    journal: () => {
      const journal = this.clientOptions.taskJournal;
      return journal === undefined ? undefined : { journal, report: (e: unknown) => this.warn('task-journal', `The task journal failed: ${(e as Error)?.message ?? String(e)}`, e) };
    },
  });

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
   * One audit record per `callTool` (server, tool, redacted arguments, timing, outcome), built
   * only while observed.
   * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#security-considerations
   */
  readonly toolCalls$: Observable<ToolCallRecord>;
  /**
   * The life of the tasks this client starts or picks up while observed: created (or resumed),
   * then each status it sees while following them, for debugging and audit logs.
   * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks#audit-and-logging
   */
  readonly taskEvents$: Observable<TaskLifecycleEvent>;

  /**
   * @param options `info` (the client's name and version, sent in `initialize`) and the rest. Or,
   * as the official SDK's `new Client({ name, version }, options)`: the info first.
   */
  constructor(options: ClientOptions);
  constructor(info: PeerInfo, options?: Omit<ClientOptions, 'info'>);
  constructor(first: ClientOptions | PeerInfo, rest?: Omit<ClientOptions, 'info'>) {
    const options = clientOptions(first, rest);
    super(options);
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
    this.toolCalls$ = this.guard('client.toolCalls$', this.toolCallSubject.asObservable());
    this.taskEvents$ = this.guard('client.taskEvents$', this.taskEventSubject.asObservable());
    this.toolCalls = new ToolCalls({
      request: (m, p, o) => this.request(m, p, o),
      clock: this.clientClock,
      serverInfo: () => this.serverInfo,
      revision: () => this.negotiatedRevision,
      tool: (name) => this.toolIndex.get(name),
      tasks: this.toolTasks,
      elicitation: this.elicitation,
      outputValidators: this.outputValidators,
      approver: options.approveToolCall,
      trustedServer: options.trustedServer === true,
      redactArguments: options.redactToolArguments === false ? undefined : (options.redactToolArguments ?? redactSecrets),
      records: this.toolCallSubject,
      relistTools: () => this.listTools({ fresh: true }),
      unknownDialect: (tool, dialect) => this.warn('unknown-schema-dialect', `Tool "${tool}" has an outputSchema in an unknown dialect (${String(dialect)}); its result was not checked`),
    });
    this.resourceSubs = new ResourceSubscriptions({
      // The era says how: resources/subscribe in a session, the listen stream's resourceSubscriptions in 2026-07-28.
      subscribe: (uri, options) => this.current.subscribe(uri, options),
      unsubscribe: (uri, ready) => this.current.unsubscribe(uri, ready),
    });
  }

  // ------------------------------------------------------------------------------------ tools

  /**
   * The tool `name` as the server last listed it (through `listTools`, `tools$` or a list change),
   * or undefined when it was never listed: what `callTool` checks results against.
   * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool
   */
  toolDefinition(name: string): Tool | undefined {
    return this.toolIndex.get(name);
  }

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
    return this.toolCalls.call(name, args, options);
  }

  // -------------------------------------------------------------------------------- tasks

  /**
   * Call a tool as a task (2025-11-25) and get a handle: `status$` (polled at the server's
   * `pollInterval`), `result()`, `cancel()`. Rejects with a {@link CapabilityError}-like
   * `McpError` when the server does not run tool calls as tasks. As `callTool`: the approver
   * (`approveToolCall`) is asked first, and `result()` rejects with `OutputSchemaError` when the
   * tool's `outputSchema` is not met; `onprogress` hears the task's progress for its whole life.
   * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks#creating-tasks
   */
  async callToolAsTask(name: string, args?: Record<string, unknown>, options: { ttl?: number; signal?: AbortSignal } & RequestOptions = {}): Promise<TaskHandle<CallToolResult & JsonObject>> {
    const { ttl, ...requestOptions } = options;
    return this.toolCalls.callAsTask(name, args, ttl, requestOptions);
  }

  /**
   * A handle on a task created earlier (after a reconnect, or by another process of the same
   * user): the server answers only the identity that created it.
   */
  task(taskId: string, options: TaskHandleOptions = {}): TaskHandle<CallToolResult & JsonObject> {
    return this.toolTasks.resume(taskId, options);
  }

  /**
   * The tasks this client (or an earlier run with the same `taskJournal`) started and has not
   * seen end: follow each with `task(entry.taskId)`. Empty without a journal.
   */
  async unfinishedTasks(): Promise<TaskJournalEntry[]> {
    const journal = this.clientOptions.taskJournal;
    return journal === undefined ? [] : [...(await journal.entries())];
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
   * Read a resource. A URI the server does not have rejects with {@link ResourceNotFoundError},
   * whether the server says so with -32602 (2026-07-28) or -32002 (earlier revisions).
   * @see https://modelcontextprotocol.io/specification/2025-11-25/server/resources#reading-resources
   */
  async readResource(uri: string, options?: RequestOptions & TraceOptions): Promise<ReadResourceResult>;
  /** The official SDK's shape: `readResource({ uri })`. */
  async readResource(params: { uri: string }, options?: RequestOptions & TraceOptions): Promise<ReadResourceResult>;
  async readResource(uri: string | { uri: string }, options?: RequestOptions & TraceOptions): Promise<ReadResourceResult> {
    const target = typeof uri === 'string' ? uri : uri.uri;
    try {
      return (await this.request('resources/read', { uri: target }, options)) as ReadResourceResult;
    } catch (e) {
      throw ResourceNotFoundError.from(e, target);
    }
  }

  /**
   * Updates of one resource. The first observer sends `resources/subscribe`; the last one to
   * unsubscribe sends `resources/unsubscribe`. A failed subscribe errors the observable.
   * @see https://modelcontextprotocol.io/specification/2025-11-25/server/resources#subscriptions
   */
  subscribe(uri: string, options?: RequestOptions): Observable<ResourceUpdatedNotificationParams> {
    return this.resourceSubs.observe(uri, options);
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
    if (!this.current.setsLogLevel) return;
    await this.request('logging/setLevel', { level }, options);
    this.sessionLogLevel = level;
  }

  // -------------------------------------------------------------------------------- internals

  private async onePage<T, K extends string>(method: string, key: K, params: ListParams, options?: RequestOptions): Promise<Listing<T, K>> {
    const page = await this.request(method, params.cursor === undefined ? undefined : { cursor: params.cursor }, options);
    const items = page[key];
    return listing(Array.isArray(items) ? [...(items as T[])] : [], key, typeof page.nextCursor === 'string' ? page.nextCursor : undefined);
  }

  private readonly pageRequester = (method: string, params: JsonObject | undefined, options?: RequestOptions) => this.request(method, params, options);

  private async fetchTools(options?: RequestOptions & TraceOptions): Promise<Tool[]> {
    let tools = await listAll<Tool>(this.pageRequester, 'tools/list', 'tools', options);
    this.toolIndex.clear();
    // A tool with an invalid x-mcp-header annotation is left out: it cannot be called correctly.
    tools = this.current.admitTools(tools);
    for (const tool of tools) this.toolIndex.set(tool.name, tool);
    return tools;
  }

  protected override subscribedUris(): string[] {
    return this.resourceSubs.uris();
  }

  protected override subscriptionLost(uri: string, error: Error): void {
    this.resourceSubs.fail(uri, error);
  }

  protected override onListChanged(method: string): void {
    if (method === 'notifications/tools/list_changed') this.toolsLive.changed();
    else if (method === 'notifications/resources/list_changed') this.resourcesLive.changed();
    else if (method === 'notifications/prompts/list_changed') this.promptsLive.changed();
  }

  protected override onResourceUpdated(params: ResourceUpdatedNotificationParams): void {
    this.resourceSubs.updated(params);
  }

  protected override progressBeyondRequest(token: ProgressToken, progress: Progress): boolean {
    return this.toolTasks.deliverProgress(token, progress);
  }

  protected override teardown(): void {
    if (this.tornDown) return;
    super.teardown();
    this.toolsLive.close();
    this.resourcesLive.close();
    this.promptsLive.close();
    this.resourceSubs.close();
    this.toolCallSubject.complete();
    this.taskEventSubject.complete();
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
