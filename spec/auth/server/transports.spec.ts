// requireBearerAuth on the legacy HTTP+SSE endpoints and on the WebSocket server.
import { expect } from 'chai';
import type WebSocket from 'ws';
import { ManualClock } from '../../../lib/clock.js';
import { requireBearerAuth } from '../../../lib/auth/server/bearer-auth.js';
import { bearerAuthInfo, type VerifiedToken } from '../../../lib/auth/server/auth-info.js';
import { Server } from '../../../lib/server.js';
import { createWebSocketServer, type McpWebSocketServer } from '../../../lib/server-bindings/websocket-server.js';
import { post, stream } from '../../fixtures/http-server/raw.js';
import { openRaw, refusal } from '../../server-bindings/websocket-helpers.js';
import { challengeParams, startProtected, T0, tokenFor, type Protected } from './helpers.js';

const bearer = (t: string) => ({ authorization: `Bearer ${t}` });

describe('requireBearerAuth on the legacy SSE and WebSocket servers', () => {
  describe('legacy HTTP+SSE', () => {
    let p: Protected;
    afterEach(async () => {
      await p?.close();
    });

    it('[SEC-003] refuses the stream without a token and checks per-method scopes on posted messages', async () => {
      p = await startProtected({ http: { legacySse: true }, auth: { scopesForMethod: { 'tools/call': ['mcp:write'] } } });
      p.tokens.set('reader', tokenFor(p.url, 'alice', []));
      const denied = await stream(`${p.origin}/sse`, { headers: { accept: 'text/event-stream' } });
      expect(denied.status).to.equal(401);
      expect(challengeParams(denied.headers['www-authenticate'] as string).resource_metadata).to.match(/oauth-protected-resource\/mcp$/);
      denied.close();
      const sse = await stream(`${p.origin}/sse`, { headers: { accept: 'text/event-stream', ...bearer('reader') } });
      expect(sse.status).to.equal(200);
      await sse.waitFor(1, (s) => s.events.filter((e) => e.event === 'endpoint').length);
      const endpoint = sse.events.find((e) => e.event === 'endpoint')!.data;
      const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'old', version: '1' } } };
      expect((await post(`${p.origin}${endpoint}`, init, bearer('reader'))).status).to.equal(202);
      expect((await post(`${p.origin}${endpoint}`, { jsonrpc: '2.0', method: 'notifications/initialized' }, bearer('reader'))).status).to.equal(202);
      const call = await post(`${p.origin}${endpoint}`, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'write', arguments: {} } }, bearer('reader'));
      expect(call.status).to.equal(403);
      expect(challengeParams(call.headers['www-authenticate'] as string)).to.include({ error: 'insufficient_scope', scope: 'mcp:write' });
      expect((await post(`${p.origin}${endpoint}`, init, {})).status).to.equal(401);
      expect(p.calls).to.deep.equal([]);
      sse.close();
    });
  });

  describe('WebSocket', () => {
    let endpoint: McpWebSocketServer | undefined;
    const sockets: WebSocket[] = [];
    afterEach(async () => {
      for (const ws of sockets.splice(0)) ws.terminate();
      await endpoint?.close();
      endpoint = undefined;
    });

    async function start(clock: ManualClock) {
      const tokens = new Map<string, VerifiedToken>();
      const calls: string[] = [];
      const server = new Server({ info: { name: 'ws-protected', version: '1' }, capabilities: { tools: {} } });
      server.onRequest('tools/call', (params, ctx) => {
        calls.push(String(params?.name));
        return { content: [{ type: 'text', text: JSON.stringify(bearerAuthInfo(ctx.authInfo) ?? null) }] };
      });
      // The resource does not depend on the port here: it is the server's public URI.
      const resource = 'https://mcp.example.com/mcp';
      const auth = requireBearerAuth({ resource, clock, verifyAccessToken: (t) => tokens.get(t), scopesForMethod: { 'tools/call': ['mcp:write'] } });
      endpoint = await createWebSocketServer(server, { port: 0, authenticate: auth, clock, keepAliveMs: 0 });
      return { tokens, calls, resource, url: endpoint.url };
    }

    function rpc(ws: WebSocket, message: object): Promise<any> {
      const id = (message as { id: number }).id;
      return new Promise((resolve) => {
        const on = (data: Buffer) => {
          const m = JSON.parse(data.toString());
          if (m.id === id) {
            ws.off('message', on);
            resolve(m);
          }
        };
        ws.on('message', on);
        ws.send(JSON.stringify(message));
      });
    }

    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'ws', version: '1' } } };

    it('[SEC-003] refuses the upgrade without a valid token (401 with the challenge) and serves ctx.authInfo with one', async () => {
      const clock = new ManualClock(T0);
      const { tokens, resource, url } = await start(clock);
      tokens.set('ws-token', tokenFor(resource, 'alice', ['mcp:write']));
      const none = await refusal(url);
      expect(none.status).to.equal(401);
      const bad = await new Promise<{ status: number; challenge: string }>((resolve) => {
        void import('ws').then(({ default: WS }) => {
          const ws = new WS(url, ['mcp'], { headers: bearer('wrong') });
          ws.on('error', () => {});
          ws.once('unexpected-response', (_req, res) => {
            resolve({ status: res.statusCode ?? 0, challenge: String(res.headers['www-authenticate']) });
            ws.terminate();
          });
        });
      });
      expect(bad.status).to.equal(401);
      expect(challengeParams(bad.challenge)).to.include({ error: 'invalid_token', resource_metadata: 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp' });
      const ws = await openRaw(url, ['mcp'], { headers: bearer('ws-token') });
      sockets.push(ws);
      expect((await rpc(ws, initialize)).result.serverInfo.name).to.equal('ws-protected');
      ws.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
      const who = await rpc(ws, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'whoami', arguments: {} } });
      expect(JSON.parse(who.result.content[0].text)).to.include({ subject: 'alice', resource });
    });

    it('answers a request lacking its per-method scope with an error, without running it', async () => {
      const clock = new ManualClock(T0);
      const { tokens, calls, resource, url } = await start(clock);
      tokens.set('reader', tokenFor(resource, 'bob', []));
      const ws = await openRaw(url, ['mcp'], { headers: bearer('reader') });
      sockets.push(ws);
      await rpc(ws, initialize);
      ws.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
      const denied = await rpc(ws, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'write', arguments: {} } });
      expect(denied.error.message).to.match(/Forbidden/);
      expect(denied.error.data.status).to.equal(403);
      expect(challengeParams(denied.error.data.wwwAuthenticate)).to.include({ error: 'insufficient_scope', scope: 'mcp:write' });
      expect(calls).to.deep.equal([]);
    });

    it('closes the connection with 1008 when its token expires on the server clock', async () => {
      const clock = new ManualClock(T0);
      const { tokens, resource, url } = await start(clock);
      tokens.set('minute', tokenFor(resource, 'alice', [], { expiresAt: T0 / 1000 + 60 }));
      const ws = await openRaw(url, ['mcp'], { headers: bearer('minute') });
      sockets.push(ws);
      await rpc(ws, initialize);
      const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
      clock.advance(59_999);
      expect(ws.readyState).to.equal(ws.OPEN);
      clock.advance(1);
      expect(await closed).to.equal(1008);
    });
  });
});
