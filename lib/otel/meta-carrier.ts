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
