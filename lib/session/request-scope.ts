/**
 * How a session meets the request-scoped core of revision 2026-07-28: the dispatch a Server shares
 * with its sessions (modern requests on a session's transport), and what a modern request's
 * handler reads of its request (its envelope, input round, trace: `ctx.session.requestScope`).
 * No session serves a modern request: the core serves it over the request itself
 * (`lib/modern/request-host.ts`).
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic
 */
import type { JsonObject, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from '../jsonrpc/message.js';
import type { RequestOptions } from './request-registry.js';
import type { ServerRequest } from './server-request.js';
import type { TransportPeer } from '../../streams/transport.js';

/** The request-scoped core as a session sees it (`lib/modern/request-core.ts`). */
export interface ModernDispatch {
  /** Whether `msg` belongs to the modern era (decided from the body). */
  claims(msg: JsonRpcRequest): boolean;
  /** Whether the server's request journal keeps the modern requests' frames (a session's journal then lets them go). */
  readonly keepsJournal: boolean;
  /**
   * Answer it; `io.notify` carries its notifications; `io.cancellation` says when the peer cancels
   * it, and `io.signal` (made on first read) aborts then. `finish` turns the answer (or the error
   * it failed with) into what the session sends: at once when the handler answered at once,
   * otherwise a promise of it.
   */
  serveCarried<I extends CarriedIo, R>(
    msg: JsonRpcRequest,
    io: I,
    finish: {
      answered(answer: { readonly response: JsonRpcResponse | undefined }, io: I): R;
      failed(error: unknown, io: I): R;
    },
  ): R | Promise<R>;
}

/** What a session gives the core for one modern request it carries. */
export interface CarriedIo {
  notify(frame: JsonRpcNotification): void;
  authInfo: unknown;
  readonly signal: AbortSignal;
  readonly cancellation: { readonly aborted: boolean; readonly reason: unknown; onAbort(end: () => void): () => void };
}

/** What a carrier's `watchRequest` ends when the client goes away (the core's request host). */
export interface ClientGoneWatcher {
  clientGone(): void;
}

/** A 2026-07-28 request as its handler's caller carries it (`ServerCaller.requestScope`). */
export interface RequestScope {
  /** The request's revision, client capabilities and info (its `_meta` envelope). */
  readonly revision: string;
  readonly clientCapabilities: Record<string, unknown>;
  readonly clientInfo: { name: string; version: string };
  readonly authInfo: unknown;
  /** What the transport knows of the caller (channel kind, address), for interceptors. */
  readonly peerFacts?: TransportPeer | undefined;
  /** Where `ctx.elicit/sample/listRoots` go instead of becoming server-to-client requests. */
  readonly inputs: {
    ask(method: string, params: JsonObject | undefined, options?: RequestOptions): Promise<JsonObject>;
    /** The id of the URL elicitation about to be asked, the same on every retry of the request. */
    urlElicitationId?(options?: RequestOptions): string;
  };
  /** The request's actor, which the core created and ends (the handler's `ctx.request`). */
  readonly request?: ServerRequest;
  /**
   * Resolves with the round's `input_required` result when the handler's asks end the round
   * (the handler itself never settles then): the interceptor chain answers with it.
   */
  readonly inputRequired?: Promise<JsonObject>;
  /** OpenTelemetry context of the request (`ctx.trace`). */
  readonly trace?: { traceparent?: string; tracestate?: string; baggage?: string } | undefined;
}
