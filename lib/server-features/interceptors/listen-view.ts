/**
 * Per-caller views on `subscriptions/listen` streams (2026-07-28): a stream is told of a list
 * change only when what its caller can see of that list changed since the stream last heard
 * of it (or opened), and of a resource update only when its caller can see the resource. The
 * predicates are asked with the request the caller would send on hearing: `<kind>/list` (no
 * params), `resources/read` (with the uri). With a shared event bus, the listing compared is
 * this process's registry: processes that register different things see different changes.
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/subscriptions
 */
import type { ServerEvent } from '../../modern/server-events.js';
import { principalOf } from '../../auth/principal.js';
import type { TransportPeer } from '../../../streams/transport.js';
import { listingOf, sameEntries, type ListKind } from '../listings.js';
import type { Interceptor, InterceptorCaller } from './server-chain.js';
import { seesResource, viewsOf, type VisibleTo } from './views.js';

const KINDS: readonly ListKind[] = ['tools', 'prompts', 'resources'];

/**
 * Which events one listen stream of the caller (`authInfo`, `peer`) may hear, or undefined when
 * `server` has no per-caller view (every event passes). Call once per stream, when it opens.
 */
export function listenView(server: { readonly interceptorList: readonly Interceptor[] }, authInfo: unknown, peer: TransportPeer | undefined): ((event: ServerEvent) => boolean) | undefined {
  const views = new Map<ListKind, VisibleTo[]>();
  for (const kind of KINDS) {
    const v = viewsOf(server.interceptorList, kind);
    if (v.length > 0) views.set(kind, v);
  }
  if (views.size === 0) return undefined;
  const caller: InterceptorCaller = { era: 'modern', principal: principalOf(authInfo), authInfo, peer };
  const visibleNow = (kind: ListKind, v: readonly VisibleTo[]): readonly unknown[] | undefined => {
    const req = { method: `${kind}/list`, params: undefined, caller };
    return listingOf(server, kind)?.((name) => v.every((f) => f(name, req)));
  };
  // What the stream's caller could see when it last heard of each list (from when it opened).
  const heard = new Map<ListKind, readonly unknown[] | undefined>();
  for (const [kind, v] of views) heard.set(kind, visibleNow(kind, v));
  return (event) => {
    if (event.type === 'resourceUpdated') {
      const v = views.get('resources');
      return v === undefined || seesResource(v, event.uri, caller);
    }
    const v = views.get(event.kind);
    if (v === undefined) return true;
    const before = heard.get(event.kind);
    const now = visibleNow(event.kind, v);
    heard.set(event.kind, now);
    // No listing to compare (nothing provides one): told, as without a view.
    return before === undefined || now === undefined || !sameEntries(before, now);
  };
}
