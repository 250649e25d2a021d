// A host whose servers speak different eras (revision 2026-07-28 and the session revisions): each
// client finds its server's era by itself, host.state$ shows it, tools of every server are called
// through the host, and a stdio server that exits when probed is restarted in the legacy era.
// Private cached results are not shared between two hosts (two users) of one server.
import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { filter, firstValueFrom, map } from 'rxjs';
import { createHost, type Host, type HostServerState } from '../../lib/entries/host.js';
import { listen, type Listening } from '../../lib/http/listen-port.js';
import { createMcpServer } from '../../lib/mcp-server.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';
import { tsArgs } from '../helpers/ts-child.js';

const path = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const stdio = (file: string) => ({ command: process.execPath, args: [...tsArgs(file)] });
const ECHO = path('../../examples/echo-server.ts');
const SDK_V1 = path('../fixtures/interop/sdk-server.ts');
const STRICT = path('../fixtures/host/strict-legacy-server.ts');

const stateOf = (h: Host, server: string, pred: (s: HostServerState) => boolean) => firstValueFrom(h.state$.pipe(map((all) => all[server]!), filter(pred)));
const textOf = (r: { content?: unknown[] }) => (r.content as { text: string }[]).map((c) => c.text).join('');

describe('multi-server host: legacy and modern servers side by side', function () {
  this.timeout(60_000);
  const hosts: Host[] = [];
  let web: Listening | undefined;
  afterEach(async () => {
    await Promise.all(hosts.splice(0).map((h) => h.close()));
    await web?.close();
    web = undefined;
  });

  it('each server in its own era (state$ shows it), every tool called through the host', async () => {
    const mcp = createMcpServer({ info: { name: 'web', version: '1.0.0' } });
    mcp.registerTool('twice', { inputSchema: { type: 'object', properties: { n: { type: 'number' } } } }, (args) => String(Number(args['n']) * 2));
    web = await listen(createStreamableHttpHandler(mcp.server), { port: 0 });
    const h = createHost({
      servers: { modern: stdio(ECHO), sdk: stdio(SDK_V1), strict: stdio(STRICT), web: { url: web.url } },
      restart: { initialDelayMs: 10, maxDelayMs: 10, jitter: 0 },
    });
    hosts.push(h);
    await h.start();
    const strict = await stateOf(h, 'strict', (s) => s.phase === 'ready');
    const state = h.state;
    expect(state.modern).to.include({ phase: 'ready', era: 'modern', protocolVersion: '2026-07-28' });
    expect(state.web).to.include({ phase: 'ready', era: 'modern', protocolVersion: '2026-07-28' });
    expect(state.sdk).to.include({ phase: 'ready', era: 'legacy', protocolVersion: '2025-11-25' });
    // It exited on the probe once, then was restarted straight into initialize.
    expect(strict).to.include({ era: 'legacy', protocolVersion: '2025-11-25' });
    expect(textOf(await h.callTool('modern__echo', { text: 'now' }))).to.equal('now');
    expect(textOf(await h.callTool('web__twice', { n: 21 }))).to.equal('42');
    expect(textOf(await h.callTool('sdk__echo', { text: 'then' }))).to.equal('then');
    expect(textOf(await h.callTool('strict__shout', { text: 'old' }))).to.equal('OLD');
  });

  it('[CACHE-017] two hosts (two users, two tokens) of one server never get each other\'s private results', async () => {
    const reads: string[] = [];
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const msg = JSON.parse(body) as { id: number; method: string; params: Record<string, any> };
        const who = String(req.headers.authorization);
        const result =
          msg.method === 'server/discover'
            ? { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { resources: {} }, ttlMs: 0, cacheScope: 'public' }
            : msg.method === 'resources/list'
              ? { resultType: 'complete', resources: [{ uri: 'mail://inbox', name: 'inbox' }], ttlMs: 60_000, cacheScope: 'public' }
              : (reads.push(who), { resultType: 'complete', contents: [{ uri: msg.params.uri, text: `mail of ${who}` }], ttlMs: 60_000, cacheScope: 'private' });
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    try {
      const alice = createHost({ servers: { mail: { url, headers: { authorization: 'Bearer alice' } } } });
      const bob = createHost({ servers: { mail: { url, headers: { authorization: 'Bearer bob' } } } });
      hosts.push(alice, bob);
      await Promise.all([alice.start(), bob.start()]);
      const text = (r: { contents: unknown[] }) => (r.contents[0] as { text: string }).text;
      expect(text(await alice.readResource('mail://inbox', 'mail'))).to.equal('mail of Bearer alice');
      expect(text(await bob.readResource('mail://inbox', 'mail'))).to.equal('mail of Bearer bob');
      // Alice's second read comes from her cache; Bob's own result is his.
      expect(text(await alice.readResource('mail://inbox', 'mail'))).to.equal('mail of Bearer alice');
      expect(text(await bob.readResource('mail://inbox', 'mail'))).to.equal('mail of Bearer bob');
      expect(reads).to.deep.equal(['Bearer alice', 'Bearer bob']);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
