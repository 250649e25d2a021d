// OpenTelemetry for the requests a server sends its client (legacy era): elicitation, sampling and
// roots asked by a handler get a CLIENT span on the server, a child of the SERVER span of the
// request being served, and carry its trace in their `_meta` to the client that answers. A client
// with OpenTelemetry on answers each with a SERVER span, the child of that CLIENT span (one trace);
// in 2026-07-28 the input requests of a round it answers are SERVER spans in the tool call's trace.
import { expect } from 'chai';
import { McpError } from '../../lib/errors.js';
import { createMcpServer } from '../../lib/mcp-server.js';
import { connect, MATRIX } from '../server-features/interceptors/harness.js';
import { api, harness } from './otel-harness.js';

const { CLIENT, SERVER } = api.SpanKind;

describe('otel: requests the server sends its client', function () {
  this.timeout(30_000);
  for (const wire of [...new Set(MATRIX.map((m) => m.wire))]) {
    it(`[OTEL-004] legacy over ${wire}: elicitation/create, sampling/createMessage and roots/list are CLIENT spans under the tool's SERVER span, their trace in _meta, the client's answers SERVER spans under them`, async () => {
      const h = harness();
      const mcp = createMcpServer({ info: { name: 'asks', version: '1' } });
      mcp.registerTool('book', {}, async (_args, ctx) => {
        await ctx.elicit({ message: 'Book it?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } });
        await ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 5 });
        await ctx.listRoots();
        return 'booked';
      });
      mcp.use(h.telemetry.server);
      const metas: Record<string, Record<string, unknown> | undefined> = {};
      const c = await connect(mcp, 'legacy', wire, {
        setup: (client) => {
          client.onElicitation({ form: async () => ({ action: 'accept', content: { ok: true } }) });
          client.onSampling(async () => ({ role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'm' }));
          // roots/list as the wire brings it (params with their _meta).
          client.declareCapabilities({ roots: {} });
          client.onRequest('roots/list', (p) => ((metas['roots/list'] = p?._meta as Record<string, unknown> | undefined), { roots: [] }));
          client.use(h.telemetry.clientOf(client));
        },
      });
      try {
        await c.client.callTool({ name: 'book', arguments: {} });
        const tool = h.span('tools/call book', SERVER);
        for (const method of ['elicitation/create', 'sampling/createMessage', 'roots/list']) {
          const ask = h.span(method, CLIENT);
          expect(ask.spanContext().traceId, method).to.equal(tool.spanContext().traceId);
          expect(ask.parentSpanContext?.spanId, method).to.equal(tool.spanContext().spanId);
          expect(ask.attributes['mcp.method.name']).to.equal(method);
        }
        for (const [method, meta] of Object.entries(metas)) {
          expect(String(meta?.traceparent), method).to.contain(h.span(method, CLIENT).spanContext().spanId);
        }
        expect(Object.keys(metas)).to.deep.equal(['roots/list']);
        // The client's answers: SERVER spans, children of the server's CLIENT spans, one trace.
        for (const method of ['elicitation/create', 'sampling/createMessage', 'roots/list']) {
          const ask = h.span(method, CLIENT);
          const answer = h.span(method, SERVER);
          expect(answer.spanContext().traceId, method).to.equal(ask.spanContext().traceId);
          expect(answer.parentSpanContext?.spanId, method).to.equal(ask.spanContext().spanId);
          expect(answer.attributes['mcp.method.name']).to.equal(method);
          expect(answer.attributes['jsonrpc.request.id'], method).to.be.a('string');
          expect(answer.attributes['error.type'], method).to.equal(undefined);
          expect(answer.attributes['mcp.protocol.version'], method).to.be.a('string').and.equal(c.client.protocolVersion);
        }
      } finally {
        await c.close();
        await h.shutdown();
      }
    });

    it(`[OTEL-008] [OTEL-013] legacy over ${wire}: an answer that fails is a SERVER span with error.type on the client`, async () => {
      const h = harness();
      const mcp = createMcpServer({ info: { name: 'asks', version: '1' } });
      mcp.registerTool('book', {}, async (_args, ctx) => {
        await ctx.listRoots().catch(() => undefined);
        return 'asked';
      });
      mcp.use(h.telemetry.server);
      const c = await connect(mcp, 'legacy', wire, {
        setup: (client) => {
          client.declareCapabilities({ roots: {} });
          client.onRequest('roots/list', () => {
            throw new McpError(-32001, 'no roots today');
          });
          client.use(h.telemetry.clientOf(client));
        },
      });
      try {
        await c.client.callTool({ name: 'book', arguments: {} });
        const answer = h.span('roots/list', SERVER);
        expect(answer.parentSpanContext?.spanId).to.equal(h.span('roots/list', CLIENT).spanContext().spanId);
        expect(answer.attributes['error.type']).to.equal('-32001');
        expect(answer.status.code).to.equal(api.SpanStatusCode.ERROR);
      } finally {
        await c.close();
        await h.shutdown();
      }
    });

    it(`2026-07-28 over ${wire}: the input requests the client answers are SERVER spans in the tool call's trace`, async () => {
      const h = harness();
      const mcp = createMcpServer({ info: { name: 'asks', version: '1' } });
      mcp.registerTool('book', {}, async (_args, ctx) => {
        await ctx.elicit({ message: 'Book it?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } });
        return 'booked';
      });
      mcp.use(h.telemetry.server);
      const c = await connect(mcp, 'modern', wire, {
        setup: (client) => {
          client.onElicitation({ form: async () => ({ action: 'accept', content: { ok: true } }) });
          client.use(h.telemetry.clientOf(client));
        },
      });
      try {
        await c.client.callTool({ name: 'book', arguments: {} });
        const call = h.span('tools/call book', CLIENT);
        const answer = h.span('elicitation/create', SERVER);
        expect(answer.spanContext().traceId).to.equal(call.spanContext().traceId);
        // No traceparent rides an input request (it is a round of the call): the call's CLIENT span is the parent.
        expect(answer.parentSpanContext?.spanId).to.equal(call.spanContext().spanId);
        expect(answer.attributes).to.include({ 'mcp.method.name': 'elicitation/create', 'mcp.protocol.version': '2026-07-28' });
      } finally {
        await c.close();
        await h.shutdown();
      }
    });
  }
});
