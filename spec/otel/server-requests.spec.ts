// OpenTelemetry for the requests a server sends its client (legacy era): elicitation, sampling and
// roots asked by a handler get a CLIENT span on the server, a child of the SERVER span of the
// request being served, and carry its trace in their `_meta` to the client that answers.
import { expect } from 'chai';
import { createMcpServer } from '../../lib/mcp-server.js';
import { connect, MATRIX } from '../server-features/interceptors/harness.js';
import { api, harness } from './otel-harness.js';

const { CLIENT, SERVER } = api.SpanKind;

describe('otel: requests the server sends its client', function () {
  this.timeout(30_000);
  for (const wire of [...new Set(MATRIX.map((m) => m.wire))]) {
    it(`legacy over ${wire}: elicitation/create, sampling/createMessage and roots/list are CLIENT spans under the tool's SERVER span, their trace in _meta`, async () => {
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
      } finally {
        await c.close();
        await h.shutdown();
      }
    });
  }
});
