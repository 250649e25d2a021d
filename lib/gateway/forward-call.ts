/**
 * A downstream `tools/call` forwarded to its upstream. A call the upstream runs as a task (a
 * 2026-07-28 upstream offering the tasks extension decides per call; a 2025-11-25 upstream's tool
 * that requires one) is followed to its result, and when the downstream caller gives up (its
 * request cancelled, or its gateway task cancelled) the upstream task is cancelled with
 * `tasks/cancel`. The client's transparent follow (`callTool`) only stops watching a task when its
 * signal aborts (by design: a stopped follow keeps the task for a later `task(id)`), which left
 * the upstream working for nobody (and the spec waiting for that cancellation hung).
 * `callToolAsTask` asks the client's approver and checks the result against the tool's
 * `outputSchema` as `callTool` does. The task's progress reaches the caller: a 2025-11-25 task's
 * `notifications/progress` (its request's token stays valid for the task's life), and, as the
 * tasks extension has no progress notifications, each new `statusMessage` of an extension task
 * (the extension's "progress descriptions for working"), as a progress notification whose
 * message it is.
 *
 * A caller that gives up while the upstream has not answered yet: closing the request at once
 * would lose a `CreateTaskResult` already on its way (the task would run on, its id unknown), so
 * the request stays open for {@link CANCEL_GRACE_MS} on the gateway's clock: a task that arrives
 * is cancelled, a result is dropped, and only a request still unanswered then is closed (which
 * cancels it upstream).
 * @see https://modelcontextprotocol.io/specification/2026-07-28/extensions/tasks/overview
 */
import type { Observable, Subscription } from 'rxjs';
import type { Client } from '../client.js';
import type { Task } from '../client-features/tasks.js';
import type { Clock } from '../clock.js';
import { TASKS_EXTENSION } from '../client-modern/extension-tasks.js';
import type { CallToolOptions } from '../client-features/tool-calls.js';
import { McpError } from '../errors.js';
import type { Host } from '../host/host.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import { hasCapability } from '../protocol/methods.js';
import type { CallToolResult } from '../protocol/schema/tools.js';
import type { Progress } from '../session/request-registry.js';

/** How long a request the caller gave up on stays open for its answer (a task to cancel). */
export const CANCEL_GRACE_MS = 2_000;

/** Whether `client` speaks 2026-07-28 to a server offering the tasks extension (any call may become a task). */
export function runsExtensionTasks(client: Client | undefined): boolean {
  if (client?.era !== 'modern') return false;
  const extensions = client.serverCapabilities?.extensions as Record<string, unknown> | undefined;
  return extensions !== null && typeof extensions === 'object' && extensions[TASKS_EXTENSION] !== undefined;
}

/** Why the caller gave up, as an error. */
const given = (signal: AbortSignal): Error => (signal.reason instanceof Error ? signal.reason : new McpError(ErrorCode.RequestTimeout, 'The downstream caller gave up on the call'));

/** A call: the tool as its server names it, and as the host does (`<server>__<tool>`). */
export interface ForwardedCall {
  server: string;
  qualified: string;
  name: string;
  args: Record<string, unknown> | undefined;
  /** The upstream tool's `execution.taskSupport` as listed (2025-11-25). */
  taskSupport?: string | undefined;
}

/** Whether the call runs as a task upstream: any call under the extension, a "required" tool of a 2025-11-25 server that runs tool tasks. */
function runsAsTask(client: Client | undefined, taskSupport: string | undefined): client is Client {
  if (client === undefined) return false;
  if (runsExtensionTasks(client)) return true;
  return client.era === 'legacy' && taskSupport === 'required' && hasCapability(client.serverCapabilities, ['tasks', 'requests', 'tools', 'call']);
}

/**
 * Call the tool on `host`: through the host as before, or, when the upstream runs it as a task,
 * as a task whose cancellation (by `options.signal`) reaches it.
 */
export async function forwardToolCall(host: Host, clock: Clock, call: ForwardedCall, options: CallToolOptions & { signal: AbortSignal }): Promise<CallToolResult> {
  const client = host.state[call.server]?.phase === 'ready' ? host.client(call.server) : undefined;
  // Not ready (the host's call says why), or no task upstream: the host's own call.
  if (!runsAsTask(client, call.taskSupport)) return host.callTool(call.qualified, call.args, options);
  const { signal, onprogress, ...rest } = options;
  // The last progress value told: a status message is told as the next one (values must increase).
  let told = 0;
  const tell = onprogress && ((p: Progress) => {
    told = Math.max(told, p.progress);
    onprogress(p);
  });
  // Ours, not the caller's: closed only once the grace is over, or the upstream task cancelled.
  const upstream = new AbortController();
  let grace: unknown;
  const giveUp = () => {
    grace = clock.setTimeout(() => upstream.abort(given(signal)), CANCEL_GRACE_MS);
  };
  if (signal.aborted) giveUp();
  else signal.addEventListener('abort', giveUp, { once: true });
  let handle;
  try {
    // The server decides: a handle on its task, or one already settled with the result.
    handle = await client.callToolAsTask(call.name, call.args, { ...rest, ...(tell && { onprogress: tell }), signal: upstream.signal });
  } finally {
    signal.removeEventListener('abort', giveUp);
    if (grace !== undefined) clock.clearTimeout(grace);
  }
  if (handle.taskId === '') {
    if (signal.aborted) throw given(signal);
    return handle.result();
  }
  let cancelling: Promise<unknown> | undefined;
  const cancel = () => {
    // Best effort (the upstream may have finished, or be gone), then stop following it.
    cancelling ??= handle.cancel().catch(() => undefined).finally(() => upstream.abort(given(signal)));
  };
  if (signal.aborted) cancel();
  else signal.addEventListener('abort', cancel, { once: true });
  const statuses = tell && runsExtensionTasks(client) ? forwardStatusMessages(handle.status$, (message) => tell({ progress: told + 1, message })) : undefined;
  try {
    return await handle.result();
  } finally {
    statuses?.unsubscribe();
    signal.removeEventListener('abort', cancel);
    // Keep the call in flight until the upstream has heard (an idle per-caller upstream is not closed under it).
    await cancelling;
  }
}

/** Each new `statusMessage` of a working task, told once. */
function forwardStatusMessages(status$: Observable<Task>, tell: (message: string) => void): Subscription {
  let last: string | undefined;
  return status$.subscribe((task) => {
    const message = task.statusMessage;
    if (task.status !== 'working' || message === undefined || message === last) return;
    last = message;
    tell(message);
  });
}
