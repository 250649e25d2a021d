/**
 * A 2026-07-28 POST on the Streamable HTTP endpoint: one request, no session. The edge checks
 * what only HTTP has (the `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` and `Mcp-Param-*`
 * headers against the body, -32020 on a mismatch), hands the request to the request-scoped core,
 * and writes its answer: JSON, or an SSE stream when notifications come first (progress, log
 * messages). Closing that stream is the client's cancellation; it loses only this request.
 * Nothing is kept once the request is answered.
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http
 */
import type { HttpHeadersOut, HttpRequestIn, HttpResponseOut } from '../../streams/http-shape.js';
import type { TransportPeer } from '../../streams/transport.js';
import { STORE_RETRY_AFTER_SECONDS, storeOutageResponse, storeUnavailable } from './store-outage-response.js';
import type { Envelope } from '../modern/envelope.js';
import { EnvelopeRefusal } from '../modern/envelope.js';
import { checkVersionHeader } from '../modern/classify-era.js';
import type { RequestCancellation, RequestCore } from '../modern/request-core.js';
import { argumentAt, type ParamHeader } from '../modern/param-headers.js';
import { MCP_NAME_SOURCE } from '../modern/name-header.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import { McpError } from '../errors.js';
import { classifyMessage, encodeFrame } from '../jsonrpc/codec.js';
import type { JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from '../jsonrpc/message.js';
import { errorBody, writeEmpty, writeJson } from '../../streams/http-body.js';
import { KeepAliveTicker, SseSink } from '../../streams/http-sse-sink.js';
import { sseEvent } from '../../streams/sse-encode.js';
import { base64Decode, utf8Decode } from '../crypto/bytes.js';
import { socketPeer, type RemoteOf } from './forwarded-client.js';

/** Which tool parameters a tool mirrors into `Mcp-Param-*` headers (from its `x-mcp-header` annotations). */
export type ParamHeaderLookup = (tool: string) => ReadonlyArray<ParamHeader> | undefined;

export interface ModernPostOptions {
  paramHeaders?: ParamHeaderLookup;
  report?: (e: unknown) => void;
  /** The server's keep-alive ticker: `:` comments on SSE responses that sent nothing for a while (listen streams). */
  ticker?: KeepAliveTicker;
  /** Who the client is: the socket's peer unless a trusted proxy forwarded one (`trustProxies`). */
  remoteOf?: RemoteOf;
}

const SENTINEL = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/;

/** A header value as the client meant it: OWS trimmed, the Base64 sentinel decoded (undefined: invalid). */
export function decodeHeaderValue(raw: string): string | undefined {
  const v = raw.replace(/^[ \t]+|[ \t]+$/g, '');
  // Only the full wrapper is the sentinel; anything else is taken literally.
  if (!(v.startsWith('=?base64?') && v.endsWith('?=') && v.length >= 11)) return /^[\x20-\x7e]*$/.test(v) ? v : undefined;
  const m = SENTINEL.exec(v);
  if (!m || m[1]!.length % 4 !== 0) return undefined;
  return utf8Decode(base64Decode(m[1]!));
}

function header(req: HttpRequestIn, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

function mismatch(message: string): EnvelopeRefusal {
  return new EnvelopeRefusal(ErrorCode.HeaderMismatch, `Header mismatch: ${message}`, 400);
}

/** The standard and parameter headers against the body; throws -32020. */
export function checkRequestHeaders(req: HttpRequestIn, msg: JsonRpcRequest, paramHeaders?: ParamHeaderLookup): void {
  const method = header(req, 'mcp-method');
  if (method === undefined) throw mismatch('the Mcp-Method header is required');
  // Mcp-Method is compared as sent: the Base64 sentinel is for Mcp-Name and Mcp-Param-* only.
  if (method.replace(/^[ \t]+|[ \t]+$/g, '') !== msg.method) throw mismatch(`Mcp-Method ${JSON.stringify(method.slice(0, 60))} differs from the body's method ${JSON.stringify(msg.method)}`);
  const source = MCP_NAME_SOURCE[msg.method];
  if (source !== undefined) {
    const expected = msg.params?.[source];
    const name = header(req, 'mcp-name');
    if (name === undefined) throw mismatch(`the Mcp-Name header is required for ${msg.method}`);
    const decoded = decodeHeaderValue(name);
    if (decoded === undefined) throw mismatch('Mcp-Name has invalid characters (send non-ASCII values as =?base64?…?=)');
    if (typeof expected === 'string' && decoded !== expected) throw mismatch(`Mcp-Name ${JSON.stringify(decoded.slice(0, 60))} differs from params.${source}`);
  }
  if (msg.method === 'tools/call' && paramHeaders !== undefined && typeof msg.params?.name === 'string') {
    const declared = paramHeaders(msg.params.name);
    if (declared === undefined) return;
    const args = msg.params.arguments ?? {};
    for (const { path, param, header: name, type } of declared) {
      const value = argumentAt(args, path);
      const raw = header(req, `mcp-param-${name.toLowerCase()}`);
      if (value === undefined || value === null) {
        if (raw !== undefined) throw mismatch(`Mcp-Param-${name} was sent but the argument "${param}" is absent`);
        continue;
      }
      // Mirrored integers stay within ±(2^53−1), where every header text names one number.
      if (type === 'integer' && typeof value === 'number' && !Number.isSafeInteger(value)) throw mismatch(`the argument "${param}" (mirrored in Mcp-Param-${name}) must be an integer within ±(2^53−1)`);
      if (raw === undefined) throw mismatch(`the Mcp-Param-${name} header is required: the argument "${param}" is present`);
      const decoded = decodeHeaderValue(raw);
      if (decoded === undefined) throw mismatch(`Mcp-Param-${name} has invalid characters or an invalid Base64 value`);
      const same = type === 'integer' ? Number(decoded) === value && decoded.trim() !== '' : type === 'boolean' ? decoded === String(value) : decoded === value;
      if (!same) throw mismatch(`Mcp-Param-${name} differs from the argument "${param}"`);
    }
  }
}

/**
 * Serve one modern POST body (already parsed and classified modern). Answers every refusal with
 * the status the transport page names; never throws.
 */
export function serveModernPost(core: RequestCore, req: HttpRequestIn, res: HttpResponseOut, value: unknown, authInfo: unknown, options: ModernPostOptions = {}): void {
  // The same JSON-RPC checks as every other transport (id a string or an integer, never null;
  // "jsonrpc": "2.0"; params an object), before anything reads the message.
  const inbound = classifyMessage(value);
  if (inbound.kind === 'invalid') {
    const { code, message, data } = inbound.error;
    // A notification (or a response) is never answered in JSON-RPC: only the server can see the
    // problem, so the operator is told (`onError`), as a legacy session tells its `diagnostics$`.
    if (!inbound.respond) options.report?.(refusedUnanswerable(value, inbound.error));
    writeJson(res, 400, inbound.respond ? errorBody(code, message, inbound.id, data) : JSON.stringify({ jsonrpc: '2.0', error: inbound.error }));
    return;
  }
  if (inbound.kind !== 'request') {
    // Notifications mean nothing here (cancellation is closing the stream): accepted, ignored.
    writeEmpty(res, 202);
    return;
  }
  const msg = inbound.msg;
  let envelope: Envelope;
  try {
    checkVersionHeader(msg.params, header(req, 'mcp-protocol-version'));
    envelope = core.envelopeOf(msg);
    if (!core.serves(msg.method)) {
      writeJson(res, 404, errorBody(ErrorCode.MethodNotFound, `Method not found: ${msg.method}`, msg.id));
      return;
    }
    checkRequestHeaders(req, msg, options.paramHeaders);
  } catch (e) {
    if (e instanceof EnvelopeRefusal) {
      writeJson(res, e.status, errorBody(e.code, e.message, msg.id ?? null, e.data));
      return;
    }
    throw e;
  }
  const exchange = new ModernExchange(res, options.ticker);
  core.answerEnveloped(msg, envelope, {
    notify: (frame) => exchange.notify(frame),
    authInfo,
    peerFacts: httpPeer(req, options.remoteOf),
    cancellation: exchange,
    // Made only when read (a listen stream, a handler's ctx.signal): a listen stream ends by it.
    get signal() {
      return exchange.signal;
    },
  }).then(
    // A store outage the core answered (the task store) is 503: a client is told when to retry.
    (answer) => exchange.answer(answer.response, answer.status, answer.status === 503 ? { 'retry-after': String(STORE_RETRY_AFTER_SECONDS) } : undefined),
    (e: unknown) => {
      options.report?.(e);
      // A store outage (Redis: the replay guard, the task store) is said as such, as on the legacy path.
      if (storeUnavailable(e)) exchange.answer(storeOutageResponse(msg.id, e), 503, { 'retry-after': String(STORE_RETRY_AFTER_SECONDS) });
      else exchange.answer({ jsonrpc: '2.0', id: msg.id, error: { code: ErrorCode.InternalError, message: 'Internal error' } }, 500);
    },
  );
}

/**
 * What the operator is told of a refused message that gets no JSON-RPC answer: the method (when it
 * has one) and the problem, never the params (client data).
 */
export function refusedUnanswerable(value: unknown, error: { code: number; message: string }): McpError {
  const method = value !== null && typeof value === 'object' && typeof (value as { method?: unknown }).method === 'string' ? (value as { method: string }).method : undefined;
  const what = method === undefined ? 'a message with no method' : `a "${method.slice(0, 200)}" notification`;
  return new McpError(error.code, `Refused ${what} on the 2026-07-28 HTTP path (HTTP 400): ${error.message}`, method === undefined ? undefined : { method: method.slice(0, 200) });
}

/**
 * One POST's response: JSON unless a notification comes first, then SSE. It is also the request's
 * cancellation (the client closing the response before the answer), watched with a `close`
 * listener: no AbortController per request, which was a tenth of the gateway's own work per call.
 */
class ModernExchange implements RequestCancellation {
  private sink: SseSink | undefined;
  private gone = false;

  constructor(
    private readonly res: HttpResponseOut,
    private readonly ticker: KeepAliveTicker | undefined,
  ) {}

  private controller: AbortController | undefined;

  /** Aborted when the client closes the response before the answer; made on first read. */
  get signal(): AbortSignal {
    if (this.controller === undefined) {
      const controller = (this.controller = new AbortController());
      this.onAbort(() => controller.abort(this.reason));
    }
    return this.controller.signal;
  }

  get aborted(): boolean {
    return this.gone || (this.res.destroyed && !this.res.writableFinished);
  }

  get reason(): unknown {
    return this.aborted ? 'The client closed the response stream' : undefined;
  }

  onAbort(end: () => void): () => void {
    if (this.aborted) {
      end();
      return () => {};
    }
    const res = this.res;
    const closed = () => {
      if (res.writableFinished) return;
      this.gone = true;
      end();
    };
    res.on('close', closed);
    return () => res.off('close', closed);
  }

  notify(frame: JsonRpcNotification): void {
    if (this.res.writableEnded || this.res.destroyed) return;
    if (this.sink === undefined) {
      this.sink = new SseSink(this.res, this.ticker ?? NO_KEEPALIVE, () => {});
      this.sink.open({ 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' }, '');
    }
    this.sink.write(sseEvent(JSON.stringify(frame)));
  }

  answer(response: JsonRpcResponse | undefined, status: number, headers?: HttpHeadersOut): void {
    if (this.res.writableEnded || this.res.destroyed) return;
    if (this.sink !== undefined) {
      if (response !== undefined) this.sink.write(sseEvent(encodeFrame(response)));
      this.sink.end();
      return;
    }
    if (response === undefined) {
      writeEmpty(this.res, 202);
      return;
    }
    // encodeFrame: the server info's text made once (sealed-json.ts), the rest as JSON.stringify.
    writeJson(this.res, status, encodeFrame(response), headers);
  }
}

/** For handlers used without a server's ticker: no keep-alive comments. */
const NO_KEEPALIVE = new KeepAliveTicker({ now: () => 0, setTimeout: () => 0, clearTimeout: () => {} }, undefined);

/** A 2026-07-28 request over HTTP: no session id, the client's address (behind a trusted proxy, the one it forwarded). */
function httpPeer(req: HttpRequestIn, remoteOf: RemoteOf | undefined): TransportPeer {
  // No proxy trusted (the usual case): the socket's peer, with no object in between.
  if (remoteOf === undefined || remoteOf === socketPeer) return { transport: 'tcp', protocolName: 'http', address: req.socket?.remoteAddress, port: req.socket?.remotePort };
  const { address, port } = remoteOf(req);
  return { transport: 'tcp', protocolName: 'http', address, port };
}
