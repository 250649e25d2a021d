// The official SDK's clients (1.32.2) against our HTTP server: StreamableHTTPClientTransport on
// the MCP endpoint, SSEClientTransport on the legacy HTTP+SSE endpoints.
import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LoggingMessageNotificationSchema, ToolListChangedNotificationSchema, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { ManualClock } from '../../lib/clock.js';
import { startFixture, type Fixture } from '../fixtures/http-server/server.js';
import { until } from '../fixtures/http-server/raw.js';

const textOf = (r: unknown) => (r as { content: { text: string }[] }).content[0].text;

describe('SDK clients against our HTTP server', () => {
  let fx: Fixture;
  const clients: Client[] = [];
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close().catch(() => {});
    await fx?.close();
  });

  async function connect(url = fx.url): Promise<{ client: Client; transport: StreamableHTTPClientTransport; errors: Error[] }> {
    const client = new Client({ name: 'sdk-http-client', version: '9.9.9' });
    const errors: Error[] = [];
    client.onerror = (e) => errors.push(e);
    const transport = new StreamableHTTPClientTransport(new URL(url), { reconnectionOptions: { initialReconnectionDelay: 10, maxReconnectionDelay: 10, reconnectionDelayGrowFactor: 1, maxRetries: 3 } });
    clients.push(client);
    await client.connect(transport);
    return { client, transport, errors };
  }

  /** Call `slow` gated: release it once all progress has reached the SDK client. */
  async function slowWithProgress(client: Client, onBetween?: () => void): Promise<{ result: unknown; seen: Progress[] }> {
    const seen: Progress[] = [];
    const call = client.callTool({ name: 'slow', arguments: { steps: 3, gate: true } }, undefined, { onprogress: (p) => seen.push(p) });
    await until(() => seen.length === 3, 'three progress notifications');
    onBetween?.();
    fx.release();
    return { result: await call, seen };
  }

  it('[HTTP-005] [HTTP-006] [HTTP-012] initializes, lists and calls tools with progress on the request stream', async () => {
    fx = await startFixture();
    const { client, transport, errors } = await connect();
    expect(transport.sessionId).to.be.a('string');
    expect(client.getServerVersion()).to.deep.equal({ name: 'http-fixture', version: '1.0.0' });
    expect((await client.listTools()).tools.map((t) => t.name)).to.include('slow');
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'hi' } }))).to.equal('hi');
    const { result, seen } = await slowWithProgress(client);
    expect(textOf(result)).to.equal('done');
    expect(seen.map((p) => p.progress)).to.deep.equal([1, 2, 3]);
    expect(seen[0]).to.deep.include({ total: 3, message: 'step 1' });
    const who = JSON.parse(textOf(await client.callTool({ name: 'whoami', arguments: {} })));
    expect(who.protocolVersion).to.equal('2025-11-25');
    expect(errors).to.deep.equal([]);
  });

  it('[HTTP-021] delivers a server notification on the GET stream, a related log message on the POST stream', async () => {
    fx = await startFixture();
    const { client } = await connect();
    let changed = 0;
    const logs: unknown[] = [];
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changed++;
    });
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      logs.push(n.params.data);
    });
    // The SDK opens its GET stream after `initialized` is accepted; wait until the server has it.
    await until(() => fx.handler.stats.openStreams === 1, 'the GET stream');
    await client.callTool({ name: 'announce', arguments: {} });
    await until(() => changed === 1, 'list_changed');
    await client.callTool({ name: 'log', arguments: { text: 'hello' } });
    await until(() => logs.length === 1, 'the log message');
    expect(logs).to.deep.equal(['hello']);
  });

  it('[HTTP-033] terminates the session with DELETE', async () => {
    fx = await startFixture();
    const { transport } = await connect();
    expect(fx.handler.sessionCount).to.equal(1);
    await transport.terminateSession();
    expect(fx.handler.sessionCount).to.equal(0);
    expect(transport.sessionId).to.equal(undefined);
    await until(() => fx.server.sessions.size === 0, 'the ServerSession to close');
  });

  it('[HTTP-025] resumes a request stream the server closed early (SEP-1699) and gets the result', async () => {
    const clock = new ManualClock(0);
    fx = await startFixture({ closeSseStreamAfterMs: 1000, retryMs: 5, keepAliveMs: false, clock });
    const { client, errors } = await connect();
    const seen: Progress[] = [];
    const call = client.callTool({ name: 'slow', arguments: { steps: 1, gate: true } }, undefined, { onprogress: (p) => seen.push(p) });
    await until(() => seen.length === 1, 'the progress');
    clock.advance(1000); // the server closes the stream; the client polls with Last-Event-ID
    await until(() => fx.handler.stats.resumptions === 1, 'the client to resume');
    fx.release();
    expect(textOf(await call)).to.equal('done');
    expect(errors).to.deep.equal([]);
  });

  it('[SSE-001] [SSE-002] [SSE-003] [SSE-004] the SSE client talks to the legacy endpoints', async () => {
    fx = await startFixture({ legacySse: true });
    const client = new Client({ name: 'sdk-sse-client', version: '1.0.0' });
    clients.push(client);
    const transport = new SSEClientTransport(new URL(`${fx.origin}/sse`));
    await client.connect(transport);
    expect(fx.handler.sessionCount).to.equal(1);
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'legacy' } }))).to.equal('legacy');
    const { result, seen } = await slowWithProgress(client);
    expect(textOf(result)).to.equal('done');
    expect(seen).to.have.length(3);
    await client.close();
    await until(() => fx.handler.sessionCount === 0, 'the legacy session to end');
  });
});
