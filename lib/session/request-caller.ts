/**
 * Who sent the request a handler serves, as features read it: the facts both eras have, a legacy
 * session (from `initialize`) and a 2026-07-28 request (from its `_meta` envelope). Features that
 * need only these take a `RequestCaller` rather than a `Session`, so that a modern request can be
 * served without a session standing in for its caller.
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/lifecycle
 */
import type { PeerInfo } from '../../machines/session.machine.js';
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
