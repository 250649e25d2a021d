/**
 * What a request handler gets besides its params (`RequestHandlerContext`), bound to one inbound
 * request of a session: progress (coalesced when asked), related notifications, requests to the
 * peer (or, for a 2026-07-28 request, input requests of the round), and the request's lazy
 * abort signal. Also how a response waits for the progress sent before it.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/progress
 */
import type { JsonObject, JsonRpcRequest, JsonRpcResponse, RequestId } from '../jsonrpc/message.js';
import { spreadCopy } from '../jsonrpc/spread-copy.js';
import { ProgressCoalescer } from './progress-rate.js';
import type { ProgressToken, RequestOptions } from './request-registry.js';
import type { RequestScope } from './request-scope.js';
import type { Clock } from '../clock.js';
import { nextTurn } from '../next-turn.js';
import type { ServerRequest } from './server-request.js';

/** A session's record of one inbound request it is serving. */
export interface Incoming {
  method: string;
  controller: AbortController | undefined;
  cancelled: boolean;
  /** The response went out (or was suppressed): no more progress for this request. */
  done: boolean;
  /** Progress was sent for this request. */
  progressed: boolean;
  /** Coalesces this request's progress (with the `progress.minIntervalMs` option). */
  coalescer?: ProgressCoalescer;
  /** Why the peer cancelled, for a signal created after the fact. */
  cancelReason?: unknown;
  /**
   * Runs when the peer cancels the request or the session closes (the modern core's watch, the
   * interceptor chain): cheaper than a signal nobody reads. One watcher at a time.
   */
  onCancel?: (() => void) | undefined;
  /** The request's actor (a server's requests). */
  request?: ServerRequest | undefined;
}

/**
 * What a handler context uses of the session it serves. `Session` has all of it; the context is
 * generic over its session so that `ctx.session` is the caller's own type (a `RequestHandlerContext`
 * where the session makes one) while this file does not import the session it serves.
 */
export interface ContextSession {
  readonly authInfo: unknown;
  readonly requestScope: RequestScope | undefined;
  readonly progressInterval: number;
  readonly sessionClock: Clock;
  progressFor(token: ProgressToken, progress: number, total: number | undefined, message: string | undefined, related: RequestId): void;
  progressTimerFired(name: string): void;
  notifyRelated(method: string, params: JsonObject | undefined, related: RequestId): void;
  startRequest(method: string, params: JsonObject | undefined, options: RequestOptions | undefined, progress$: undefined, userCall: boolean, relatedRequestId?: RequestId): Promise<JsonObject>;
}

/** The `RequestHandlerContext` of one inbound request of `session`. */
export class HandlerContext<S extends ContextSession> {
  readonly requestId: RequestId;
  readonly method: string;
  readonly meta: JsonObject | undefined;
  private lastProgress = -Infinity;

  constructor(
    readonly session: S,
    msg: JsonRpcRequest,
    private readonly state: Incoming,
  ) {
    this.requestId = msg.id;
    this.method = msg.method;
    this.meta = msg.params?._meta as JsonObject | undefined;
  }

  get authInfo(): unknown {
    return this.session.authInfo;
  }

  get request(): ServerRequest | undefined {
    return this.state.request;
  }

  get trace(): { traceparent?: string; tracestate?: string; baggage?: string } | undefined {
    return this.session.requestScope?.trace;
  }

  get signal(): AbortSignal {
    // Created on first use: most handlers never look at it.
    if (!this.state.controller) {
      this.state.controller = new AbortController();
      if (this.state.cancelled) this.state.controller.abort(this.state.cancelReason ?? 'Cancelled');
    }
    return this.state.controller.signal;
  }

  /**
   * @internal Call `fn` when the request is cancelled (at once if it was); returns how to stop.
   * The interceptor chain ends on it without making the request's AbortSignal.
   */
  whenCancelled(fn: () => void): () => void {
    if (this.state.cancelled) {
      fn();
      return () => {};
    }
    this.state.onCancel = fn;
    return () => {
      if (this.state.onCancel === fn) this.state.onCancel = undefined;
    };
  }

  sendProgress(progress: number, total?: number, message?: string): void {
    const token = this.meta?.progressToken as ProgressToken | undefined;
    // Progress stops once the request is answered or cancelled.
    if (token === undefined || this.state.cancelled || this.state.done) return;
    if (!(progress > this.lastProgress)) {
      throw new Error(`Progress must increase with each notification: got ${progress} after ${this.lastProgress}`);
    }
    this.lastProgress = progress;
    this.state.progressed = true;
    const interval = this.session.progressInterval;
    if (interval === 0) {
      this.session.progressFor(token, progress, total, message, this.requestId);
      return;
    }
    const state = this.state;
    state.coalescer ??= new ProgressCoalescer(
      this.session.sessionClock,
      interval,
      {
        send: (u) => this.session.progressFor(token, u.progress, u.total, u.message, this.requestId),
        alive: () => !state.cancelled && !state.done,
        timerFired: (name) => this.session.progressTimerFired(name),
      },
      `progress:${String(this.requestId)}`,
    );
    state.coalescer.offer({ progress, total, message });
  }

  sendNotification(method: string, params?: JsonObject): void {
    this.session.notifyRelated(method, params, this.requestId);
  }

  sendRequest(method: string, params?: JsonObject, options?: RequestOptions): Promise<JsonObject> {
    // 2026-07-28: no server-to-client requests; the ask becomes an input request of this round.
    const scope = this.session.requestScope;
    if (scope !== undefined) return scope.inputs.ask(method, params, options);
    const opts = options?.signal ? options : withSignal(options, this.signal);
    const sent = this.session.startRequest(method, params, opts, undefined, false, this.requestId);
    const request = this.state.request;
    if (request === undefined) return sent;
    // The request waits on its client while this is open (the machine's `asking`).
    request.askStarted(method);
    const ended = () => request.askEnded();
    sent.then(ended, ended);
    return sent;
  }
}

/**
 * A response that follows progress goes out one event-loop turn later. The official SDK's
 * client handles notifications a microtask after responses, so when the last progress and the
 * response arrive in one read it drops that progress; a separate write avoids the race.
 */
export function afterProgress(
  state: Incoming,
  response: JsonRpcResponse | undefined,
): JsonRpcResponse | Promise<JsonRpcResponse | undefined> | undefined {
  if (!state.progressed) return response;
  // Coalesced progress: the latest update goes out before the response, or not at all.
  if (response === undefined) state.coalescer?.stop();
  else state.coalescer?.flush();
  if (response === undefined) return response;
  return new Promise((resolve) => nextTurn(() => resolve(response)));
}

/** `{ ...options, signal }`, made as `spreadCopy` makes it (a spread copy grows slowly on Node 20). */
function withSignal(options: RequestOptions | undefined, signal: AbortSignal): RequestOptions {
  if (options === undefined || options === null) return { signal };
  const out = spreadCopy(options);
  out.signal = signal;
  return out;
}
