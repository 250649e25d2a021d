/**
 * Serving one inbound request, whoever carries it: the phase gate, the method and capability
 * checks, the handler called with its context, the answer or error shaped as JSON-RPC, and the
 * peer's cancellation. It takes a {@link DispatchHost} (what it needs of the carrier), not a
 * session, so a legacy session and a 2026-07-28 request served on its own both use it.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic#requests
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/cancellation
 */
import type { SessionPhase, SessionRole } from '../../machines/session.machine.js';
import { McpError, wireErrorOf } from '../errors.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import { errorResponse, type JsonObject, type JsonRpcErrorResponse, type JsonRpcRequest, type JsonRpcResponse, type RequestId } from '../jsonrpc/message.js';
import { hasCapability } from '../protocol/methods.js';
import { afterProgress, type Incoming } from './handler-context.js';
import { inboundRequestAllowed } from './phase-gate.js';
import type { Diagnostic } from './session-options.js';
import type { ServerRequest } from './server-request.js';
import type { InterceptHooksOf, NotificationHandlerOf } from './handler-types.js';

/** What a handler returns: a result (or nothing: `{}`), at once or later. */
export type HandlerOutput = JsonObject | void | Promise<JsonObject | void>;
/** An answer as the dispatch gives it: at once, later, or none (a cancelled request). */
export type DispatchOutput = JsonRpcResponse | Promise<JsonRpcResponse | undefined> | undefined;

/** The requests a carrier serves, by id: a session's `Map`, or a modern request's one slot. */
export interface IncomingTable {
  get(id: RequestId): Incoming | undefined;
  set(id: RequestId, entry: Incoming): unknown;
  delete(id: RequestId): boolean;
  values(): Iterable<Incoming>;
  clear(): void;
}

/** What the dispatch needs of whatever carries the request (a session, or a modern request's context). */
export interface DispatchHost<H> {
  readonly role: SessionRole;
  /** The lifecycle phase the phase gate reads (a modern request is always `operating`). */
  readonly currentPhase: SessionPhase;
  /** What this side declared: a request for an undeclared capability is -32601. */
  readonly localCapabilities: Record<string, unknown>;
  /** The requests being served, by id (for cancellation and duplicate ids). */
  readonly incoming: IncomingTable;
  /** The handler for `method`, if any. */
  handlerFor(method: string): H | undefined;
  /** The capability a request for `method` needs of its receiver, in the revision spoken. */
  capabilityFor(method: string): string[] | undefined;
  /** Run `handler` for `msg` with a context bound to `state` (through the interceptors, if any). */
  runHandler(handler: H, msg: JsonRpcRequest, state: Incoming): HandlerOutput;
  diagnose(kind: Diagnostic['kind'], message: string, detail?: unknown): void;
}

/**
 * Serve `msg` (not `initialize`, which is the lifecycle's). `owned`: the dispatch ends `request`
 * when it is answered (a legacy request; a modern request's end is its core's to say).
 */
export function dispatchRequest<H>(host: DispatchHost<H>, msg: JsonRpcRequest, request: ServerRequest | undefined, owned: boolean): DispatchOutput {
  const { id, method } = msg;
  if (!inboundRequestAllowed(host.role, host.currentPhase, method)) {
    return errorResponse(id, ErrorCode.InvalidRequest, `Received "${method}" before initialize: the client must send initialize first`);
  }
  if (method.startsWith('notifications/')) {
    return errorResponse(id, ErrorCode.InvalidRequest, `"${method}" is a notification and must be sent without an id`);
  }
  const handler = host.handlerFor(method);
  if (!handler) return errorResponse(id, ErrorCode.MethodNotFound, `Method not found: ${method}`);
  const needed = host.capabilityFor(method);
  if (needed && !hasCapability(host.localCapabilities, needed)) {
    return errorResponse(id, ErrorCode.MethodNotFound, `Method not found: "${method}" needs the "${needed.join('.')}" capability, which this ${host.role} did not declare`);
  }
  const state: Incoming = { method, controller: undefined, cancelled: false, done: false, progressed: false, request };
  host.incoming.set(id, state);
  request?.start();
  let out: HandlerOutput;
  try {
    out = host.runHandler(handler, msg, state);
  } catch (e) {
    host.incoming.delete(id);
    state.coalescer?.flush();
    return errorFrom(host, id, method, e);
  }
  if (isPromise(out)) {
    return out.then(
      (result) => {
        const response = finishIncoming(host, id, state, result);
        if (owned) endRequest(request!, response);
        return afterProgress(state, response);
      },
      (e: unknown) => {
        state.done = true;
        host.incoming.delete(id);
        if (state.cancelled) state.coalescer?.stop();
        else state.coalescer?.flush();
        const response = state.cancelled ? undefined : errorFrom(host, id, method, e);
        if (owned) endRequest(request!, response);
        return response;
      },
    );
  }
  const response = finishIncoming(host, id, state, out);
  if (owned) endRequest(request!, response);
  return afterProgress(state, response);
}

function finishIncoming<H>(host: DispatchHost<H>, id: RequestId, state: Incoming, result: JsonObject | void): JsonRpcResponse | undefined {
  state.done = true;
  if (host.incoming.get(id) === state) host.incoming.delete(id);
  if (state.cancelled) {
    // The peer cancelled: no response, as the cancellation utility says.
    host.diagnose('suppressed-response', `Suppressed the response to cancelled request ${JSON.stringify(id)}`);
    return undefined;
  }
  if (result === undefined || result === null) return { jsonrpc: '2.0', id, result: {} };
  if (typeof result !== 'object' || Array.isArray(result)) {
    return errorResponse(id, ErrorCode.InternalError, `The "${state.method}" handler returned ${Array.isArray(result) ? 'an array' : typeof result}; a result must be an object`);
  }
  return { jsonrpc: '2.0', id, result };
}

/** A handler's throw as an error response: an `McpError` as it is, anything else -32603 (and noted). */
export function errorFrom(host: Pick<DispatchHost<unknown>, 'diagnose'>, id: RequestId, method: string, e: unknown): JsonRpcErrorResponse {
  if (e instanceof McpError) return { jsonrpc: '2.0', id, error: wireErrorOf(e) };
  host.diagnose('handler-error', `The "${method}" handler threw: ${(e as Error)?.message ?? String(e)}`, e);
  return errorResponse(id, ErrorCode.InternalError, (e as Error)?.message ?? 'Internal error');
}

/** A request's actor ends with its answer: failed for an error, answered otherwise. */
export function endRequest(request: ServerRequest, response: JsonRpcResponse | undefined): void {
  // No response: cancelled (already final), or `initialize`, answered by the session machine.
  if (response !== undefined && 'error' in response) request.failed(response.error);
  else request.answered();
}

/**
 * The peer's `notifications/cancelled`: abort the request's signal and watcher, suppress its
 * answer. Unknown or finished ids are ignored (noted); `initialize` cannot be cancelled.
 */
export function cancelIncoming<H>(host: DispatchHost<H>, params: JsonObject | undefined, msg: unknown): void {
  const id = params?.requestId as RequestId | undefined;
  const entry = id === undefined ? undefined : host.incoming.get(id);
  if (!entry || entry.method === 'initialize') {
    host.diagnose('unknown-cancel', `Ignored a cancellation for ${entry ? 'initialize' : `unknown request id ${JSON.stringify(id)}`}`, msg);
    return;
  }
  entry.cancelled = true;
  entry.cancelReason = params?.reason ?? 'Cancelled by the peer';
  entry.request?.cancelled(String(entry.cancelReason));
  host.diagnose('cancelled', `The peer cancelled request ${JSON.stringify(id)} ("${entry.method}"): ${String(entry.cancelReason)}`, msg);
  entry.controller?.abort(entry.cancelReason);
  entry.onCancel?.();
}

/** The carrier ended (its session closed): every request it serves is cancelled with `reason`. */
export function abandonIncoming(incoming: IncomingTable, reason: Error, endRequests: boolean): void {
  for (const entry of incoming.values()) {
    entry.cancelled = true;
    entry.cancelReason = reason;
    entry.controller?.abort(entry.cancelReason);
    entry.onCancel?.();
    if (endRequests) entry.request?.cancelled(reason.message);
  }
  incoming.clear();
}

/** Run a notification's handler (through the interceptors, if any): a failing one is noted, never thrown. */
export function runNotification<S>(
  host: Pick<DispatchHost<unknown>, 'diagnose'>,
  handler: NotificationHandlerOf<S>,
  intercept: Pick<InterceptHooksOf<unknown, S>, 'notification'> | undefined,
  method: string,
  params: JsonObject | undefined,
  session: S,
): void {
  try {
    const r = intercept === undefined ? handler(params, session) : intercept.notification(handler, method, params, session);
    if (isPromise(r)) r.catch((e: unknown) => host.diagnose('handler-error', `Notification handler for "${method}" failed: ${(e as Error)?.message}`, e));
  } catch (e) {
    host.diagnose('handler-error', `Notification handler for "${method}" failed: ${(e as Error)?.message}`, e);
  }
}

export function isPromise<T>(v: unknown): v is Promise<T> {
  return v !== null && typeof v === 'object' && typeof (v as Promise<T>).then === 'function';
}
