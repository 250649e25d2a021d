// error.type on spans and operation-duration points: the well-known `_OTHER` when the failure has no
// value of ours (no JSON-RPC code, none of timeout/cancelled/connection_closed, no error class name;
// OTEL-026, OTEL-044, OTEL-056, OTEL-066), and a JSON-RPC error's code (OTEL-046, OTEL-058).
import { expect } from 'chai';
import { McpError } from '../../lib/errors.js';
import type { JsonObject } from '../../lib/jsonrpc/message.js';
import { runClientChain } from '../../lib/client-features/interceptors/client-chain.js';
import { runChain } from '../../lib/server-features/interceptors/server-chain.js';
import { api, harness, type Harness } from './otel-harness.js';

/** A client chain and a server chain joined in process; `fail` is what the server's handler throws. */
function wire(h: Harness, fail: unknown) {
  const client = h.telemetry.clientOf({ protocolVersion: '2026-07-28' });
  return (method: string, params: JsonObject) =>
    runClientChain([client], { kind: 'request', method, params, era: 'modern' }, (sent) =>
      api.context.with(api.ROOT_CONTEXT, () =>
        runChain([h.telemetry.server], { method, params: (sent ?? {}) as JsonObject, caller: { era: 'modern' as const }, id: 1 }, async () => {
          throw fail;
        }),
      ),
    );
}

describe('otel: the _OTHER error type', () => {
  let h: Harness;
  beforeEach(() => {
    h = harness({ network: { transport: 'pipe' } });
  });
  afterEach(() => h.shutdown());

  it('[OTEL-026] [OTEL-044] [OTEL-056] [OTEL-066] a failure that is not an Error (a thrown string) is _OTHER on both spans and both histograms; a named Error keeps its class name', async () => {
    const call = wire(h, 'disk on fire');
    expect(await call('tools/call', { name: 'burn' }).then(() => 'answered', (e: unknown) => e)).to.equal('disk on fire');
    for (const kind of [api.SpanKind.CLIENT, api.SpanKind.SERVER]) {
      const s = h.span('tools/call burn', kind);
      expect(s.attributes['error.type']).to.equal('_OTHER');
      expect(s.status.code).to.equal(api.SpanStatusCode.ERROR);
    }
    await wire(h, new RangeError('too far'))('tools/call', { name: 'far' }).catch(() => undefined);
    expect(h.span('tools/call far', api.SpanKind.SERVER).attributes['error.type']).to.equal('RangeError');
    const metrics = await h.collect();
    for (const name of ['mcp.client.operation.duration', 'mcp.server.operation.duration']) {
      const points = metrics.find((m) => m.descriptor.name === name)!.dataPoints;
      expect(points.find((p) => p.attributes['gen_ai.tool.name'] === 'burn')!.attributes['error.type'], name).to.equal('_OTHER');
    }
  });

  it('[OTEL-046] [OTEL-058] a JSON-RPC error answer puts its code on both operation-duration histograms', async () => {
    await wire(h, new McpError(-32602, 'Unknown tool: nope'))('tools/call', { name: 'nope' }).catch(() => undefined);
    const metrics = await h.collect();
    for (const name of ['mcp.client.operation.duration', 'mcp.server.operation.duration']) {
      const point = metrics.find((m) => m.descriptor.name === name)!.dataPoints.find((p) => p.attributes['gen_ai.tool.name'] === 'nope')!;
      expect(point.attributes['error.type'], name).to.equal('-32602');
    }
  });
});
