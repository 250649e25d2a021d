/**
 * The server session one modern request is served on: made per request from what its Server
 * shares (info, capabilities by reference, handlers), never connected to a transport, never
 * listed among the server's sessions, dropped when the request is answered.
 */
import { MODERN_REVISIONS } from '../protocol/revisions.js';
import type { Server } from '../server.js';
import { Session } from '../session/session.js';

export class ServerSessionForRequest extends Session {
  constructor(
    server: Server,
    private readonly caller?: unknown,
  ) {
    super('server', { ...server.options, capabilities: server.declaredCapabilities, supportedVersions: [...MODERN_REVISIONS] }, server.requestHandlerTable, true);
  }

  /** Who the transport says the caller is, already before the request is served (a hook may ask). */
  override get authInfo(): unknown {
    return super.authInfo ?? this.caller;
  }
}
