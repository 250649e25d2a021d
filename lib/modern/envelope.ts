/**
 * The per-request envelope of revision 2026-07-28: what a modern request says about itself in
 * `params._meta` (protocol version, client capabilities and info, log level, trace context),
 * checked once at the edge. A request with a version claim is modern; the rest of the envelope
 * must then be well formed (-32602, HTTP 400) and the version one we speak (-32022, HTTP 400).
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic#meta
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning
 */
import { malformedTraceKey } from '../protocol/trace-context.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import type { JsonObject } from '../jsonrpc/message.js';
import { MODERN_REVISIONS, isModernRevision, type ModernRevision } from '../protocol/revisions.js';
import { LOGGING_LEVELS, type LoggingLevel } from '../protocol/schema/logging.js';
import { META, type TraceContext } from '../protocol/schema/modern.js';

/** A checked modern envelope. */
export interface Envelope {
  readonly revision: ModernRevision;
  readonly clientCapabilities: Record<string, unknown>;
  readonly clientInfo: { name: string; version: string; [key: string]: unknown } | undefined;
  /** The least severe level the client wants log messages at; undefined: no log messages at all. */
  readonly logLevel: LoggingLevel | undefined;
  /** OpenTelemetry context, untouched (undefined when the request carried none). */
  readonly trace: TraceContext | undefined;
}

/** Why a modern request is refused before it reaches a handler: a JSON-RPC error and its HTTP status. */
export class EnvelopeRefusal extends Error {
  override readonly name = 'EnvelopeRefusal';
  constructor(
    readonly code: number,
    message: string,
    readonly status: number,
    readonly data?: unknown,
  ) {
    super(message);
  }
  toJSON(): { code: number; message: string; data?: unknown } {
    return this.data === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, data: this.data };
  }
}

/** The `_meta` of a request's params, if it is an object. */
export function metaOf(params: unknown): JsonObject | undefined {
  if (params === null || typeof params !== 'object' || Array.isArray(params)) return undefined;
  const meta = (params as JsonObject)._meta;
  return meta !== null && typeof meta === 'object' && !Array.isArray(meta) ? (meta as JsonObject) : undefined;
}

/** Whether a request claims the modern era: its `_meta` names a protocol version (any value). */
export function hasVersionClaim(params: unknown): boolean {
  const meta = metaOf(params);
  return meta !== undefined && meta[META.protocolVersion] !== undefined;
}

/** -32022 naming what we speak and what was asked. */
export function unsupportedVersion(requested: string): EnvelopeRefusal {
  return new EnvelopeRefusal(
    ErrorCode.UnsupportedProtocolVersion,
    `Unsupported protocol version ${JSON.stringify(requested).slice(0, 60)}: this server speaks ${MODERN_REVISIONS.join(', ')} per request (and the session revisions through initialize)`,
    400,
    { supported: [...MODERN_REVISIONS], requested },
  );
}

function malformed(problem: string): EnvelopeRefusal {
  return new EnvelopeRefusal(ErrorCode.InvalidParams, `Invalid request _meta: ${problem}`, 400);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** The trace context keys an envelope may carry (made once: an array literal in the loop is one more object per request). */
const TRACE_KEYS = ['traceparent', 'tracestate', 'baggage'] as const;

/**
 * Check the envelope of a request with a version claim. Throws an {@link EnvelopeRefusal}:
 * -32602 for a malformed envelope, -32022 for a version we do not speak.
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic#meta
 */
export function readEnvelope(params: unknown): Envelope {
  const meta = metaOf(params);
  if (meta === undefined) throw malformed(`params._meta must be an object carrying "${META.protocolVersion}" and "${META.clientCapabilities}"`);
  const version = meta[META.protocolVersion];
  if (typeof version !== 'string' || version === '') throw malformed(`"${META.protocolVersion}" must be a non-empty string`);
  const caps = meta[META.clientCapabilities];
  if (!isObject(caps)) throw malformed(`"${META.clientCapabilities}" is required and must be an object (an empty one declares nothing)`);
  const info = meta[META.clientInfo];
  if (info !== undefined && (!isObject(info) || typeof info.name !== 'string' || typeof info.version !== 'string')) {
    throw malformed(`"${META.clientInfo}" must be an object with string "name" and "version"`);
  }
  const level = meta[META.logLevel];
  if (level !== undefined && !(LOGGING_LEVELS as readonly unknown[]).includes(level)) {
    throw malformed(`"${META.logLevel}" must be one of ${LOGGING_LEVELS.join(', ')}`);
  }
  if (!isModernRevision(version)) throw unsupportedVersion(version);
  return {
    revision: version,
    clientCapabilities: caps,
    clientInfo: info as Envelope['clientInfo'],
    logLevel: level as LoggingLevel | undefined,
    // Named reads: most requests carry no trace context, and a read by a variable key costs more.
    trace: meta.traceparent === undefined && meta.tracestate === undefined && meta.baggage === undefined ? undefined : traceOf(meta),
  };
}

/** The well-formed trace context keys of `meta`, or undefined when none is. */
function traceOf(meta: JsonObject): TraceContext | undefined {
  let trace: TraceContext | undefined;
  for (const key of TRACE_KEYS) {
    const v = meta[key];
    // A malformed value is no trace context: left out, as OpenTelemetry's propagators ignore it (the request is served).
    if (typeof v === 'string' && malformedTraceKey({ [key]: v }) === undefined) (trace ??= {})[key] = v;
  }
  return trace;
}
