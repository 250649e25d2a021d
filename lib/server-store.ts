/**
 * What several processes of one deployment share, given to a server as ONE option
 * (`createMcpServer(info, { store })`, `new Server({ ..., store })`): the change events that
 * `subscriptions/listen` streams hear, the tasks, and what makes a multi round-trip request's
 * `requestState` valid on every process (one signing key, one replay guard).
 *
 * Every part is optional and has an in-memory default for one process; an explicit option
 * (`events`, `tasks.store`, `modern.requestState.key` / `.replayGuard`) wins over the store's
 * part. `mcp-actors/redis` makes one on Redis (`createRedisStore`). The server never closes a
 * store: it may serve several servers; its maker closes it.
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr
 */
import type { ServerEventBus } from './modern/server-events.js';
import type { ModernOptions } from './modern/request-core.js';
import type { ReplayGuard } from './modern/request-state.js';
import type { TaskStore } from './tasks/task-store.js';

/** The parts of a shared store, by name (each optional). */
export interface ServerStore {
  /** List changes and resource updates, heard by listen streams on every process. */
  readonly events?: ServerEventBus;
  /** Where tasks live, so that any process answers for any task. */
  readonly tasks?: TaskStore;
  /** `requestState` of multi round-trip requests: one signing key and single use, everywhere. */
  readonly requestState?: {
    /** The HMAC key (at least 32 bytes) every process signs and verifies with. */
    readonly key?: string | Uint8Array;
    /** Refuses a state used twice, on whichever process it comes back to. */
    readonly replayGuard?: ReplayGuard;
  };
}

/** The modern-era options with the store's requestState parts filled in where the user gave none. */
export function modernOptionsWithStore(modern: ModernOptions | undefined, store: ServerStore | undefined): ModernOptions | undefined {
  const shared = store?.requestState;
  if (shared === undefined) return modern;
  const own = modern?.requestState;
  const key = own?.key ?? shared.key;
  const replayGuard = own?.replayGuard ?? shared.replayGuard;
  return {
    ...modern,
    requestState: { ...own, ...(key !== undefined && { key }), ...(replayGuard !== undefined && { replayGuard }) },
  };
}
