import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as api from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createMcpTelemetry } from '../../lib/otel/index.js';
import { runChain } from '../../lib/server-features/interceptors/server-chain.js';
import { ensureContextManager } from './otel-harness.js';

interface OtlpAttribute { key: string; value: { stringValue?: string; intValue?: string | number } }
interface OtlpSpan { name: string; kind: number; traceId: string; attributes: OtlpAttribute[] }

/** A collector of our own on 127.0.0.1: it keeps each OTLP/HTTP JSON body posted to /v1/traces. */
function receiver(): Promise<{ server: Server; url: string; bodies: unknown[] }> {
  const bodies: unknown[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/v1/traces' && req.headers['content-type']?.startsWith('application/json')) bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`, bodies })),
  );
}

describe('otel: export over OTLP/HTTP', () => {
  it('a server span reaches an OTLP/HTTP receiver with its MCP attributes', async () => {
    ensureContextManager();
    const { server, url, bodies } = await receiver();
    const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url }))] });
    try {
      const telemetry = createMcpTelemetry(api, { tracerProvider });
      const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
      await runChain([telemetry.server], { method: 'tools/call', params: { name: 'get-weather', _meta: { traceparent } }, caller: { era: 'legacy', peer: { sessionId: 's-7' } } }, async () => ({ content: [] }));
      await tracerProvider.forceFlush();
      const spans = (bodies as { resourceSpans: { scopeSpans: { scope: { name: string }; spans: OtlpSpan[] }[] }[] }[])
        .flatMap((b) => b.resourceSpans)
        .flatMap((r) => r.scopeSpans)
        .flatMap((s) => s.spans.map((span) => ({ scope: s.scope.name, span })));
      expect(spans).to.have.length(1);
      const { scope, span } = spans[0]!;
      expect(scope).to.equal('mcp-actors');
      expect(span.name).to.equal('tools/call get-weather');
      expect(span.kind).to.equal(2); // SPAN_KIND_SERVER in OTLP
      expect(span.traceId).to.equal('4bf92f3577b34da6a3ce929d0e0e4736');
      const attrs = Object.fromEntries(span.attributes.map((a) => [a.key, a.value.stringValue ?? a.value.intValue]));
      expect(attrs).to.include({ 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'get-weather', 'mcp.session.id': 's-7' });
    } finally {
      await tracerProvider.shutdown();
      await new Promise((r) => server.close(r));
    }
  });
});
