// The era probe's verdict remembered per HTTP endpoint (2026-07-28 versioning: "Clients SHOULD
// cache the result for the lifetime of the server process (stdio) or origin (HTTP) ... re-probing
// if the cached assumption later fails"), against real local HTTP servers that count what they get.
import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, MemoryEraCache, sharedEraCache, type ClientWarning, type EraVerdict } from '../../lib/entries/client.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';

type Era = 'legacy' | 'modern-only' | 'broken';

/** A server of one era (switchable), recording the method of every POST. */
async function serve(era: Era): Promise<{ url: string; port: number; seen: string[]; become(era: Era): void; close(): Promise<void> }> {
  const seen: string[] = [];
  let now = era;
  const reply = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(body === undefined ? '' : JSON.stringify(body));
  };
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      if (req.method !== 'POST') return reply(res, 405, undefined);
      const msg = JSON.parse(text) as { id?: number | string; method: string; params?: { _meta?: Record<string, unknown> } };
      seen.push(msg.method);
      if (msg.id === undefined) return reply(res, 202, undefined);
      const modernClaim = msg.params?._meta?.['io.modelcontextprotocol/protocolVersion'] !== undefined;
      if (now === 'broken') return reply(res, 400, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Bad Request' } });
      if (now === 'legacy') {
        if (msg.method === 'initialize') {
          return reply(res, 200, { jsonrpc: '2.0', id: msg.id, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'old', version: '1' } } }, { 'mcp-session-id': 'abc123' });
        }
        return reply(res, 400, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Bad Request: Server not initialized' } });
      }
      // Modern only: a claim-less request (initialize) is refused naming the versions it serves.
      if (!modernClaim) return reply(res, 400, { jsonrpc: '2.0', id: msg.id, error: { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2026-07-28'] } } });
      if (msg.method === 'server/discover') {
        return reply(res, 200, { jsonrpc: '2.0', id: msg.id, result: { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: {}, serverInfo: { name: 'new', version: '2' }, ttlMs: 0, cacheScope: 'public' } });
      }
      return reply(res, 200, { jsonrpc: '2.0', id: msg.id, result: { resultType: 'complete' } });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    port,
    seen,
    become: (era) => (now = era),
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** Connect a fresh client to `url`, then close it; the era it found, or the error. */
async function connectOnce(url: string, options: { eraCache?: MemoryEraCache | false; warnings?: ClientWarning[] } = {}): Promise<string | Error> {
  const client = new Client({ info: { name: 'spec', version: '1' }, ...(options.eraCache !== undefined && { eraCache: options.eraCache }) });
  client.warnings$.subscribe((w) => options.warnings?.push(w));
  try {
    await client.connect(createStreamableHttpClientTransport(url, { openStandaloneStream: false }));
    return client.era!;
  } catch (e) {
    return e as Error;
  } finally {
    await client.close().catch(() => {});
  }
}

describe('client: the era probe remembered per HTTP endpoint (2026-07-28)', () => {
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
  });
  const started = async (era: Era) => {
    const s = await serve(era);
    open.push(s);
    return s;
  };

  it('[LIFE-113] a new client to a legacy endpoint already probed sends initialize at once; another origin, or another path, is probed', async () => {
    const a = await started('legacy');
    const b = await started('legacy');
    expect(await connectOnce(a.url)).to.equal('legacy');
    expect(a.seen.slice(0, 2)).to.deep.equal(['server/discover', 'initialize']);

    a.seen.length = 0;
    const warnings: ClientWarning[] = [];
    expect(await connectOnce(a.url, { warnings })).to.equal('legacy');
    expect(a.seen[0]).to.equal('initialize');
    expect(a.seen).to.not.include('server/discover');
    // The host still learns why the client speaks the session era.
    expect(warnings.map((w) => w.kind)).to.deep.equal(['legacy-era']);
    expect(warnings[0]!.message).to.contain(a.url).and.contain('probed earlier');

    // Another origin (another port) is another server.
    expect(await connectOnce(b.url)).to.equal('legacy');
    expect(b.seen.slice(0, 2)).to.deep.equal(['server/discover', 'initialize']);
    // So is another path of the same origin (a gateway fronting several servers).
    a.seen.length = 0;
    expect(await connectOnce(`http://127.0.0.1:${a.port}/other`)).to.equal('legacy');
    expect(a.seen.slice(0, 2)).to.deep.equal(['server/discover', 'initialize']);
    // A query is part of the endpoint, but stays out of the warning (it may carry an API key).
    const keyed = `${a.url}?api_key=s3cret`;
    await connectOnce(keyed);
    a.seen.length = 0;
    warnings.length = 0;
    expect(await connectOnce(keyed, { warnings })).to.equal('legacy');
    expect(a.seen[0]).to.equal('initialize');
    expect(warnings[0]!.message).to.contain(a.url).and.not.contain('s3cret');
  });

  it('[LIFE-113] eraCache: false probes every time; a cache of one\'s own is used instead of the shared one, keyed without credentials or fragment', async () => {
    const s = await started('legacy');
    await connectOnce(s.url, { eraCache: false });
    await connectOnce(s.url, { eraCache: false });
    expect(s.seen.filter((m) => m === 'server/discover')).to.have.length(2);
    expect(sharedEraCache.size).to.equal(0);

    const own = new MemoryEraCache();
    const withSecrets = s.url.replace('http://', 'http://user:secret@') + '#part';
    s.seen.length = 0;
    expect(await connectOnce(withSecrets, { eraCache: own })).to.equal('legacy');
    expect(await connectOnce(s.url, { eraCache: own })).to.equal('legacy');
    expect(s.seen.filter((m) => m === 'server/discover')).to.have.length(1);
    expect(own.get(s.url)).to.deep.equal({ era: 'legacy' } satisfies EraVerdict);
    expect(own.size).to.equal(1);
    expect(sharedEraCache.size).to.equal(0);
  });

  it('[LIFE-113] re-probes once the remembered assumption fails: a legacy endpoint that became modern-only refuses initialize once, then is found modern', async () => {
    const s = await started('legacy');
    expect(await connectOnce(s.url)).to.equal('legacy');
    s.become('modern-only');
    s.seen.length = 0;
    const refused = await connectOnce(s.url);
    expect(refused).to.be.instanceOf(Error);
    expect(s.seen).to.deep.equal(['initialize']);
    expect(sharedEraCache.get(s.url)).to.equal(undefined);

    s.seen.length = 0;
    expect(await connectOnce(s.url)).to.equal('modern');
    expect(s.seen[0]).to.equal('server/discover');
    expect(sharedEraCache.get(s.url)).to.deep.equal({ era: 'modern', version: '2026-07-28' } satisfies EraVerdict);
    // A modern verdict changes nothing on the wire: server/discover is the modern client's first request anyway.
    s.seen.length = 0;
    expect(await connectOnce(s.url)).to.equal('modern');
    expect(s.seen).to.deep.equal(['server/discover']);
  });

  it('[LIFE-113] a server that refuses both the probe and initialize is not remembered as legacy', async () => {
    const s = await started('broken');
    expect(await connectOnce(s.url)).to.be.instanceOf(Error);
    expect(s.seen).to.deep.equal(['server/discover', 'initialize']);
    expect(sharedEraCache.get(s.url)).to.equal(undefined);
  });
});
