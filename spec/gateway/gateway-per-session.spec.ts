// Per-session upstreams: with `upstreams: 'perSession'` each downstream session gets its own
// upstream (a stateful counter server), started on its first call, closed when the session ends,
// bounded; with the default 'shared' they share one.
import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import { Client } from '../../lib/client.js';
import { ManualClock } from '../../lib/clock.js';
import { createGateway, type Gateway, type GatewayOptions } from '../../lib/gateway/gateway.js';
import { listen, type Listening } from '../../lib/http/listen-port.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';
import { tsArgs } from '../helpers/ts-child.js';

const path = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const textOf = (r: { content?: unknown }) => ((r.content ?? []) as { text?: string }[]).map((b) => b.text ?? '').join('\n');
const COUNTER = { command: process.execPath, args: [...tsArgs(path('./fixtures/counter-server.ts'))] };

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
    // The caller is who the x-user header names (none: unauthenticated).
    const authenticate = (req: { headers: Record<string, string | string[] | undefined> }) => (req.headers['x-user'] === undefined ? { ok: true as const, authInfo: undefined } : { ok: true as const, authInfo: { sub: String(req.headers['x-user']) } });
    web = await listen(createStreamableHttpHandler(gateway.server.server, { authenticate }), { port: 0, logger: false });
  }
  async function downstream(era: 'legacy' | 'modern' = 'legacy', user?: string): Promise<Client> {
    const client = new Client({ info: { name: 'downstream', version: '1.0.0' }, era });
    await client.connect(createStreamableHttpClientTransport(web.url, user === undefined ? {} : { headers: { 'x-user': user } }));
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

  it("'perSession' for 2026-07-28 callers: one upstream per principal, closed when idle; anonymous callers share one", async () => {
    const clock = new ManualClock(0);
    await start({ upstreams: 'perSession', clock, principalIdleMs: 60_000 });
    const [ada, bo, ada2, anon1, anon2] = [await downstream('modern', 'ada'), await downstream('modern', 'bo'), await downstream('modern', 'ada'), await downstream('modern'), await downstream('modern')];
    expect([await next(ada), await next(bo), await next(ada2), await next(bo)]).to.deep.equal(['1', '1', '2', '2']);
    expect([await next(anon1), await next(anon2)]).to.deep.equal(['1', '2']);
    expect(gateway.sessionUpstreams).to.equal(2);
    clock.advance(30_000);
    expect(await next(bo)).to.equal('3');
    clock.advance(30_000);
    // ada idle for 60 s: her upstream closed; bo called 30 s ago keeps his.
    await eventually(() => gateway.sessionUpstreams === 1);
    expect(await next(bo)).to.equal('4');
    expect(await next(ada)).to.equal('1');
  });

  it('a per-server setting that names no server is refused', () => {
    expect(() => createGateway({ servers: { counter: COUNTER }, upstreams: { countr: 'perSession' } })).to.throw(TypeError, /no server is named "countr"/);
  });
});
