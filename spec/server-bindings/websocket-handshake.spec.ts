import { expect } from 'chai';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '../../lib/entries/client.js';
import { TransportError } from '../../lib/errors.js';
import { createWebSocketClientTransport } from '../../streams/websocket-client.js';
import type { RefusedUpgrade } from '../../lib/server-bindings/websocket-server.js';
import { CLIENT_INFO, finalState, openRaw, rawServer, refusal, startServer, type Fixture } from './websocket-helpers.js';

describe('WebSocket transport: the handshake', () => {
  let fx: Fixture;
  afterEach(async () => {
    await fx?.endpoint.close();
  });

  describe('subprotocol', () => {
    it('refuses an upgrade that does not offer "mcp" (400, saying what was offered)', async () => {
      fx = await startServer();
      const r = await refusal(fx.endpoint.url, ['graphql-ws']);
      expect(r.status).to.equal(400);
      expect(r.body).to.contain('"mcp"').and.contain('"graphql-ws"');
      const none = await refusal(fx.endpoint.url, []);
      expect(none.status).to.equal(400);
      expect(none.body).to.contain('offered none');
      expect(fx.endpoint.sessions.size).to.equal(0);
    });

    it('accepts "mcp" among other offers and agrees on it', async () => {
      fx = await startServer();
      const ws = await openRaw(fx.endpoint.url, ['other', 'mcp']);
      expect(ws.protocol).to.equal('mcp');
      ws.close();
    });

    it('our client fails clearly against an endpoint that does not speak "mcp"', async () => {
      const raw = await rawServer({ handleProtocols: () => false });
      try {
        const transport = createWebSocketClientTransport(raw.url);
        const err = await transport.start().then(() => null, (e) => e);
        expect(err).to.be.instanceOf(TransportError);
        expect(err.message).to.contain(raw.url).and.contain('subprotocol').and.contain('"mcp"');
        expect((await finalState(transport.state$)).phase).to.equal('failed');
      } finally {
        await raw.close();
      }
    });
  });

  describe('Origin', () => {
    it('refuses a foreign Origin with 403; the client error says so and what to check', async () => {
      fx = await startServer();
      const refused: RefusedUpgrade[] = [];
      fx.endpoint.refused$.subscribe((r) => refused.push(r));
      const transport = createWebSocketClientTransport(fx.endpoint.url, { headers: { Origin: 'https://evil.example' } });
      const client = new Client({ era: 'legacy', info: CLIENT_INFO });
      const err = await client.connect(transport).then(() => null, (e) => e);
      expect(err).to.be.instanceOf(TransportError);
      expect(err.message).to.contain('HTTP 403').and.contain('Origin "https://evil.example" is not allowed').and.contain('allowedOrigins');
      expect(err.details).to.include({ status: 403 });
      expect((await finalState(transport.state$)).phase).to.equal('failed');
      expect(refused).to.have.length(1);
      expect(refused[0]).to.include({ status: 403, origin: 'https://evil.example' });
      expect(fx.endpoint.sessions.size).to.equal(0);
      expect((await refusal(fx.endpoint.url, ['mcp'], { headers: { Origin: 'null' } })).status).to.equal(403);
    });

    it('by default, on loopback, accepts no Origin and localhost origins', async () => {
      fx = await startServer();
      for (const origin of [undefined, 'http://localhost:5173', 'http://127.0.0.1', 'http://[::1]:8080']) {
        const client = new Client({ era: 'legacy', info: CLIENT_INFO });
        await client.connect(createWebSocketClientTransport(fx.endpoint.url, { headers: origin ? { Origin: origin } : {} }));
        await client.close();
      }
    });

    it('with allowedOrigins, accepts exactly those (and still no Origin)', async () => {
      fx = await startServer({ allowedOrigins: ['https://app.example.com'] });
      const ok = await openRaw(fx.endpoint.url, ['mcp'], { headers: { Origin: 'https://APP.example.com' } });
      ok.close();
      const noOrigin = await openRaw(fx.endpoint.url);
      noOrigin.close();
      expect((await refusal(fx.endpoint.url, ['mcp'], { headers: { Origin: 'http://localhost:3000' } })).status).to.equal(403);
      expect((await refusal(fx.endpoint.url, ['mcp'], { headers: { Origin: 'https://app.example.com.evil' } })).status).to.equal(403);
    });
  });

  describe('Host (DNS rebinding protection)', () => {
    it('on loopback, refuses a Host that is not localhost with 403', async () => {
      fx = await startServer();
      const { port } = fx.endpoint.address();
      const r = await refusal(fx.endpoint.url, ['mcp'], { headers: { Host: `rebound.example:${port}` } });
      expect(r.status).to.equal(403);
      expect(r.body).to.contain('Host "rebound.example').and.contain('DNS rebinding');
      const ok = await openRaw(fx.endpoint.url, ['mcp'], { headers: { Host: `localhost:${port}` } });
      ok.close();
    });

    it('allowedHosts replaces the default', async () => {
      fx = await startServer({ allowedHosts: ['mcp.internal'] });
      const { port } = fx.endpoint.address();
      (await openRaw(fx.endpoint.url, ['mcp'], { headers: { Host: `mcp.internal:${port}` } })).close();
      expect((await refusal(fx.endpoint.url, ['mcp'], { headers: { Host: `localhost:${port}` } })).status).to.equal(403);
    });
  });

  describe('bound to all interfaces', () => {
    let http: HttpServer;
    afterEach(async () => {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    });

    it('does not check Host, and refuses every Origin unless listed', async () => {
      http = createServer();
      await new Promise<void>((resolve) => http.listen(0, '0.0.0.0', resolve));
      const { port } = http.address() as AddressInfo;
      fx = await startServer({ httpServer: http });
      const url = `ws://127.0.0.1:${port}/mcp`;
      (await openRaw(url, ['mcp'], { headers: { Host: `mcp.example.com:${port}` } })).close();
      const r = await refusal(url, ['mcp'], { headers: { Origin: 'http://localhost' } });
      expect(r.status).to.equal(403);
      expect(r.body).to.contain('no allowedOrigins are configured');
    });
  });
});
