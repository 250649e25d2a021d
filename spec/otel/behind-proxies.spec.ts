// The peers behind intermediaries, over real HTTP on 127.0.0.1. Server side: a reverse proxy in
// front of the server adds the hop it saw to `Forwarded` / `X-Forwarded-For`; the server believes
// it only from a proxy it was told to trust (`trustProxies`), and then `client.address` /
// `client.port` name the client behind it. Client side: the client goes through a forward proxy
// (CONNECT, as undici's ProxyAgent does it); `server.address` / `server.port` on its spans, its
// operation-duration points and its session duration name the server it addressed, not the proxy.
import { expect } from 'chai';
import { createServer, request, type IncomingMessage, type Server as NodeServer, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { ProxyAgent, fetch as undiciFetch } from 'undici';
import { Client } from '../../lib/client.js';
import { listen } from '../../lib/http/listen-port.js';
import { createMcpServer, type McpServer } from '../../lib/mcp-server.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';
import { createStreamableHttpClientTransport, type FetchLike } from '../../streams/streamable-http-client.js';
import { api, harness, type Harness } from './otel-harness.js';

const { CLIENT, SERVER } = api.SpanKind;

function makeServer(h: Harness): McpServer {
  const mcp = createMcpServer({ info: { name: 'behind-proxies', version: '1.0.0' } });
  mcp.registerTool('echo', { description: 'Echoes.' }, () => 'echo');
  mcp.use(h.telemetry.server);
  return mcp;
}

async function listenLocal(server: NodeServer): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A reverse proxy to `target` that appends the hop it saw, as nginx or haproxy would (`forwarded` or `x-forwarded-for`). */
function reverseProxy(target: number, header: 'forwarded' | 'x-forwarded-for') {
  return listenLocal(
    createServer((req: IncomingMessage, res: ServerResponse) => {
      const peer = req.socket.remoteAddress!.replace(/^::ffff:/, '');
      const hop = header === 'forwarded' ? `for="${peer}:${req.socket.remotePort}"` : peer;
      const prior = req.headers[header];
      const headers = { ...req.headers, [header]: prior ? `${String(prior)}, ${hop}` : hop };
      const upstream = request({ host: '127.0.0.1', port: target, method: req.method, path: req.url, headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    }),
  );
}

/** A forward proxy that tunnels (CONNECT) to wherever the client asks; counts the tunnels it opened. */
async function forwardProxy() {
  const server = createServer((_req, res) => res.writeHead(405).end());
  const tunnels: string[] = [];
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    tunnels.push(req.url!);
    const [host, port] = req.url!.split(':');
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  return { ...(await listenLocal(server)), tunnels };
}

/** One call of a legacy (or modern) client through `url`, with `headers` on each request; the server span it made. */
async function serverSpanVia(h: Harness, url: URL, era: 'legacy' | 'modern', headers: Record<string, string>) {
  const client = new Client({ era, info: { name: 'c', version: '1' } });
  try {
    await client.connect(createStreamableHttpClientTransport(url, { headers }));
    await client.callTool('echo', {});
  } finally {
    await client.close();
  }
  return h.span('tools/call echo', SERVER).attributes;
}

describe('otel: the peers behind intermediaries', function () {
  this.timeout(20_000);
  let h: Harness;
  beforeEach(() => {
    h = harness();
  });
  afterEach(() => h.shutdown());

  for (const era of ['legacy', 'modern'] as const) {
    it(`[OTEL-038] [OTEL-039] ${era}: behind a trusted reverse proxy, client.address and client.port are the client the Forwarded header names`, async () => {
      const mcp = makeServer(h);
      const web = await listen(createStreamableHttpHandler(mcp.server, { trustProxies: ['127.0.0.1'] }), { port: 0, host: '127.0.0.1', logger: false });
      const proxy = await reverseProxy(Number(new URL(web.url).port), 'forwarded');
      try {
        // The hop an edge proxy further out wrote; ours (trusted) appends the hop it saw: 127.0.0.1, also trusted.
        const attrs = await serverSpanVia(h, new URL(`http://127.0.0.1:${proxy.port}/mcp`), era, { forwarded: 'for="203.0.113.7:4711";proto=https' });
        expect(attrs['client.address']).to.equal('203.0.113.7');
        expect(attrs['client.port']).to.equal(4711);
      } finally {
        await proxy.close();
        await web.close();
        await mcp.close();
      }
    });
  }

  it('[OTEL-038] X-Forwarded-For through a trusted proxy: the nearest untrusted hop is the client (a spoofed leftmost one is not), with no port', async () => {
    const mcp = makeServer(h);
    const web = await listen(createStreamableHttpHandler(mcp.server, { trustProxies: ['127.0.0.1'] }), { port: 0, host: '127.0.0.1', logger: false });
    const proxy = await reverseProxy(Number(new URL(web.url).port), 'x-forwarded-for');
    try {
      const attrs = await serverSpanVia(h, new URL(`http://127.0.0.1:${proxy.port}/mcp`), 'legacy', { 'x-forwarded-for': '198.51.100.1, 2001:db8::5' });
      expect(attrs['client.address']).to.equal('2001:db8::5');
      expect(attrs).to.not.have.property('client.port');
    } finally {
      await proxy.close();
      await web.close();
      await mcp.close();
    }
  });

  it('forwarding headers are not believed by default, nor from a peer not trusted: the socket peer is the client', async () => {
    for (const trustProxies of [undefined, ['10.9.8.7']]) {
      const mcp = makeServer(h);
      h.exporter.reset();
      const web = await listen(createStreamableHttpHandler(mcp.server, trustProxies ? { trustProxies } : {}), { port: 0, host: '127.0.0.1', logger: false });
      try {
        const attrs = await serverSpanVia(h, new URL(web.url), 'legacy', { forwarded: 'for="203.0.113.7:4711"', 'x-forwarded-for': '203.0.113.7' });
        expect(attrs['client.address']).to.equal('127.0.0.1');
        expect(attrs['client.port']).to.be.a('number').and.not.equal(4711);
      } finally {
        await web.close();
        await mcp.close();
      }
    }
  });

  it('a trustProxies entry that is not an IP address is refused when the handler is made', () => {
    const mcp = createMcpServer({ info: { name: 's', version: '1' } });
    expect(() => createStreamableHttpHandler(mcp.server, { trustProxies: ['proxy.internal'] })).to.throw(/trustProxies: "proxy.internal" is not an IP address/);
  });

  for (const era of ['legacy', 'modern'] as const) {
    it(`[OTEL-022] [OTEL-023] [OTEL-054] [OTEL-055] [OTEL-078] [OTEL-079] ${era}: through a forward proxy, server.address and server.port name the server on the span, the operation and the session durations`, async () => {
      const mcp = makeServer(h);
      const web = await listen(createStreamableHttpHandler(mcp.server), { port: 0, host: '127.0.0.1', logger: false });
      const proxy = await forwardProxy();
      const agent = new ProxyAgent(`http://127.0.0.1:${proxy.port}`);
      const viaProxy = ((input: string | URL, init?: RequestInit) => undiciFetch(input, { ...(init as object), dispatcher: agent })) as unknown as FetchLike;
      const serverPort = Number(new URL(web.url).port);
      const client = new Client({ era, info: { name: 'c', version: '1' } });
      client.use(h.telemetry.clientOf(client));
      h.telemetry.watchClient(client);
      try {
        await client.connect(createStreamableHttpClientTransport(new URL(`http://localhost:${serverPort}/mcp`), { fetch: viaProxy }));
        await client.callTool('echo', {});
      } finally {
        await client.close();
        await agent.close();
        await proxy.close();
        await web.close();
        await mcp.close();
      }
      await new Promise((r) => setImmediate(r));
      // The requests did go through the proxy: its tunnels led to the server.
      expect(proxy.tunnels).to.include(`localhost:${serverPort}`);
      const span = h.span('tools/call echo', CLIENT).attributes;
      expect(span).to.include({ 'server.address': 'localhost', 'server.port': serverPort });
      const metrics = await h.collect();
      const points = (name: string) => (metrics.find((m) => m.descriptor.name === name)?.dataPoints ?? []).map((p) => [p.attributes['server.address'], p.attributes['server.port']]);
      expect(points('mcp.client.operation.duration')).to.have.length.greaterThan(0);
      for (const p of points('mcp.client.operation.duration')) expect(p).to.deep.equal(['localhost', serverPort]);
      if (era === 'legacy') expect(points('mcp.client.session.duration')).to.deep.equal([['localhost', serverPort]]);
    });
  }
});
