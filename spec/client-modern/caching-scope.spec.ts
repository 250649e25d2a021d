// cacheScope (2026-07-28) on the client: a "private" result (or one without a scope) is served
// from the cache only to the authorization context it was fetched for (another access token is
// another caller), a "public" one to any; two clients never share a cache. Over Streamable HTTP,
// where the Authorization header of each request is what the client knows of its caller.
import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '../../lib/entries/client.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';

type Msg = { id?: number | string; method: string; params?: Record<string, any> };
const V = '2026-07-28';

/** Answers with the caller's token in the content, so a result served to the wrong caller shows. */
async function tokenEcho() {
  const reads: { uri: string; authorization: string | undefined }[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const msg = JSON.parse(body) as Msg;
      const who = req.headers.authorization;
      let result: Record<string, unknown>;
      if (msg.method === 'server/discover') result = { resultType: 'complete', supportedVersions: [V], capabilities: { resources: {} }, ttlMs: 0, cacheScope: 'public' };
      else {
        const uri = msg.params!.uri as string;
        reads.push({ uri, authorization: who });
        const scope = uri.startsWith('public://') ? { cacheScope: 'public' } : uri.startsWith('unscoped://') ? {} : { cacheScope: 'private' };
        result = { resultType: 'complete', contents: [{ uri, text: `for ${who ?? 'nobody'}` }], ttlMs: 60_000, ...scope };
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    reads,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const textOf = (r: { contents: unknown[] }) => (r.contents[0] as { text: string }).text;

describe('client: cacheScope and authorization contexts (2026-07-28)', () => {
  it('[CACHE-017] a private result is not served to another access token; a public one is; the first token still gets its own', async () => {
    const server = await tokenEcho();
    let token = 'Bearer alice';
    const client = new Client({ info: { name: 'c', version: '1' } });
    try {
      await client.connect(createStreamableHttpClientTransport(server.url, { headers: () => ({ authorization: token }) }));
      expect(client.era).to.equal('modern');
      for (const uri of ['private://inbox', 'unscoped://notes', 'public://catalog']) {
        expect(textOf(await client.readResource(uri))).to.equal('for Bearer alice');
        // Fresh and the same caller: from the cache.
        await client.readResource(uri);
      }
      expect(server.reads).to.have.length(3);

      token = 'Bearer bob';
      // Private and unscoped results are fetched again for bob, from his very first request; the public one is shared.
      expect(textOf(await client.readResource('private://inbox'))).to.equal('for Bearer bob');
      expect(textOf(await client.readResource('unscoped://notes'))).to.equal('for Bearer bob');
      expect(textOf(await client.readResource('public://catalog'))).to.equal('for Bearer alice');
      expect(server.reads.map((r) => `${r.uri} ${r.authorization}`)).to.deep.equal([
        'private://inbox Bearer alice',
        'unscoped://notes Bearer alice',
        'public://catalog Bearer alice',
        'private://inbox Bearer bob',
        'unscoped://notes Bearer bob',
      ]);
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('[CACHE-017] two clients of the same server never share a cache, private or public', async () => {
    const server = await tokenEcho();
    const a = new Client({ info: { name: 'a', version: '1' } });
    const b = new Client({ info: { name: 'b', version: '1' } });
    try {
      await a.connect(createStreamableHttpClientTransport(server.url, { headers: { authorization: 'Bearer alice' } }));
      await b.connect(createStreamableHttpClientTransport(server.url, { headers: { authorization: 'Bearer bob' } }));
      expect(textOf(await a.readResource('private://inbox'))).to.equal('for Bearer alice');
      expect(textOf(await b.readResource('private://inbox'))).to.equal('for Bearer bob');
      expect(textOf(await a.readResource('public://catalog'))).to.equal('for Bearer alice');
      expect(textOf(await b.readResource('public://catalog'))).to.equal('for Bearer bob');
      expect(server.reads).to.have.length(4);
    } finally {
      await a.close();
      await b.close();
      await server.close();
    }
  });
});
