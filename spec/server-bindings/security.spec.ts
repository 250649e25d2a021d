// DNS rebinding protection, CORS and the authenticate hook of the HTTP server, over real sockets.
import { expect } from 'chai';
import type { IncomingMessage } from 'node:http';
import { listen } from '../../lib/http/listen-port.js';
import { Server } from '../../lib/server.js';
import type { AuthOutcome } from '../../streams/http-auth.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';
import { startFixture, type Fixture } from '../fixtures/http-server/server.js';
import { callTool, initializeRequest, openSession, post, raw } from '../fixtures/http-server/raw.js';

const h = (sid: string) => ({ 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' });

describe('Streamable HTTP server: security', () => {
  let fx: Fixture;
  afterEach(async () => {
    await fx?.close();
  });

  describe('DNS rebinding protection', () => {
    it('[HTTP-002] refuses a forged Host on a loopback server with 403 and a JSON-RPC error body', async () => {
      fx = await startFixture();
      const forged = await post(fx.url, initializeRequest(), { host: 'evil.example:80' });
      expect(forged.status).to.equal(403);
      expect(forged.json).to.deep.include({ jsonrpc: '2.0', id: null });
      expect(forged.json.error.message).to.match(/Host "evil.example:80" is not allowed/);
      expect(forged.headers['mcp-session-id']).to.equal(undefined);
      expect(fx.handler.sessionCount).to.equal(0);
      // A second initialize with a good Host gets a session of its own.
      for (const host of ['localhost:1234', '127.0.0.1', '[::1]:9']) {
        const good = await post(fx.url, initializeRequest(), { host });
        expect(good.status, host).to.equal(200);
        expect(good.headers['mcp-session-id']).to.be.a('string');
      }
      expect(fx.handler.sessionCount).to.equal(3);
    });

    it('[HTTP-002] refuses a foreign Origin (403) on every method and accepts loopback origins', async () => {
      fx = await startFixture();
      const sid = await openSession(fx.url);
      const evil = 'http://evil.example';
      expect((await post(fx.url, callTool(1, 'echo', { text: 'x' }), { ...h(sid), origin: evil })).status).to.equal(403);
      expect((await raw(fx.url, { method: 'GET', headers: { accept: 'text/event-stream', ...h(sid), origin: evil } })).status).to.equal(403);
      expect((await raw(fx.url, { method: 'DELETE', headers: { ...h(sid), origin: evil } })).status).to.equal(403);
      expect((await post(fx.url, callTool(2, 'echo', { text: 'x' }), { ...h(sid), origin: 'null' })).status).to.equal(403);
      for (const origin of ['http://localhost:3000', 'https://127.0.0.1', 'http://[::1]:8080']) {
        expect((await post(fx.url, callTool(3, 'echo', { text: 'x' }), { ...h(sid), origin })).status, origin).to.equal(200);
      }
    });

    it('follows allowedHosts and allowedOrigins when given', async () => {
      fx = await startFixture({ allowedHosts: ['mcp.example.com', 'localhost:8080'], allowedOrigins: ['https://app.example.com'] });
      expect((await post(fx.url, initializeRequest(), { host: 'mcp.example.com:443' })).status).to.equal(200);
      expect((await post(fx.url, initializeRequest(), { host: 'localhost:8080' })).status).to.equal(200);
      expect((await post(fx.url, initializeRequest(), { host: 'localhost:9090' })).status).to.equal(403);
      expect((await post(fx.url, initializeRequest(), { host: 'mcp.example.com', origin: 'https://app.example.com' })).status).to.equal(200);
      expect((await post(fx.url, initializeRequest(), { host: 'mcp.example.com', origin: 'http://localhost' })).status).to.equal(403);
    });

    it('[HTTP-003] listen() binds to 127.0.0.1 by default', async () => {
      const server = new Server({ info: { name: 'x', version: '1' } });
      const lines: string[] = [];
      const l = await listen(createStreamableHttpHandler(server), { logger: (line) => lines.push(line) });
      try {
        expect(l.host).to.equal('127.0.0.1');
        expect(l.url).to.match(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
        expect(lines).to.deep.equal([`MCP server listening on ${l.url}`]);
      } finally {
        await l.close();
      }
    });
  });

  describe('CORS', () => {
    it('is off by default: no CORS headers, OPTIONS is 405', async () => {
      fx = await startFixture();
      const res = await post(fx.url, initializeRequest(), { origin: 'http://localhost:5173' });
      expect(res.headers['access-control-allow-origin']).to.equal(undefined);
      expect((await raw(fx.url, { method: 'OPTIONS', headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' } })).status).to.equal(405);
    });

    it('when on, answers preflights and exposes Mcp-Session-Id to allowed origins only', async () => {
      fx = await startFixture({ cors: { maxAgeSeconds: 60 } });
      const origin = 'http://localhost:5173';
      const pre = await raw(fx.url, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, mcp-session-id' },
      });
      expect(pre.status).to.equal(204);
      expect(pre.headers['access-control-allow-origin']).to.equal(origin);
      expect(pre.headers['access-control-allow-methods']).to.match(/POST/);
      expect(pre.headers['access-control-allow-headers']).to.equal('content-type, mcp-session-id');
      expect(pre.headers['access-control-max-age']).to.equal('60');
      const res = await post(fx.url, initializeRequest(), { origin });
      expect(res.headers['access-control-allow-origin']).to.equal(origin);
      expect(res.headers['access-control-expose-headers']).to.match(/Mcp-Session-Id/);
      const evil = await raw(fx.url, { method: 'OPTIONS', headers: { origin: 'http://evil.example', 'access-control-request-method': 'POST' } });
      expect(evil.status).to.equal(403);
      expect(evil.headers['access-control-allow-origin']).to.equal(undefined);
    });
  });

  describe('authenticate hook', () => {
    const tokens: Record<string, { sub: string; scopes: string[] }> = { alice: { sub: 'alice', scopes: ['read'] }, 'alice-2': { sub: 'alice', scopes: ['read', 'write'] }, bob: { sub: 'bob', scopes: [] } };
    const authenticate = (req: IncomingMessage): AuthOutcome => {
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      if (token === undefined || tokens[token] === undefined) {
        return { ok: false, status: 401, wwwAuthenticate: 'Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource"' };
      }
      return { ok: true, authInfo: { token, ...tokens[token] } };
    };
    const bearer = (t: string) => ({ authorization: `Bearer ${t}` });

    it('[HTTP-004] [SEC-003] answers 401 with WWW-Authenticate on every request without valid credentials', async () => {
      fx = await startFixture({ authenticate });
      const res = await post(fx.url, initializeRequest());
      expect(res.status).to.equal(401);
      expect(res.headers['www-authenticate']).to.match(/^Bearer resource_metadata=/);
      expect(res.json.error.message).to.match(/Unauthorized/);
      const sid = await openSession(fx.url, '2025-11-25', bearer('alice'));
      // The session id alone proves nothing.
      expect((await post(fx.url, callTool(1, 'echo', { text: 'x' }), h(sid))).status).to.equal(401);
      expect((await raw(fx.url, { method: 'GET', headers: { accept: 'text/event-stream', ...h(sid) } })).status).to.equal(401);
      expect((await raw(fx.url, { method: 'DELETE', headers: h(sid) })).status).to.equal(401);
    });

    it('hands authInfo to handlers as ctx.authInfo (the latest of the same identity)', async () => {
      fx = await startFixture({ authenticate });
      const sid = await openSession(fx.url, '2025-11-25', bearer('alice'));
      const who = await post(fx.url, callTool(1, 'whoami'), { ...h(sid), ...bearer('alice') });
      expect(JSON.parse(who.json.result.content[0].text).authInfo).to.deep.equal({ token: 'alice', sub: 'alice', scopes: ['read'] });
      // A refreshed token of the same subject keeps the session.
      const refreshed = await post(fx.url, callTool(2, 'whoami'), { ...h(sid), ...bearer('alice-2') });
      expect(JSON.parse(refreshed.json.result.content[0].text).authInfo.scopes).to.deep.equal(['read', 'write']);
    });

    it('[SEC-004] [SEC-007] does not serve a session to another identity (404, as if unknown)', async () => {
      fx = await startFixture({ authenticate });
      const sid = await openSession(fx.url, '2025-11-25', bearer('alice'));
      const hijack = await post(fx.url, callTool(1, 'whoami'), { ...h(sid), ...bearer('bob') });
      expect(hijack.status).to.equal(404);
      expect((await raw(fx.url, { method: 'GET', headers: { accept: 'text/event-stream', ...h(sid), ...bearer('bob') } })).status).to.equal(404);
      expect((await raw(fx.url, { method: 'DELETE', headers: { ...h(sid), ...bearer('bob') } })).status).to.equal(404);
      // Alice's session is untouched.
      expect((await post(fx.url, callTool(2, 'echo', { text: 'still mine' }), { ...h(sid), ...bearer('alice') })).status).to.equal(200);
    });

    it('passes on a 403 from the hook, with its body', async () => {
      fx = await startFixture({ authenticate: async () => ({ ok: false, status: 403, wwwAuthenticate: 'Bearer error="insufficient_scope", scope="admin"', body: { error: 'insufficient_scope' } }) });
      const res = await post(fx.url, initializeRequest());
      expect(res.status).to.equal(403);
      expect(res.headers['www-authenticate']).to.match(/insufficient_scope/);
      expect(res.json).to.deep.equal({ error: 'insufficient_scope' });
    });

    it('answers 500 when the hook throws, and reports it', async () => {
      const errors: Error[] = [];
      fx = await startFixture({
        authenticate: () => {
          throw new Error('db down');
        },
        onError: (e) => errors.push(e),
      });
      const res = await post(fx.url, initializeRequest());
      expect(res.status).to.equal(500);
      expect(errors.map((e) => e.message)).to.deep.equal(['db down']);
    });
  });
});
