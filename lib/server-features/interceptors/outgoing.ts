/**
 * Requests a server sends its client in the legacy era (`elicitation/create`,
 * `sampling/createMessage`, `roots/list`) pass the outgoing stages of the server's interceptors:
 * an interceptor may carry one (OpenTelemetry's server interceptor does, for a CLIENT span per
 * such request with the trace in its `_meta`). Plain stages never see them. A 2026-07-28 handler's
 * asks are input rounds of the request itself, not requests of their own: none pass here.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation
 */
import type { JsonObject } from '../../jsonrpc/message.js';
import type { ServerCaller } from '../../session/session.js';
import type { Interceptor, InterceptorCaller } from './server-chain.js';

/** A request the server sends its client, as an outgoing stage sees it. */
export interface OutgoingServerRequest {
  readonly method: string;
  readonly params: JsonObject | undefined;
  /** The client it goes to (the session's caller facts). */
  readonly caller: InterceptorCaller;
}

/** An outgoing stage: call `next` (with new params, or none) and return what it resolves to. */
export type OutgoingStage = (req: OutgoingServerRequest, next: (params: JsonObject | undefined) => Promise<JsonObject>) => Promise<JsonObject>;

const OUTGOING = Symbol('outgoing');

/** `interceptor`, also carrying `outgoing` for the requests the server sends. */
export function withOutgoing<T extends Interceptor>(interceptor: T, outgoing: OutgoingStage): T {
  return Object.assign(interceptor, { [OUTGOING]: outgoing });
}

// The interceptors of the server a legacy session serves, learnt when it first dispatches through them.
const bySession = new WeakMap<ServerCaller, readonly Interceptor[]>();

/** @internal The dispatch point tells which interceptors serve `session`. */
export function noteInterceptors(session: ServerCaller, list: readonly Interceptor[]): void {
  if (session.requestScope === undefined && !bySession.has(session)) bySession.set(session, list);
}

/**
 * Send `method` to the client of `session` through the outgoing stages of its server's
 * interceptors (in registration order; none: `send` at once).
 */
export function sendThroughOutgoing(
  session: ServerCaller,
  caller: () => InterceptorCaller,
  method: string,
  params: JsonObject | undefined,
  send: (params: JsonObject | undefined) => Promise<JsonObject>,
): Promise<JsonObject> {
  const list = bySession.get(session);
  if (list === undefined) return send(params);
  const stages: OutgoingStage[] = [];
  for (const i of list) {
    const o = (i as { [OUTGOING]?: OutgoingStage })[OUTGOING];
    if (o !== undefined) stages.push(o);
  }
  if (stages.length === 0) return send(params);
  const req = { method, caller: caller() };
  const step = (i: number, p: JsonObject | undefined): Promise<JsonObject> =>
    i === stages.length ? send(p) : stages[i]!({ ...req, params: p }, (next) => step(i + 1, next === undefined ? p : next));
  return step(0, params);
}
