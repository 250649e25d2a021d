/**
 * Sessions whose state lives in a store shared by several processes (HTTP sessions served by a
 * deployment on Redis, see `lib/server-bindings/http-cluster.ts`). The features ask it instead of their
 * per-process maps: a shared session's log level and resource subscriptions are the store's,
 * and a notification for "every session" (list changed, a resource updated, a server log
 * message) is written once into the store for every shared session it concerns, by the process
 * where the change happened, never by each process that has a copy of a session.
 *
 * Without a shared store (the default) `Server.sharedSessions` is undefined and nothing changes.
 */
import type { JsonObject } from '../jsonrpc/message.js';
import type { LoggingLevel } from '../protocol/schema/logging.js';
import type { ServerCaller, Session } from '../session/session.js';

export type SharedListKind = 'tools' | 'prompts' | 'resources';

export interface SharedSessions {
  /** Whether `session` is a copy of a shared session (the store holds its state; fan-outs reach it); never a 2026-07-28 request's caller. */
  covers(session: ServerCaller): boolean;
  /** `notifications/<kind>/list_changed` to every shared session told `<kind>.listChanged`. */
  listChanged(kind: SharedListKind): void;
  /** `notifications/resources/updated` to every shared session subscribed to `uri`. */
  resourceUpdated(uri: string): void;
  /**
   * `notifications/message` with `params` (already checked, redacted and bounded) to every shared
   * session whose level (`defaultLevel` when its client set none) lets `level` through; with
   * `requireAccess`, only to sessions the server's access rule admitted (see {@link setLogAccess}).
   */
  log(level: LoggingLevel, params: JsonObject, options: { requireAccess: boolean; defaultLevel: LoggingLevel }): void;
  /** Subscribe a shared session to `uri` (durable when this resolves); -32602 past `max` URIs. */
  subscribe(session: Session, uri: string, max: number): Promise<void>;
  unsubscribe(session: Session, uri: string): Promise<void>;
  /** The level a shared session's client set, as last read from the store; undefined when never set. */
  logLevelOf(session: ServerCaller): LoggingLevel | undefined;
  /** Store a shared session's level (durable when this resolves). */
  setLogLevel(session: Session, level: LoggingLevel): Promise<void>;
  /** Whether the server's log access rule admits the session (read by {@link log} with `requireAccess`). */
  setLogAccess(session: Session, allowed: boolean): void;
}
