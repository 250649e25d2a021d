/**
 * A 2026-07-28 request arriving on a session's transport (stdio, WebSocket, memory): the
 * request-scoped core answers it, whatever the session's phase; the session only tracks it so that
 * the peer's `notifications/cancelled` (or the session's end) reaches it.
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic
 */
import type { JsonRpcNotification, JsonRpcRequest, JsonRpcResponse, RequestId } from '../jsonrpc/message.js';
import type { TransportPeer } from '../../streams/transport.js';
import type { Incoming } from './handler-context.js';
import { errorFrom } from './request-dispatch.js';
import type { ModernDispatch } from './request-scope.js';
import type { Diagnostic } from './session-options.js';

/** What the session lends the modern request it carries. */
export interface ModernCarrier {
  readonly incoming: Map<RequestId, Incoming>;
  readonly authInfo: unknown;
  readonly transportPeer: TransportPeer | undefined;
  diagnose(kind: Diagnostic['kind'], message: string, detail?: unknown): void;
}

/** Serve `msg` through `modern`; `send` carries its notifications, related to it. */
export function serveModernOnSession(host: ModernCarrier, modern: ModernDispatch, msg: JsonRpcRequest, send: (frame: JsonRpcNotification) => void): Promise<JsonRpcResponse | undefined> {
  // No AbortController unless something reads `signal`: the core watches `cancellation`.
  const state: Incoming = { method: msg.method, controller: undefined, cancelled: false, done: false, progressed: false };
  host.incoming.set(msg.id, state);
  const io = {
    notify: (frame: JsonRpcNotification) => {
      if (!state.cancelled && !state.done) send(frame);
    },
    authInfo: host.authInfo,
    peerFacts: host.transportPeer,
    get signal(): AbortSignal {
      if (state.controller === undefined) {
        state.controller = new AbortController();
        if (state.cancelled) state.controller.abort(state.cancelReason);
      }
      return state.controller.signal;
    },
    cancellation: {
      get aborted(): boolean {
        return state.cancelled;
      },
      get reason(): unknown {
        return state.cancelReason;
      },
      onAbort(end: () => void): () => void {
        if (state.cancelled) {
          end();
          return () => {};
        }
        const once = () => {
          state.onCancel = undefined;
          end();
        };
        state.onCancel = once;
        return () => {
          if (state.onCancel === once) state.onCancel = undefined;
        };
      },
    },
  };
  return modern.serve(msg, io).then(
    (response) => {
      state.done = true;
      if (host.incoming.get(msg.id) === state) host.incoming.delete(msg.id);
      return state.cancelled ? undefined : response;
    },
    (e: unknown) => {
      state.done = true;
      host.incoming.delete(msg.id);
      return state.cancelled ? undefined : errorFrom(host, msg.id, msg.method, e);
    },
  );
}
