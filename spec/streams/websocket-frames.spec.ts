import { expect } from 'chai';
import type WebSocket from 'ws';
import { Client } from '../../lib/entries/client.js';
import { ManualClock } from '../../lib/clock.js';
import { ConnectionClosedError, TransportError } from '../../lib/errors.js';
import { createWebSocketClientTransport, describeCloseCode, KEEPALIVE_TIMER } from '../../streams/websocket-client.js';
import {
  CLIENT_INFO,
  answerInitialize,
  closed,
  ended,
  finalState,
  nextMessage,
  nextSession,
  openRaw,
  rawServer,
  startServer,
  type Fixture,
} from '../server-bindings/websocket-helpers.js';

/** Let pending socket I/O run (one macrotask turn at a time, never a timed sleep). */
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('WebSocket transport: frames', () => {
  let fx: Fixture | undefined;
  afterEach(async () => {
    await fx?.endpoint.close();
    fx = undefined;
  });

  it('passes a non-JSON text frame through as text: the session answers -32700', async () => {
    fx = await startServer();
    const raw = await openRaw(fx.endpoint.url);
    const reply = nextMessage(raw);
    raw.send('this is { not json');
    const res = await reply;
    expect(res).to.include({ jsonrpc: '2.0', id: null });
    expect(res.error.code).to.equal(-32700);
    // The connection stays usable.
    const init = nextMessage(raw);
    raw.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: CLIENT_INFO } }));
    expect((await init).result.protocolVersion).to.equal('2025-11-25');
    raw.close();
  });

  describe('binary frames', () => {
    it('the server refuses one: closes with 1003 and fails the session with a clear error', async () => {
      fx = await startServer();
      const session = nextSession(fx.endpoint);
      const raw = await openRaw(fx.endpoint.url);
      const s = await session;
      const done = ended(s);
      const rawClosed = closed(raw);
      raw.send(Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })), { binary: true });
      const { code, reason } = await rawClosed;
      expect(code).to.equal(1003);
      expect(reason).to.contain('text frames');
      await done;
      expect(s.currentPhase).to.equal('failed');
      expect(s.error?.message).to.contain('binary WebSocket frame').and.contain('1003').and.contain('text frame');
    });

    it('the client refuses one the same way', async () => {
      const raw = await rawServer();
      try {
        const serverSide = new Promise<WebSocket>((resolve) => raw.wss.once('connection', resolve));
        const transport = createWebSocketClientTransport(raw.url);
        await transport.start();
        const peer = await serverSide;
        const peerClosed = closed(peer);
        peer.send(Buffer.from([1, 2, 3]), { binary: true });
        const final = await finalState(transport.state$);
        expect(final.phase).to.equal('failed');
        expect(final.error).to.be.instanceOf(TransportError);
        expect(final.error!.message).to.contain('binary WebSocket frame (3 bytes) from the server').and.contain('1003');
        expect((await peerClosed).code).to.equal(1003);
      } finally {
        await raw.close();
      }
    });
  });

  describe('oversize frames', () => {
    it('over the server\'s maxPayload: 1009 to the client (named in its error), a clear error on the server', async () => {
      fx = await startServer({ maxPayload: 4096 });
      const session = nextSession(fx.endpoint);
      const transport = createWebSocketClientTransport(fx.endpoint.url);
      const client = new Client({ era: 'legacy', info: CLIENT_INFO });
      await client.connect(transport);
      const s = await session;
      const serverDone = ended(s);
      const err = await client.request('tools/call', { name: 'echo', arguments: { text: 'x'.repeat(10_000) } }).then(() => null, (e) => e);
      expect(err).to.be.instanceOf(ConnectionClosedError);
      expect(err.message).to.contain('1009').and.contain('message too big').and.contain('maxPayload');
      const final = await finalState(transport.state$);
      expect(final.phase).to.equal('failed');
      expect(final.error!.message).to.contain('closed with code 1009 (message too big)');
      expect(final.details).to.include({ code: 1009 });
      await serverDone;
      expect(s.error?.message).to.contain('larger than maxPayload (4096 bytes)').and.contain('1009');
    });

    it('over the client\'s maxPayload: the client fails with a clear error and closes with 1009', async () => {
      fx = await startServer();
      const session = nextSession(fx.endpoint);
      const transport = createWebSocketClientTransport(fx.endpoint.url, { maxPayload: 2048 });
      const client = new Client({ era: 'legacy', info: CLIENT_INFO });
      await client.connect(transport);
      const s = await session;
      const serverDone = ended(s);
      const err = await client.request('tools/call', { name: 'big', arguments: { size: 5000 } }).then(() => null, (e) => e);
      expect(err).to.be.instanceOf(ConnectionClosedError);
      expect(err.message).to.contain('larger than maxPayload (2048 bytes)').and.contain('Raise `maxPayload` on the client');
      await serverDone;
      expect(s.error?.message).to.contain('1009');
    });
  });

  describe('close codes', () => {
    it('the server closing with 1011 fails the client with an error naming the code, the reason and what to do', async () => {
      const raw = await rawServer();
      raw.wss.on('connection', (ws) =>
        ws.on('message', (data) => {
          const msg = JSON.parse(data.toString());
          if (!answerInitialize(ws, msg)) ws.close(1011, 'database unavailable');
        }),
      );
      try {
        const transport = createWebSocketClientTransport(raw.url);
        const client = new Client({ era: 'legacy', info: CLIENT_INFO });
        await client.connect(transport);
        const err = await client.request('tools/call', { name: 'x' }).then(() => null, (e) => e);
        expect(err).to.be.instanceOf(ConnectionClosedError);
        expect(err.message).to.contain('code 1011 (internal error)').and.contain('"database unavailable"').and.contain('check its logs');
        const final = await finalState(transport.state$);
        expect(final.phase).to.equal('failed');
        expect(final.error).to.be.instanceOf(TransportError);
        expect((final.error as TransportError).details).to.include({ code: 1011, reason: 'database unavailable' });
        expect(client.currentPhase).to.equal('failed');
        expect(client.error?.message).to.contain('1011');
      } finally {
        await raw.close();
      }
    });

    for (const [code, phase, words] of [
      [1000, 'closed', ''],
      [1001, 'closed', ''],
      [1008, 'failed', 'policy violation'],
      [1013, 'failed', 'try again later'],
      [4001, 'failed', 'application-defined'],
    ] as const) {
      it(`a close with ${code} ends the client transport '${phase}'`, async () => {
        const raw = await rawServer();
        raw.wss.on('connection', (ws) => ws.close(code, 'bye'));
        try {
          const transport = createWebSocketClientTransport(raw.url);
          await transport.start().catch(() => undefined);
          const final = await finalState(transport.state$);
          expect(final.phase).to.equal(phase);
          expect(final.details).to.include({ code, reason: 'bye' });
          if (phase === 'failed') expect(final.error!.message).to.contain(`code ${code} (${words})`).and.contain('"bye"');
        } finally {
          await raw.close();
        }
      });
    }

    it('describes codes by name', () => {
      expect(describeCloseCode(1006)).to.equal('abnormal closure');
      expect(describeCloseCode(1009)).to.equal('message too big');
      expect(describeCloseCode(4500)).to.equal('application-defined');
    });
  });

  describe('keep-alive (simulated clock)', () => {
    it('the client fails when the server stops answering pings, naming the interval', async () => {
      const raw = await rawServer({ autoPong: false });
      const pings: number[] = [];
      raw.wss.on('connection', (ws) => ws.on('ping', () => pings.push(Date.now())));
      try {
        const clock = new ManualClock();
        const transport = createWebSocketClientTransport(raw.url, { keepAliveMs: 5000, clock });
        await transport.start();
        expect(clock.pending).to.equal(1);
        clock.advance(4999);
        expect(pings).to.have.length(0);
        clock.advance(1); // first ping goes out
        while (pings.length === 0) await turn();
        let phase = '';
        transport.state$.subscribe((s) => (phase = s.phase));
        expect(phase).to.equal('open');
        clock.advance(5000); // no pong by the next beat
        expect(phase).to.equal('failed');
        const final = await finalState(transport.state$);
        expect(final.error!.message).to.contain('No pong from the server').and.contain('5000 ms').and.contain('keepAliveMs');
        expect(clock.pending).to.equal(0);
      } finally {
        await raw.close();
      }
    });

    it('stays open while pongs come back', async () => {
      const raw = await rawServer({ autoPong: false });
      // Answer each ping, then a text frame: it arrives after the pong, so the test knows the pong is in.
      raw.wss.on('connection', (ws) => ws.on('ping', () => (ws.pong(), ws.send('"after pong"'))));
      try {
        const clock = new ManualClock();
        const transport = createWebSocketClientTransport(raw.url, { keepAliveMs: 1000, clock });
        const texts: unknown[] = [];
        transport.inbound$.subscribe((f) => texts.push(f));
        await transport.start();
        for (let beat = 1; beat <= 3; beat++) {
          clock.advance(1000);
          while (texts.length < beat) await turn();
        }
        let phase = '';
        transport.state$.subscribe((s) => (phase = s.phase));
        expect(phase).to.equal('open');
        await transport.close();
        expect(phase).to.equal('closed');
        expect(clock.pending).to.equal(0);
      } finally {
        await raw.close();
      }
    });

    it('the server fails a session whose client stops answering pings, and drops the connection', async () => {
      const clock = new ManualClock();
      fx = await startServer({ keepAliveMs: 2000, clock });
      const session = nextSession(fx.endpoint);
      const raw = await openRaw(fx.endpoint.url, ['mcp'], { autoPong: false });
      const s = await session;
      const rawClosed = closed(raw);
      const done = ended(s);
      const gotPing = new Promise<void>((resolve) => raw.once('ping', () => resolve()));
      clock.advance(2000);
      await gotPing;
      clock.fireNamed(KEEPALIVE_TIMER);
      await done;
      expect(s.currentPhase).to.equal('failed');
      expect(s.error?.message).to.contain('No pong from the client').and.contain('2000 ms');
      expect((await rawClosed).code).to.equal(1006);
    });
  });
});
