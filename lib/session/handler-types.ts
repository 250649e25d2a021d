/**
 * The shapes of request and notification handlers, their context, and what a Server shares with
 * its sessions, generic over the session type `S` (`session.ts` names them for `Session`), so
 * that the modules serving a request need not import the session.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic#requests
 */
import type { Observable } from 'rxjs';
import type { JsonObject, JsonRpcRequest, RequestId } from '../jsonrpc/message.js';
import type { Progress, RequestOptions } from './request-registry.js';
import type { ModernDispatch } from './request-scope.js';
import type { ServerRequest } from './server-request.js';

/** What a request handler receives besides the params. */
export interface RequestHandlerContextOf<S> {
  /**
   * The request's caller: the session it arrived on (legacy), or, for a 2026-07-28 request, a
   * caller made from its envelope with no session behind it (see `ServerCaller`).
   */
  readonly session: S;
  readonly requestId: RequestId;
  readonly method: string;
  /** Aborted when the peer sends `notifications/cancelled` for this request or the session closes. */
  readonly signal: AbortSignal;
  /** The request's `_meta`, untouched. */
  readonly meta: JsonObject | undefined;
  /** What the transport's `authenticate` hook said about the caller, if anything. */
  readonly authInfo: unknown;
  /** Report progress (no-op when the request carried no progress token). Values must increase. */
  sendProgress(progress: number, total?: number, message?: string): void;
  /** Send a notification related to this request. */
  sendNotification(method: string, params?: JsonObject): void;
  /**
   * The request being served: its state in `machines/server-request.machine.ts`, its rounds and
   * asks. The same object in both eras (a server's requests; undefined on a client).
   */
  readonly request?: ServerRequest | undefined;
  /** Send a request to the peer related to this one; aborted with it by default. */
  sendRequest(method: string, params?: JsonObject, options?: RequestOptions): Promise<JsonObject>;
  /**
   * OpenTelemetry `traceparent` / `tracestate` / `baggage` the request carried in `_meta`
   * (2026-07-28), untouched; undefined when it carried none.
   * @see https://modelcontextprotocol.io/specification/2026-07-28/basic#meta
   */
  readonly trace?: { traceparent?: string; tracestate?: string; baggage?: string } | undefined;
}

export type RequestHandlerOf<S> = (params: JsonObject | undefined, ctx: RequestHandlerContextOf<S>) => JsonObject | void | Promise<JsonObject | void>;
export type NotificationHandlerOf<S> = (params: JsonObject | undefined, session: S) => void | Promise<void>;

/** A request with its progress as an observable. */
export interface RequestWithProgress {
  result: Promise<JsonObject>;
  progress$: Observable<Progress>;
}



/**
 * Handlers a Server shares with all its sessions: requests get their caller (`S`, a session or a
 * 2026-07-28 request's caller), notifications the session they arrived on (`N`).
 */
export interface HandlerTableOf<S, N = S> {
  requests: ReadonlyMap<string, RequestHandlerOf<S>>;
  notifications: ReadonlyMap<string, NotificationHandlerOf<N>>;
  /**
   * Serves a request that claims the modern era (2026-07-28, a protocol version in `_meta`)
   * arriving on this session's transport (stdio, WebSocket...): such a request is answered by the
   * request-scoped core, whatever the session's phase, and never touches the session's state.
   */
  modern?: ModernDispatch;
  /** Told of each request a session served once it ended (the Server's `requests$`). */
  requestEnded?(request: ServerRequest): void;
  /** The Server's interceptors (`Server.use`): set once one is registered, so none costs nothing. */
  intercept?: InterceptHooksOf<S, N>;
}

/**
 * How a session hands a request or notification to the Server's interceptor chain.
 * The chain lives with the server's features; a session only calls these.
 */
export interface InterceptHooksOf<S, N = S> {
  request(handler: RequestHandlerOf<S>, msg: JsonRpcRequest, ctx: RequestHandlerContextOf<S>, caller: S): Promise<JsonObject | void>;
  notification(handler: NotificationHandlerOf<N>, method: string, params: JsonObject | undefined, session: N): void | Promise<void>;
}
