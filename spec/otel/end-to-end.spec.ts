// OpenTelemetry through our real client and server (use()): one trace across both over
// Streamable HTTP (both eras) and stdio (a child process exporting over OTLP/HTTP), input rounds,
// a failed tool, a task; and a traceparent from the official SDK v2 client continued by our server.
import { expect } from 'chai';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { Client } from '../../lib/client.js';
import { listen } from '../../lib/http/listen-port.js';
import { createMcpServer, type McpServer } from '../../lib/mcp-server.js';
import { text } from '../../lib/server-features/content.js';
import { createStdioClientTransport } from '../../streams/stdio-client.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';
import { api, harness, type Harness } from './otel-harness.js';
import { tsArgs } from '../helpers/ts-child.js';

const { CLIENT, SERVER } = api.SpanKind;

function makeServer(h: Harness): McpServer {
  const mcp = createMcpServer({ info: { name: 'otel-e2e', version: '1.0.0' } });
  mcp.registerTool('book', { description: 'Books after asking the user.' }, async (_args, ctx) => {
    const answer = await ctx.elicit({ message: 'Book it?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } });
    return `booked: ${answer.action}`;
  });
  mcp.registerTool('fail', { description: 'Always fails.' }, async () => ({ isError: true, content: [text('no such flight')] }));
  mcp.registerTool('build', { description: 'Long work.', execution: { taskSupport: 'optional' } }, async () => 'built');
  mcp.use(h.telemetry.server);
  return mcp;
}

async function overHttp(h: Harness): Promise<{ mcp: McpServer; url: string; close: () => Promise<void> }> {
  const mcp = makeServer(h);
  const { url, close } = await listen(createStreamableHttpHandler(mcp.server), { port: 0, logger: false });
  return { mcp, url, close: async () => { await close(); await mcp.close(); } };
}

function makeClient(h: Harness, era: 'legacy' | 'modern'): Client {
  const client = new Client({ era, info: { name: 'otel-e2e-client', version: '1.0.0' } });
  client.onElicitation({ form: async () => ({ action: 'accept', content: { ok: true } }) });
  client.use(h.telemetry.clientOf(client));
  return client;
}

/** The MCP spans of one name by kind; each server span must be in the client span's trace, as its child. */
function pair(h: Harness, name: string): { client: ReturnType<Harness['span']>; servers: ReturnType<Harness['spans']> } {
  const client = h.span(name, CLIENT);
  const servers = h.spans().filter((s) => s.name === name && s.kind === SERVER);
  expect(servers.length, `server spans "${name}"`).to.be.greaterThan(0);
  for (const s of servers) {
    expect(s.spanContext().traceId).to.equal(client.spanContext().traceId);
    expect(s.parentSpanContext?.spanId).to.equal(client.spanContext().spanId);
  }
  return { client, servers };
}

describe('otel: one trace across our client and our server', function () {
  this.timeout(60_000);
  let h: Harness;
  beforeEach(() => {
    h = harness();
  });
  afterEach(() => h.shutdown());

  it('[OTEL-002] [OTEL-004] over Streamable HTTP in 2026-07-28: a tool call with an input round is one client span and a server span per round, the retry linked to the round that asked', async () => {
    const { url, close } = await overHttp(h);
    const client = makeClient(h, 'modern');
    try {
      await client.connect(createStreamableHttpClientTransport(url));
      const out = await client.callTool('book', {});
      expect(out.content).to.deep.equal([{ type: 'text', text: 'booked: accept' }]);
    } finally {
      await client.close();
      await close();
    }
    const { client: span, servers } = pair(h, 'tools/call book');
    expect(span.attributes).to.include({ 'mcp.protocol.version': '2026-07-28', 'gen_ai.tool.name': 'book' });
    expect(servers).to.have.length(2);
    const [asked, answered] = servers;
    expect(asked!.events.map((e) => e.name)).to.deep.equal(['mcp.input_required']);
    expect(answered!.links.map((l) => l.context.spanId)).to.deep.equal([asked!.spanContext().spanId]);
    expect(answered!.attributes).to.include({ 'mcp.input_round': 1, 'mcp.protocol.version': '2026-07-28' });
    expect(answered!.attributes['jsonrpc.request.id']).to.be.a('string');
  });

  it('over Streamable HTTP in the legacy era: a failed tool is tool_error on both sides; a task\'s requests link to the call that created it', async () => {
    const { url, close } = await overHttp(h);
    const client = makeClient(h, 'legacy');
    try {
      await client.connect(createStreamableHttpClientTransport(url));
      const failed = await client.callTool('fail', {});
      expect(failed.isError).to.equal(true);
      const handle = await client.callToolAsTask('build', {}, { ttl: 60_000 });
      expect((await handle.result()).content).to.deep.equal([{ type: 'text', text: 'built' }]);
    } finally {
      await client.close();
      await close();
    }
    const { client: fail, servers } = pair(h, 'tools/call fail');
    for (const s of [fail, ...servers]) {
      expect(s.attributes['error.type']).to.equal('tool_error');
      expect(s.status.code).to.equal(api.SpanStatusCode.ERROR);
    }
    expect(servers[0]!.attributes['mcp.session.id']).to.be.a('string');
    const { client: created, servers: [createdOnServer] } = pair(h, 'tools/call build');
    const taskId = created.attributes['mcp.task.id'];
    expect(taskId).to.be.a('string');
    expect(createdOnServer!.attributes['mcp.task.id']).to.equal(taskId);
    const later = h.spans().filter((s) => s.name.startsWith('tasks/'));
    expect(later.length).to.be.greaterThan(0);
    for (const s of later) {
      expect(s.attributes['mcp.task.id']).to.equal(taskId);
      const creator = s.kind === CLIENT ? created : createdOnServer!;
      expect(s.links.map((l) => l.context.spanId)).to.deep.equal([creator.spanContext().spanId]);
    }
  });
});

/** A collector of our own on 127.0.0.1 keeping the spans of each OTLP/HTTP JSON body. */
interface OtlpSpan { name: string; kind: number; traceId: string; spanId: string; parentSpanId?: string; attributes: { key: string; value: { stringValue?: string } }[] }
function receiver(): Promise<{ server: HttpServer; url: string; spans: OtlpSpan[] }> {
  const spans: OtlpSpan[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { resourceSpans?: { scopeSpans: { spans: OtlpSpan[] }[] }[] };
      for (const r of body.resourceSpans ?? []) for (const s of r.scopeSpans) spans.push(...s.spans);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`, spans })));
}

/** Until `check` holds: the child exports its span over real HTTP after it answered (no clock of ours to step). */
async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setImmediate(r));
  for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 50));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

describe('otel: across processes', function () {
  this.timeout(60_000);

  it('[OTEL-021] [OTEL-043] over stdio: the server in a child process continues our client span\'s trace (its span arrives over OTLP/HTTP)', async () => {
    const h = harness({ network: { transport: 'pipe' } });
    const { server, url, spans } = await receiver();
    const client = new Client({ info: { name: 'otel-stdio-client', version: '1.0.0' } });
    client.use(h.telemetry.clientOf(client));
    try {
      await client.connect(
        createStdioClientTransport({ command: process.execPath, args: [...tsArgs('spec/otel/fixtures/stdio-server.ts')], env: { OTLP_URL: url } }),
      );
      const out = await client.callTool('echo', { text: 'hi' });
      expect(out.content).to.deep.equal([{ type: 'text', text: 'echo hi' }]);
      const mine = h.span('tools/call echo', CLIENT);
      await until(() => spans.some((s) => s.name === 'tools/call echo'), 'the child\'s server span');
      const theirs = spans.find((s) => s.name === 'tools/call echo')!;
      expect(theirs.kind).to.equal(2); // SERVER
      expect(theirs.traceId).to.equal(mine.spanContext().traceId);
      expect(theirs.parentSpanId).to.equal(mine.spanContext().spanId);
      expect(Object.fromEntries(theirs.attributes.map((a) => [a.key, a.value.stringValue]))).to.include({ 'network.transport': 'pipe', 'gen_ai.tool.name': 'echo' });
      expect(mine.attributes['network.transport']).to.equal('pipe');
    } finally {
      await client.close();
      await h.shutdown();
      await new Promise((r) => server.close(r));
    }
  });

  it('[OTEL-004] a traceparent the official SDK v2 client puts in _meta is continued by our server', async () => {
    const h = harness();
    const { url, close } = await overHttp(h);
    const sdk = new ClientV2({ name: 'sdk-v2', version: '2.4.0' });
    const traceId = '0af7651916cd43dd8448eb211c80319c';
    try {
      await sdk.connect(new HttpV2(new URL(url)));
      const out = await sdk.callTool({ name: 'fail', arguments: {}, _meta: { traceparent: `00-${traceId}-b7ad6b7169203331-01`, tracestate: 'congo=t61rcWkgMzE' } } as never);
      expect((out as { isError?: boolean }).isError).to.equal(true);
      const s = h.span('tools/call fail', SERVER);
      expect(s.spanContext().traceId).to.equal(traceId);
      expect(s.parentSpanContext?.spanId).to.equal('b7ad6b7169203331');
      expect(s.parentSpanContext?.traceState?.get('congo')).to.equal('t61rcWkgMzE');
      expect(s.attributes['error.type']).to.equal('tool_error');
    } finally {
      await sdk.close();
      await close();
      await h.shutdown();
    }
  });
});
