import { expect } from 'chai';
import { Client } from '../../lib/client.js';
import { createMcpServer } from '../../lib/mcp-server.js';
import { createMemoryPair } from '../../streams/memory.js';
import { harness } from './otel-harness.js';

describe('otel: session durations', () => {
  it('[OTEL-067] [OTEL-081] records mcp.server.session.duration and mcp.client.session.duration once a legacy session ends, with its protocol version and the advised buckets', async () => {
    const h = harness({ network: { transport: 'pipe' } });
    const mcp = createMcpServer({ info: { name: 's', version: '1' } });
    const watching = h.telemetry.watchSessions(mcp);
    const client = new Client({ era: 'legacy', info: { name: 'c', version: '1' } });
    h.telemetry.watchClient(client);
    const [a, b] = createMemoryPair();
    await mcp.connect(a);
    await client.connect(b);
    const version = client.protocolVersion;
    expect(version).to.be.a('string');
    // Nothing yet: a session is recorded when it ends.
    expect((await h.collect()).filter((m) => m.descriptor.name.endsWith('session.duration') && m.dataPoints.length > 0)).to.deep.equal([]);
    await client.close();
    await mcp.close();
    await new Promise((r) => setImmediate(r));
    const metrics = await h.collect();
    for (const name of ['mcp.server.session.duration', 'mcp.client.session.duration']) {
      const m = metrics.find((x) => x.descriptor.name === name);
      expect(m, name).not.to.equal(undefined);
      expect(m!.dataPoints).to.have.length(1);
      expect(m!.dataPoints[0]!.value.count).to.equal(1);
      expect(m!.descriptor.unit).to.equal('s');
      expect(m!.dataPoints[0]!.value.buckets.boundaries).to.deep.equal([0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300]);
      expect(m!.dataPoints[0]!.attributes).to.deep.equal({ 'mcp.protocol.version': version, 'network.transport': 'pipe' });
    }
    watching.unsubscribe();
    await h.shutdown();
  });
});
