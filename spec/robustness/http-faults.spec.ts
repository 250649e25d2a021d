// HTTP faults: a body that trickles (slowloris), deleted and guessed session ids, a Last-Event-ID
// of another session, and colliding JSON-RPC ids across 100 concurrent sessions. Forged
// Host/Origin are in spec/server-bindings/security.spec.ts (and the advisories spec); 1,000 SSE cuts
// in spec/server-bindings/resumability-stress.spec.ts (RESUMABILITY_MESSAGES=10000 runs 1,000 cuts).
import { expect } from 'chai';
import { connect as tcpConnect, type Socket } from 'node:net';
import { ManualClock } from '../../lib/clock.js';
import { messagesOf } from './fuzz/http-run.js';
import { startFixture, type Fixture } from '../fixtures/http-server/server.js';

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const REVISION = '2025-06-18';

async function initialize(url: string): Promise<Record<string, string>> {
  const res = await fetch(url, {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: REVISION, capabilities: {}, clientInfo: { name: 'c', version: '1' } } }),
  });
  await res.text();
  const sid = res.headers.get('mcp-session-id')!;
  const headers = { ...HEADERS, 'mcp-session-id': sid, 'mcp-protocol-version': REVISION };
  await (await fetch(url, { method: 'POST', headers, body: '{"jsonrpc":"2.0","method":"notifications/initialized"}' })).text();
  return headers;
}

async function call(url: string, headers: Record<string, string>, id: number | string, name: string, args: Record<string, unknown> = {}): Promise<any[]> {
  const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }) });
  return (await messagesOf(res)) as any[];
}

/** Everything a raw socket receives until it closes. */
function collect(socket: Socket): { text: () => string; closed: Promise<void> } {
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (s: string) => (text += s));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => {});
  return { text: () => text, closed };
}

describe('robustness: HTTP faults', function () {
  this.timeout(30_000);
  let fx: Fixture | undefined;
  afterEach(async () => {
    await fx?.close();
    fx = undefined;
  });

  describe('slowloris: a body that trickles', () => {
    it('is cut with 408 once bodyTimeoutMs passes on the clock, its connection closed; another client is served meanwhile', async () => {
      const clock = new ManualClock(0);
      fx = await startFixture({ clock, bodyTimeoutMs: 5_000, keepAliveMs: false });
      const headers = await initialize(fx.url);
      const { port } = new URL(fx.url);
      const socket = tcpConnect(Number(port), '127.0.0.1');
      const seen = collect(socket);
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      socket.write(
        `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
          `Mcp-Session-Id: ${headers['mcp-session-id']}\r\nMcp-Protocol-Version: ${REVISION}\r\nContent-Length: 1000\r\n\r\n{"jsonrpc":"2.0",`,
      );
      // The clock moves only once the server reads this body (its deadline timer is set).
      const timersBefore = clock.pending;
      for (let waited = 0; clock.pending === timersBefore && waited < 5_000; waited += 5) await new Promise((r) => setTimeout(r, 5));
      expect(clock.pending, 'the body deadline timer').to.equal(timersBefore + 1);
      for (let i = 0; i < 4; i++) {
        socket.write('"x');
        clock.advance(1_000);
        await new Promise((r) => setTimeout(r, 5));
      }
      // Still within the deadline: nothing answered yet, and other clients are served.
      expect(seen.text()).to.equal('');
      const other = await call(fx.url, headers, 7, 'echo', { text: 'meanwhile' });
      expect(other[0].result.content[0].text).to.equal('meanwhile');
      clock.advance(1_000);
      await seen.closed;
      expect(seen.text()).to.match(/^HTTP\/1\.1 408 /).and.to.contain('bodyTimeoutMs');
      // The session itself is fine.
      const after = await call(fx.url, headers, 8, 'echo', { text: 'after' });
      expect(after[0].result.content[0].text).to.equal('after');
    });

    it('a body that arrives in time is not cut (the timer is cleared)', async () => {
      const clock = new ManualClock(0);
      fx = await startFixture({ clock, bodyTimeoutMs: 5_000, keepAliveMs: false });
      const headers = await initialize(fx.url);
      const answer = await call(fx.url, headers, 1, 'echo', { text: 'quick' });
      expect(answer[0].result.content[0].text).to.equal('quick');
      expect(clock.fireNamed('http:body'), 'a body timer left behind').to.equal(false);
    });
  });

  describe('session ids', () => {
    it('[HTTP-031] [HTTP-028] a deleted session id and a guessed one get 404; ids are random (128 bits, base64url)', async () => {
      fx = await startFixture();
      const a = await initialize(fx.url);
      const b = await initialize(fx.url);
      expect(a['mcp-session-id']).to.match(/^[A-Za-z0-9_-]{22,}$/);
      expect(a['mcp-session-id']).to.not.equal(b['mcp-session-id']);
      expect((await fetch(fx.url, { method: 'DELETE', headers: a })).status).to.equal(204);
      const deleted = await fetch(fx.url, { method: 'POST', headers: a, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
      expect(deleted.status).to.equal(404);
      await deleted.text();
      // Guesses: a neighbour of a real id, and random ones.
      const real = b['mcp-session-id']!;
      const neighbour = real.slice(0, -1) + (real.endsWith('0') ? '1' : '0');
      for (const guess of [neighbour, '0'.repeat(40), 'f'.repeat(40), '1']) {
        const res = await fetch(fx.url, { method: 'POST', headers: { ...b, 'mcp-session-id': guess }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
        expect(res.status, guess).to.equal(404);
        await res.text();
      }
      const ok = await fetch(fx.url, { method: 'POST', headers: b, body: '{"jsonrpc":"2.0","id":2,"method":"ping"}' });
      expect(JSON.stringify(await messagesOf(ok))).to.contain('"result":{}');
    });

    it("[HTTP-026] a Last-Event-ID of another session replays nothing of it (400)", async () => {
      fx = await startFixture({ responseMode: 'sse' });
      const a = await initialize(fx.url);
      const b = await initialize(fx.url);
      const res = await fetch(fx.url, { method: 'POST', headers: b, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'secret of b' } } }) });
      const text = await res.text();
      const eventId = /^id: ?(.+)$/m.exec(text)?.[1];
      expect(eventId, text).to.be.a('string');
      const stolen = await fetch(fx.url, { method: 'GET', headers: { ...a, accept: 'text/event-stream', 'last-event-id': eventId! } });
      expect(stolen.status).to.equal(400);
      expect(await stolen.text()).to.not.contain('secret of b');
    });
  });

  it('colliding JSON-RPC ids across 100 concurrent sessions: each client gets its own answer', async () => {
    fx = await startFixture();
    const url = fx.url;
    const sessions = await Promise.all(Array.from({ length: 100 }, () => initialize(url)));
    // Every session uses id 1 (and the same string id) at once; the answers must not cross.
    const answers = await Promise.all(
      sessions.flatMap((headers, i) => [
        call(url, headers, 1, 'echo', { text: `client ${i} number` }).then((m) => ({ i, m, id: 1 })),
        call(url, headers, 'same', 'echo', { text: `client ${i} string` }).then((m) => ({ i, m, id: 'same' })),
      ]),
    );
    for (const { i, m, id } of answers) {
      expect(m).to.have.length(1);
      expect(m[0].id).to.equal(id);
      expect(m[0].result.content[0].text).to.equal(`client ${i} ${id === 1 ? 'number' : 'string'}`);
    }
  });
});
