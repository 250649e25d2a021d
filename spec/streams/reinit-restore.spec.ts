// Issue 32 item 3: the server loses our Streamable HTTP session (here: it restarts on the same
// port, as a process of a cluster that died would), the client re-initializes by itself, and what
// the old session had is set again on the new one (the log level, then every resource
// subscription) before anything else goes out; a subscription the new session refuses ends with
// a SubscriptionLostError instead of staying open and silent. Real HTTP on 127.0.0.1.
import { expect } from 'chai';
import type { Subscription } from 'rxjs';
import { Client } from '../../lib/client.js';
import { SubscriptionLostError } from '../../lib/client-features/client-feature-errors.js';
import { ManualClock } from '../../lib/clock.js';
import { listen, type Listening } from '../../lib/http/listen-port.js';
import { McpServer } from '../../lib/mcp-server.js';
import type { LoggingMessageNotificationParams, ResourceUpdatedNotificationParams } from '../../lib/protocol/schema/index.js';
import { createStreamableHttpClientTransport, type StreamableHttpClientTransport } from '../../streams/streamable-http-client.js';
import { createStreamableHttpHandler, type StreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';
import { capturingFetch, nextDetails, until, type Sent } from './http-client-helpers.js';

const A = 'file:///data/a.txt';
const B = 'file:///data/b.txt';

interface ServerVariant {
  subscribe?: boolean;
  /** One more tool than the first process had. */
  newTool?: boolean;
  /** resources/subscribe never answers. */
  hangSubscribe?: boolean;
  /** How the server answers POSTs (default 'auto'). */
  responseMode?: 'json' | 'sse' | 'auto';
}

interface Running {
  mcp: McpServer;
  handler: StreamableHttpHandler;
  listening: Listening;
}

/** One "process" of the server: two resources, logging, on `port` (0: any free one). */
async function startServer(port: number, options: ServerVariant = {}): Promise<Running> {
  const mcp = new McpServer({ info: { name: 'restarting', version: '1.0.0' }, capabilities: { resources: { subscribe: options.subscribe ?? true }, logging: {} } });
  for (const uri of [A, B]) mcp.registerResource(uri, uri, {}, () => ({ contents: [{ uri, text: 'x' }] }));
  mcp.registerTool('echo', { description: 'echo' }, () => ({ content: [{ type: 'text', text: 'ok' }] }));
  if (options.newTool) mcp.registerTool('added', { description: 'only on the new process' }, () => ({ content: [] }));
  if (options.hangSubscribe) mcp.server.onRequest('resources/subscribe', () => new Promise(() => {}));
  const handler = createStreamableHttpHandler(mcp.server, { responseMode: options.responseMode ?? 'auto' });
  const listening = await listen(handler, { port, logger: false });
  return { mcp, handler, listening };
}

describe('http client: restoring a lost session after re-initialization (issue 32, item 3)', () => {
  const servers: Running[] = [];
  let client: Client | undefined;
  const subs: Subscription[] = [];

  afterEach(async () => {
    for (const s of subs.splice(0)) s.unsubscribe();
    await client?.close().catch(() => {});
    client = undefined;
    for (const s of servers.splice(0)) await s.listening.close().catch(() => {});
  });

  async function connected(responseMode: ServerVariant['responseMode'] = 'auto'): Promise<{ transport: StreamableHttpClientTransport; sent: Sent[]; updates: string[]; logs: LoggingMessageNotificationParams[]; errors: Map<string, unknown>; clock: ManualClock }> {
    const first = await startServer(0, { responseMode });
    servers.push(first);
    const { fetch, sent } = capturingFetch();
    // The manual clock: a broken GET stream is not retried behind the spec's back.
    const clock = new ManualClock(0);
    const transport = createStreamableHttpClientTransport(first.listening.url, { fetch, clock });
    client = new Client({ era: 'legacy', info: { name: 'restore-spec', version: '1' }, clock });
    await client.connect(transport);
    const updates: string[] = [];
    const logs: LoggingMessageNotificationParams[] = [];
    const errors = new Map<string, unknown>();
    client.logs$.subscribe((l) => logs.push(l));
    await client.setLoggingLevel('warning');
    for (const uri of [A, B]) {
      subs.push(
        client.subscribe(uri).subscribe({
          next: (u: ResourceUpdatedNotificationParams) => updates.push(u.uri),
          error: (e: unknown) => errors.set(uri, e),
        }),
      );
    }
    await until(() => sent.filter((r) => r.json?.method === 'resources/subscribe' && r.status === 200).length === 2, 'both subscriptions');
    await until(() => first.handler.stats.openStreams >= 1, 'the GET stream');
    return { transport, sent, updates, logs, errors, clock };
  }

  /** The server "process" dies and a new one starts on the same port, knowing no session. */
  async function restart(options: ServerVariant = {}): Promise<Running> {
    const old = servers.pop()!;
    const port = old.listening.port;
    await old.listening.close();
    const next = await startServer(port, options);
    servers.push(next);
    return next;
  }

  for (const responseMode of ['sse', 'json'] as const) {
    it(`[HTTP-032] after a 404 and a new session, updates of both subscriptions and log messages at the level set keep coming (answers as ${responseMode})`, async () => {
      const c = await connected(responseMode);
      const first = servers[0]!;
      expect(first.mcp.resources.notifyUpdated(A)).to.equal(1);
      await until(() => c.updates.length === 1, 'the first update');

      const lists: string[][] = [];
      subs.push(client!.tools$.subscribe((tools) => lists.push(tools.map((t) => t.name))));
      await until(() => lists.length === 1, 'the tool list');

      const second = await restart({ newTool: true, responseMode });
      const renewed = nextDetails(c.transport.state$, 'session-reinitialized');
      // Any request finds the session gone (404): the client starts a new one and the call goes through.
      expect((await client!.callTool({ name: 'echo', arguments: {} })).content).to.deep.equal([{ type: 'text', text: 'ok' }]);
      await renewed;
      await until(() => second.handler.stats.openStreams >= 1, 'the new GET stream');

      // Restored in order, each before the call that found the session gone was sent again.
      const after = c.sent.filter((r) => r.method === 'POST' && r.headers.get('mcp-session-id') === c.transport.sessionId).map((r) => r.json.method);
      expect(after).to.deep.equal(['notifications/initialized', 'logging/setLevel', 'resources/subscribe', 'resources/subscribe', 'tools/call']);

      expect(second.mcp.resources.notifyUpdated(A)).to.equal(1);
      expect(second.mcp.resources.notifyUpdated(B)).to.equal(1);
      await until(() => c.updates.length === 3, 'the updates on the new session');
      expect(c.updates).to.deep.equal([A, A, B]);

      second.mcp.log('info', 'below the level the client set');
      second.mcp.log('error', 'at or above it');
      await until(() => c.logs.length === 1, 'the log message');
      // Sent after the info one on the same stream: had the info one passed, it would be here first.
      expect(c.logs.map((l) => l.data)).to.deep.equal(['at or above it']);
      expect(c.errors.size).to.equal(0);
      // The live tool list is listed again on the new session (the new process has one more tool).
      c.clock.advance(1000);
      await until(() => lists.length === 2, 'the tool list again');
      expect(lists).to.deep.equal([['echo'], ['echo', 'added']]);
    });
  }

  it('a subscription the new session refuses ends with SubscriptionLostError, not silence', async () => {
    const c = await connected();
    // The new process does not offer subscriptions: resources/subscribe is refused.
    await restart({ subscribe: false });
    await client!.callTool({ name: 'echo', arguments: {} });
    await until(() => c.errors.size === 2, 'both subscriptions to end');
    for (const uri of [A, B]) {
      const e = c.errors.get(uri) as SubscriptionLostError;
      expect(e).to.be.instanceOf(SubscriptionLostError);
      expect(e.uri).to.equal(uri);
      expect(e.code).to.be.a('number');
      expect(e.message).to.contain(uri).and.contain('new session');
    }
    // A later subscribe to the same URI starts afresh (and is refused by this server, as an error too).
    const again = await new Promise<unknown>((resolve) => subs.push(client!.subscribe(A).subscribe({ error: resolve })));
    expect(again).to.be.instanceOf(Error).and.not.instanceOf(SubscriptionLostError);
  });

  it('a restore the new session never answers is given up after 10 s in all (on the clock): the subscriptions end with SubscriptionLostError and the client goes on', async () => {
    const c = await connected();
    await restart({ hangSubscribe: true });
    const call = client!.callTool({ name: 'echo', arguments: {} });
    await until(() => c.sent.filter((r) => r.json?.method === 'resources/subscribe').length === 3, 'the first restore');
    c.clock.advance(9_999);
    for (let i = 0; i < 50; i++) await new Promise((r) => setImmediate(r));
    expect(c.errors.size).to.equal(0);
    c.clock.advance(1);
    // The first one ran out of time; the second is not even sent.
    await until(() => c.errors.size === 2, 'both subscriptions to end');
    expect(c.sent.filter((r) => r.json?.method === 'resources/subscribe')).to.have.length(3);
    for (const uri of [A, B]) {
      expect(c.errors.get(uri)).to.be.instanceOf(SubscriptionLostError);
      expect((c.errors.get(uri) as Error).message).to.contain('took longer than 10000 ms');
    }
    expect((await call).content).to.deep.equal([{ type: 'text', text: 'ok' }]);
  });

  it('2026-07-28: a listen broken by the server process dying is opened again on the new one (after the backoff), and updates come again', async () => {
    const first = await startServer(0);
    servers.push(first);
    const clock = new ManualClock(0);
    const transport = createStreamableHttpClientTransport(first.listening.url, { clock });
    client = new Client({ era: 'modern', info: { name: 'restore-spec', version: '1' }, clock, random: () => 0 });
    await client.connect(transport);
    expect(client.era).to.equal('modern');
    const updates: string[] = [];
    const errors: unknown[] = [];
    subs.push(client.subscribe(A).subscribe({ next: (u) => updates.push(u.uri), error: (e: unknown) => errors.push(e) }));
    // Updates reach a listen only once it is open: publish until one arrives.
    await until(() => (first.mcp.resources.notifyUpdated(A), updates.length > 0), 'an update on the first process');

    const second = await restart();
    // (More updates of the first process may still be on their way: count from here.)
    for (let i = 0; i < 50; i++) await new Promise((r) => setImmediate(r));
    const before = updates.length;
    // The first reopening waits 1 s on the client clock (random() = 0: no jitter); nothing comes before.
    second.mcp.resources.notifyUpdated(A);
    clock.advance(900);
    for (let i = 0; i < 200; i++) await new Promise((r) => setImmediate(r));
    second.mcp.resources.notifyUpdated(A);
    expect(updates.length).to.equal(before);
    clock.advance(100);
    await until(() => (second.mcp.resources.notifyUpdated(A), updates.length > before), 'an update from the new process');
    expect(errors).to.deep.equal([]);
  });
});
