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
  /** MCP 2026-07-28: HTTP headers disagree with the body, or a required header is missing or invalid. */
  HeaderMismatch: -32020,
  /** MCP 2026-07-28: the request needs a client capability its `_meta` did not declare. */
  MissingRequiredClientCapability: -32021,
  /** MCP 2026-07-28: the request's protocol version is not one the server speaks. */
  UnsupportedProtocolVersion: -32022,
  /** Used locally (never sent): the connection closed before an answer came. */
  ConnectionClosed: -32000,
  /** Used locally (never sent): a request timed out. */
  RequestTimeout: -32001,
} as const;
export type ErrorCodeName = keyof typeof ErrorCode;
