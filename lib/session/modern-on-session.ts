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
import type { ClientGoneWatcher, ModernDispatch } from './request-scope.js';
import type { Diagnostic } from './session-options.js';
import type { SlotMap } from './slot-map.js';

/** What the session lends the modern request it carries. */
export interface ModernCarrier {
  readonly incoming: SlotMap<RequestId, Incoming>;
  readonly authInfo: unknown;
  readonly transportPeer: TransportPeer | undefined;
  diagnose(kind: Diagnostic['kind'], message: string, detail?: unknown): void;
  /** Send `frame` related to request `id` (its notifications). */
  sendRelated(frame: JsonRpcNotification, id: RequestId): void;
}

/** Serve `msg` through `modern`, its notifications sent related to it: answered at once when its handler answered at once. */
export function serveModernOnSession(host: ModernCarrier, modern: ModernDispatch, msg: JsonRpcRequest): JsonRpcResponse | undefined | Promise<JsonRpcResponse | undefined> {
  const carried = new CarriedRequest(host, msg);
  host.incoming.set(msg.id, carried);
  return modern.serveCarried(msg, carried, FINISH);
}

/** The session's last step of a carried request, run by the core as its own (no closures, no async step of its own). */
const FINISH = {
  answered(answer: { readonly response: JsonRpcResponse | undefined }, carried: CarriedRequest): JsonRpcResponse | undefined {
    carried.done = true;
    const incoming = carried.host.incoming;
    if (incoming.get(carried.msg.id) === carried) incoming.delete(carried.msg.id);
    return carried.cancelled ? undefined : answer.response;
  },
  failed(e: unknown, carried: CarriedRequest): JsonRpcResponse | undefined {
    carried.done = true;
    carried.host.incoming.delete(carried.msg.id);
    return carried.cancelled ? undefined : errorFrom(carried.host, carried.msg.id, carried.msg.method, e);
  },
};

/**
 * One modern request as its session tracks it: at once the session's entry for it (`Incoming`),
 * the io the core serves it with, and that io's `cancellation`. One object with its accessors on
 * the prototype: a literal with getters and closures per request was the most expensive step of a
 * modern call on a session's transport. No AbortController unless something reads `signal`.
 */
class CarriedRequest implements Incoming {
  // (Declared, not defined: only a handler that reads `signal`, or the peer's cancellation, sets
  // them; a request answered without either carries no slot for them.)
  declare controller: AbortController | undefined;
  declare cancelReason: unknown;
  cancelled = false;
  done = false;
  progressed = false;
  readonly authInfo: unknown;
  readonly peerFacts: TransportPeer | undefined;
  /** What runs once when the peer cancels (the core's watch; see {@link watchRequest} and {@link onAbort}). */
  private watcher: ClientGoneWatcher | (() => void) | undefined = undefined;

  constructor(
    readonly host: ModernCarrier,
    readonly msg: JsonRpcRequest,
  ) {
    this.authInfo = host.authInfo;
    this.peerFacts = host.transportPeer;
  }

  /** The request's method (read from the request, not copied per request). */
  get method(): string {
    return this.msg.method;
  }

  /** A notification related to the request, until it is answered or cancelled. */
  notify(frame: JsonRpcNotification): void {
    if (!this.cancelled && !this.done) this.host.sendRelated(frame, this.msg.id);
  }

  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.cancelled) this.controller.abort(this.cancelReason);
    }
    return this.controller.signal;
  }

  /** The io's cancellation is this object (`aborted`, `reason`, `onAbort`). */
  get cancellation(): this {
    return this;
  }

  get aborted(): boolean {
    return this.cancelled;
  }

  get reason(): unknown {
    return this.cancelReason;
  }

  /** The session's cancellation (`notifications/cancelled`, or its end) calls this: the watcher runs once. */
  onCancel(): void {
    if (this.done) return;
    const end = this.watcher;
    this.watcher = undefined;
    if (typeof end === 'function') end();
    else end?.clientGone();
  }

  /** The core's watch, with no closure: `request.clientGone()` once the peer cancels, unless answered first. */
  watchRequest(request: ClientGoneWatcher): void {
    if (this.cancelled) request.clientGone();
    else if (!this.done) this.watcher = request;
  }

  /**
   * Watch for the peer's cancellation. The core watches once and stops when the request is
   * answered; what it watches with then does nothing (its request has ended), so stopping needs
   * no closure per request: the watcher is dropped with this entry once it is done.
   */
  onAbort(end: () => void): () => void {
    if (this.cancelled) end();
    else if (!this.done) this.watcher = end;
    return NOTHING;
  }
}

const NOTHING = (): void => {};
