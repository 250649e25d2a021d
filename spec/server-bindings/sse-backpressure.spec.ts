// Issue 32, item 7g: the SSE writer ignored backpressure, so a client that never reads made the
// server buffer every event without bound. A real socket that reads the head of a GET stream
// and then pauses; the server floods that session with notifications (32 MiB of them). The
// stream must be ended once more than the high-water mark waits unsent (1 MiB by default), not
// grow; through the node handler and the fetch handler on Node.
import { expect } from 'chai';
import { connect, type Socket } from 'node:net';
import { listen } from '../../lib/http/listen-port.js';
import { serveFetch } from '../../lib/http/serve-fetch.js';
import { createMcpServer, type McpServer } from '../../lib/mcp-server.js';
import { createMcpFetchHandler } from '../../lib/server-bindings/fetch-handler.js';
import { createStreamableHttpHandler, type StreamableHttpOptions } from '../../lib/server-bindings/streamable-http-server.js';
import { openSession, post } from '../fixtures/http-server/raw.js';

const REV = '2025-11-25';
const NOTE = 'x'.repeat(4096);
const COUNT = 8192; // 32 MiB of notifications

function floodServer(): McpServer {
  const mcp = createMcpServer({ info: { name: 'flood', version: '1' } });
  mcp.registerTool('flood', { description: 'floods every session with log notifications', inputSchema: { type: 'object', properties: { count: { type: 'number' } } } }, (args) => {
    const count = typeof args.count === 'number' ? args.count : COUNT;
    for (let i = 0; i < count; i++) mcp.log('info', NOTE);
    return 'flooded';
  });
  return mcp;
}

/** A GET stream on a raw socket: resolves once the head is in, then reads no more. */
function pausedStream(url: string, sid: string): Promise<{ socket: Socket; received: () => number; ended: Promise<void> }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    let bytes = 0;
    let head = '';
    let endedResolve!: () => void;
    const ended = new Promise<void>((r) => (endedResolve = r));
    const socket = connect(Number(u.port), u.hostname, () => {
      socket.write(`GET ${u.pathname} HTTP/1.1\r\nHost: ${u.host}\r\nAccept: text/event-stream\r\nMcp-Session-Id: ${sid}\r\nMcp-Protocol-Version: ${REV}\r\n\r\n`);
    });
    socket.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (head !== undefined && !head.includes('\r\n\r\n')) {
        head += chunk.toString('latin1');
        if (head.includes('\r\n\r\n')) {
          if (!/^HTTP\/1\.1 200/.test(head)) reject(new Error(`GET refused: ${head}`));
          socket.pause();
          resolve({ socket, received: () => bytes, ended });
        }
      }
    });
    socket.on('close', () => endedResolve());
    socket.on('error', () => endedResolve());
  });
}

const ADAPTERS = {
  'node handler': async (mcp: McpServer, options: StreamableHttpOptions) => listen(createStreamableHttpHandler(mcp.server, options), { logger: false }),
  'fetch handler on Node': async (mcp: McpServer, options: StreamableHttpOptions) => serveFetch(createMcpFetchHandler(mcp.server, options), { port: 0, logger: false }),
};

for (const [adapter, serve] of Object.entries(ADAPTERS)) {
  describe(`SSE backpressure: a client that does not read (${adapter})`, function () {
    this.timeout(30_000);

    it('[HTTP-010] ends the GET stream past the high-water mark instead of buffering 32 MiB; the session still serves', async () => {
      const served = await serve(floodServer(), { eventStore: false, keepAliveMs: false });
      try {
        const sid = await openSession(served.url, REV);
        const h = { 'mcp-session-id': sid, 'mcp-protocol-version': REV };
        const stream = await pausedStream(served.url, sid);
        const call = await post(served.url, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'flood', arguments: {} } }, h);
        expect(call.json?.result?.content?.[0]?.text, call.body).to.equal('flooded');
        // Now read: what the server kept for this client is what arrives, then the end.
        stream.socket.resume();
        const timeout = new Promise<'open'>((r) => setTimeout(() => r('open'), 5_000).unref());
        expect(await Promise.race([stream.ended.then(() => 'ended' as const), timeout]), 'the stream must be ended').to.equal('ended');
        const sent = COUNT * NOTE.length;
        expect(stream.received()).to.be.below(sent / 4);
        // The session is untouched: the next request is served, and a new GET stream opens.
        const ping = await post(served.url, { jsonrpc: '2.0', id: 2, method: 'ping' }, h);
        expect(ping.json.result).to.deep.equal({});
        const again = await pausedStream(served.url, sid);
        again.socket.destroy();
      } finally {
        await served.close();
      }
    });

    it('a client that reads gets a burst in full, and its stream stays open', async () => {
      const served = await serve(floodServer(), { eventStore: false, keepAliveMs: false });
      try {
        const sid = await openSession(served.url, REV);
        const h = { 'mcp-session-id': sid, 'mcp-protocol-version': REV };
        const stream = await pausedStream(served.url, sid);
        let text = '';
        stream.socket.on('data', (c: Buffer) => (text += c.toString('latin1')));
        stream.socket.resume();
        const call = await post(served.url, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'flood', arguments: { count: 64 } } }, h);
        expect(call.json?.result?.content?.[0]?.text, call.body).to.equal('flooded');
        const deadline = Date.now() + 5_000;
        while (text.split('notifications/message').length - 1 < 64 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
        expect(text.split('notifications/message').length - 1).to.equal(64);
        expect(stream.socket.destroyed).to.equal(false);
        stream.socket.destroy();
      } finally {
        await served.close();
      }
    });
  });
}

describe('SSE backpressure: the 2024-11-05 HTTP+SSE stream (node handler)', function () {
  this.timeout(30_000);

  it('[HTTP-010] ends the /sse stream of a client that does not read, past the high-water mark', async () => {
    const served = await listen(createStreamableHttpHandler(floodServer().server, { legacySse: true, keepAliveMs: false }), { logger: false });
    try {
      const u = new URL(served.url);
      let text = '';
      let ended = false;
      const socket = connect(Number(u.port), u.hostname, () => socket.write(`GET /sse HTTP/1.1\r\nHost: ${u.host}\r\nAccept: text/event-stream\r\n\r\n`));
      socket.on('close', () => (ended = true));
      socket.on('error', () => (ended = true));
      await new Promise<void>((resolve) => {
        const onData = (c: Buffer) => {
          text += c.toString('latin1');
          if (/event: endpoint\r?\ndata: \S+/.test(text)) {
            socket.off('data', onData);
            socket.pause();
            resolve();
          }
        };
        socket.on('data', onData);
      });
      const messages = new URL(/data: (\S+)/.exec(text)![1]!, u.origin).toString();
      const send = (m: unknown) => post(messages, m);
      expect((await send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'c', version: '1' } } })).status).to.equal(202);
      await send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      expect((await send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'flood', arguments: {} } })).status).to.equal(202);
      let received = 0;
      socket.on('data', (c: Buffer) => (received += c.length));
      socket.resume();
      const deadline = Date.now() + 5_000;
      while (!ended && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(ended, 'the stream must be ended').to.equal(true);
      expect(received).to.be.below((COUNT * NOTE.length) / 4);
    } finally {
      await served.close();
    }
  });
});

describe('SSE backpressure: the option', () => {
  it('refuses a maxSseBufferBytes that is not a positive number, saying so', () => {
    const mcp = createMcpServer({ info: { name: 'x', version: '1' } });
    expect(() => createStreamableHttpHandler(mcp.server, { maxSseBufferBytes: 0 })).to.throw(TypeError, /maxSseBufferBytes must be a positive number/);
  });
});
