/**
 * The client interceptor chain: an ordered list of stages around each request a client
 * sends, in either era, mirroring the server's (`lib/server-features/interceptors/server-chain.ts`). A
 * stage may rewrite params (add `_meta`, which the 2026-07-28 envelope is merged with), rewrite
 * the result, answer itself, or call `next` again (a retry).
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic
 */
import type { JsonObject, RequestId } from '../../jsonrpc/message.js';
import type { RequestOptions } from '../../session/session.js';
import type { Clock } from '../../clock.js';

/** One outbound request as a client interceptor sees it. */
export interface OutgoingRequest {
  /** Always `request` for now (notifications a client sends are not intercepted). */
  readonly kind: 'request';
  readonly method: string;
  /** The params as this stage received them (an earlier stage may have rewritten them). */
  readonly params: JsonObject | undefined;
  /** The era of the connection when the request was made (undefined before it settled). */
  readonly era: 'legacy' | 'modern' | undefined;
  /** The caller's options (timeout, signal, progress...). */
  readonly options?: RequestOptions | undefined;
  /** Aborts the request (`options.signal`), when the caller gave one. */
  readonly signal?: AbortSignal | undefined;
  /** The client's clock (`ClientOptions.clock`): what timing stages (retry back-off) should read. */
  readonly clock?: Clock | undefined;
  /**
   * Be told the JSON-RPC id the request goes out with: the id is assigned after the chain, when
   * `next` sends (again on each retry or resend), so a stage that records it listens here.
   */
  readonly onRequestId?: ((listener: (id: RequestId) => void) => void) | undefined;
}

/** The rest of the chain (ending in the send); pass new params to rewrite them. May be called again to retry. */
export type ClientInterceptorNext = (params?: JsonObject | undefined) => Promise<JsonObject>;

/** A client stage: return `next()`'s result (possibly rewritten) or its own. Errors reach the caller as thrown. */
export type ClientInterceptor = ((req: OutgoingRequest, next: ClientInterceptorNext) => Promise<JsonObject>) & {
  readonly interceptorName?: string;
  /** Also run around each request the client answers (OpenTelemetry's SERVER span for it). */
  readonly answering?: AnswerStage;
};

/**
 * A request the client answers: a server-to-client request (legacy era: `elicitation/create`,
 * `sampling/createMessage`, `roots/list`, ...) or an input request of a 2026-07-28 round.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client
 */
export interface AnsweredRequest {
  readonly kind: 'answer';
  readonly method: string;
  readonly params: JsonObject | undefined;
  /** The JSON-RPC id (legacy era); an input request has its round's key instead, and no id. */
  readonly id?: RequestId | undefined;
  readonly era: 'legacy' | 'modern';
}

/** A stage around the client's answer: return `next()`'s result (or throw its error). */
export type AnswerStage = (req: AnsweredRequest, next: () => Promise<JsonObject>) => Promise<JsonObject>;

/** Run `stages` (the first is the outermost) around `answer`. */
export function runAnswerStages(stages: readonly AnswerStage[], req: AnsweredRequest, answer: () => Promise<JsonObject>): Promise<JsonObject> {
  const step = (i: number): Promise<JsonObject> => {
    if (i === stages.length) return answer();
    try {
      return Promise.resolve(stages[i]!(req, () => step(i + 1)));
    } catch (e) {
      return Promise.reject(e);
    }
  };
  return step(0);
}

/** Run `interceptors` in registration order (the first is the outermost) around `send`. */
export function runClientChain(interceptors: readonly ClientInterceptor[], req: OutgoingRequest, send: (params: JsonObject | undefined) => Promise<JsonObject>): Promise<JsonObject> {
  if (interceptors.length === 0) return send(req.params);
  const step = (i: number, params: JsonObject | undefined): Promise<JsonObject> => {
    if (i === interceptors.length) return send(params);
    const stage = interceptors[i]!;
    try {
      return Promise.resolve(stage({ ...req, params }, (p) => step(i + 1, p === undefined ? params : p)));
    } catch (e) {
      return Promise.reject(e);
    }
  };
  return step(0, req.params);
}
