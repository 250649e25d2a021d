/**
 * Where a session meets the Server's interceptors: builds the {@link InterceptedRequest}
 * from what the session knows (era, caller, id, `_meta`, the request's signal and life) and runs
 * the chain around the handler. One dispatch point serves both eras: a 2026-07-28 request reaches
 * it from the request core, which dispatches it over the request itself (no session).
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr
 */
import { principalOf } from '../../auth/principal.js';
import type { JsonObject, JsonRpcRequest } from '../../jsonrpc/message.js';
import type { ContextSession, HandlerContext } from '../../session/handler-context.js';
import type { InterceptHooks, NotificationHandler, RequestHandler, RequestHandlerContext, ServerCaller, Session } from '../../session/session.js';
import { runChain, type InterceptedRequest, type Interceptor, type InterceptorCaller } from './server-chain.js';
import { noteInterceptors } from './outgoing.js';

/** The caller of a request: a legacy session, or a 2026-07-28 request's own caller. */
export function callerOf(session: ServerCaller): InterceptorCaller {
  const authInfo = session.authInfo;
  const principal = principalOf(authInfo);
  const peer = session.transportPeer;
  if (session.requestScope !== undefined) return { era: 'modern', principal, authInfo, peer };
  return { era: 'legacy', sessionId: session.callerLabel, principal, authInfo, protocolVersion: session.protocolVersion, peer };
}

/** The hooks a Server gives its sessions once `use()` registered a stage; `list` is read per request (later registrations count). */
export function interceptHooks(list: readonly Interceptor[]): InterceptHooks {
  return {
    request(handler: RequestHandler, msg: JsonRpcRequest, ctx: RequestHandlerContext, session: ServerCaller): Promise<JsonObject | void> {
      noteInterceptors(session, list);
      const request = ctx.request;
      const scope = session.requestScope;
      const req: InterceptedRequest = {
        kind: 'request',
        method: msg.method,
        params: msg.params,
        caller: callerOf(session),
        id: msg.id,
        meta: ctx.meta,
        // Made when a stage reads it: an AbortSignal costs microseconds a request need not pay.
        get signal() {
          return ctx.signal;
        },
        request,
        clock: session.sessionClock,
      };
      const round = scope?.inputRequired;
      // A 2026-07-28 handler whose asks end the round never settles: the round's result stands for it.
      const terminal = (params: JsonObject | undefined): Promise<JsonObject> => {
        const out = Promise.resolve(handler(params, ctx)).then((r) => (r ?? {}) as JsonObject);
        return round === undefined ? out : Promise.race([out, round]);
      };
      const observer = request === undefined ? undefined : { stage: (n: string) => request.intercepted(n), shortCircuit: (n: string) => request.shortCircuited(n) };
      // The session passes its own HandlerContext; the hook is declared with the public context type so
      // the published declarations name none of Session's internal members.
      return runChain(list, req, terminal, observer, (fn) => (ctx as HandlerContext<ServerCaller & ContextSession>).whenCancelled(fn));
    },
    notification(handler: NotificationHandler, method: string, params: JsonObject | undefined, session: Session): Promise<void> {
      const req: InterceptedRequest = {
        kind: 'notification',
        method,
        params,
        caller: callerOf(session),
        meta: params?._meta as JsonObject | undefined,
        clock: session.sessionClock,
      };
      return runChain(list, req, (p) => Promise.resolve(handler(p, session)).then(() => ({}))).then(() => undefined);
    },
  };
}
