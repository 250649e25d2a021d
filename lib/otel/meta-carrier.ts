/**
 * Trace context in a request's `params._meta` (the conventions' carrier): the propagator the user
 * configured (W3C Trace Context and Baggage by default in the OpenTelemetry SDK) writes `traceparent`,
 * `tracestate` and `baggage` there and reads them back, both ways.
 * @see https://opentelemetry.io/docs/specs/semconv/gen-ai/mcp/#context-propagation
 */
import type { Context, TextMapGetter, TextMapPropagator, TextMapSetter } from '@opentelemetry/api';
import type { JsonObject } from '../jsonrpc/message.js';

type Meta = Record<string, unknown>;

const getter: TextMapGetter<Meta> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const v = carrier[key];
    return typeof v === 'string' ? v : undefined;
  },
};

const setter: TextMapSetter<Meta> = {
  set: (carrier, key, value) => {
    carrier[key] = value;
  },
};

/** The `_meta` bag of `params`, when it is an object. */
export function metaOf(params: JsonObject | undefined): Meta | undefined {
  const m = params?._meta;
  return m !== null && typeof m === 'object' && !Array.isArray(m) ? (m as Meta) : undefined;
}

/** `ctx` with the remote parent (and baggage) that `params._meta` carries; `ctx` itself when it carries none. */
export function extractFromMeta(propagator: TextMapPropagator, ctx: Context, params: JsonObject | undefined): Context {
  const meta = metaOf(params);
  return meta ? propagator.extract(ctx, meta, getter) : ctx;
}

/** New params whose `_meta` also carries `ctx` (the caller's params are not changed). */
export function injectIntoMeta(propagator: TextMapPropagator, ctx: Context, params: JsonObject | undefined): JsonObject {
  const meta: Meta = { ...metaOf(params) };
  propagator.inject(ctx, meta, setter);
  return { ...params, _meta: meta };
}

/** The keys the MCP specification reserves in `_meta` for trace context, in W3C Trace Context and Baggage formats. */
const OFFICIAL_KEYS = ['traceparent', 'tracestate', 'baggage'] as const;
const officialOver = new WeakMap<TextMapPropagator, TextMapPropagator>();

/**
 * The propagator for `_meta`: `configured`, with the MCP specification's own guidance first. 2026-07-28
 * reserves `traceparent`, `tracestate` and `baggage` in `_meta` for trace context in the W3C formats,
 * and the conventions ask to prefer official guidance to theirs: a propagator that does not write
 * those keys (B3, Jaeger, a vendor's) still has its keys written, and `w3c` writes the official ones
 * after it; on receipt a valid `traceparent` is the parent whatever else `_meta` carries.
 * A propagator that writes all three (W3C's own, or a composite holding it) is used as it is.
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic#opentelemetry-trace-context
 */
export function officialFirst(configured: TextMapPropagator, w3c: TextMapPropagator): TextMapPropagator {
  // Asked each time: the global propagation API is one object whose propagator can be registered later.
  const fields = configured.fields();
  if (configured === w3c || OFFICIAL_KEYS.every((k) => fields.includes(k))) return configured;
  let both = officialOver.get(configured);
  if (both === undefined) {
    both = {
      fields: () => [...new Set([...configured.fields(), ...OFFICIAL_KEYS])],
      inject(ctx, carrier, set) {
        configured.inject(ctx, carrier, set);
        w3c.inject(ctx, carrier, set);
      },
      extract: (ctx, carrier, get) => w3c.extract(configured.extract(ctx, carrier, get), carrier, get),
    };
    officialOver.set(configured, both);
  }
  return both;
}
