/**
 * A task handle that tells its owner each status the client sees (while it follows the task, and
 * on `cancel()`): the client's task lifecycle events and its task journal are told this way.
 */
import type { Subscription } from 'rxjs';
import type { JsonObject } from '../jsonrpc/message.js';
import type { Task, TaskHandle } from './tasks.js';

/** What a client saw of one of its tasks (`client.taskEvents$`). */
export interface TaskLifecycleEvent {
  /** `created`: a call became this task; `resumed`: `task(id)` picked it up; `status`: the client saw a new status. */
  type: 'created' | 'resumed' | 'status';
  taskId: string;
  /** The tool, when this client started the task. */
  name?: string;
  status?: string;
  statusMessage?: string;
  /** On the client's clock (ms since the epoch). */
  at: number;
}

export const TERMINAL_STATUSES: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled']);

/** `handle`, calling `onStatus` once for each distinct status it shows. */
export function watched<R extends JsonObject>(handle: TaskHandle<R>, onStatus: (task: Task) => void): TaskHandle<R> {
  const keyOf = (t: Task | undefined) => (t === undefined ? undefined : `${t.status}\u0000${t.statusMessage ?? ''}\u0000${t.lastUpdatedAt}`);
  // What the handle shows already was told with its creation.
  let last = keyOf(handle.current);
  const see = (t: Task | undefined) => {
    if (t === undefined) return;
    const key = keyOf(t);
    if (key === last) return;
    last = key;
    onStatus(t);
  };
  let following: Subscription | undefined;
  // Subscribing follows the task (as status$ and result() do); the subscription ends with it.
  const follow = () => void (following ??= handle.status$.subscribe({ next: see, error: () => undefined }));
  return {
    taskId: handle.taskId,
    get current() {
      return handle.current;
    },
    get status$() {
      follow();
      return handle.status$;
    },
    result: () => {
      follow();
      return handle.result().finally(() => see(handle.current));
    },
    cancel: () =>
      handle.cancel().then((t) => {
        see(t);
        return t;
      }),
  };
}
