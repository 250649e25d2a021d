/**
 * Mounts the host's resources on the downstream server, kept in step with `host.resources$`.
 * A resource keeps its URI (its contents name it; rewriting it would break links between
 * resources), so URIs are routed, not namespaced: a read goes to the server that listed the URI.
 * When two servers list the same URI the first one mounted serves it and the other is reported.
 * Each resource of a server that offers subscriptions is subscribed upstream while mounted, and
 * its updates go to the downstream sessions subscribed to it.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/resources
 */
import { map, type Subscription } from 'rxjs';
import type { Host, HostResource } from '../host/host.js';
import type { McpServer } from '../mcp-server.js';
import { mountList } from './mount-list.js';
import type { CompiledView } from './server-views.js';
import type { UpstreamFaults } from './upstream-fault.js';

export function mountResources(host: Host, server: McpServer, views: (server: string) => CompiledView, faults: UpstreamFaults, onSkipped?: (resource: HostResource, error: Error) => void): Subscription {
  const shown$ = host.resources$.pipe(map((list) => list.filter((r) => views(r.server).resource(r.uri))));
  return mountList(shown$, (r) => r.uri, (r) => register(host, server, r, faults), onSkipped);
}

function register(host: Host, server: McpServer, resource: HostResource, faults: UpstreamFaults) {
  const { uri, name, server: owner, title, description, mimeType, size, annotations, icons } = resource;
  const metadata = {
    ...(title !== undefined ? { title } : {}),
    ...(description !== undefined ? { description } : {}),
    ...(mimeType !== undefined ? { mimeType } : {}),
    ...(size !== undefined ? { size } : {}),
    ...(annotations !== undefined ? { annotations } : {}),
    ...(icons !== undefined ? { icons } : {}),
  };
  const handle = server.registerResource(name, uri, metadata, (_uri, ctx) =>
    faults.guard(host, owner, 'resources/read', () => host.readResource(uri, owner, { signal: ctx.signal })),
  );
  // Updates: subscribed upstream while mounted (the resources feature has no hook for a downstream
  // subscribe), passed on to the downstream sessions subscribed to the URI, and to no other.
  const client = host.client(owner);
  const subscribable = (client?.serverCapabilities?.resources as { subscribe?: boolean } | undefined)?.subscribe === true;
  const updates = subscribable ? client!.subscribe(uri).subscribe({ next: () => server.resources.notifyUpdated(uri), error: () => undefined }) : undefined;
  return {
    remove() {
      updates?.unsubscribe();
      handle.remove();
    },
  };
}
