/**
 * W3C Trace Context and Baggage in `_meta` when no propagator is registered: the OpenTelemetry API's
 * default one does nothing, and then a client span and the server span it caused would never share a
 * trace. Values that break the W3C formats are ignored, as OpenTelemetry's own propagators do.
 * @see https://www.w3.org/TR/trace-context/
 * @see https://www.w3.org/TR/baggage/
 */
import type { Context, TextMapGetter, TextMapPropagator, TextMapSetter } from '@opentelemetry/api';
import { isBaggage, isTraceparent, isTracestate } from '../protocol/trace-context.js';
import type { OtelApi } from './otel-api.js';

type Api = Pick<OtelApi, 'trace' | 'propagation' | 'createTraceState' | 'TraceFlags'>;

/** A propagator of `traceparent`, `tracestate` and `baggage` over the given API. */
export function w3cPropagator(api: Api): TextMapPropagator {
  return {
    fields: () => ['traceparent', 'tracestate', 'baggage'],
    inject(ctx: Context, carrier: unknown, setter: TextMapSetter) {
      const sc = api.trace.getSpanContext(ctx);
      if (sc && api.trace.isSpanContextValid(sc)) {
        const flags = (sc.traceFlags & api.TraceFlags.SAMPLED).toString(16).padStart(2, '0');
        setter.set(carrier, 'traceparent', `00-${sc.traceId}-${sc.spanId}-${flags}`);
        const state = sc.traceState?.serialize();
        if (state) setter.set(carrier, 'tracestate', state);
      }
      const entries = api.propagation.getBaggage(ctx)?.getAllEntries() ?? [];
      if (entries.length > 0) setter.set(carrier, 'baggage', entries.map(([k, e]) => `${encodeURIComponent(k)}=${encodeURIComponent(e.value)}`).join(','));
    },
    extract(ctx: Context, carrier: unknown, getter: TextMapGetter): Context {
      let out = ctx;
      const parent = one(getter.get(carrier, 'traceparent'));
      if (parent && isTraceparent(parent)) {
        const [, traceId, spanId, flags] = parent.split('-') as [string, string, string, string];
        const state = one(getter.get(carrier, 'tracestate'));
        const traceState = state && isTracestate(state) ? api.createTraceState(state) : undefined;
        out = api.trace.setSpanContext(out, { traceId, spanId, traceFlags: parseInt(flags, 16) & api.TraceFlags.SAMPLED, isRemote: true, ...(traceState ? { traceState } : {}) });
      }
      const baggage = one(getter.get(carrier, 'baggage'));
      if (baggage && isBaggage(baggage)) {
        const entries: Record<string, { value: string }> = {};
        for (const member of baggage.split(',')) {
          const pair = member.split(';')[0]!;
          const eq = pair.indexOf('=');
          entries[decodeURIComponent(pair.slice(0, eq).trim())] = { value: decodeURIComponent(pair.slice(eq + 1).trim()) };
        }
        out = api.propagation.setBaggage(out, api.propagation.createBaggage(entries));
      }
      return out;
    },
  };
}

function one(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}
