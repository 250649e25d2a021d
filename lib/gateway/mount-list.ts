/**
 * Keeps registrations on a downstream server in step with an upstream list: an item that appears
 * (or changes) is registered, one that goes is removed; the server's own list_changed
 * notifications tell downstream clients.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#list-changed-notification
 */
import type { Observable, Subscription } from 'rxjs';

/** What a registration returns: enough to take it back. */
export interface Removable {
  remove(): void;
}

/**
 * Mount `list$` with `register`, items told apart by `key`. A registration that throws (say a
 * URI two upstreams both serve) is skipped: the first one mounted keeps it.
 */
export function mountList<T>(list$: Observable<T[]>, key: (item: T) => string, register: (item: T) => Removable, onSkipped?: (item: T, error: Error) => void): Subscription {
  const mounted = new Map<string, { handle: Removable; shape: string }>();
  const sub = list$.subscribe((items) => {
    const seen = new Set<string>();
    for (const item of items) {
      const k = key(item);
      if (seen.has(k)) continue;
      seen.add(k);
      const shape = JSON.stringify(item);
      const current = mounted.get(k);
      if (current?.shape === shape) continue;
      current?.handle.remove();
      mounted.delete(k);
      try {
        mounted.set(k, { handle: register(item), shape });
      } catch (e) {
        onSkipped?.(item, e as Error);
      }
    }
    for (const [k, { handle }] of mounted) {
      if (!seen.has(k)) {
        handle.remove();
        mounted.delete(k);
      }
    }
  });
  sub.add(() => {
    for (const { handle } of mounted.values()) handle.remove();
    mounted.clear();
  });
  return sub;
}
