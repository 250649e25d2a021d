/**
 * The server session one modern request is served on: made per request from what its Server
 * shares (info, capabilities by reference, handlers), never connected to a transport, never
 * listed among the server's sessions, dropped when the request is answered.
 */
import { MODERN_REVISIONS } from '../protocol/revisions.js';
import { Session, type SessionOptions } from '../session/session.js';
import type { ServedServer } from './served-server.js';

/**
 * The options of a server's request-scoped sessions, made once per server: spreading the
 * server's options for every request cost a fifth of making the session. The capabilities are
 * the server's own object, which `declareCapabilities` changes in place, so they stay current.
 */
const scopedOptions = new WeakMap<ServedServer, SessionOptions & { readonly instructions?: string }>();
function optionsFor(server: ServedServer): SessionOptions & { readonly instructions?: string } {
  let options = scopedOptions.get(server);
  if (options === undefined) {
    options = { ...server.options, capabilities: server.declaredCapabilities, supportedVersions: [...MODERN_REVISIONS] };
    scopedOptions.set(server, options);
  }
  return options;
}

export class ServerSessionForRequest extends Session {
  constructor(
    server: ServedServer,
    private readonly caller?: unknown,
  ) {
    super('server', optionsFor(server), server.requestHandlerTable, true);
  }

  /** Who the transport says the caller is, already before the request is served (a hook may ask). */
  override get authInfo(): unknown {
    return super.authInfo ?? this.caller;
  }
}
