// Per-session upstreams: with `upstreams: 'perSession'` each downstream session gets its own
// upstream (a stateful counter server), started on its first call, closed when the session ends,
// bounded; with the default 'shared' they share one.
import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import { Client } from '../../lib/client.js';
import { createGateway, type Gateway, type GatewayOptions } from '../../lib/gateway/gateway.js';
import { listen, type Listening } from '../../lib/http/listen-port.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';

const path = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const textOf = (r: { content?: unknown }) => ((r.content ?? []) as { text?: string }[]).map((b) => b.text ?? '').join('\n');
const COUNTER = { command: process.execPath, args: ['--import', 'tsx', path('./fixtures/counter-server.ts')] };

/** Resolves once `check()` holds (real child processes exit in their own time), or fails after 10 s. */
async function eventually(check: () => boolean): Promise<void> {
  const until = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition never held');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('gateway: shared and per-session upstreams', function () {
  this.timeout(60_000);
  let gateway: Gateway;
  let web: Listening;
  const clients: Client[] = [];

  async function start(options: Partial<GatewayOptions>): Promise<void> {
    gateway = createGateway({ servers: { counter: COUNTER }, stderr: 'ignore', ...options });
    await gateway.start();
    web = await listen(createStreamableHttpHandler(gateway.server.server), { port: 0, logger: false });
  }
  async function downstream(): Promise<Client> {
    const client = new Client({ info: { name: 'downstream', version: '1.0.0' }, era: 'legacy' });
    await client.connect(createStreamableHttpClientTransport(web.url));
    clients.push(client);
    return client;
  }
  const next = async (c: Client) => textOf(await c.callTool('counter__next', {}));

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await web?.close();
    await gateway?.close();
  });

  it("'shared' (the default): two sessions count on one upstream", async () => {
    await start({});
    const [a, b] = [await downstream(), await downstream()];
    expect([await next(a), await next(b), await next(a)]).to.deep.equal(['1', '2', '3']);
    expect(gateway.sessionUpstreams).to.equal(0);
  });

  it("'perSession': each session counts on its own upstream, closed when the session ends", async () => {
    await start({ upstreams: { counter: 'perSession' } });
    const [a, b] = [await downstream(), await downstream()];
    expect([await next(a), await next(a), await next(b), await next(a), await next(b)]).to.deep.equal(['1', '2', '1', '3', '2']);
    expect(gateway.sessionUpstreams).to.equal(2);
    await a.close();
    await eventually(() => gateway.sessionUpstreams === 1);
    expect(await next(b)).to.equal('3');
  });

  it("'perSession' is bounded: past maxSessionUpstreams a call fails with a clear error, the others serve on", async () => {
    await start({ upstreams: 'perSession', maxSessionUpstreams: 1 });
    const [a, b] = [await downstream(), await downstream()];
    expect(await next(a)).to.equal('1');
    const refused = await b.callTool('counter__next', {}).then(
      (r) => (r.isError ? textOf(r) : 'no error'),
      (e: Error) => e.message,
    );
    expect(refused).to.contain('maxSessionUpstreams');
    expect(await next(a)).to.equal('2');
  });

  it('a per-server setting that names no server is refused', () => {
    expect(() => createGateway({ servers: { counter: COUNTER }, upstreams: { countr: 'perSession' } })).to.throw(TypeError, /no server is named "countr"/);
  });
});
