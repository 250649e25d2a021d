// ELICIT-029 (no token passthrough): the gateway is an MCP server whose tools call other services
// (its upstream MCP servers). A downstream client's bearer token is for the gateway alone: it never
// reaches an upstream, in either era; the upstream gets only the credentials configured for it.
// Real HTTP on 127.0.0.1 both sides.
import { expect } from 'chai';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { Client } from '../../lib/client.js';
import { createGateway, type Gateway } from '../../lib/gateway/gateway.js';
import { listen, type Listening } from '../../lib/http/listen-port.js';
import { createMcpServer } from '../../lib/mcp-server.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';
import type { AuthOutcome } from '../../streams/http-auth.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';

const DOWNSTREAM_TOKEN = 'downstream-secret-for-the-gateway';
const UPSTREAM_TOKEN = 'upstream-key-configured-for-notes';

describe('gateway: a client\'s credentials stay with the gateway', function () {
  this.timeout(20_000);
  let upstream: Listening;
  let web: Listening;
  let gateway: Gateway;
  const seen: IncomingHttpHeaders[] = [];

  before(async () => {
    const notes = createMcpServer({ info: { name: 'notes', version: '1' } });
    notes.registerTool('count', {}, () => 'three notes');
    upstream = await listen(createStreamableHttpHandler(notes.server), { port: 0, logger: false });
    upstream.server.prependListener('request', (req: IncomingMessage) => seen.push(req.headers));
    gateway = createGateway({ servers: { notes: { url: upstream.url, headers: { authorization: `Bearer ${UPSTREAM_TOKEN}` } } } });
    await gateway.start();
    const authenticate = (req: IncomingMessage): AuthOutcome =>
      req.headers.authorization === `Bearer ${DOWNSTREAM_TOKEN}` ? { ok: true, authInfo: { sub: 'ada', token: DOWNSTREAM_TOKEN } } : { ok: false, status: 401 };
    web = await listen(createStreamableHttpHandler(gateway.server.server, { authenticate }), { port: 0, logger: false });
  });
  after(async () => {
    await web?.close();
    await gateway?.close();
    await upstream?.close();
  });

  for (const era of ['legacy', 'modern'] as const) {
    it(`[ELICIT-029] ${era}: the downstream token never reaches the upstream; the upstream's own key does`, async () => {
      const client = new Client({ era, info: { name: 'downstream', version: '1' } });
      await client.connect(createStreamableHttpClientTransport(web.url, { headers: { authorization: `Bearer ${DOWNSTREAM_TOKEN}` } }));
      const before = seen.length;
      try {
        const r = await client.callTool({ name: 'notes__count', arguments: {} });
        expect(r.content).to.deep.equal([{ type: 'text', text: 'three notes' }]);
      } finally {
        await client.close();
      }
      const during = seen.slice(before);
      expect(during.length, 'the call went upstream').to.be.greaterThan(0);
      for (const h of seen) {
        expect(JSON.stringify(h)).to.not.contain(DOWNSTREAM_TOKEN);
        expect(h.authorization).to.equal(`Bearer ${UPSTREAM_TOKEN}`);
      }
    });
  }
});
