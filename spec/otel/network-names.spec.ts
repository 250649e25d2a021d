// network.protocol.name is normalized to lowercase wherever it is recorded (OTEL-019, OTEL-051,
// OTEL-075, OTEL-089): a protocol name given as "HTTP" is "http" on the client span, the client's
// operation-duration points and both session durations.
import { expect } from 'chai';
import { Client } from '../../lib/client.js';
import { createMcpServer } from '../../lib/mcp-server.js';
import { createMemoryPair } from '../../streams/memory.js';
import { api, harness } from './otel-harness.js';

describe('otel: network.protocol.name in lowercase', () => {
  it('[OTEL-019] [OTEL-051] [OTEL-075] [OTEL-089] "HTTP" given is "http" on the client span, its histogram and both session durations', async () => {
    const network = { transport: 'tcp' as const, protocolName: 'HTTP' };
    const h = harness({ network });
    const mcp = createMcpServer({ info: { name: 's', version: '1' } });
    mcp.registerTool('echo', {}, () => 'echo');
    const watching = h.telemetry.watchSessions(mcp);
    const client = new Client({ era: 'legacy', info: { name: 'c', version: '1' } });
    client.use(h.telemetry.clientOf(client));
    h.telemetry.watchClient(client, network);
    const [a, b] = createMemoryPair();
    await mcp.connect(a);
    await client.connect(b);
    try {
      await client.callTool('echo', {});
    } finally {
      await client.close();
      await mcp.close();
      watching.unsubscribe();
    }
    await new Promise((r) => setImmediate(r));
    expect(h.span('tools/call echo', api.SpanKind.CLIENT).attributes['network.protocol.name']).to.equal('http');
    const metrics = await h.collect();
    for (const name of ['mcp.client.operation.duration', 'mcp.client.session.duration', 'mcp.server.session.duration']) {
      const points = metrics.find((m) => m.descriptor.name === name)?.dataPoints ?? [];
      expect(points.length, name).to.be.greaterThan(0);
      for (const p of points) expect(p.attributes['network.protocol.name'], name).to.equal('http');
    }
    await h.shutdown();
  });
});
