/**
 * JSON-RPC codec: text (or an already parsed value) in, a classified {@link Inbound} out;
 * frames in, one line of JSON text out.
 *
 * This is the hot path of every session, so validation is hand-written: one pass over the
 * top-level members, no schema library, no copies. The parsed object itself is handed on, so
 * `_meta` and unknown members reach the handlers untouched. Objects for errors are only
 * allocated when something is wrong.
 *
 * @see https://www.jsonrpc.org/specification
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic#messages
 */
import { ErrorCode } from './error-codes.js';
import type {
  Frame,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
  RequestId,
} from './message.js';
import type { Inbound, InvalidInbound, SingleInbound } from '../../streams/inbound.js';
import { DeepFrame, OVERSIZE_HEAD_CHARS, OversizeFrame } from '../../streams/transport.js';
import { DEFAULT_MAX_FRAME_DEPTH, nestsDeeperThan, textMayNestDeeperThan, topLevelOf } from './depth.js';
import { utf8ByteLength } from '../crypto/bytes.js';
import { encodeJson } from './sealed-json.js';

/** The default size limit of one frame: 4 MiB of UTF-8. */
export const DEFAULT_MAX_FRAME_BYTES = 4 * 1024 * 1024;

export interface DecodeOptions {
  /** Largest accepted frame, in UTF-8 bytes. Default {@link DEFAULT_MAX_FRAME_BYTES}. */
  maxFrameBytes?: number;
  /** Deepest accepted nesting, the message itself being level 1. Default {@link DEFAULT_MAX_FRAME_DEPTH} (128). */
  maxFrameDepth?: number;
  /** Whether JSON-RPC batches are allowed (only when revision 2025-03-26 is negotiated). */
  allowBatch: boolean;
}

export type DecodeResult = Inbound;

/** Whether batches are allowed: a flag, or a question asked only when a batch arrives. */
export type BatchPolicy = boolean | (() => boolean);

/** Builds the answer for a frame that could not be accepted. */
export function invalidInbound(
  code: number,
  message: string,
  id: RequestId | null = null,
  respond = true,
  data?: unknown,
): InvalidInbound {
  return {
    kind: 'invalid',
    error: data === undefined ? { code, message } : { code, message, data },
    id,
    respond,
  };
}

/**
 * The error for a frame larger than the limit, whether measured here or reported by a
 * transport through an {@link OversizeFrame} marker.
 */
export function oversizeInbound(size: number, limit: number, head?: string): InvalidInbound {
  return invalidInbound(
    ErrorCode.InvalidRequest,
    `Frame too large: ${size} bytes exceeds the limit of ${limit} bytes (option maxFrameBytes)`,
    head === undefined ? null : sniffRequestId(head),
    true,
    { size, limit },
  );
}

/**
 * The error for a frame nested deeper than the limit (measured here or by `parseFrame`, which
 * hands on a {@link DeepFrame}). Answered with the request's id when its top level has one.
 */
export function deepInbound(limit: number, id: RequestId | null, respond: boolean): InvalidInbound {
  return invalidInbound(
    ErrorCode.InvalidRequest,
    `Invalid Request: the message nests deeper than ${limit} levels (option maxFrameDepth)`,
    id,
    respond,
    { limit },
  );
}

/**
 * The top-level `id` of a request whose text was too large to parse, read from its first
 * characters: only a member at depth 1 of an object that also has a `method` counts, so an
 * `id` inside params is never mistaken for it. Null when it cannot be told.
 */
export function sniffRequestId(head: string): RequestId | null {
  let depth = 0;
  let id: RequestId | null = null;
  let hasMethod = false;
  for (let i = 0; i < head.length; i++) {
    const c = head.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const end = endOfString(head, i);
      if (end < 0) break;
      if (depth === 1) {
        const key = head.slice(i + 1, end);
        let j = end + 1;
        while (j < head.length && head.charCodeAt(j) <= 0x20) j++;
        if (head.charCodeAt(j) === 0x3a /* : */) {
          j++;
          while (j < head.length && head.charCodeAt(j) <= 0x20) j++;
          if (key === 'method') hasMethod = true;
          if (key === 'id') {
            const m = /^(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)[\s,}]|^"((?:[^"\\]|\\.)*)"/.exec(head.slice(j));
            if (m) {
              const n = m[1] !== undefined ? Number(m[1]) : undefined;
              // Only ids we could answer under: an integer JSON.parse reads exactly.
              id = n === undefined ? (JSON.parse(`"${m[2]}"`) as string) : Number.isSafeInteger(n) ? n : null;
            }
          }
        }
      }
      i = end;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      depth++;
      if (depth === 1 && c === 0x5b) return null; // a batch: no single id
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      depth--;
    }
  }
  return hasMethod || id !== null ? id : null;
}

/** Index of the quote closing the string that opens at `start`, or -1 if it does not close. */
function endOfString(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5c /* \ */) i++;
    else if (c === 0x22) return i;
  }
  return -1;
}

/**
 * Decodes one frame of JSON text and classifies it.
 * Never throws: every problem comes back as a `kind: 'invalid'` result.
 */
export function decodeText(text: string, opts: DecodeOptions): DecodeResult {
  return decodeTextWith(text, opts.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES, opts.allowBatch, opts.maxFrameDepth);
}

/**
 * Validates and classifies a value that is already parsed (in-memory transports). An
 * {@link OversizeFrame} marker gives the size error. Never throws.
 */
export function decodeValue(value: unknown, opts: DecodeOptions): DecodeResult {
  if (value instanceof OversizeFrame) return oversizeInbound(value.size, value.limit, value.head);
  if (value instanceof DeepFrame) return deepInbound(value.limit, value.id, value.respond);
  const depth = opts.maxFrameDepth ?? DEFAULT_MAX_FRAME_DEPTH;
  if (nestsDeeperThan(value, depth)) {
    const { id, respond } = topLevelOf(value);
    return deepInbound(depth, id, respond);
  }
  return classifyValue(value, opts.allowBatch);
}

/**
 * {@link decodeText} without an options object, for operators that decode every frame
 * (saves an allocation per frame).
 */
export function decodeTextWith(text: string, limit: number, allowBatch: BatchPolicy, maxDepth: number = DEFAULT_MAX_FRAME_DEPTH): DecodeResult {
  // UTF-8 takes 1 to 3 bytes per UTF-16 unit, so the exact count is only needed when
  // three bytes per unit could pass the limit.
  if (text.length * 3 > limit) {
    const size = utf8ByteLength(text);
    if (size > limit) return oversizeInbound(size, limit, text.slice(0, OVERSIZE_HEAD_CHARS));
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return invalidInbound(ErrorCode.ParseError, `Parse error: invalid JSON (${(e as Error).message})`);
  }
  if (textMayNestDeeperThan(text, maxDepth) && nestsDeeperThan(value, maxDepth)) {
    const { id, respond } = topLevelOf(value);
    return deepInbound(maxDepth, id, respond);
  }
  return classifyValue(value, allowBatch);
}

/** Classifies a parsed value: a single message, or a batch when batches are allowed. */
export function classifyValue(value: unknown, allowBatch: BatchPolicy): DecodeResult {
  if (!Array.isArray(value)) return classifyMessage(value);
  if (!(typeof allowBatch === 'function' ? allowBatch() : allowBatch)) {
    return invalidInbound(
      ErrorCode.InvalidRequest,
      'Invalid Request: JSON-RPC batches are only allowed when protocol revision 2025-03-26 is negotiated',
    );
  }
  const n = value.length;
  if (n === 0) return invalidInbound(ErrorCode.InvalidRequest, 'Invalid Request: empty batch');
  const items = new Array<SingleInbound>(n);
  for (let i = 0; i < n; i++) items[i] = classifyMessage(value[i]);
  return { kind: 'batch', items };
}

const typeName = (v: unknown): string =>
  v === null
    ? 'null'
    : Array.isArray(v)
      ? 'array'
      : typeof v === 'number' && !Number.isFinite(v)
        ? String(v)
        : typeof v === 'number' && !Number.isInteger(v)
          ? 'a number with a fraction'
          : typeof v === 'number' && !Number.isSafeInteger(v)
            ? 'an integer beyond 2^53 (JSON.parse cannot read it exactly, so it could not be answered under the same id)'
            : typeof v;

/** Quotes a peer's string for an error message, cut short so a hostile peer cannot bloat it. */
const quote = (s: string): string => JSON.stringify(s.length > 64 ? `${s.slice(0, 64)}…` : s);

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A JSON-RPC id MCP accepts: a string or an integer. An integer beyond 2^53 is refused too: its
 * text parses to a different number, and an answer under that number would reach no one (or the
 * wrong request).
 */
const isId = (v: unknown): v is RequestId =>
  typeof v === 'string' || (typeof v === 'number' && Number.isSafeInteger(v));

/** Classifies one message (not a batch). */
export function classifyMessage(value: unknown): SingleInbound {
  if (!isPlainObject(value)) {
    return invalidInbound(
      ErrorCode.InvalidRequest,
      `Invalid Request: a JSON-RPC message must be an object, got ${typeName(value)}`,
    );
  }
  const m = value;
  const method = m.method;
  const id = m.id;
  const readableId = isId(id) ? id : null;

  if (method === undefined) return classifyResponse(m, id, readableId);

  // Checked after `method` so that the error can say whether to answer: never answer
  // something that looks like a response (two peers could ping-pong errors forever).
  if (m.jsonrpc !== '2.0') return badVersion(m.jsonrpc, readableId, true);
  if (typeof method !== 'string') {
    return invalidInbound(
      ErrorCode.InvalidRequest,
      `Invalid Request: "method" must be a string, got ${typeName(method)}`,
      readableId,
    );
  }
  const params = m.params;
  if (id === undefined) {
    if (params !== undefined && !isPlainObject(params)) {
      // A notification is never answered (JSON-RPC), even when its params are wrong.
      return badParams(method, params, null, false);
    }
    return { kind: 'notification', msg: m as unknown as JsonRpcNotification };
  }
  if (readableId === null) {
    return invalidInbound(
      ErrorCode.InvalidRequest,
      id === null
        ? 'Invalid Request: MCP request ids must be a string or an integer, not null'
        : `Invalid Request: MCP request ids must be a string or an integer, got ${typeName(id)}`,
    );
  }
  if (params !== undefined && !isPlainObject(params)) return badParams(method, params, readableId, true);
  return { kind: 'request', msg: m as unknown as JsonRpcRequest };
}

function classifyResponse(m: Record<string, unknown>, id: unknown, readableId: RequestId | null): SingleInbound {
  const result = m.result;
  const error = m.error;
  const looksLikeResponse = result !== undefined || error !== undefined;
  if (m.jsonrpc !== '2.0') return badVersion(m.jsonrpc, readableId, !looksLikeResponse);
  if (!looksLikeResponse) {
    return invalidInbound(
      ErrorCode.InvalidRequest,
      'Invalid Request: a message needs "method" (request or notification) or "result" or "error" (response)',
      readableId,
    );
  }
  if (result !== undefined && error !== undefined) {
    return invalidInbound(
      ErrorCode.InvalidRequest,
      'Invalid response: it has both "result" and "error"',
      readableId,
      false,
    );
  }
  if (result !== undefined) {
    if (readableId === null) {
      return invalidInbound(
        ErrorCode.InvalidRequest,
        `Invalid response: "id" must be a string or an integer, got ${id === undefined ? 'none' : typeName(id)}`,
        null,
        false,
      );
    }
    if (!isPlainObject(result)) {
      return invalidInbound(
        ErrorCode.InvalidRequest,
        `Invalid response: "result" must be an object, got ${typeName(result)}`,
        readableId,
        false,
      );
    }
    return { kind: 'response', msg: m as unknown as JsonRpcResponse };
  }
  // An error response may carry a null (or no) id: the peer could not read ours.
  if (readableId === null && id !== null && id !== undefined) {
    return invalidInbound(
      ErrorCode.InvalidRequest,
      `Invalid response: "id" must be a string, an integer or null, got ${typeName(id)}`,
      null,
      false,
    );
  }
  if (!isPlainObject(error)) {
    return invalidInbound(
      ErrorCode.InvalidRequest,
      `Invalid response: "error" must be an object, got ${typeName(error)}`,
      readableId,
      false,
    );
  }
  if (!Number.isInteger(error.code) || typeof error.message !== 'string') {
    return invalidInbound(
      ErrorCode.InvalidRequest,
      'Invalid response: "error" needs an integer "code" and a string "message"',
      readableId,
      false,
    );
  }
  return { kind: 'response', msg: m as unknown as JsonRpcResponse };
}

function badVersion(jsonrpc: unknown, id: RequestId | null, respond: boolean): InvalidInbound {
  return invalidInbound(
    ErrorCode.InvalidRequest,
    jsonrpc === undefined
      ? 'Invalid Request: "jsonrpc" is missing; it must be "2.0"'
      : `Invalid Request: "jsonrpc" must be "2.0", got ${typeof jsonrpc === 'string' ? quote(jsonrpc) : typeName(jsonrpc)}`,
    id,
    respond,
  );
}

/**
 * Params that are not an object. JSON-RPC 2.0 §4.2: params MUST be a structured value (an object or
 * an array), so a string, number, boolean or null makes the whole message an Invalid Request
 * (-32600); an array is a well-formed request whose params MCP cannot take (-32602: every MCP
 * method takes named params).
 */
function badParams(method: string, params: unknown, id: RequestId | null, respond: boolean): InvalidInbound {
  if (!Array.isArray(params)) {
    return invalidInbound(
      ErrorCode.InvalidRequest,
      `Invalid Request: "params" of ${quote(method)} must be a structured value (an object), got ${typeName(params)}`,
      id,
      respond,
    );
  }
  return invalidInbound(
    ErrorCode.InvalidParams,
    `Invalid params for ${quote(method)}: "params" must be an object, got ${typeName(params)}`,
    id,
    respond,
  );
}

/**
 * Encodes a frame as JSON text on one line. `JSON.stringify` escapes every control character,
 * so the text never holds a raw newline (U+2028 and U+2029 may appear raw; NDJSON splits on
 * `\n` only, so they are harmless). Sealed parts (a modern client's `_meta` envelope) are
 * spliced in as text made once (see `sealed-json.ts`).
 */
export function encodeFrame(frame: Frame): string {
  return encodeJson(frame);
}
