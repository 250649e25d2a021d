// Finding the era over Streamable HTTP: the body of a 400 decides (a modern JSON-RPC error is
// answered as such; anything else means a legacy server, which gets initialize).
import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, type ClientWarning } from '../../lib/entries/client.js';
import { ManualClock } from '../../lib/clock.js';
import { RequestTimeoutError } from '../../lib/errors.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';

/** undefined: never answer (the request hangs until the client gives up). */
type Handler = (msg: { id?: number; method: string; params?: Record<string, any> }, headers: http.IncomingHttpHeaders) => { status: number; body: string; headers?: Record<string, string> } | undefined;

async function serve(handler: Handler): Promise<{ url: string; seen: { method: string; headers: http.IncomingHttpHeaders }[]; close: () => Promise<void> }> {
  const seen: { method: string; headers: http.IncomingHttpHeaders }[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      if (req.method !== 'POST') {
        res.writeHead(405).end();
        return;
      }
      const msg = JSON.parse(body) as Parameters<Handler>[0];
      seen.push({ method: msg.method, headers: req.headers });
      const out = handler(msg, req.headers);
      if (out === undefined) return;
      res.writeHead(out.status, { 'content-type': 'application/json', ...out.headers });
      res.end(out.body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    seen,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const json = (id: number | undefined, result: unknown) => ({ status: 200, body: JSON.stringify({ jsonrpc: '2.0', id, result }) });

describe('client: finding the era over Streamable HTTP (2026-07-28)', () => {
  it('[HTTP-182] a 400 whose body is -32022 is a modern answer: retried once with the header and _meta naming a supported version', async () => {
    let refused = false;
    const server = await serve((msg) => {
      if (!refused) {
        refused = true;
        return { status: 400, body: JSON.stringify({ jsonrpc: '2.0', id: msg.id, error: { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2026-07-28'], requested: '2026-07-28' } } }) };
      }
      return json(msg.id, { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, ttlMs: 0, cacheScope: 'public' });
    });
    const client = new Client({ info: { name: 'spec', version: '1' }, era: 'auto' });
    try {
      await client.connect(createStreamableHttpClientTransport(server.url));
      expect(client.era).to.equal('modern');
      expect(server.seen.map((s) => s.method)).to.deep.equal(['server/discover', 'server/discover']);
      for (const s of server.seen) {
        expect(s.headers['mcp-protocol-version']).to.equal('2026-07-28');
        expect(s.headers['mcp-method']).to.equal('server/discover');
      }
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('[HTTP-182] a 400 without a modern error body is a legacy server: initialize follows, then a session', async () => {
    const server = await serve((msg) => {
      if (msg.method === 'initialize') return { ...json(msg.id, { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'old', version: '1' } }), headers: { 'mcp-session-id': 'abc123' } };
      if (msg.id === undefined) return { status: 202, body: '' };
      return { status: 400, body: JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Bad Request: Server not initialized' } }) };
    });
    const client = new Client({ info: { name: 'spec', version: '1' }, era: 'auto' });
    const warnings: ClientWarning[] = [];
    client.warnings$.subscribe((w) => warnings.push(w));
    try {
      await client.connect(createStreamableHttpClientTransport(server.url, { openStandaloneStream: false }));
      expect(client.era).to.equal('legacy');
      // Why the client chose the session era is there to see.
      expect(warnings.map((w) => w.kind)).to.deep.equal(['legacy-era']);
      expect(warnings[0]!.message).to.contain('server/discover was answered -32000').and.contain('Server not initialized');
      expect(client.protocolVersion).to.equal('2025-11-25');
      expect(server.seen.map((s) => s.method).slice(0, 2)).to.deep.equal(['server/discover', 'initialize']);
      expect(server.seen[1]!.headers['mcp-method']).to.equal(undefined);
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('no answer at all (nothing listens) is no evidence of an era: connect rejects, saying so, without trying initialize', async () => {
    const server = await serve(() => ({ status: 500, body: '' }));
    const url = server.url;
    await server.close();
    const client = new Client({ info: { name: 'spec', version: '1' } });
    const error = await client.connect(createStreamableHttpClientTransport(url)).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error).to.be.instanceOf(Error);
    expect(error!.message).to.contain('server/discover').and.contain('Is the server running?');
    expect(client.era).to.equal(undefined);
  });

  it('a probe still unanswered at the timeout is no evidence of an era either: connect rejects with RequestTimeoutError, no initialize (simulated clock)', async () => {
    const server = await serve(() => undefined);
    const clock = new ManualClock(0);
    const client = new Client({ info: { name: 'spec', version: '1' }, clock, timeout: 5_000 });
    try {
      const settled = client.connect(createStreamableHttpClientTransport(server.url)).then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      // The probe's POST is real HTTP: bounded by time (a loaded machine is slow to make a first fetch), not by a count of polls.
      for (const deadline = Date.now() + 10_000; server.seen.length === 0 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 5));
      expect(server.seen.map((s) => s.method)).to.deep.equal(['server/discover']);
      clock.advance(4_999);
      await new Promise((r) => setTimeout(r, 20));
      expect(client.era).to.equal(undefined);
      clock.advance(1);
      const error = await settled;
      expect(error).to.be.instanceOf(RequestTimeoutError);
      expect(error!.message).to.contain('server/discover').and.contain('5000 ms');
      await new Promise((r) => setTimeout(r, 20));
      expect(server.seen.map((s) => s.method)).to.deep.equal(['server/discover']);
      expect(client.era).to.equal(undefined);
    } finally {
      await client.close().catch(() => {});
      await server.close();
    }
  });
});
