/**
 * What the decode and classify operators hand to the session: each frame sorted by kind,
 * or an error that says exactly what was wrong with it.
 */
import type {
  JsonRpcErrorObject,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
  RequestId,
} from '../lib/jsonrpc/message.js';

/** A frame that could not be accepted. */
export interface InvalidInbound {
  kind: 'invalid';
  /** The JSON-RPC error to answer with (-32700, -32600, -32602). */
  error: JsonRpcErrorObject;
  /** The id of the offending request when it could be read, else null. */
  id: RequestId | null;
  /**
   * Whether an error response should be sent back. False when the offending frame was itself
   * a response or looked like one (answering a response could make two peers ping-pong errors).
   */
  respond: boolean;
}

export type SingleInbound =
  | { kind: 'request'; msg: JsonRpcRequest }
  | { kind: 'notification'; msg: JsonRpcNotification }
  | { kind: 'response'; msg: JsonRpcResponse }
  | InvalidInbound;

/** A batch (2025-03-26 only): its items classified one by one, in order. */
export interface BatchInbound {
  kind: 'batch';
  items: SingleInbound[];
}

export type Inbound = SingleInbound | BatchInbound;
