// What a legacy server span knows of its caller without any option: the negotiated protocol
// version, the transport's real session id (the HTTP Mcp-Session-Id, none on stdio, never the
// server's `session-<n>` label), the transport kind and, over HTTP, the client's address.
import { expect } from 'chai';
import { PassThrough } from 'node:stream';
import { Client } from '../../lib/client.js';
import { listen } from '../../lib/http/listen-port.js';
import { createMcpServer, type McpServer } from '../../lib/mcp-server.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';
import { createStdioServerTransport } from '../../streams/stdio-server.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';
import { api, harness, type Harness } from './otel-harness.js';

const { CLIENT, SERVER } = api.SpanKind;

function makeServer(h: Harness): McpServer {
  const mcp = createMcpServer({ info: { name: 'otel-peer', version: '1.0.0' } });
  mcp.registerTool('echo', { description: 'Echoes its text.' }, async (args: Record<string, unknown>) => `echo ${String(args.text)}`);
  mcp.use(h.telemetry.server);
  return mcp;
}

/** The client span names the JSON-RPC id the request went out with: the one the server saw (the wire did not change). */
function expectSameRequestId(h: Harness): void {
  const sent = h.span('tools/call echo', CLIENT).attributes['jsonrpc.request.id'];
  expect(sent).to.be.a('string');
  expect(sent).to.equal(h.span('tools/call echo', SERVER).attributes['jsonrpc.request.id']);
}

describe('otel: server spans know their caller with no option given', function () {
  this.timeout(30_000);
  let h: Harness;
  beforeEach(() => {
    h = harness();
  });
  afterEach(() => h.shutdown());

  it('[OTEL-021] [OTEL-041] [OTEL-042] [OTEL-063] [OTEL-064] over Streamable HTTP: the negotiated protocol version, the Mcp-Session-Id, tcp and the client address and port, with no option given', async () => {
    const mcp = makeServer(h);
    const { url, close } = await listen(createStreamableHttpHandler(mcp.server), { port: 0, host: '127.0.0.1', logger: false });
    const client = new Client({ era: 'legacy', info: { name: 'otel-peer-client', version: '1.0.0' } });
    client.use(h.telemetry.clientOf(client));
    const transport = createStreamableHttpClientTransport(url);
    let sessionId: string | undefined;
    let negotiated: string | undefined;
    try {
      await client.connect(transport);
      await client.callTool('echo', { text: 'hi' });
      sessionId = transport.sessionId;
      negotiated = client.protocolVersion;
    } finally {
      await client.close();
      await close();
      await mcp.close();
    }
    expect(sessionId).to.be.a('string').that.has.length.greaterThan(10);
    expect(negotiated).to.be.a('string');
    const s = h.span('tools/call echo', SERVER);
    expect(s.attributes).to.include({
      'mcp.protocol.version': negotiated,
      'mcp.session.id': sessionId,
      'network.transport': 'tcp',
      'network.protocol.name': 'http',
      'client.address': '127.0.0.1',
    });
    expect(s.attributes['client.port']).to.be.a('number').above(0);
    expectSameRequestId(h);
    // The client's port is one per connection: spans only, never a metric attribute.
    const duration = (await h.collect()).find((m) => m.descriptor.name === 'mcp.server.operation.duration')!;
    expect(duration.dataPoints).to.have.length.greaterThan(0);
    for (const point of duration.dataPoints) {
      expect(point.attributes['network.transport']).to.equal('tcp');
      expect(point.attributes['network.protocol.name']).to.equal('http');
      expect(point.attributes).to.not.have.property('client.port');
      expect(point.attributes).to.not.have.property('client.address');
    }
  });

  it('over Streamable HTTP in 2026-07-28: tcp and the client address on the server span, no mcp.session.id (no session)', async () => {
    const mcp = makeServer(h);
    const { url, close } = await listen(createStreamableHttpHandler(mcp.server), { port: 0, host: '127.0.0.1', logger: false });
    const client = new Client({ era: 'modern', info: { name: 'otel-peer-client', version: '1.0.0' } });
    client.use(h.telemetry.clientOf(client));
    try {
      await client.connect(createStreamableHttpClientTransport(url));
      await client.callTool('echo', { text: 'hi' });
    } finally {
      await client.close();
      await close();
      await mcp.close();
    }
    const s = h.span('tools/call echo', SERVER);
    expect(s.attributes).to.include({ 'mcp.protocol.version': '2026-07-28', 'network.transport': 'tcp', 'network.protocol.name': 'http', 'client.address': '127.0.0.1' });
    expect(s.attributes['client.port']).to.be.a('number').above(0);
    expect(s.attributes).to.not.have.property('mcp.session.id');
    expectSameRequestId(h);
  });

  it('[OTEL-065] [OTEL-090] [OTEL-091] over stdio: the negotiated protocol version and network.transport pipe, no mcp.session.id (stdio has none); the session duration says pipe too', async () => {
    const mcp = makeServer(h);
    const watching = h.telemetry.watchSessions(mcp);
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const lines: unknown[] = [];
    let buffered = '';
    stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        lines.push(JSON.parse(buffered.slice(0, nl)));
        buffered = buffered.slice(nl + 1);
      }
    });
    await mcp.connect(createStdioServerTransport({ stdin, stdout, redirectConsole: false }));
    const answered = (id: number): Promise<void> =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          if (lines.some((l) => (l as { id?: number }).id === id)) resolve();
          else if (stdout.readableEnded) reject(new Error(`no answer to ${id}`));
          else setImmediate(check);
        };
        check();
      });
    try {
      stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } })}\n`);
      await answered(1);
      stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
      stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } })}\n`);
      await answered(2);
    } finally {
      await mcp.close();
      watching.unsubscribe();
    }
    await new Promise((r) => setImmediate(r));
    const session = (await h.collect()).find((m) => m.descriptor.name === 'mcp.server.session.duration')!;
    expect(session.dataPoints.map((p) => p.attributes)).to.deep.equal([{ 'mcp.protocol.version': '2025-06-18', 'network.transport': 'pipe' }]);
    const operations = (await h.collect()).find((m) => m.descriptor.name === 'mcp.server.operation.duration')!;
    expect(operations.dataPoints.length).to.be.greaterThan(0);
    for (const point of operations.dataPoints) expect(point.attributes['network.transport']).to.equal('pipe');
    const s = h.span('tools/call echo', SERVER);
    expect(s.attributes).to.include({ 'mcp.protocol.version': '2025-06-18', 'network.transport': 'pipe' });
    expect(s.attributes).to.not.have.property('mcp.session.id');
    expect(s.attributes).to.not.have.property('client.address');
  });
});
