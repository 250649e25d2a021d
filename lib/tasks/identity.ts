/**
 * Who a task belongs to: the authorization's subject (`sub`) when the transport authenticated
 * the caller, so the same user finds their tasks from any session; otherwise the session
 * itself, so a task is visible only where it was created.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks#task-isolation-and-access-control
 */
import { randomUUID } from 'node:crypto';
import type { Session } from '../session/session.js';

const sessionKeys = new WeakMap<Session, string>();

/** The owner key of the caller of a request. */
export function taskOwner(ctx: { readonly session: Session; readonly authInfo: unknown }): string {
  const subject = (ctx.authInfo as { subject?: unknown } | undefined)?.subject;
  if (typeof subject === 'string' && subject !== '') return `sub:${subject}`;
  let key = sessionKeys.get(ctx.session);
  if (key === undefined) sessionKeys.set(ctx.session, (key = `session:${randomUUID()}`));
  return key;
}
