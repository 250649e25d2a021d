/**
 * JSON-RPC and MCP error codes.
 * @see https://www.jsonrpc.org/specification#error_object
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic#responses
 */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** MCP: a resource URI that the server does not know. */
  ResourceNotFound: -32002,
  /** MCP 2025-11-25: the request needs URL-mode elicitations first. */
  UrlElicitationRequired: -32042,
  /** Used locally (never sent): the connection closed before an answer came. */
  ConnectionClosed: -32000,
  /** Used locally (never sent): a request timed out. */
  RequestTimeout: -32001,
} as const;
export type ErrorCodeName = keyof typeof ErrorCode;
