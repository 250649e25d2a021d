// Roots: a legacy upstream (the official SDK 1.x server) that asks for roots/list in the middle
// of a call is answered with the roots of the downstream caller of that call, in either era;
// two callers with different roots each get their own; a caller without roots gets an error for
// its call, not someone else's roots.
import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import { Client } from '../../lib/client.js';
import { createGateway, type Gateway } from '../../lib/gateway/gateway.js';
import { listen, type Listening } from '../../lib/http/listen-port.js';
import { createMcpServer, type McpServer } from '../../lib/mcp-server.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';
import { tsArgs } from '../helpers/ts-child.js';

const path = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const textOf = (r: { content?: unknown }) => ((r.content ?? []) as { text?: string }[]).map((b) => b.text ?? '').join('\n');

describe('gateway: roots asked of the downstream caller', function () {
  this.timeout(60_000);
  let gateway: Gateway;
  let web: Listening;
  const clients: Client[] = [];

  async function downstream(era: 'modern' | 'legacy', roots?: string[]): Promise<Client> {
    const client = new Client({ info: { name: `roots-${era}`, version: '1.0.0' }, era });
    if (roots) client.setRoots(roots.map((uri) => ({ uri })));
    await client.connect(createStreamableHttpClientTransport(web.url));
    clients.push(client);
    return client;
  }

  before(async () => {
    gateway = createGateway({ servers: { asker: { command: process.execPath, args: [...tsArgs(path('./fixtures/roots-server.ts'))] } }, stderr: 'ignore' });
    await gateway.start();
    web = await listen(createStreamableHttpHandler(gateway.server.server), { port: 0, logger: false });
  });
  after(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await web?.close();
    await gateway?.close();
  });

  it('two callers (one per era) with different roots each get their own', async () => {
    const modern = await downstream('modern', ['file:///home/alice/project']);
    const legacy = await downstream('legacy', ['file:///home/bob/a', 'file:///home/bob/b']);
    expect(textOf(await modern.callTool('asker__roots', {}))).to.equal('file:///home/alice/project');
    expect(textOf(await legacy.callTool('asker__roots', {}))).to.equal('file:///home/bob/a\nfile:///home/bob/b');
    expect(textOf(await modern.callTool('asker__roots', {}))).to.equal('file:///home/alice/project');
  });

  it('a caller that exposes no roots: its call fails, the gateway serves on', async () => {
    const none = await downstream('legacy');
    const result = await none.callTool('asker__roots', {}).then(
      (r) => (r.isError ? textOf(r) : 'no error'),
      (e: Error) => e.message,
    );
    expect(result).to.match(/roots/i);
    const other = clients[0]!;
    expect(textOf(await other.callTool('asker__roots', {}))).to.equal('file:///home/alice/project');
  });
});

describe('gateway: a 2026-07-28 upstream asks for roots in an input round', function () {
  this.timeout(60_000);
  let upstream: McpServer;
  let upstreamWeb: Listening;
  let gateway: Gateway;
  let web: Listening;
  const clients: Client[] = [];

  before(async () => {
    upstream = createMcpServer({ info: { name: 'modern-roots', version: '1.0.0' }, supportedVersions: ['2026-07-28'] });
    upstream.registerTool('roots', {}, async (_args, ctx) => {
      const { roots } = await ctx.listRoots();
      return { content: [{ type: 'text', text: roots.map((r) => r.uri).join('\n') }] };
    });
    upstreamWeb = await listen(createStreamableHttpHandler(upstream.server), { port: 0, logger: false });
    gateway = createGateway({ servers: { asker: { url: upstreamWeb.url } } });
    await gateway.start();
    web = await listen(createStreamableHttpHandler(gateway.server.server), { port: 0, logger: false });
  });
  after(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await web?.close();
    await gateway?.close();
    await upstreamWeb?.close();
    await upstream?.close();
  });

  it('answered with the roots of the downstream caller of that call, in either era', async () => {
    expect(gateway.host.client('asker')?.era).to.equal('modern');
    const alice = new Client({ info: { name: 'alice', version: '1.0.0' }, era: 'modern' });
    alice.setRoots([{ uri: 'file:///home/alice/project' }]);
    const bob = new Client({ info: { name: 'bob', version: '1.0.0' }, era: 'legacy' });
    bob.setRoots([{ uri: 'file:///home/bob/a' }, { uri: 'file:///home/bob/b' }]);
    for (const c of [alice, bob]) {
      await c.connect(createStreamableHttpClientTransport(web.url));
      clients.push(c);
    }
    expect(textOf(await alice.callTool('asker__roots', {}))).to.equal('file:///home/alice/project');
    expect(textOf(await bob.callTool('asker__roots', {}))).to.equal('file:///home/bob/a\nfile:///home/bob/b');
  });
});
