/**
 * Who a task belongs to: the authorization's subject (`sub`; else its client) when the
 * transport authenticated the caller, so the same user finds their tasks from any session; otherwise the session
 * itself, so a task is visible only where it was created. A stateless server's unauthenticated
 * callers cannot be told apart (each request has a session of its own): their tasks share one
 * owner and are found by id alone, which has 128 random bits (TASK-136), and they cannot be listed.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks#task-isolation-and-access-control
 */
import { randomUUID } from '../crypto/random.js';
import type { RequestCaller } from '../session/session.js';
import { defaultIdentity } from '../../streams/http-auth.js';

const sessionKeys = new WeakMap<RequestCaller, string>();

/** The owner of tasks created by callers nobody can tell apart (stateless, unauthenticated). */
export const UNIDENTIFIED_OWNER = 'unidentified';

/** The owner key of the caller of a request. */
export function taskOwner(ctx: { readonly session: RequestCaller; readonly authInfo: unknown }): string {
  // The same key the HTTP servers bind sessions to: `sub:` (sub, subject, userId), else the client.
  const identity = defaultIdentity(ctx.authInfo);
  if (identity !== undefined) return identity;
  if (ctx.session.stateless) return UNIDENTIFIED_OWNER;
  let key = sessionKeys.get(ctx.session);
  if (key === undefined) sessionKeys.set(ctx.session, (key = `session:${randomUUID()}`));
  return key;
}

/**
 * Whether the caller of a request can be told apart from other callers: authenticated, or (before
 * 2026-07-28) in a session of its own. Callers that cannot share one owner, so they share one
 * quota too (`maxLiveUnidentified`), rather than one caller's tasks counting against all.
 */
export function isIdentified(ctx: { readonly session: RequestCaller; readonly authInfo: unknown }, modern = false): boolean {
  if (defaultIdentity(ctx.authInfo) !== undefined) return true;
  return !modern && !ctx.session.stateless;
}

