import { expect } from 'chai';
import { createServer, request as httpRequest, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { Client } from '../../lib/entries/client.js';
import { Server } from '../../lib/server.js';
import { ConnectionClosedError, RequestCancelledError, TransportError } from '../../lib/errors.js';
import type { Progress } from '../../lib/session/session.js';
import { createWebSocketClientTransport } from '../../streams/websocket-client.js';
import { createWebSocketServer } from '../../lib/server-bindings/websocket-server.js';
import {
  CLIENT_INFO,
  SERVER_INFO,
  ended,
  finalState,
  nextSession,
  openRaw,
  refusal,
  startServer,
  type Fixture,
} from './websocket-helpers.js';

describe('WebSocket transport: our client and our server', () => {
  let fx: Fixture;
  afterEach(async () => {
    await fx?.endpoint.close();
  });

  it('initializes, answers requests, reports progress, cancels, and closes cleanly with 1000', async () => {
    fx = await startServer();
    const serverSession = nextSession(fx.endpoint);
    const transport = createWebSocketClientTransport(fx.endpoint.url);
    const client = new Client({ era: 'legacy', info: CLIENT_INFO });
    await client.connect(transport);
    expect(transport.protocol).to.equal('mcp');
    expect(client.serverInfo).to.deep.equal(SERVER_INFO);
    const session = await serverSession;
    await session.whenOperating();
    expect(fx.endpoint.sessions.has(session)).to.equal(true);

    expect(await client.request('tools/call', { name: 'echo', arguments: { text: 'hi' } })).to.deep.equal({
      content: [{ type: 'text', text: 'hi' }],
    });

    const { result, progress$ } = client.requestWithProgress('tools/call', { name: 'progress' });
    const progress: Progress[] = [];
    progress$.subscribe((p) => progress.push(p));
    expect(await result).to.deep.equal({ content: [{ type: 'text', text: 'done' }] });
    expect(progress.map((p) => [p.progress, p.total, p.message])).to.deep.equal([
      [1, 3, 'step 1'],
      [2, 3, 'step 2'],
      [3, 3, 'step 3'],
    ]);

    const abort = new AbortController();
    const cancelled = client.request('tools/call', { name: 'gate' }, { signal: abort.signal }).then(() => null, (e) => e);
    await fx.gateStarted;
    abort.abort('changed my mind');
    expect(await cancelled).to.be.instanceOf(RequestCancelledError);
    await client.ping(); // the cancellation has reached the server by now (frames are ordered)
    expect(fx.seen.aborted).to.have.length(1);

    const serverEnded = ended(session);
    await client.close();
    expect(client.currentPhase).to.equal('closed');
    const final = await finalState(transport.state$);
    expect(final.phase).to.equal('closed');
    expect(final.details).to.include({ code: 1000 });
    await serverEnded;
    expect(session.currentPhase).to.equal('closed');
    expect(fx.endpoint.sessions.size).to.equal(0);
  });

  it('several clients get one session each; closing the endpoint ends them all with 1001 ("closed", not failed)', async () => {
    fx = await startServer();
    const clients = [new Client({ era: 'legacy', info: CLIENT_INFO }), new Client({ era: 'legacy', info: CLIENT_INFO })];
    const transports = clients.map(() => createWebSocketClientTransport(fx.endpoint.url));
    await Promise.all(clients.map((c, i) => c.connect(transports[i])));
    expect(fx.endpoint.sessions.size).to.equal(2);
    expect(fx.server.sessions.size).to.equal(2);
    await fx.endpoint.close();
    for (const t of transports) {
      const final = await finalState(t.state$);
      expect(final.phase).to.equal('closed');
      expect(final.details).to.include({ code: 1001 });
    }
    await Promise.all(clients.map((c) => ended(c)));
    for (const c of clients) expect(c.currentPhase).to.equal('closed');
    expect(fx.endpoint.sessions.size).to.equal(0);
  });

  it('a request in flight when the server goes away rejects with a ConnectionClosedError', async () => {
    fx = await startServer();
    const client = new Client({ era: 'legacy', info: CLIENT_INFO });
    await client.connect(createWebSocketClientTransport(fx.endpoint.url));
    const pending = client.request('tools/call', { name: 'gate' }).then(() => null, (e) => e);
    await fx.gateStarted;
    await fx.endpoint.close();
    expect(await pending).to.be.instanceOf(ConnectionClosedError);
  });
});

describe('WebSocket transport: attaching to an existing HTTP server', () => {
  let http: HttpServer;
  afterEach(async () => {
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  });

  it('handles upgrades on its path only; other paths and plain requests stay with the application', async () => {
    http = createServer((_req, res) => res.end('app'));
    const other = new WebSocketServer({ noServer: true });
    http.on('upgrade', (req, socket, head) => {
      if (req.url === '/chat') other.handleUpgrade(req, socket, head, (ws) => ws.on('message', (d) => ws.send(`chat: ${d}`)));
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const { port } = http.address() as AddressInfo;
    const fx = await startServer({ httpServer: http, path: '/rpc/mcp' });
    expect(fx.endpoint.url).to.equal(`ws://127.0.0.1:${port}/rpc/mcp`);

    const client = new Client({ era: 'legacy', info: CLIENT_INFO });
    await client.connect(createWebSocketClientTransport(`ws://127.0.0.1:${port}/rpc/mcp?x=1`));
    expect(client.serverInfo).to.deep.equal(SERVER_INFO);

    const chat = await openRaw(`ws://127.0.0.1:${port}/chat`, []);
    const text = new Promise<string>((resolve) => chat.once('message', (d) => resolve(d.toString())));
    chat.send('hello');
    expect(await text).to.equal('chat: hello');
    chat.close();

    const body = await new Promise<string>((resolve) =>
      httpRequest(`http://127.0.0.1:${port}/`, (res) => {
        let b = '';
        res.on('data', (c) => (b += c));
        res.on('end', () => resolve(b));
      }).end(),
    );
    expect(body).to.equal('app');

    await fx.endpoint.close();
    await ended(client);
    expect(client.currentPhase).to.equal('closed');
    // After close() the endpoint no longer takes upgrades on its path (and leaves the socket to others).
    http.on('upgrade', (req, socket) => {
      if (req.url === '/rpc/mcp') socket.end('HTTP/1.1 410 Gone\r\nContent-Length: 0\r\n\r\n');
    });
    expect((await refusal(`ws://127.0.0.1:${port}/rpc/mcp`)).status).to.equal(410);
    other.close();
  });
});

describe('WebSocket transport: its own port', () => {
  let fx: Fixture;
  afterEach(async () => {
    await fx?.endpoint.close();
  });

  it('answers a plain HTTP request with 426 and an upgrade on another path with 404', async () => {
    fx = await startServer();
    const { port } = fx.endpoint.address();
    const status = await new Promise<number>((resolve) =>
      httpRequest(`http://127.0.0.1:${port}/mcp`, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      }).end(),
    );
    expect(status).to.equal(426);
    const r = await refusal(`ws://127.0.0.1:${port}/elsewhere`);
    expect(r.status).to.equal(404);
    expect(r.body).to.contain('/mcp');
  });

  it('needs a port or an httpServer', async () => {
    const err = await createWebSocketServer(new Server({ info: SERVER_INFO }), {}).then(() => null, (e) => e);
    expect(err).to.be.instanceOf(TypeError);
    expect(err.message).to.contain('httpServer').and.contain('port');
  });

  it('a client pointed at nothing fails connect() with a message that says so', async () => {
    fx = await startServer();
    const { port } = fx.endpoint.address();
    await fx.endpoint.close();
    const client = new Client({ era: 'legacy', info: CLIENT_INFO });
    const transport = createWebSocketClientTransport(`ws://127.0.0.1:${port}/mcp`);
    const err = await client.connect(transport).then(() => null, (e) => e);
    expect(err).to.be.instanceOf(TransportError);
    expect(err.message).to.contain(`ws://127.0.0.1:${port}/mcp`).and.match(/ECONNREFUSED|Nothing is listening/);
    expect((await finalState(transport.state$)).phase).to.equal('failed');
  });

  it('a raw client that disconnects without a close frame fails its server session with 1006', async () => {
    fx = await startServer();
    const session = nextSession(fx.endpoint);
    const raw = await openRaw(fx.endpoint.url);
    const s = await session;
    const done = ended(s);
    raw.terminate();
    await done;
    expect(s.currentPhase).to.equal('failed');
    expect(s.error?.message).to.contain('1006').and.contain('abnormal closure');
  });
});
