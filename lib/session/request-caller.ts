/**
 * Who sent the request a handler serves, as features read it: the facts both eras have, a legacy
 * session (from `initialize`) and a 2026-07-28 request (from its `_meta` envelope). Features that
 * need only these take a `RequestCaller` rather than a `Session`, so that a modern request is
 * served without a session standing in for its caller.
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/lifecycle
 */
import type { AnyActorRef } from 'xstate';
import type { PeerInfo, SessionPhase } from '../../machines/session.machine.js';
import type { Clock } from '../clock.js';
import type { JsonObject, RequestId } from '../jsonrpc/message.js';
import type { TransportPeer } from '../../streams/transport.js';
import type { RequestScope } from './request-scope.js';

export interface RequestCaller {
  /** What the transport's `authenticate` hook said about the caller, if anything. */
  readonly authInfo: unknown;
  /** The revision the caller speaks: negotiated by `initialize`, or the request's envelope. */
  readonly protocolVersion: string | undefined;
  /** The caller's capabilities (from `initialize`, or the request's envelope). */
  readonly peerCapabilities: Record<string, unknown> | undefined;
  /** The caller's name and version. */
  readonly peerInfo: PeerInfo | undefined;
  /** What this server declared. */
  readonly localCapabilities: Record<string, unknown>;
  /** A stateless transport serves the request: nothing ties the caller's next request to this one. */
  readonly stateless: boolean;
  /** The 2026-07-28 request being served (its envelope, input round, trace), if this is one. */
  readonly requestScope: RequestScope | undefined;
}

/**
 * What a request handler's `ctx.session` is, in both eras: the caller of the request. For a
 * legacy request it is the `ServerSession` the request arrived on (cast to `ServerSession` for
 * what only a session has: `close()`, `request()`, `state$`, its journal). For a 2026-07-28
 * request no session exists (the revision has none): it is the request's own caller, made from
 * its `_meta` envelope, `operating` for the request's life; `notify` sends a notification
 * related to the request, and `requestScope` is set.
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/lifecycle
 */
export interface ServerCaller extends RequestCaller {
  /** The lifecycle phase: a 2026-07-28 request's caller is `operating` until the request ends, then `closed`. */
  readonly currentPhase: SessionPhase;
  /** The server's clock (timeouts, journal times). */
  readonly sessionClock: Clock;
  /** Send the caller a notification (for a 2026-07-28 request: related to it, on its response stream). */
  notify(method: string, params?: JsonObject): void;
  /** @internal With an inspector: the actor what the caller owns is parented to (a session's; none for a modern request's caller). */
  readonly inspectActor: AnyActorRef | undefined;
  /** @internal What the transport knows of the caller (channel kind, address), for interceptors. */
  readonly transportPeer: TransportPeer | undefined;
  /** @internal Who the caller is in request records (`session-<n>`; none for a modern request). */
  readonly callerLabel: string | undefined;
  /** @internal Call `fn` once when the caller ends (the session closes, or the modern request is answered). */
  onEnd(fn: () => void): void;
  /** @internal A notification the runtime sends of itself (a task's status): not journaled as a call. */
  notifyDerived(method: string, params: JsonObject): void;
  /** @internal A notification tied to the inbound request `related`. */
  notifyRelated(method: string, params: JsonObject | undefined, related: RequestId): void;
  /** @internal Progress of the inbound request `related`. */
  progressFor(token: string | number, progress: number, total: number | undefined, message: string | undefined, related: RequestId, meta?: JsonObject): void;
}
