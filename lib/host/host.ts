/**
 * A multi-server host: one isolated {@link Client} per configured MCP server (stdio or HTTP),
 * each driven by `hostServerMachine` (connect, restart with backoff, give up, stop), and their
 * tools, resources and prompts aggregated into one namespaced view.
 *
 * - Tools and prompts are named `<server><separator><name>` (separator `__` by default) and carry
 *   `server` and `originalName`; calls are routed to their server with the original name.
 * - Resources keep their URIs and carry `server`; `readResource(uri, server?)` finds the server.
 * - `state$` is every server's phase, attempts, era, negotiated revision and last error.
 * - Each client finds its server's era (2026-07-28 or a session revision) by itself, so legacy
 *   and modern servers mix; a stdio server that exits when probed is restarted in the legacy era.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/architecture#hosts
 */
import { ClientSkills, type LoadSkillOptions, type LoadedSkill } from '../client-features/client-skills.js';
import type { Skill } from '../protocol/skills-extension.js';
import { guarded } from '../../streams/guarded.js';
import {
  BehaviorSubject,
  Observable,
  Subject,
  catchError,
  combineLatest,
  concat,
  defer,
  filter,
  firstValueFrom,
  from,
  map,
  mergeMap,
  of,
  shareReplay,
  switchMap,
  tap,
} from 'rxjs';
import { createActor, fromCallback, type Actor, type AnyActorRef, type SnapshotFrom } from 'xstate';
import {
  DEFAULT_RESTART_OPTIONS,
  hostServerMachine,
  type HostServerPhase,
  type RestartOptions,
} from '../../machines/host-server.machine.js';
import type { PeerInfo } from '../../machines/session.machine.js';
import { createStdioClientTransport } from '../../streams/stdio-client.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';
import type { Transport, TransportState } from '../../streams/transport.js';
import { Client, type CallToolOptions, type ClientOptions } from '../client.js';
import type { RequestOptions } from '../session/session.js';
import { ServerExitedOnProbeError } from '../client-modern/modern-client-errors.js';
import type { ToolCallApprover } from '../client-features/tool-approval.js';
import type { ToolCallRecord } from '../client-features/tool-audit.js';
import { systemClock, type Clock } from '../clock.js';
import { ConnectionClosedError, McpError } from '../errors.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import { hasCapability } from '../protocol/methods.js';
import type { CallToolResult, GetPromptResult, Prompt, ReadResourceResult, Resource, Tool } from '../protocol/schema/index.js';
import { appsCapability } from '../protocol/apps-extension.js';
import { readAppView, visibleToModel, type AppView } from './app-view.js';
import { SkillCache } from './skill-cache.js';
import { resolveServerConfig, serverEntries, type ResolvedServerConfig, type ServerConfig, type ServersConfig } from './config.js';

export const DEFAULT_NAMESPACE_SEPARATOR = '__';
export const DEFAULT_HOST_CLIENT_INFO: PeerInfo = { name: 'mcp-actors-host', version: '0.1.0' };

/** A skill entry with the host's label for the server that serves it. */
export type HostSkill = Skill & { server: string };

export interface HostOptions {
  /** `{ name: { command, args?, env?, cwd? } | { url, headers? } }`, or `{ mcpServers: {...} }`. */
  servers?: ServersConfig;
  /** The `mcpServers` of a Claude Desktop config, when `servers` is not given. */
  mcpServers?: Record<string, ServerConfig>;
  /** Our name and version, sent to every server. */
  clientInfo?: PeerInfo;
  /** Drives restart backoff and the stable timer; also the clients' and transports' clock unless `clientOptions.clock`. */
  clock?: Clock;
  /** How crashed servers are restarted (defaults: 5 attempts, 1 s → 30 s, ×2, jitter 0.3, reset after 60 s ready). */
  restart?: Partial<RestartOptions>;
  /** Between server and tool (or prompt) name. Default `__`. */
  namespaceSeparator?: string;
  /** Source of the backoff jitter, in [0, 1). Default Math.random. */
  random?: () => number;
  /** Options for every client (timeouts, journal, keepAlive...). */
  clientOptions?: Omit<ClientOptions, 'info'>;
  /**
   * An XState inspector (a callback, or `@statelyai/inspect`'s `createInspector(...).inspect`).
   * It sees a `host` root actor, each server's connection actor parented to it, and (unless
   * `clientOptions.inspect` is set) each client's session as its connection's child, with what
   * the session owns (elicitations, input rounds) below it.
   * @see https://stately.ai/docs/inspection
   */
  inspect?: ClientOptions['inspect'];
  /** Called with each new client before it connects (register roots, sampling, elicitation here). */
  onClient?: (client: Client, server: string) => void;
  /** A stdio server's stderr: 'pipe' (default: kept for error messages and `stderr$`), 'inherit' or 'ignore'. */
  stderr?: 'pipe' | 'inherit' | 'ignore';
  /**
   * The user's confirmation prompt for tool calls, asked before any server receives one; the
   * request carries `serverName` (the configured name). A refusal rejects the call with
   * `ToolCallDeniedError`, nothing sent. Compose with `approveReadOnlyFromTrustedServers`.
   * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#user-interaction-model
   */
  approveToolCall?: ToolCallApprover;
  /**
   * Servers (configured names) whose tool annotations the application trusts. Annotations of
   * every other server reach `approveToolCall` marked untrusted.
   * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool
   */
  trustedServers?: readonly string[];
  /**
   * This host renders MCP Apps: each client declares the extension (`appsCapability()`), so servers
   * list their app links and app-only tools. Either way, app-only tools are never in the agent's
   * list (`tools$`, `listTools`); an app reaches them through `appServer(server)`.
   * @see https://modelcontextprotocol.io/extensions/apps
   */
  apps?: boolean;
  /**
   * Where verified skill files are kept as they are read (by server, URI and digest): a cache of
   * your own (to bound it, or to share it among hosts whose server labels name the same servers:
   * the label is the server's identity in it), or `false` for none. Default an in-memory one of 32 MiB.
   * @see https://modelcontextprotocol.io/extensions/skills
   */
  skillCache?: SkillCache | false;
}

/** What an app view may reach: its own server, nothing else (the bridge's `server` option). */
export interface HostAppServer {
  /** Every tool of the server, app-only ones included (the bridge lets the view call those whose visibility includes "app"). */
  tools(): Promise<Tool[]>;
  callTool(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>>;
  readResource(uri: string): Promise<Record<string, unknown>>;
}

export type { HostServerPhase, RestartOptions };

/** One server's state, as `state$` shows it. */
export interface HostServerState {
  phase: HostServerPhase;
  transport: 'stdio' | 'http';
  /** Restarts begun since the server was last stable. */
  attempts: number;
  /** The revision negotiated with the server (its last connection). */
  protocolVersion?: string;
  /**
   * The era of its last connection: 'modern' (2026-07-28, per-request metadata) or 'legacy'
   * (`initialize` and a session). The host's clients find it out by themselves.
   * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning
   */
  era?: 'modern' | 'legacy';
  /** Why the last connection died (a stdio crash: a TransportError with `details.code`, `signal`, `stderrTail`). */
  error?: Error;
  /** While `waiting`: the backoff before the next restart, in ms. */
  restartInMs?: number;
}

export type HostState = Readonly<Record<string, HostServerState>>;

/** A tool of one server, named `<server><sep><tool>`. */
export type HostTool = Tool & { server: string; originalName: string };
/** A prompt of one server, named `<server><sep><prompt>`. */
export type HostPrompt = Prompt & { server: string; originalName: string };
/** A resource of one server (URI unchanged). */
export type HostResource = Resource & { server: string };

/** A client of the host, as `sessions$` announces it (before it connects). */
export interface HostSession {
  server: string;
  client: Client;
}

/** A stderr line of a stdio server. */
export interface HostStderrLine {
  server: string;
  line: string;
}

/** The server a request was routed to is not ready (connecting, restarting, failed, stopped). */
export class ServerUnavailableError extends Error {
  override readonly name = 'ServerUnavailableError';
  constructor(
    readonly server: string,
    readonly phase: HostServerPhase,
    override readonly cause?: Error,
  ) {
    super(`MCP server "${server}" is not ready (${phase})${cause ? `: ${cause.message}` : ''}`);
  }
}

type ServerActor = Actor<typeof hostServerMachine>;
type ServerSnapshot = SnapshotFrom<typeof hostServerMachine>;

interface Hosted {
  name: string;
  config: ResolvedServerConfig;
  actor: ServerActor;
  client: Client | undefined;
  transport: Transport | undefined;
  /** The last terminal state of the current transport. */
  transportEnd: TransportState | undefined;
  /** The client while the server is ready, else undefined. */
  ready$: BehaviorSubject<Client | undefined>;
  /** URIs the server listed last. */
  resources: Set<string>;
  /** Resolves when the server's machine is done (failed or stopped). */
  done: Promise<void>;
  markDone: () => void;
  /** The server exited when probed for 2026-07-28: later connections speak the legacy era at once. */
  legacyOnly?: boolean;
}

const SETTLED: ReadonlySet<HostServerPhase> = new Set(['ready', 'failed', 'stopped', 'waiting', 'crashed']);

export class Host {
  readonly separator: string;
  private readonly servers = new Map<string, Hosted>();
  private readonly root: AnyActorRef | undefined;
  private readonly clock: Clock;
  private readonly clientClock: Clock;
  private readonly random: () => number;
  private readonly clientInfo: PeerInfo;
  private readonly stateSubject: BehaviorSubject<HostState>;
  private readonly sessionSubject = new Subject<HostSession>();
  private readonly stderrSubject = new Subject<HostStderrLine>();
  private started: Promise<HostState> | undefined;
  private closing: Promise<void> | undefined;

  /** Every tool of every ready server, namespaced; updated as servers come, go and change their lists. */
  readonly tools$: Observable<HostTool[]>;
  /** Every prompt of every ready server, namespaced. */
  readonly prompts$: Observable<HostPrompt[]>;
  /** Every resource of every ready server, with its server. */
  readonly resources$: Observable<HostResource[]>;
  /** Every server's state: the current one on subscribe, then each change. */
  readonly state$: Observable<HostState>;
  /** The current clients on subscribe, then each new client (before it connects: its frames$ and journal are complete). */
  readonly sessions$: Observable<HostSession>;
  /** Stderr lines of the stdio servers (with the default `stderr: 'pipe'`). */
  readonly stderr$: Observable<HostStderrLine>;
  /**
   * An audit record of every tool call on every server (with `serverName`; arguments redacted
   * as the clients' `redactToolArguments` says).
   * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#security-considerations
   */
  readonly toolCalls$: Observable<ToolCallRecord>;
  private readonly trusted: ReadonlySet<string>;
  /** Verified skill files read so far (undefined with `skillCache: false`). */
  readonly skillCache: SkillCache | undefined;

  constructor(private readonly options: HostOptions) {
    this.separator = options.namespaceSeparator ?? DEFAULT_NAMESPACE_SEPARATOR;
    if (typeof this.separator !== 'string' || this.separator === '') throw new TypeError('namespaceSeparator must be a non-empty string');
    this.clock = options.clock ?? systemClock;
    // Only with an inspector: a root actor whose system (and so inspector and clock) the server
    // actors share, so an inspector sees them as the host's children.
    this.root = options.inspect === undefined ? undefined
      : createActor(fromCallback(() => undefined), { id: 'host', clock: this.clock, inspect: options.inspect });
    this.root?.start();
    this.clientClock = options.clientOptions?.clock ?? this.clock;
    this.random = options.random ?? Math.random;
    this.clientInfo = options.clientInfo ?? DEFAULT_HOST_CLIENT_INFO;
    this.skillCache = options.skillCache === false ? undefined : (options.skillCache ?? new SkillCache());
    const restart = checkRestart({ ...DEFAULT_RESTART_OPTIONS, ...options.restart });

    const configured = options.servers ?? (options.mcpServers !== undefined ? { mcpServers: options.mcpServers } : undefined);
    if (configured === undefined) throw new TypeError('createHost needs `servers` (or `mcpServers`)');
    const resolved = serverEntries(configured).map(([name, config]) => [name, resolveServerConfig(name, config, this.separator)] as const);
    this.trusted = new Set(options.trustedServers ?? []);
    for (const name of this.trusted) {
      if (!resolved.some(([n]) => n === name)) throw new TypeError(`trustedServers names "${name}", which is not a configured MCP server`);
    }

    const initial: Record<string, HostServerState> = {};
    for (const [name, config] of resolved) {
      let markDone!: () => void;
      const done = new Promise<void>((resolve) => (markDone = resolve));
      const hosted: Hosted = {
        name,
        done,
        markDone,
        config,
        actor: undefined as unknown as ServerActor,
        client: undefined,
        transport: undefined,
        transportEnd: undefined,
        ready$: new BehaviorSubject<Client | undefined>(undefined),
        resources: new Set(),
      };
      const machine = hostServerMachine.provide({
        actions: {
          connect: () => this.connect(hosted),
          releaseClient: () => this.release(hosted, 'RELEASED'),
          disconnect: () => this.release(hosted, 'CLOSED'),
        },
      });
      hosted.actor = createActor(machine, { input: restart, clock: this.clock, id: `server:${name}`, ...(this.root && { parent: this.root }) });
      this.servers.set(name, hosted);
      initial[name] = { phase: 'idle', transport: config.kind, attempts: 0 };
    }
    this.stateSubject = new BehaviorSubject<HostState>(initial);
    this.state$ = guarded(this.stateSubject.asObservable(), 'host.state$');
    for (const hosted of this.servers.values()) {
      hosted.actor.subscribe((snapshot) => this.onSnapshot(hosted, snapshot));
      hosted.actor.start();
    }

    this.sessions$ = guarded(
      defer(() =>
        concat(
          from([...this.servers.values()].filter((h) => h.client).map((h) => ({ server: h.name, client: h.client! }))),
          this.sessionSubject,
        ),
      ),
      'host.sessions$',
    );
    this.stderr$ = guarded(this.stderrSubject.asObservable(), 'host.stderr$');
    this.toolCalls$ = guarded(this.sessions$.pipe(mergeMap(({ server, client }) => client.toolCalls$.pipe(map((r) => ({ ...r, serverName: server }))))), 'host.toolCalls$');
    // The agent's tool list: tools an app alone may call are not in it.
    this.tools$ = guarded(this.aggregate((c) => c.tools$.pipe(map((ts) => ts.filter(visibleToModel))), 'tools', (server, t: Tool) => ({ ...t, name: this.qualify(server, t.name), server, originalName: t.name })), 'host.tools$');
    this.prompts$ = guarded(this.aggregate((c) => c.prompts$, 'prompts', (server, p: Prompt) => ({ ...p, name: this.qualify(server, p.name), server, originalName: p.name })), 'host.prompts$');
    this.resources$ = guarded(this.aggregate((c) => c.resources$, 'resources', (server, r: Resource) => ({ ...r, server })), 'host.resources$');
  }

  /** The configured server names, in configuration order. */
  get serverNames(): string[] {
    return [...this.servers.keys()];
  }

  /** Every server's state now. */
  get state(): HostState {
    return this.stateSubject.value;
  }

  /** The current client of `server` (any phase), or undefined between connections. */
  client(server: string): Client | undefined {
    return this.hosted(server).client;
  }

  /**
   * Connect to every server. Resolves (with the state) once each server's first attempt is over:
   * ready, or crashed/waiting/failed (see `state$`). Idempotent.
   */
  start(): Promise<HostState> {
    this.started ??= (async () => {
      for (const hosted of this.servers.values()) hosted.actor.send({ type: 'START' });
      return firstValueFrom(this.state$.pipe(filter((s) => Object.values(s).every((e) => SETTLED.has(e.phase)))));
    })();
    return this.started;
  }

  /** Resolves once `server` (or every server) is ready; rejects with ServerUnavailableError if one fails or stops first. */
  async whenReady(server?: string): Promise<void> {
    const names = server === undefined ? this.serverNames : [this.hosted(server).name];
    await Promise.all(
      names.map(async (name) => {
        const s = await firstValueFrom(
          this.state$.pipe(
            map((all) => all[name]!),
            filter((e) => e.phase === 'ready' || e.phase === 'failed' || e.phase === 'stopped'),
          ),
          { defaultValue: undefined },
        );
        if (s?.phase !== 'ready') throw new ServerUnavailableError(name, s?.phase ?? 'stopped', s?.error);
      }),
    );
  }

  // ---------------------------------------------------------------------------- tools

  /** `<server><sep><name>`. */
  qualify(server: string, name: string): string {
    return `${server}${this.separator}${name}`;
  }

  /** The server and original name of a namespaced tool or prompt name, if a configured server matches. */
  parseName(qualified: string): { server: string; name: string } | undefined {
    let best: string | undefined;
    for (const server of this.servers.keys()) {
      if (qualified.startsWith(server + this.separator) && qualified.length > server.length + this.separator.length) {
        if (best === undefined || server.length > best.length) best = server;
      }
    }
    return best === undefined ? undefined : { server: best, name: qualified.slice(best.length + this.separator.length) };
  }

  /**
   * List the tools of every ready server now (servers that fail to answer are left out): the agent's
   * list, so without the tools only an app may call (MCP Apps `visibility: ["app"]`).
   */
  async listTools(options?: RequestOptions): Promise<HostTool[]> {
    const lists = await this.fromReady('tools', (c) => c.listTools(options));
    return lists.flatMap(([server, tools]) => tools.filter(visibleToModel).map((t) => ({ ...t, name: this.qualify(server, t.name), server, originalName: t.name })));
  }

  /**
   * Call a namespaced tool on its server, with its original name: the agent's call. A tool only
   * its server's apps may call (MCP Apps `visibility` without `"model"`) is refused, nothing sent;
   * an app calls it through {@link appServer}.
   * @see https://modelcontextprotocol.io/extensions/apps
   */
  async callTool(qualified: string, args?: Record<string, unknown>, options?: CallToolOptions): Promise<CallToolResult> {
    const { client, name } = await this.route(qualified, 'tool');
    // Known from the host's own lists as a rule; a name never listed is looked up once.
    const tool = client.toolDefinition(name) ?? (await client.listTools(options)).find((t) => t.name === name);
    if (tool !== undefined && !visibleToModel(tool)) {
      const server = this.parseName(qualified)!.server;
      throw new McpError(ErrorCode.InvalidParams, `Tool "${qualified}" is for ${server}'s apps only (MCP Apps visibility without "model"): the agent may not call it; an app view calls it through appServer("${server}")`);
    }
    return client.callTool(name, args, options);
  }

  // ---------------------------------------------------------------------------- prompts

  /** List the prompts of every ready server now. */
  async listPrompts(options?: RequestOptions): Promise<HostPrompt[]> {
    const lists = await this.fromReady('prompts', (c) => c.listPrompts(options));
    return lists.flatMap(([server, prompts]) => prompts.map((p) => ({ ...p, name: this.qualify(server, p.name), server, originalName: p.name })));
  }

  /** Get a namespaced prompt from its server. */
  getPrompt(qualified: string, args?: Record<string, string>, options?: RequestOptions): Promise<GetPromptResult> {
    return this.route(qualified, 'prompt').then(({ client, name }) => client.getPrompt(name, args, options));
  }

  // ---------------------------------------------------------------------------- resources

  /** List the resources of every ready server now. */
  async listResources(options?: RequestOptions): Promise<HostResource[]> {
    const lists = await this.fromReady('resources', (c) => c.listResources(options));
    return lists.flatMap(([server, resources]) => {
      this.remember(server, resources);
      return resources.map((r) => ({ ...r, server }));
    });
  }

  /**
   * Read a resource. Without `server`, the server that listed `uri` (listing again if no server
   * is known to have it); a URI listed by several servers, or by none while several offer
   * resources, needs `server`.
   */
  async readResource(uri: string, server?: string, options?: RequestOptions): Promise<ReadResourceResult> {
    if (server !== undefined) return this.readyClient(this.hosted(server)).readResource(uri, options);
    let owners = this.ownersOf(uri);
    if (owners.length === 0) {
      await this.listResources(options);
      owners = this.ownersOf(uri);
    }
    if (owners.length === 0) {
      const offering = [...this.servers.values()].filter((h) => h.ready$.value && hasCapability(h.ready$.value.serverCapabilities, ['resources']));
      if (offering.length === 1) owners = [offering[0]!.name];
      else throw new McpError(ErrorCode.ResourceNotFound, `No server lists the resource ${uri}; pass the server name`, { uri });
    }
    if (owners.length > 1) {
      throw new McpError(ErrorCode.InvalidParams, `The resource ${uri} is listed by ${owners.join(', ')}; pass the server name`, { uri, servers: owners });
    }
    return this.readyClient(this.hosted(owners[0]!)).readResource(uri, options);
  }

  // ---------------------------------------------------------------------------- skills

  /**
   * The skill entries of every ready server that declares the skills extension, each tagged
   * with its server: a skill is the pair (server, uri), never the uri alone. Nothing is read:
   * files are fetched only when a skill is loaded.
   * @see https://modelcontextprotocol.io/extensions/skills
   */
  async listSkills(): Promise<HostSkill[]> {
    const ready = [...this.servers.values()].flatMap((h) => {
      const c = h.ready$.value;
      return c && c.skills.supported ? [[h.name, c] as const] : [];
    });
    const settled = await Promise.allSettled(ready.map(([, c]) => c.skills.listAll()));
    return settled.flatMap((r, i) => (r.status === 'fulfilled' ? r.value.map((entry) => ({ ...entry, server: ready[i]![0] })) : []));
  }

  /**
   * Load a skill from the server that serves it (verified against its entry; see `ClientSkills.load`).
   * Its files are read as they are needed and kept, once verified, in `skillCache`: a file the
   * entry lists at a digest already held for that server is not fetched again.
   * @see https://modelcontextprotocol.io/extensions/skills
   */
  async loadSkill(server: string, entryOrUri: Skill | string, options?: LoadSkillOptions): Promise<LoadedSkill> {
    const client = this.readyClient(this.hosted(server));
    if (this.skillCache === undefined) return client.skills.load(entryOrUri, options);
    const entry = typeof entryOrUri === 'string' ? await client.skills.get(entryOrUri) : entryOrUri;
    return new ClientSkills(this.skillCache.requesterFor(server, entry, client)).load(entry, options);
  }

  // ---------------------------------------------------------------------------- apps

  /**
   * The view a tool links to (`_meta.ui.resourceUri`), read from the tool's own server, for
   * `bridge.show({ ...view, toolInput })`. A view the server does not serve, or that is not app
   * HTML, is refused with `AppViewError`, never shown blank.
   * @see https://modelcontextprotocol.io/extensions/apps
   */
  async appView(qualified: string, options?: RequestOptions): Promise<AppView> {
    const { client, name } = await this.route(qualified, 'tool');
    const server = this.parseName(qualified)!.server;
    const tool = (await client.listTools(options)).find((t) => t.name === name);
    if (tool === undefined) throw new McpError(ErrorCode.InvalidParams, `Unknown tool "${qualified}": ${server} lists no tool "${name}"`);
    return readAppView(server, tool, (uri) => client.readResource(uri, options));
  }

  /**
   * What an app view of `server` may reach, for the bridge's `server` option: that server's tools
   * (app-only ones too) and resources, never another server's.
   * @see https://modelcontextprotocol.io/extensions/apps
   */
  appServer(server: string): HostAppServer {
    const hosted = this.hosted(server);
    return {
      tools: () => this.readyClient(hosted).listTools(),
      callTool: (name, args) => this.readyClient(hosted).callTool(name, args) as Promise<Record<string, unknown>>,
      readResource: (uri) => this.readyClient(hosted).readResource(uri) as Promise<Record<string, unknown>>,
    };
  }

  // ---------------------------------------------------------------------------- closing

  /** Close every client (stdio children: stdin, then SIGTERM, then SIGKILL) and stop restarting. Idempotent. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      for (const hosted of this.servers.values()) hosted.actor.send({ type: 'STOP' });
      await Promise.all([...this.servers.values()].map((hosted) => hosted.done));
      this.root?.stop();
      for (const hosted of this.servers.values()) hosted.ready$.complete();
      this.sessionSubject.complete();
      this.stderrSubject.complete();
      this.stateSubject.complete();
    })();
    return this.closing;
  }

  // ---------------------------------------------------------------------------- internals

  private hosted(server: string): Hosted {
    const hosted = this.servers.get(server);
    if (!hosted) throw new TypeError(`Unknown MCP server "${server}"; configured: ${this.serverNames.join(', ') || 'none'}`);
    return hosted;
  }

  private readyClient(hosted: Hosted): Client {
    const snapshot = hosted.actor.getSnapshot();
    const client = hosted.ready$.value;
    if (snapshot.value !== 'ready' || !client) throw new ServerUnavailableError(hosted.name, snapshot.value as HostServerPhase, snapshot.context.error);
    return client;
  }

  private async route(qualified: string, what: 'tool' | 'prompt'): Promise<{ client: Client; name: string }> {
    const parsed = this.parseName(qualified);
    if (!parsed) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown ${what} "${qualified}": expected <server>${this.separator}<${what}> with a server among ${this.serverNames.join(', ') || 'none'}`,
      );
    }
    return { client: this.readyClient(this.servers.get(parsed.server)!), name: parsed.name };
  }

  private async fromReady<T>(capability: string, list: (c: Client) => Promise<T[]>): Promise<[string, T[]][]> {
    const ready = [...this.servers.values()].flatMap((h) => {
      const c = h.ready$.value;
      return c && hasCapability(c.serverCapabilities, [capability]) ? [[h.name, c] as const] : [];
    });
    const settled = await Promise.allSettled(ready.map(([, c]) => list(c)));
    return settled.flatMap((r, i) => (r.status === 'fulfilled' ? [[ready[i]![0], r.value] as [string, T[]]] : []));
  }

  private remember(server: string, resources: readonly Resource[]): void {
    const hosted = this.servers.get(server);
    if (!hosted) return;
    hosted.resources.clear();
    for (const r of resources) hosted.resources.add(r.uri);
  }

  private ownersOf(uri: string): string[] {
    return [...this.servers.values()].filter((h) => h.ready$.value && h.resources.has(uri)).map((h) => h.name);
  }

  private aggregate<T, U>(pick: (c: Client) => Observable<T[]>, kind: 'tools' | 'prompts' | 'resources', wrap: (server: string, item: T) => U): Observable<U[]> {
    const perServer = [...this.servers.values()].map((hosted) =>
      hosted.ready$.pipe(
        switchMap((client) =>
          client
            ? pick(client).pipe(
                tap((items) => {
                  if (kind === 'resources') this.remember(hosted.name, items as Resource[]);
                }),
                catchError(() => of([] as T[])),
              )
            : of([] as T[]),
        ),
        map((items) => items.map((item) => wrap(hosted.name, item))),
      ),
    );
    if (perServer.length === 0) return of([]);
    return combineLatest(perServer).pipe(
      map((lists) => lists.flat()),
      shareReplay({ bufferSize: 1, refCount: true }),
    );
  }

  private createTransport(hosted: Hosted): Transport {
    const config = hosted.config;
    if (config.kind === 'stdio') {
      const transport = createStdioClientTransport({
        name: hosted.name,
        command: config.command,
        args: config.args,
        ...(config.env !== undefined && { env: config.env }),
        ...(config.cwd !== undefined && { cwd: config.cwd }),
        stderr: this.options.stderr ?? 'pipe',
        clock: this.clientClock,
      });
      transport.stderr$.subscribe((line) => this.stderrSubject.next({ server: hosted.name, line }));
      return transport;
    }
    return createStreamableHttpClientTransport(config.url, {
      ...(config.headers !== undefined && { headers: config.headers }),
      clock: this.clientClock,
      random: this.random,
    });
  }

  /** The machine's `connect`: a fresh client and transport; reports CONNECTED, CONNECT_FAILED, then CRASHED. */
  private connect(hosted: Hosted): void {
    const send = hosted.actor.send.bind(hosted.actor);
    let client: Client;
    let transport: Transport;
    try {
      transport = this.createTransport(hosted);
      client = new Client({
        ...(this.options.inspect !== undefined && { inspect: this.options.inspect }),
        ...this.options.clientOptions,
        ...(hosted.legacyOnly && { era: 'legacy' as const }),
        ...this.toolCallPolicy(hosted.name),
        // Each connection's client session is the server actor's child (on the host's clock, when the client's is the same).
        ...(this.root !== undefined && this.options.clientOptions?.inspect === undefined && this.clientClock === this.clock && { inspectParent: hosted.actor }),
        info: this.clientInfo,
        clock: this.clientClock,
      });
      if (this.options.apps) client.declareCapabilities(appsCapability());
      this.options.onClient?.(client, hosted.name);
    } catch (e) {
      // Not from inside the machine's transition.
      queueMicrotask(() => send({ type: 'CONNECT_FAILED', error: asError(e), sample: this.random() }));
      return;
    }
    hosted.client = client;
    hosted.transport = transport;
    hosted.transportEnd = undefined;
    transport.state$.subscribe((s) => {
      if (s.phase === 'failed' || s.phase === 'closed') hosted.transportEnd = s;
    });
    this.sessionSubject.next({ server: hosted.name, client });
    const current = () => hosted.client === client;
    client.connect(transport).then(
      () => {
        if (!current()) return;
        send({ type: 'CONNECTED', ...(client.protocolVersion !== undefined && { protocolVersion: client.protocolVersion }), ...(client.era !== undefined && { era: client.era }) });
        void client.ended().then(() => {
          if (current()) send({ type: 'CRASHED', error: this.failureOf(hosted, client), sample: this.random() });
        });
      },
      (e: unknown) => {
        // A server that exits when probed may be a legacy one that refuses anything before
        // initialize: its restarts speak the legacy era at once.
        if (e instanceof ServerExitedOnProbeError) hosted.legacyOnly = true;
        if (current()) send({ type: 'CONNECT_FAILED', error: this.failureOf(hosted, client, e), sample: this.random() });
      },
    );
  }

  /** The approval hook and trust of one server's client (nothing when no approver is configured). */
  private toolCallPolicy(server: string): Pick<ClientOptions, 'approveToolCall' | 'trustedServer'> {
    const approve = this.options.approveToolCall;
    const trustedServer = this.trusted.has(server);
    if (approve === undefined) return { trustedServer };
    return { trustedServer, approveToolCall: (request) => approve({ ...request, serverName: server }) };
  }

  /** Why a client's connection ended: the transport's failure (exit code, stderr tail) first. */
  private failureOf(hosted: Hosted, client: Client, rejection?: unknown): Error {
    const end = hosted.transportEnd;
    if (end?.phase === 'failed' && end.error) return end.error;
    if (client.error) return client.error;
    if (rejection !== undefined) return asError(rejection);
    const code = end?.details?.code;
    return new ConnectionClosedError(
      `MCP server "${hosted.name}" closed the connection${typeof code === 'number' ? ` (exited with code ${code})` : ''}`,
    );
  }

  /** The machine's `releaseClient` and `disconnect`: close the client and its transport, then report. */
  private release(hosted: Hosted, done: 'RELEASED' | 'CLOSED'): void {
    const { client, transport } = hosted;
    hosted.client = undefined;
    hosted.transport = undefined;
    void Promise.allSettled([client?.close(), transport?.close()]).then(() => hosted.actor.send({ type: done }));
  }

  private onSnapshot(hosted: Hosted, snapshot: ServerSnapshot): void {
    if (snapshot.status === 'done') hosted.markDone();
    const phase = snapshot.value as HostServerPhase;
    const ready = phase === 'ready' ? hosted.client : undefined;
    if (hosted.ready$.value !== ready && !hosted.ready$.closed) hosted.ready$.next(ready);
    const { context } = snapshot;
    const next: HostServerState = { phase, transport: hosted.config.kind, attempts: context.attempts };
    if (context.protocolVersion !== undefined) next.protocolVersion = context.protocolVersion;
    if (context.era !== undefined) next.era = context.era;
    if (context.error !== undefined) next.error = context.error;
    if (phase === 'waiting') next.restartInMs = context.delayMs;
    const all = this.stateSubject.value;
    const prev = all[hosted.name];
    if (prev && sameState(prev, next)) return;
    if (!this.stateSubject.closed) this.stateSubject.next({ ...all, [hosted.name]: next });
  }
}

function sameState(a: HostServerState, b: HostServerState): boolean {
  return (
    a.phase === b.phase &&
    a.attempts === b.attempts &&
    a.protocolVersion === b.protocolVersion &&
    a.era === b.era &&
    a.error === b.error &&
    a.restartInMs === b.restartInMs
  );
}

function asError(e: unknown): Error {
  return e instanceof Error ? e : new Error(String(e));
}

function checkRestart(r: RestartOptions): RestartOptions {
  const nonNegative = (key: keyof RestartOptions) => {
    if (!(typeof r[key] === 'number' && r[key] >= 0 && Number.isFinite(r[key]))) throw new TypeError(`restart.${key} must be a finite number ≥ 0; got ${r[key]}`);
  };
  for (const key of ['maxAttempts', 'initialDelayMs', 'maxDelayMs', 'resetAfterMs'] as const) nonNegative(key);
  if (!(r.factor >= 1)) throw new TypeError(`restart.factor must be ≥ 1; got ${r.factor}`);
  if (!(r.jitter >= 0 && r.jitter <= 1)) throw new TypeError(`restart.jitter must be in [0, 1]; got ${r.jitter}`);
  return r;
}

/** Create a host for these servers; `await host.start()` connects them. */
export function createHost(options: HostOptions): Host {
  return new Host(options);
}
