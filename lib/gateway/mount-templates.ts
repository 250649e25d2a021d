/**
 * Mounts the upstreams' resource templates on the downstream server: listed from each ready
 * server that offers resources (again after its resources list changes), names namespaced
 * `<server>__<name>`, URI templates kept (a template two servers share is served by the first
 * mounted). A read that matches one goes to its server; variable completions go there when it
 * offers `completions`.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/resources#resource-templates
 */
import { catchError, combineLatest, distinctUntilChanged, firstValueFrom, from, map, of, shareReplay, switchMap, type Observable, type Subscription } from 'rxjs';
import type { Client } from '../client.js';
import type { Host } from '../host/host.js';
import type { McpServer } from '../mcp-server.js';
import type { ResourceTemplate } from '../protocol/schema/index.js';
import type { CompleteVariableCallback } from '../server-features/resources.js';
import { mountList } from './mount-list.js';
import type { CompiledView } from './server-views.js';
import type { UpstreamFaults } from './upstream-fault.js';

type HostTemplate = ResourceTemplate & { server: string };

/** The variable names of an RFC 6570 template (`{a,b}`, `{+path}`, `{?q*}`, `{x:3}`). */
export function templateVariables(uriTemplate: string): string[] {
  const names: string[] = [];
  for (const [, body] of uriTemplate.matchAll(/\{([^}]*)\}/g)) {
    for (const spec of body!.replace(/^[+#./;?&]/, '').split(',')) {
      const name = spec.replace(/\*$/, '').replace(/:\d+$/, '');
      if (name !== '' && !names.includes(name)) names.push(name);
    }
  }
  return names;
}

function templatesOf(host: Host, name: string): Observable<HostTemplate[]> {
  return host.state$.pipe(
    map((all) => (all[name]?.phase === 'ready' ? host.client(name) : undefined)),
    distinctUntilChanged(),
    switchMap((client: Client | undefined) =>
      client?.serverCapabilities?.resources === undefined
        ? of([])
        : // Re-listed whenever its resources list is (list_changed covers templates too).
          client.resources$.pipe(
            switchMap(() => from(client.listResourceTemplates()).pipe(catchError(() => of([] as ResourceTemplate[])))),
            catchError(() => of([] as ResourceTemplate[])),
          ),
    ),
    map((list) => list.map((t) => ({ ...t, server: name }))),
  );
}

/** Mount the templates; `listed` resolves once every server's current list has been mounted. */
export function mountTemplates(host: Host, server: McpServer, views: (server: string) => CompiledView, faults: UpstreamFaults): { subscription: Subscription; listed: Promise<unknown> } {
  const names = host.serverNames;
  const all$ = names.length === 0 ? of([]) : combineLatest(names.map((n) => templatesOf(host, n))).pipe(map((lists) => lists.flat()), shareReplay({ bufferSize: 1, refCount: true }));
  const shown$ = all$.pipe(map((list) => list.filter((t) => views(t.server).template(t.uriTemplate))));
  const subscription = mountList(shown$, (t) => `${t.server}\u0000${t.uriTemplate}`, (t) => register(host, server, t, faults));
  return { subscription, listed: firstValueFrom(all$) };
}

function register(host: Host, server: McpServer, template: HostTemplate, faults: UpstreamFaults) {
  const { name, uriTemplate, server: owner, title, description, mimeType, annotations, icons } = template;
  const client = host.client(owner);
  const complete: Record<string, CompleteVariableCallback> = {};
  if (client?.serverCapabilities?.completions !== undefined) {
    for (const variable of templateVariables(uriTemplate)) {
      complete[variable] = async (value, context, ctx) =>
        (
          await faults.guard(host, owner, 'completion/complete', () =>
            client.complete({ type: 'ref/resource', uri: uriTemplate }, { name: variable, value }, { arguments: context.arguments }, { ...(ctx && { signal: ctx.signal }) }),
          )
        ).completion.values;
    }
  }
  const metadata = {
    ...(title !== undefined ? { title } : {}),
    ...(description !== undefined ? { description } : {}),
    ...(mimeType !== undefined ? { mimeType } : {}),
    ...(annotations !== undefined ? { annotations } : {}),
    ...(icons !== undefined ? { icons } : {}),
    ...(Object.keys(complete).length > 0 ? { complete } : {}),
  };
  return server.registerResourceTemplate(host.qualify(owner, name), uriTemplate, metadata, (uri, _vars, ctx) =>
    faults.guard(host, owner, 'resources/read', () => host.readResource(uri, owner, { signal: ctx.signal })),
  );
}
