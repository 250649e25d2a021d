/**
 * A gateway: the MCP servers of a host (stdio or HTTP, legacy or 2026-07-28) re-served as one
 * dual-era {@link McpServer}: their tools and prompts namespaced `<server>__<name>`, their
 * resources under their own URIs (a read goes to the server that listed it), prompt argument
 * completions routed. Capabilities beyond `tools` are declared once some upstream has the list. Add your own tools to
 * `gateway.server` beside the mounted ones; serve it with any transport (e.g.
 * `createStreamableHttpHandler(gateway.server.server)`).
 *
 * Upstream clients are shared by every downstream session; an upstream's elicitation or
 * sampling request goes to the downstream caller whose call is in flight on that upstream, and
 * is refused when several are; a 2026-07-28 caller answers it in an input round while the
 * upstream call waits for its retry (see input-bridge.ts).
 * @see https://modelcontextprotocol.io/specification/2025-11-25/architecture
 */
import { firstValueFrom, timeout, type Observable, type Subscription } from 'rxjs';
import { principalOf } from '../auth/principal.js';
import { systemClock } from '../clock.js';
import { serverEntries, type ServerConfig } from '../host/config.js';
import { createHost, type Host, type HostOptions } from '../host/host.js';
import { isModernRevision } from '../protocol/revisions.js';
import { createMcpServer, type McpServer } from '../mcp-server.js';
import type { PeerInfo } from '../../machines/session.machine.js';
import type { Client } from '../client.js';
import { InputBridge } from './input-bridge.js';
import { GatewayRecorder } from './record.js';
import { compileView, viewOfEntry, type ServerView } from './server-views.js';
import { perCallerView, type PerCallerViewOptions } from '../server-features/interceptors/views.js';
import { mountPrompts } from './mount-prompts.js';
import { mountResources } from './mount-resources.js';
import { mountTemplates } from './mount-templates.js';
import { mountTools } from './mount-tools.js';
import { SessionUpstreams, type Route } from './session-upstreams.js';
import { UpstreamFaults } from './upstream-fault.js';
import { sessionOf } from '../session/session.js';
import type { ServerTaskOptions } from '../tasks/server-tasks.js';

/** How long `start()` waits for a ready upstream's first tool listing. */
const FIRST_LISTING_MS = 10_000;

/** How downstream sessions share an upstream: one client for all, or one per downstream session. */
export type UpstreamSharing = 'shared' | 'perSession';

/** Default bound on per-session upstreams running at once. */
export const DEFAULT_MAX_SESSION_UPSTREAMS = 32;

/** Default idle time after which a 2026-07-28 principal's own upstreams close. */
export const DEFAULT_PRINCIPAL_IDLE_MS = 300_000;

/** Default time an upstream call waits for a 2026-07-28 caller's retry with its input (the upstream client's request timeout). */
export const DEFAULT_INPUT_WAIT_MS = 60_000;

export interface GatewayOptions extends Omit<HostOptions, 'onClient'> {
  /** The name and version downstream clients see. */
  info?: PeerInfo;
  /**
   * `'shared'` (default): one upstream client serves every downstream session. `'perSession'`:
   * each downstream (legacy-era) session gets its own, started on its first call and closed when
   * it ends: for stateful upstreams. One value for every server, or per server name.
   */
  upstreams?: UpstreamSharing | Record<string, UpstreamSharing>;
  /** At most this many per-session upstreams at once; a call beyond fails (default 32). */
  maxSessionUpstreams?: number;
  /**
   * `perSession` for 2026-07-28 callers, which have no session: the unit is the authenticated
   * principal, whose upstreams close once they have had no call for this long (ms, on the
   * host's `clock`; default 300000). Unauthenticated 2026-07-28 callers use the shared upstream.
   */
  principalIdleMs?: number;
  /**
   * When an upstream asks a 2026-07-28 caller for input during a call, the caller's request ends
   * `input_required` and the upstream call waits (it is not run again) for the caller's retry
   * with the answer: at most this long (ms, on the host's `clock`; default 60000), then it is
   * cancelled upstream. Keep it within the upstream clients' request `timeout`.
   * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr
   */
  inputWaitMs?: number;
  /**
   * A directory to journal both sides of every bridged exchange into: one file per downstream
   * session (the 2026-07-28 requests, which have none, in `downstream-modern.jsonl`) and per
   * upstream client, each readable by `mcp-actors inspect`, written entry by entry as it goes
   * (a killed gateway leaves them readable; see record.ts).
   * It must be new or hold no journals yet.
   */
  record?: string;
  /**
   * Per server, which tools, prompts, resources and templates are mounted and under which names
   * (see {@link ServerView}); the same keys in a server's `mcpServers` entry work too (this option
   * wins for a server given both ways).
   */
  views?: Record<string, ServerView>;
  /**
   * Per caller: what each downstream caller sees, by a predicate over the names the gateway shows
   * and the request (its caller, principal, scopes): {@link perCallerView}. Hidden names are
   * unknown to that caller (-32602) and it hears `list_changed` only when what it sees changed.
   */
  callerView?: PerCallerViewOptions;
  /**
   * The gateway's own tasks (a downstream task-augmented call of a task-capable upstream tool is
   * a task of the gateway's server): their store, rate limit, `tasks/list`. See {@link ServerTaskOptions}.
   */
  tasks?: ServerTaskOptions;
}

export interface Gateway {
  readonly host: Host;
  readonly server: McpServer;
  /**
   * Start every upstream; resolves when each has connected (its tools mounted) or failed, so a
   * transport served after it never answers "unknown tool" for a tool that is on its way.
   */
  start(): Promise<void>;
  /** Per-session upstreams running now. */
  readonly sessionUpstreams: number;
  /** Upstream calls waiting for a 2026-07-28 caller's retry with its input (see `inputWaitMs`). */
  readonly parkedCalls: number;
  /** The journal files written so far (with `record`). */
  readonly recorded: readonly string[];
  close(): Promise<void>;
}

export function createGateway(options: GatewayOptions): Gateway {
  const { info = { name: 'mcp-actors-gateway', version: '0.1.0' }, upstreams = 'shared', maxSessionUpstreams = DEFAULT_MAX_SESSION_UPSTREAMS, record, views: viewOptions, callerView, principalIdleMs = DEFAULT_PRINCIPAL_IDLE_MS, inputWaitMs = DEFAULT_INPUT_WAIT_MS, tasks, ...given } = options;
  const recorder = record === undefined ? undefined : new GatewayRecorder(record);
  const hostOptions: typeof given = recorder ? { ...given, clientOptions: { ...given.clientOptions, journal: true } } : given;
  // (A timer beyond 2^31-1 ms would fire at once.)
  if (!(inputWaitMs > 0 && inputWaitMs <= 2_147_483_647)) throw new TypeError(`inputWaitMs must be a positive number of ms, at most 2147483647; got ${String(inputWaitMs)}`);
  const bridge = new InputBridge(hostOptions.clock ?? systemClock, inputWaitMs);
  const faults = new UpstreamFaults();
  const onClient = (client: Client, name: string, key: string) => {
    bridge.attach(client, key);
    faults.watch(client);
    recorder?.track(client, 'upstream', name);
  };
  const host = createHost({ ...hostOptions, onClient: (client, name) => onClient(client, name, name) });
  const configs = new Map(serverEntries(hostOptions.servers ?? { mcpServers: hostOptions.mcpServers ?? {} }));
  if (!(principalIdleMs > 0)) throw new TypeError(`principalIdleMs must be a positive number of ms; got ${String(principalIdleMs)}`);
  const perSession = new SessionUpstreams(
    (name, key) => {
      const { servers: _s, mcpServers: _m, ...rest } = hostOptions;
      return createHost({ ...rest, servers: { [name]: configs.get(name) as ServerConfig }, onClient: (client) => onClient(client, name, key) });
    },
    maxSessionUpstreams,
    { idleMs: principalIdleMs, clock: hostOptions.clock ?? systemClock, busy: (key) => bridge.busy(key) },
  );
  for (const name of Object.keys(viewOptions ?? {})) if (!configs.has(name)) throw new TypeError(`views: no server is named "${name}"; the servers are ${[...configs.keys()].join(', ')}`);
  const compiled = new Map([...configs].map(([name, entry]) => [name, compileView(name, viewOptions?.[name] ?? viewOfEntry(entry))]));
  const views = (name: string) => compiled.get(name) ?? compileView(name, undefined);
  if (typeof upstreams !== 'string') {
    for (const name of Object.keys(upstreams)) if (!configs.has(name)) throw new TypeError(`upstreams: no server is named "${name}"; the servers are ${[...configs.keys()].join(', ')}`);
  }
  const sharingOf = (name: string): UpstreamSharing => (typeof upstreams === 'string' ? upstreams : (upstreams[name] ?? 'shared'));
  const route: Route = async (ctx, name) => {
    if (sharingOf(name) !== 'perSession') return { host, key: name };
    const session = sessionOf(ctx.session);
    if (session !== undefined && !isModernRevision(ctx.revision)) return perSession.for(session, name);
    // No session in 2026-07-28: the caller's principal is the unit; an anonymous caller cannot be told apart.
    const who = principalOf(ctx.authInfo);
    return who === undefined ? { host, key: name } : perSession.for(who, name);
  };
  // Declared up front: tools arrive after downstream sessions may have initialized.
  const server = createMcpServer({ info, capabilities: { tools: { listChanged: true } }, ...(tasks && { tasks }), ...(recorder && { journal: true }) });
  if (callerView !== undefined) server.server.use(perCallerView(callerView));
  const recording = recorder && server.server.sessions$.subscribe((session) => recorder.track(session, 'downstream', session.callerLabel ?? 'session'));
  recorder?.trackModern(server.server);
  let mounted: Subscription | undefined;
  let templatesListed: Promise<unknown> = Promise.resolve();
  const mountAll = () => {
    const all = mountTools(host, server, bridge, route, views, hostOptions.clientOptions?.clock ?? hostOptions.clock ?? systemClock, faults);
    all.add(mountPrompts(host, server, bridge, route, views, faults));
    all.add(mountResources(host, server, views, faults));
    const templates = mountTemplates(host, server, views, faults);
    all.add(templates.subscription);
    templatesListed = templates.listed;
    return all;
  };
  return {
    host,
    server,
    async start() {
      mounted ??= mountAll();
      const state = await host.start();
      // The host is ready before its first tools/list answers; wait for that listing (mountTools
      // sees it first, being subscribed already), bounded, as a hung upstream must not stall us.
      await Promise.all(
        Object.entries(state)
          .filter(([, s]) => s.phase === 'ready')
          .map(([name]) => host.client(name))
          .filter((c) => c !== undefined)
          .flatMap((c) => [c.tools$, c.prompts$, c.resources$].map((list$: Observable<unknown[]>) => firstValueFrom(list$.pipe(timeout({ first: FIRST_LISTING_MS }))).catch(() => undefined))),
      );
      await Promise.race([templatesListed, new Promise((done) => setTimeout(done, FIRST_LISTING_MS).unref())]);
    },
    get sessionUpstreams() {
      return perSession.size;
    },
    get parkedCalls() {
      return bridge.parkedCalls;
    },
    get recorded() {
      return recorder?.written ?? [];
    },
    async close() {
      mounted?.unsubscribe();
      bridge.close();
      await perSession.close();
      await host.close();
      await server.close();
      recording?.unsubscribe();
      recorder?.close();
    },
  };
}
