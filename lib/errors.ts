/**
 * Typed errors. Every error says what happened and, where it helps, what to do.
 */
import type { JsonRpcErrorObject } from './jsonrpc/message.js';
import { ErrorCode } from './jsonrpc/error-codes.js';

/** An error that travels as a JSON-RPC error object, with its code. */
export class McpError extends Error {
  override readonly name: string = 'McpError';
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
  /** The wire form of this error. */
  toJSON(): JsonRpcErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
  /** A peer's error object as an error: the typed class its code and `data` name, where one does. */
  static fromError(e: JsonRpcErrorObject): McpError {
    return UpstreamFaultError.from(new McpError(e.code, e.message, e.data));
  }
}

/** A request got no answer within its timeout. A `notifications/cancelled` was sent. */
export class RequestTimeoutError extends McpError {
  override readonly name = 'RequestTimeoutError';
  constructor(
    readonly method: string,
    readonly elapsedMs: number,
    readonly kind: 'idle' | 'total' = 'idle',
  ) {
    super(
      ErrorCode.RequestTimeout,
      `Request "${method}" timed out after ${elapsedMs} ms` +
        (kind === 'total' ? ' (maxTotalTimeout reached)' : '') +
        '; the request was cancelled. Raise the `timeout` option or check that the peer is responsive.',
      { method, elapsedMs, kind },
    );
  }
}

/** The caller cancelled a request (AbortSignal). A `notifications/cancelled` was sent. */
export class RequestCancelledError extends McpError {
  override readonly name = 'RequestCancelledError';
  constructor(
    readonly method: string,
    readonly reason?: unknown,
  ) {
    super(ErrorCode.RequestTimeout, `Request "${method}" was cancelled${reason ? `: ${String(reason)}` : ''}`);
  }
}

/** The session's transport failed or closed; pending requests are rejected with it. */
export class ConnectionClosedError extends McpError {
  override readonly name = 'ConnectionClosedError';
  constructor(message = 'Connection closed', override readonly cause?: unknown) {
    super(ErrorCode.ConnectionClosed, message);
  }
}

/**
 * The error object to answer a request with when its handler failed with `e`. The errors this
 * side raises for its own requests (timed out, cancelled, connection closed) carry codes of the
 * JSON-RPC reserved range that no revision gives them, so a handler that lets one through answers
 * -32603 with its message: the peer must not read it as its own request timing out.
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic#error-codes
 */
export function wireErrorOf(e: McpError): JsonRpcErrorObject {
  const local = e instanceof RequestTimeoutError || e instanceof RequestCancelledError || e instanceof ConnectionClosedError;
  if (!local) return e.toJSON();
  return e.data === undefined ? { code: ErrorCode.InternalError, message: e.message } : { code: ErrorCode.InternalError, message: e.message, data: e.data };
}

/** A transport-level failure (process exited, socket error, HTTP status). */
export class TransportError extends Error {
  override readonly name: string = 'TransportError';
  constructor(message: string, readonly details?: Record<string, unknown>) {
    super(message);
  }
}

/**
 * A request the HTTP client transport could not deliver (refused, reset, TLS failure, a non-MCP
 * HTTP answer) comes back as its local -32000 error response carrying `data.transport`: while
 * connecting that is the transport failing, not the server answering, so it is a TransportError
 * with the same message and data. Anything else is returned as it is.
 */
export function undeliveredAsTransportError(e: unknown): unknown {
  if (!(e instanceof McpError) || e.code !== ErrorCode.ConnectionClosed || e instanceof ConnectionClosedError) return e;
  const data = e.data as { transport?: unknown; authorization?: unknown } | undefined;
  if (data === null || typeof data !== 'object' || typeof data.transport !== 'string' || data.authorization !== undefined) return e;
  return new TransportError(e.message, data as Record<string, unknown>);
}

/** The peer did not declare the capability a method needs: failed before sending. */
export class CapabilityError extends McpError {
  override readonly name = 'CapabilityError';
  constructor(
    readonly method: string,
    readonly capability: string,
    readonly side: 'client' | 'server',
  ) {
    super(
      ErrorCode.MethodNotFound,
      `Cannot send "${method}": the ${side} did not declare the "${capability}" capability during initialization.`,
      { method, capability },
    );
  }
}

/** Version negotiation failed: the client cannot speak the version the server answered. */
export class VersionMismatchError extends McpError {
  override readonly name = 'VersionMismatchError';
  constructor(
    readonly offered: readonly string[],
    readonly answered: string,
  ) {
    super(
      ErrorCode.InvalidRequest,
      `Protocol version mismatch: the client supports ${offered.join(', ')} but the server answered ${answered}. ` +
        'Upgrade one side or configure a common version.',
      { supported: offered, answered },
    );
  }
}

/** A method was used in a lifecycle phase that does not allow it. */
export class PhaseError extends McpError {
  override readonly name = 'PhaseError';
  constructor(readonly method: string, readonly phase: string) {
    super(ErrorCode.InvalidRequest, `"${method}" is not allowed while the session is ${phase}.`, { method, phase });
  }
}

/**
 * A resource the server does not have: `resources/read` (or a subscribe) named an unknown URI. A
 * server of this library throws it (-32002 with `data.uri`; answered -32602 in the 2026-07-28
 * era, where -32002 is gone). A client gets it for either code: -32002 from servers of earlier
 * revisions, -32602 when its `data.uri` is the URI read (or its message says not found).
 * @see https://modelcontextprotocol.io/specification/draft/server/resources#error-handling
 */
export class ResourceNotFoundError extends McpError {
  override readonly name = 'ResourceNotFoundError';
  constructor(
    readonly uri: string,
    code: number = ErrorCode.ResourceNotFound,
    message = 'Resource not found',
    data: unknown = uri.length > 2048 ? { uri: uri.slice(0, 2048), truncated: true } : { uri },
  ) {
    super(code, message, data);
  }

  /** The server's error for a read of `uri`, as a ResourceNotFoundError when it says the resource does not exist. */
  static from(e: unknown, uri: string): unknown {
    if (!(e instanceof McpError) || e instanceof ResourceNotFoundError) return e;
    const named = typeof e.data === 'object' && e.data !== null && (e.data as { uri?: unknown }).uri === uri;
    const notFound = e.code === ErrorCode.ResourceNotFound || (e.code === ErrorCode.InvalidParams && (named || /not found/i.test(e.message)));
    return notFound ? new ResourceNotFoundError(uri, e.code, e.message, e.data) : e;
  }
}

/** What went wrong on a gateway's link to an upstream server (see {@link UpstreamFaultError}). */
export type UpstreamFault = 'exited' | 'unreachable' | 'timedOut' | 'garbage';

const UPSTREAM_FAULTS: readonly string[] = ['exited', 'unreachable', 'timedOut', 'garbage'] satisfies UpstreamFault[];

/**
 * A gateway could not get an answer from the upstream server a request was forwarded to: the
 * upstream `exited` (or closed the connection) during the call, was `unreachable` (not connected,
 * restarting, or its HTTP endpoint refused), `timedOut`, or sent `garbage` (a line that is not
 * JSON-RPC) and no answer. `data` is `{ upstream, fault, method }`, so the caller can retry later,
 * pick another server, or tell its user; our `Client` throws this class for such an answer in
 * either era.
 *
 * The code is -32603 (internal error) with that `data`. The 2026-07-28 tools page counts "server
 * errors" among protocol errors, answered as JSON-RPC errors, and keeps `isError` results for
 * the tool's own failures (which the model may correct by calling differently): a dead link is
 * not something a model fixes with other arguments. A server-defined code is not open to us:
 * -32020..-32099 is reserved for codes the specification defines, -32000..-32019 is legacy that
 * new implementations should not use, and new codes belong outside -32768..-32000; so the
 * standard code carries it, told apart by `data`. A tool that ran upstream and reported an error
 * (`isError`) is passed on as that result, not as this error.
 * @see https://modelcontextprotocol.io/specification/2026-07-28/server/tools#error-handling
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic#error-codes
 */
export class UpstreamFaultError extends McpError {
  override readonly name = 'UpstreamFaultError';
  constructor(
    /** The upstream server's name (as the gateway configures it). */
    readonly upstream: string,
    readonly fault: UpstreamFault,
    /** The method forwarded (`tools/call`, `prompts/get`, `resources/read`, `completion/complete`). */
    readonly method: string,
    message: string,
  ) {
    super(ErrorCode.InternalError, message, { upstream, fault, method });
  }

  /** `e` as an UpstreamFaultError when it is -32603 whose `data` names an upstream and its fault. */
  static from(e: McpError): McpError {
    if (e instanceof UpstreamFaultError || e.code !== ErrorCode.InternalError) return e;
    const data = e.data as { upstream?: unknown; fault?: unknown; method?: unknown } | undefined;
    if (data === null || typeof data !== 'object' || typeof data.upstream !== 'string' || typeof data.fault !== 'string' || !UPSTREAM_FAULTS.includes(data.fault)) return e;
    return new UpstreamFaultError(data.upstream, data.fault as UpstreamFault, typeof data.method === 'string' ? data.method : '', e.message);
  }
}
