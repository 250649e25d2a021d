/**
 * The capabilities a server session declares to its caller: without `tasks.list` when the caller
 * cannot be identified (a stateless server without authentication), since a list would show every
 * such caller's tasks to each of them (the server refuses `tasks/list` to them too). Who is
 * identified is the one identity rule of lib/auth/principal.ts.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks#task-isolation-and-access-control
 */
import { principalOf } from '../auth/principal.js';

/** The caller of an `initialize`: its session (stateless or not) and what the transport said of it. */
export interface Caller {
  readonly session: { readonly stateless: boolean };
  readonly authInfo: unknown;
}

/** `capabilities` as declared to `caller` (the same object when nothing is withheld). */
export function capabilitiesForCaller(capabilities: Record<string, unknown>, caller: Caller): Record<string, unknown> {
  const tasks = capabilities.tasks as Record<string, unknown> | undefined;
  if (tasks === undefined || tasks === null || typeof tasks !== 'object' || !('list' in tasks)) return capabilities;
  if (!caller.session.stateless || principalOf(caller.authInfo) !== undefined) return capabilities;
  const { list: _list, ...rest } = tasks;
  return { ...capabilities, tasks: rest };
}
