/**
 * `resources/subscribe` and `resources/unsubscribe` (legacy era), per session, and
 * `notifications/resources/updated` to the sessions subscribed to a URI. Sessions shared by
 * several processes keep their subscriptions in their store instead.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/resources#subscriptions
 */
import { McpError } from '../errors.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import type { Server } from '../server.js';
import type { Session } from '../session/session.js';
import { callerOf } from './interceptors/dispatch.js';
import { seesResource, viewsOf } from './interceptors/views.js';

export class ResourceSubscriptions {
  private readonly bySession = new Map<Session, Set<string>>();

  constructor(
    private readonly server: () => Server | undefined,
    private readonly maxPerSession: () => number,
  ) {}

  /** The URIs `session` is subscribed to. */
  of(session: Session): ReadonlySet<string> {
    return this.bySession.get(session) ?? new Set();
  }

  /** Subscribe `session` to `uri` (checked by the caller); -32602 past the per-session limit. */
  subscribe(session: Session, uri: string): Promise<void> | void {
    const max = this.maxPerSession();
    const shared = this.server()?.sharedSessions;
    if (shared?.covers(session)) return shared.subscribe(session, uri, max);
    let uris = this.bySession.get(session);
    if (!uris) {
      uris = new Set();
      this.bySession.set(session, uris);
      session.state$.subscribe({ complete: () => this.bySession.delete(session) });
    }
    if (!uris.has(uri) && uris.size >= max) {
      throw new McpError(ErrorCode.InvalidParams, `Too many subscriptions: a session may hold at most ${max}`);
    }
    uris.add(uri);
  }

  unsubscribe(session: Session, uri: string): Promise<void> | void {
    const shared = this.server()?.sharedSessions;
    if (shared?.covers(session)) return shared.unsubscribe(session, uri);
    this.bySession.get(session)?.delete(uri);
  }

  /** Tell every subscriber of `uri` (and the listen streams); returns how many sessions of this process were told. */
  updated(uri: string): number {
    const server = this.server();
    server?.publish({ type: 'resourceUpdated', uri });
    // Sessions shared by several processes keep their subscriptions in their store, which tells them.
    const shared = server?.sharedSessions;
    shared?.resourceUpdated(uri);
    // A subscriber that can no longer see the resource (per-caller views) is not told of it.
    const views = viewsOf(server?.interceptorList ?? [], 'resources');
    let sent = 0;
    for (const [session, uris] of this.bySession) {
      if (!uris.has(uri) || session.currentPhase !== 'operating' || shared?.covers(session)) continue;
      if (views.length > 0 && !seesResource(views, uri, callerOf(session))) continue;
      try {
        session.notify('notifications/resources/updated', { uri });
        sent++;
      } catch {
        // The session is closing; its subscriptions go with it.
      }
    }
    return sent;
  }
}
