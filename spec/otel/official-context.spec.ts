// The MCP specification's own guidance on trace context comes first (OTEL-003): 2026-07-28 reserves
// `traceparent`, `tracestate` and `baggage` in `_meta` for W3C Trace Context and Baggage. With a
// propagator of another format configured (here a vendor's, as B3 or Jaeger would be), the client
// still writes the official keys, so a peer that follows the MCP specification continues its trace,
// and a server reads a valid `traceparent` first, whatever else `_meta` carries.
import { expect } from 'chai';
import type { Context, TextMapGetter, TextMapPropagator, TextMapSetter } from '@opentelemetry/api';
import type { JsonObject } from '../../lib/jsonrpc/message.js';
import { runClientChain } from '../../lib/client-features/interceptors/client-chain.js';
import { createMcpTelemetry } from '../../lib/otel/index.js';
import { runChain } from '../../lib/server-features/interceptors/server-chain.js';
import { api, harness, type Harness } from './otel-harness.js';

const VENDOR_KEY = 'com.example/trace';

/** A propagator of a format of its own: `{traceId}:{spanId}` under a vendor key, nothing else. */
const vendor: TextMapPropagator = {
  fields: () => [VENDOR_KEY],
  inject(ctx: Context, carrier: unknown, set: TextMapSetter) {
    const sc = api.trace.getSpanContext(ctx);
    if (sc) set.set(carrier, VENDOR_KEY, `${sc.traceId}:${sc.spanId}`);
  },
  extract(ctx: Context, carrier: unknown, get: TextMapGetter): Context {
    const v = get.get(carrier, VENDOR_KEY);
    if (typeof v !== 'string') return ctx;
    const [traceId, spanId] = v.split(':') as [string, string];
    return api.trace.setSpanContext(ctx, { traceId, spanId, traceFlags: api.TraceFlags.SAMPLED, isRemote: true });
  },
};

const TOOL = { name: 'w' };

describe('otel: the MCP specification\'s trace context keys come first', () => {
  let h: Harness;
  beforeEach(() => {
    h = harness();
  });
  afterEach(() => h.shutdown());

  it('[OTEL-003] a client configured with another format still writes a W3C traceparent into _meta: a server that follows the MCP specification continues the trace', async () => {
    const client = createMcpTelemetry(api, { tracerProvider: h.tracerProvider, propagator: vendor }).clientOf({ protocolVersion: '2026-07-28' });
    let onWire: JsonObject | undefined;
    await runClientChain([client], { kind: 'request', method: 'tools/call', params: TOOL, era: 'modern' }, (sent) => {
      onWire = JSON.parse(JSON.stringify(sent)) as JsonObject;
      const req = { method: 'tools/call', params: onWire, caller: { era: 'modern' as const }, id: 1 };
      return api.context.with(api.ROOT_CONTEXT, () => runChain([h.telemetry.server], req, async () => ({ content: [] })));
    });
    const c = h.span('tools/call w', api.SpanKind.CLIENT).spanContext();
    const meta = onWire!._meta as JsonObject;
    expect(meta.traceparent).to.equal(`00-${c.traceId}-${c.spanId}-01`);
    // The configured format travels too, for peers that read it.
    expect(meta[VENDOR_KEY]).to.equal(`${c.traceId}:${c.spanId}`);
    const s = h.span('tools/call w', api.SpanKind.SERVER);
    expect(s.spanContext().traceId).to.equal(c.traceId);
    expect(s.parentSpanContext?.spanId).to.equal(c.spanId);
  });

  it('[OTEL-003] a server configured with another format takes the traceparent in _meta as the parent when both are there', async () => {
    const server = createMcpTelemetry(api, { tracerProvider: h.tracerProvider, propagator: vendor }).server;
    const official = { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16) };
    const params = { ...TOOL, _meta: { traceparent: `00-${official.traceId}-${official.spanId}-01`, [VENDOR_KEY]: `${'c'.repeat(32)}:${'d'.repeat(16)}` } };
    await runChain([server], { method: 'tools/call', params, caller: { era: 'modern' }, id: 1 }, async () => ({ content: [] }));
    const s = h.span('tools/call w', api.SpanKind.SERVER);
    expect(s.spanContext().traceId).to.equal(official.traceId);
    expect(s.parentSpanContext?.spanId).to.equal(official.spanId);
  });

  it('[OTEL-003] with no traceparent, or a malformed one, the configured format still gives the parent', async () => {
    const server = createMcpTelemetry(api, { tracerProvider: h.tracerProvider, propagator: vendor }).server;
    const params = { ...TOOL, _meta: { traceparent: 'not-a-traceparent', [VENDOR_KEY]: `${'c'.repeat(32)}:${'d'.repeat(16)}` } };
    await runChain([server], { method: 'tools/call', params, caller: { era: 'modern' }, id: 1 }, async () => ({ content: [] }));
    expect(h.span('tools/call w', api.SpanKind.SERVER).spanContext().traceId).to.equal('c'.repeat(32));
  });
});
