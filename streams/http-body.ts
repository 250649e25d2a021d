/**
 * HTTP plumbing shared by the Streamable HTTP and legacy HTTP+SSE servers: header checks, reading
 * a size-limited body, and answering with a JSON-RPC error body.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#sending-messages-to-the-server
 */
import type { HttpRequestIn, HttpHeadersOut, HttpResponseOut } from './http-shape.js';
import type { Clock } from '../lib/clock.js';
import { deepInbound } from '../lib/jsonrpc/codec.js';
import { DEFAULT_MAX_FRAME_DEPTH, nestsDeeperThan, textMayNestDeeperThan, topLevelOf } from '../lib/jsonrpc/depth.js';
import { ErrorCode } from '../lib/jsonrpc/error-codes.js';
import type { RequestId } from '../lib/jsonrpc/message.js';
import { concatBytes, utf8ByteLength, utf8Decode } from '../lib/crypto/bytes.js';
import { learnMeta, parseKnownMeta } from './known-meta.js';

/** Which of the two media types MCP POSTs need an `Accept` header lists (wildcards count). */
export function acceptedTypes(accept: string | undefined): { json: boolean; sse: boolean } {
  if (accept === undefined) return { json: false, sse: false };
  // Fast path: the usual "application/json, text/event-stream" without parameters.
  if (accept.indexOf(';') < 0) {
    const a = accept.toLowerCase();
    if (a.includes('application/json') && a.includes('text/event-stream')) return { json: true, sse: true };
  }
  let json = false;
  let sse = false;
  for (const part of accept.split(',')) {
    const [range, ...params] = part.split(';');
    const type = range.trim().toLowerCase();
    if (params.some((p) => /^\s*q\s*=\s*0(\.0*)?\s*$/i.test(p))) continue;
    if (type === '*/*') json = sse = true;
    else if (type === 'application/json' || type === 'application/*') json = true;
    else if (type === 'text/event-stream' || type === 'text/*') sse = true;
  }
  return { json, sse };
}

/** True when the `Content-Type` is `application/json` (parameters such as charset allowed). */
export function isJsonContentType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const semi = contentType.indexOf(';');
  const essence = (semi < 0 ? contentType : contentType.slice(0, semi)).trim().toLowerCase();
  return essence === 'application/json';
}

/** A body that could not be read. */
export interface BodyError {
  status: 400 | 408 | 413;
  message: string;
}

/** The default time a POST body may take to arrive, in ms: a body that trickles (slowloris) is cut. */
export const DEFAULT_BODY_TIMEOUT_MS = 30_000;

/** How long a body may take to arrive, on which clock (the timer is named `http:body`). */
export interface BodyDeadline {
  clock: Clock;
  ms: number;
}

/**
 * Reads the body as UTF-8 text, refusing more than `limit` bytes (checked against
 * `Content-Length` first, then while reading). On refusal the rest of the body is discarded.
 * A body a framework already parsed (`req.body`, as Express' json middleware leaves it) is handed
 * over as `value` instead.
 */
export function readBody(
  req: HttpRequestIn,
  limit: number,
  done: (error: BodyError | undefined, text: string | undefined, value?: unknown) => void,
  deadline?: BodyDeadline,
): void {
  const preParsed = req.body;
  if (preParsed !== undefined) {
    if (typeof preParsed === 'string') done(undefined, preParsed);
    else if (preParsed instanceof Uint8Array) done(undefined, utf8Decode(preParsed));
    else done(undefined, undefined, preParsed);
    return;
  }
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) {
    req.resume();
    done(tooLarge(Number(declared), limit), undefined);
    return;
  }
  let first: Uint8Array | undefined;
  let chunks: Uint8Array[] | undefined;
  let size = 0;
  let finished = false;
  const onData = (chunk: Uint8Array) => {
    size += chunk.byteLength;
    if (size > limit) {
      finish(tooLarge(size, limit), undefined);
      req.resume();
      return;
    }
    if (first === undefined) first = chunk;
    else (chunks ??= [first]).push(chunk);
  };
  const onEnd = () => {
    const text = chunks !== undefined ? utf8Decode(concatBytes(chunks, size)) : first !== undefined ? utf8Decode(first) : '';
    finish(undefined, text);
  };
  const onError = () => finish({ status: 400, message: 'Bad Request: the request body could not be read' }, undefined);
  // A body that has not arrived by the deadline is cut: a client trickling bytes must not hold
  // a connection and a buffer for ever.
  const timer =
    deadline === undefined || !(deadline.ms < Infinity)
      ? undefined
      : deadline.clock.setTimeout(
          () => finish({ status: 408, message: `Request Timeout: the body did not arrive within ${deadline.ms} ms (option bodyTimeoutMs)` }, undefined),
          deadline.ms,
          'http:body',
        );
  const finish = (error: BodyError | undefined, text: string | undefined) => {
    if (finished) return;
    finished = true;
    if (timer !== undefined) deadline!.clock.clearTimeout(timer);
    req.off('data', onData);
    req.off('end', onEnd);
    req.off('error', onError);
    done(error, text);
  };
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('error', onError);
}

function tooLarge(size: number, limit: number): BodyError {
  return { status: 413, message: `Payload Too Large: the body has ${size} bytes or more, the limit is ${limit} bytes (option maxBodyBytes)` };
}

/** A JSON-RPC error response as text. */
export function errorBody(code: number, message: string, id: RequestId | null = null, data?: unknown): string {
  const error = data === undefined ? { code, message } : { code, message, data };
  return JSON.stringify({ jsonrpc: '2.0', id, error });
}

/**
 * Answers with an HTTP error status and a JSON-RPC error response (id null) as its body, as the
 * transports allow for input the server cannot accept.
 */
export function writeError(
  res: HttpResponseOut,
  status: number,
  code: number,
  message: string,
  headers?: HttpHeadersOut,
  id: RequestId | null = null,
): void {
  writeJson(res, status, errorBody(code, message, id), headers);
}

/** Answers with a JSON body. */
export function writeJson(res: HttpResponseOut, status: number, body: string, headers?: HttpHeadersOut): void {
  if (res.headersSent) {
    if (!res.writableEnded) res.end();
    return;
  }
  res.setHeader('content-type', 'application/json');
  res.setHeader('content-length', utf8ByteLength(body));
  res.writeHead(status, headers);
  res.end(body);
}

/** Answers with a status and no body. */
export function writeEmpty(res: HttpResponseOut, status: number, headers?: HttpHeadersOut): void {
  if (res.headersSent) {
    if (!res.writableEnded) res.end();
    return;
  }
  res.writeHead(status, headers);
  res.end();
}

/**
 * Read a POST body as JSON, answering the request itself when it cannot be read: 413 for a body
 * over the limit, 400 with a -32700 body for text that is not JSON. `then` gets the value.
 */
export function readJsonBody(
  req: HttpRequestIn,
  res: HttpResponseOut,
  maxBytes: number,
  then: (value: unknown) => void,
  deadline?: BodyDeadline,
  maxDepth: number = DEFAULT_MAX_FRAME_DEPTH,
): void {
  readBody(req, maxBytes, (error, text, value) => {
    if (error !== undefined) {
      const cut = error.status === 413 || error.status === 408;
      writeError(res, error.status, cut ? ErrorCode.InvalidRequest : ErrorCode.ParseError, error.message, cut ? { connection: 'close' } : undefined);
      // The rest of a late body is not waited for: the connection goes once the answer is out.
      if (error.status === 408) res.once('finish', () => req.destroy());
      return;
    }
    if (text !== undefined) {
      // A 2026-07-28 request ending with the envelope of an earlier one: not parsed again (known-meta.ts).
      value = parseKnownMeta(text);
      if (value === undefined) {
        try {
          value = JSON.parse(text);
        } catch (e) {
          writeError(res, 400, ErrorCode.ParseError, `Parse error: invalid JSON (${(e as Error).message})`);
          return;
        }
        if (value !== null && typeof value === 'object') learnMeta(text, value);
      }
    }
    // Nested deeper than the session's limit: refused here, where the text still tells whether
    // it could be (a body parsed by a framework is walked), so that sessions need not walk values.
    if ((text === undefined || textMayNestDeeperThan(text, maxDepth)) && nestsDeeperThan(value, maxDepth)) {
      const { id, respond } = topLevelOf(value);
      const refusal = deepInbound(maxDepth, id, respond);
      writeJson(res, 400, respond ? errorBody(refusal.error.code, refusal.error.message, id, refusal.error.data) : JSON.stringify({ jsonrpc: '2.0', error: refusal.error }));
      return;
    }
    then(value);
  }, deadline);
}
