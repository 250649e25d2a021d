/**
 * URL-mode elicitations bound to the user they were issued to. The identity comes from the
 * credentials the server verified (the transport's `authInfo`, e.g. the token's `sub`), never
 * from anything the client or the URL says; a pending elicitation is found by that identity and
 * its id, not by the session id alone, and only the same user may complete it.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#statefulness
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#identifying-the-user
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#phishing
 */
import { defaultIdentity } from '../../streams/http-auth.js';
import type { ServerCaller } from '../session/session.js';

/**
 * Who finished the out-of-band interaction, as the server verified it on its own route (its
 * login session, an OAuth callback): the verified `authInfo`, or an identity key made the same
 * way as the one the elicitation was bound to.
 */
export interface ElicitationCompleter {
  authInfo?: unknown;
  /** An identity key; wins over `authInfo`. */
  identity?: string;
}

/**
 * The identity key of a verified `authInfo`: its subject (`sub`), else its client id, the same
 * key the HTTP servers bind sessions to. Undefined when nothing was authenticated.
 */
export function elicitationIdentity(authInfo: unknown, override?: string): string | undefined {
  return override ?? defaultIdentity(authInfo);
}

/** The identity of a completer, or undefined when it names none. */
export function completerIdentity(by: ElicitationCompleter | undefined): string | undefined {
  if (!by) return undefined;
  return elicitationIdentity(by.authInfo, by.identity);
}

/**
 * A URL elicitation was completed by someone other than the user it was issued to (or by
 * someone who did not say who they are): refused, nothing sent, the elicitation still waits for
 * its user. Identities are not named in the message.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#phishing
 */
export class ElicitationIdentityError extends Error {
  override readonly name = 'ElicitationIdentityError';
  constructor(
    readonly elicitationId: string,
    readonly reason: 'mismatch' | 'missing',
  ) {
    super(
      reason === 'missing'
        ? `Elicitation ${JSON.stringify(elicitationId.slice(0, 256))} is bound to an authenticated user: pass who completed it ({ authInfo } verified on your completion route)`
        : `Elicitation ${JSON.stringify(elicitationId.slice(0, 256))} was issued to another user: the completion was refused. Verify the user who opened the URL is the one who was asked.`,
    );
  }
}

/** Pending URL elicitations by identity, then id: the session each was asked in. */
const pending = new Map<string, Map<string, ServerCaller>>();

/** Remember that `identity`'s elicitation `id` waits in `session`. */
export function bindElicitation(identity: string, id: string, session: ServerCaller): void {
  let ids = pending.get(identity);
  if (!ids) pending.set(identity, (ids = new Map()));
  ids.set(id, session);
}

/** Forget it (settled, or its session closed). */
export function unbindElicitation(identity: string, id: string): void {
  const ids = pending.get(identity);
  if (!ids) return;
  ids.delete(id);
  if (ids.size === 0) pending.delete(identity);
}

/** The session where `identity`'s pending elicitation `id` waits, if any. */
export function sessionOfElicitation(identity: string, id: string): ServerCaller | undefined {
  return pending.get(identity)?.get(id);
}
