/**
 * JSON-RPC 2.0 message shapes as MCP uses them.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic#messages
 */

/** A request id: a string or an integer, never null in MCP. */
export type RequestId = string | number;

/** Params and results are objects in MCP; `_meta` rides inside them untouched. */
export type JsonObject = { [key: string]: unknown };

export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: string;
  params?: JsonObject;
}

export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: JsonObject;
}

export interface JsonRpcSuccess {
  jsonrpc: '2.0';
  id: RequestId;
  result: JsonObject;
}

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** `id` is null (or absent) only when the request's id could not be read (parse errors). */
export interface JsonRpcErrorResponse {
  jsonrpc: '2.0';
  id: RequestId | null;
  error: JsonRpcErrorObject;
}

export type JsonRpcResponse = JsonRpcSuccess | JsonRpcErrorResponse;
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;
/** Batches exist on the wire only when 2025-03-26 is negotiated. */
export type JsonRpcBatch = JsonRpcMessage[];
/** What a transport carries: one message or one batch. Frames are treated as immutable. */
export type Frame = JsonRpcMessage | JsonRpcBatch;

export const isRequest = (m: JsonRpcMessage): m is JsonRpcRequest =>
  'method' in m && 'id' in m && m.id !== undefined;
export const isNotification = (m: JsonRpcMessage): m is JsonRpcNotification =>
  'method' in m && !('id' in m && m.id !== undefined);
export const isResponse = (m: JsonRpcMessage): m is JsonRpcResponse =>
  !('method' in m) && ('result' in m || 'error' in m);
export const isErrorResponse = (m: JsonRpcMessage): m is JsonRpcErrorResponse =>
  !('method' in m) && 'error' in m;

/** An error response to request `id`. */
export function errorResponse(id: RequestId, code: number, message: string, data?: unknown): JsonRpcErrorResponse {
  return data === undefined ? { jsonrpc: '2.0', id, error: { code, message } } : { jsonrpc: '2.0', id, error: { code, message, data } };
}
