// The client side's network facts come from its transport, with no option given (OTEL-020, OTEL-052,
// OTEL-053, OTEL-076, OTEL-077): over Streamable HTTP the client span, its operation-duration points
// and its session duration say tcp (and http); over stdio (a real child process) they say pipe.
import { expect } from 'chai';
import { Client } from '../../lib/client.js';
import { listen } from '../../lib/http/listen-port.js';
import { createMcpServer } from '../../lib/mcp-server.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';
import { createStdioClientTransport } from '../../streams/stdio-client.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';
import type { Transport } from '../../streams/transport.js';
import { api, harness } from './otel-harness.js';

const FIXTURE = 'spec/fixtures/skills/skill-server.ts';

/** One session of a legacy client over `transport`; what the client's spans and histograms said of the network. */
async function clientFacts(transport: Transport, call: (c: Client) => Promise<unknown>) {
  const h = harness();
  const client = new Client({ era: 'legacy', info: { name: 'c', version: '1' } });
  client.use(h.telemetry.clientOf(client));
  h.telemetry.watchClient(client);
  await client.connect(transport);
  await call(client);
  await client.close();
  await new Promise((r) => setImmediate(r));
  const span = h.spans().find((s) => s.kind === api.SpanKind.CLIENT)!;
  const metrics = await h.collect();
  const points = (name: string) => (metrics.find((m) => m.descriptor.name === name)?.dataPoints ?? []).map((p) => p.attributes);
  const facts = {
    span: { transport: span.attributes['network.transport'], protocol: span.attributes['network.protocol.name'] },
    operations: points('mcp.client.operation.duration').map((a) => [a['network.transport'], a['network.protocol.name']]),
    session: points('mcp.client.session.duration').map((a) => [a['network.transport'], a['network.protocol.name']]),
  };
  await h.shutdown();
  return facts;
}

describe('otel: the client\'s network facts from its transport', function () {
  this.timeout(20_000);

  it('[OTEL-020] [OTEL-052] [OTEL-076] over Streamable HTTP: tcp and http on the client span, its histogram points and its session duration', async () => {
    const mcp = createMcpServer({ info: { name: 's', version: '1' } });
    mcp.registerTool('echo', {}, () => 'echo');
    const web = await listen(createStreamableHttpHandler(mcp.server), { port: 0, logger: false });
    try {
      const facts = await clientFacts(createStreamableHttpClientTransport(web.url), (c) => c.callTool('echo', {}));
      expect(facts.span).to.deep.equal({ transport: 'tcp', protocol: 'http' });
      expect(facts.operations.length).to.be.greaterThan(0);
      for (const p of facts.operations) expect(p).to.deep.equal(['tcp', 'http']);
      expect(facts.session).to.deep.equal([['tcp', 'http']]);
    } finally {
      await web.close();
      await mcp.close();
    }
  });

  it('[OTEL-053] [OTEL-077] over stdio: pipe on the client span, its histogram points and its session duration', async () => {
    const transport = createStdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', FIXTURE, 'Pipe refunds'], stderr: 'ignore' });
    const facts = await clientFacts(transport, (c) => c.listResources());
    expect(facts.span.transport).to.equal('pipe');
    expect(facts.operations.length).to.be.greaterThan(0);
    for (const p of facts.operations) expect(p[0]).to.equal('pipe');
    expect(facts.session.map((p) => p[0])).to.deep.equal(['pipe']);
  });
});
