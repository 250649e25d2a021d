/**
 * The server interceptor chain for the 2026-07-28 requests the request core answers itself,
 * without a handler: `server/discover`, `subscriptions/listen` (the chain's `next` resolves when
 * the stream ends) and extension methods. They reach the stages (and so OpenTelemetry) as any
 * other request does; the core's answer is what the chain's terminal resolves to.
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic
 */
import { McpError, wireErrorOf } from '../../errors.js';
import type { JsonObject, JsonRpcRequest, JsonRpcResponse, RequestId } from '../../jsonrpc/message.js';
import { principalOf } from '../../auth/principal.js';
import type { Clock } from '../../clock.js';
import type { TransportPeer } from '../../../streams/transport.js';
import { runChain, type InterceptedRequest, type Interceptor } from './server-chain.js';

/** What the core answers: the response (none when the client went away) and the HTTP status. */
export interface CoreAnswer {
  response: JsonRpcResponse | undefined;
  status: number;
}

/** The transport's facts of the request. */
export interface CoreRequestIo {
  authInfo?: unknown;
  peerFacts?: TransportPeer | undefined;
  signal?: AbortSignal | undefined;
}

/**
 * Run `interceptors` around `answer` (the core's own answer to `msg`, given the params the stages
 * pass on). A result a stage returns in place of the core's is shaped by `complete` (the era's
 * `resultType` and server info); an error a stage throws is answered with status 200, while the
 * core's own answers keep their status.
 */
export async function answerThroughChain(
  interceptors: readonly Interceptor[],
  msg: JsonRpcRequest,
  io: CoreRequestIo,
  clock: Clock | undefined,
  answer: (msg: JsonRpcRequest) => Promise<CoreAnswer>,
  complete: (id: RequestId, result: JsonObject) => CoreAnswer,
): Promise<CoreAnswer> {
  let own: CoreAnswer | undefined;
  let ownError: McpError | undefined;
  const terminal = async (params: JsonObject | undefined): Promise<JsonObject> => {
    own = await answer(params === msg.params ? msg : { ...msg, params: params as JsonObject });
    const response = own.response;
    // A listen stream the client closed: there is nothing to answer.
    if (response === undefined) return {};
    if ('error' in response) throw (ownError = new McpError(response.error.code, response.error.message, response.error.data));
    return response.result;
  };
  const req: InterceptedRequest = {
    kind: 'request',
    method: msg.method,
    params: msg.params,
    caller: { era: 'modern', principal: principalOf(io.authInfo), authInfo: io.authInfo, peer: io.peerFacts },
    id: msg.id,
    meta: msg.params?._meta as JsonObject | undefined,
    signal: io.signal,
    clock,
  };
  try {
    const result = await runChain(interceptors, req, terminal);
    if (own !== undefined && (own.response === undefined || ('result' in own.response && own.response.result === result))) return own;
    return complete(msg.id, result);
  } catch (e) {
    // A cancelled request is not answered (the listen stream the client closed, say).
    if (io.signal?.aborted === true) return { response: undefined, status: 200 };
    if (e === ownError && own !== undefined) return own;
    const error = e instanceof McpError ? wireErrorOf(e) : { code: -32603, message: (e as Error)?.message ?? String(e) };
    return { response: { jsonrpc: '2.0', id: msg.id, error }, status: 200 };
  }
}
