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
 * is refused when several are (see input-bridge.ts).
 * @see https://modelcontextprotocol.io/specification/2025-11-25/architecture
 */
import { firstValueFrom, timeout, type Observable, type Subscription } from 'rxjs';
import { createHost, type Host, type HostOptions } from '../host/host.js';
import { createMcpServer, type McpServer } from '../mcp-server.js';
import type { PeerInfo } from '../../machines/session.machine.js';
import { InputBridge } from './input-bridge.js';
import { mountPrompts } from './mount-prompts.js';
import { mountResources } from './mount-resources.js';
import { mountTools } from './mount-tools.js';

/** How long `start()` waits for a ready upstream's first tool listing. */
const FIRST_LISTING_MS = 10_000;

export interface GatewayOptions extends Omit<HostOptions, 'onClient'> {
  /** The name and version downstream clients see. */
  info?: PeerInfo;
}

export interface Gateway {
  readonly host: Host;
  readonly server: McpServer;
  /**
   * Start every upstream; resolves when each has connected (its tools mounted) or failed, so a
   * transport served after it never answers "unknown tool" for a tool that is on its way.
   */
  start(): Promise<void>;
  close(): Promise<void>;
}

export function createGateway(options: GatewayOptions): Gateway {
  const { info = { name: 'mcp-actors-gateway', version: '0.1.0' }, ...hostOptions } = options;
  const bridge = new InputBridge();
  const host = createHost({ ...hostOptions, onClient: (client, name) => bridge.attach(client, name) });
  // Declared up front: tools arrive after downstream sessions may have initialized.
  const server = createMcpServer({ info, capabilities: { tools: { listChanged: true } } });
  let mounted: Subscription | undefined;
  const mountAll = () => {
    const all = mountTools(host, server, bridge);
    all.add(mountPrompts(host, server, bridge));
    all.add(mountResources(host, server));
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
    },
    async close() {
      mounted?.unsubscribe();
      await host.close();
      await server.close();
    },
  };
}
