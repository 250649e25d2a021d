/**
 * What the request-scoped core and `server/discover` use of the
 * `Server` they serve. `Server` has all of it (the compiler checks where it makes its core; the
 * class does not say `implements`, since these members are internal and left out of its published
 * types); they take this rather than the class so that the server and its core do not import each
 * other.
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/lifecycle
 */
import type { AnyActorRef } from 'xstate';
import type { ServerRequest } from '../session/server-request.js';
import type { HandlerTable, SessionOptions } from '../session/session.js';
import type { ServerEventBus } from './server-events.js';
import type { Interceptor } from '../server-features/interceptors/server-chain.js';
import type { RequestJournal } from '../journal/request-journal.js';

export interface ServedServer {
  /** The server's options (clock, progress interval, info). */
  readonly options: SessionOptions & { readonly instructions?: string };
  /** What sessions starting now declare (changed in place as features register). */
  readonly declaredCapabilities: Record<string, unknown>;
  /** The handlers a 2026-07-28 request runs. */
  readonly requestHandlerTable: HandlerTable;
  /** Change events for `subscriptions/listen` streams. */
  readonly events: ServerEventBus;
  /** A request ended (its record goes to the server's `requests$`). */
  readonly requestEnded: (request: ServerRequest) => void;
  /** The parent of a request's actor (with an inspector), or none. */
  readonly inspectParent: () => AnyActorRef | undefined;
  /** The interceptors registered with `use()`, in order (read per request). */
  readonly interceptorList: readonly Interceptor[];
  /** Where the requests served are journaled (`journal: true`, or someone watching `journal$`). */
  readonly requestJournal: RequestJournal;
  /** Whether a request handler is registered for `method`. */
  handlesRequest(method: string): boolean;
  /** A client is being served. */
  markServing(): void;
}
