/**
 * `notifications/{tools,prompts,resources}/list_changed`, derived from a registry's state
 * stream: changes are debounced on the server's clock and the notification goes to every
 * operating session that was told `listChanged: true` for that list.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#list-changed-notification
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/prompts#list-changed-notification
 */
import { Observable, skip, tap, type MonoTypeOperatorFunction, type Subscription } from 'rxjs';
import type { Clock } from '../clock.js';
import { hasCapability } from '../protocol/methods.js';
import type { Server, ServerSession } from '../server.js';
import { listEpochsOf } from './list-epochs.js';
import { callerOf } from './interceptors/dispatch.js';
import { viewsOf, type VisibleTo } from './interceptors/views.js';
import { provideListing, sameEntries, type ListKind } from './listings.js';

/**
 * Trailing debounce on `clock`: emits the last value once `ms` pass without a new one. So that
 * a steady trickle of changes cannot hold the notification back for ever, a value is emitted at
 * the latest `maxWaitMs` after the first one of a burst (default: 10 × `ms`, at least 1 s).
 * The timer is named `name`, for clocks that keep names (a `ManualClock` can fire it).
 */
export function debounceOnClock<T>(ms: number, clock: Clock, name: string, maxWaitMs = Math.max(10 * ms, 1000)): MonoTypeOperatorFunction<T> {
  return (source) =>
    new Observable<T>((subscriber) => {
      let timer: unknown;
      let burstStart = 0;
      let last: T;
      const fire = (): void => {
        timer = undefined;
        subscriber.next(last);
      };
      const sub = source.subscribe({
        next: (value) => {
          last = value;
          const now = clock.now();
          if (timer === undefined) burstStart = now;
          else clock.clearTimeout(timer);
          const wait = Math.max(0, Math.min(ms, burstStart + maxWaitMs - now));
          timer = clock.setTimeout(fire, wait, name);
        },
        error: (e) => subscriber.error(e),
        // A pending notification is dropped: the source ends when the server closes.
        complete: () => subscriber.complete(),
      });
      return () => {
        sub.unsubscribe();
        if (timer !== undefined) clock.clearTimeout(timer);
      };
    });
}

export type { ListKind } from './listings.js';

/** The notification method of each list. */
export const LIST_CHANGED_METHOD: Record<ListKind, string> = {
  tools: 'notifications/tools/list_changed',
  prompts: 'notifications/prompts/list_changed',
  resources: 'notifications/resources/list_changed',
};

/** The predicate `session`'s caller sees a list's entries by: all of `views`, asked with the `<kind>/list` request it would send. */
export function seesFor(views: readonly VisibleTo[], kind: ListKind, session: ServerSession): (name: string) => boolean {
  const req = { method: `${kind}/list`, params: undefined, caller: callerOf(session) };
  return (name) => views.every((v) => v(name, req));
}

export interface ListChangedOptions {
  server: Server;
  clock: Clock;
  debounceMs: number;
}

/**
 * Send `notifications/<kind>/list_changed` to every operating session of `server` whose
 * declared capabilities say `<kind>.listChanged`, each time `listed$` changes (its first value,
 * the state at subscription, is not a change), debounced. Returns the subscription; unsubscribe
 * to stop. A session that began operating after the last change of a burst listed it already
 * and is not told (see `list-epochs.ts`).
 */
export function broadcastListChanged(kind: ListKind, listed$: Observable<unknown>, options: ListChangedOptions): Subscription {
  const method = LIST_CHANGED_METHOD[kind];
  const epochs = listEpochsOf(options.server);
  let last = 0;
  // What was listed when sessions were last told: with per-caller views, a session is told only
  // when the entries it can see differ (entries are immutable: an unchanged one is the same object).
  let settled: readonly unknown[] = [];
  // Shared sessions hear of changes made once this process served them (not of its start-up registrations).
  let sharedChange = false;
  const changed = () => {
    last = epochs.changed();
    if (options.server.sharedSessions !== undefined) sharedChange = true;
  };
  // The registry now (not what sessions were last told): what a listen stream compares against.
  let latest: readonly unknown[] = [];
  provideListing(options.server, kind, (sees) => latest.filter((e) => sees(String((e as { name?: unknown }).name))));
  let first = true;
  const settle = (v: unknown) => {
    latest = Array.isArray(v) ? v : [];
    if (first) settled = Array.isArray(v) ? v : [];
    first = false;
  };
  return listed$.pipe(tap(settle), skip(1), tap(changed), debounceOnClock(options.debounceMs, options.clock, `list-changed:${kind}`)).subscribe((current) => {
    const before = settled;
    const now = Array.isArray(current) ? (current as readonly unknown[]) : [];
    settled = now;
    const views = kind === 'resources' ? [] : viewsOf(options.server.interceptorList, kind);
    // 2026-07-28 listen streams, in this process or (with a shared bus) in others; not the
    // registrations a server makes before it serves anyone (a process starting up changed nothing).
    if (options.server.serving) options.server.publish({ type: 'listChanged', kind });
    // Sessions shared by several processes are told once, through their store.
    const shared = options.server.sharedSessions;
    if (sharedChange) shared?.listChanged(kind);
    sharedChange = false;
    for (const session of options.server.sessions) {
      // Sessions still initializing list afterwards anyway; the phase gate would refuse it.
      if (session.currentPhase !== 'operating' || shared?.covers(session)) continue;
      if (!epochs.isNewTo(session, last)) continue;
      if (!hasCapability(session.localCapabilities, [kind, 'listChanged'])) continue;
      if (views.length > 0 && !visibleChange(views, kind, session, before, now)) continue;
      try {
        session.notify(method);
      } catch {
        // The session closed between the check and the send: nothing to tell it.
      }
    }
  });
}

/** Whether the entries of `before` and `now` that `session`'s caller can see differ. */
function visibleChange(views: readonly VisibleTo[], kind: ListKind, session: ServerSession, before: readonly unknown[], now: readonly unknown[]): boolean {
  const sees = seesFor(views, kind, session);
  const seen = (list: readonly unknown[]) => list.filter((e) => sees(String((e as { name?: unknown }).name)));
  return !sameEntries(seen(before), seen(now));
}
