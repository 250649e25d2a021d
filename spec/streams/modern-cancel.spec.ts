// Cancelling a 2026-07-28 call over Streamable HTTP when the server answers with a JSON body
// (issue 32, finding 8). That revision has no notifications/cancelled over HTTP: closing the
// response is the cancellation. Before, only SSE response streams were closed: a POST waiting for
// a JSON body stayed open, the server ran the call to its end, and the late answer came in as a
// stray frame. A raw node:http server holds the POST and records when the request is closed.
import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '../../lib/entries/client.js';
import { listen } from '../../lib/http/listen-port.js';
import { createMcpServer } from '../../lib/mcp-server.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';
import type { RawFrame } from '../../streams/transport.js';
import { createStreamableHttpClientTransport, type StreamableHttpClientTransportOptions } from '../../streams/streamable-http-client.js';

interface Held {
  id: number;
  /** Resolves when the client closed the request (the socket or the response). */
  closed: Promise<void>;
  answer(): void;
}

async function slowJsonServer() {
  const held: Held[] = [];
  let seen!: (h: Held) => void;
  let next = new Promise<Held>((r) => (seen = r));
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      if (req.method !== 'POST') return void res.writeHead(405).end();
      const msg = JSON.parse(body) as { id?: number; method: string; params?: { name?: string } };
      const reply = (result: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result }));
      if (msg.id === undefined) return void res.writeHead(202).end();
      if (msg.method === 'server/discover') {
        return reply({ resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, serverInfo: { name: 'slow-json', version: '1' }, ttlMs: 0, cacheScope: 'public' });
      }
      if (msg.method === 'tools/call' && msg.params?.name === 'slow') {
        // Held: nothing is written until answer() (a JSON body comes whole, at the end).
        const closed = new Promise<void>((r) => res.once('close', () => r()));
        const h: Held = { id: msg.id, closed, answer: () => reply({ resultType: 'complete', content: [{ type: 'text', text: 'late' }] }) };
        held.push(h);
        seen(h);
        next = new Promise<Held>((r) => (seen = r));
        return;
      }
      if (msg.method === 'tools/call') return reply({ resultType: 'complete', content: [{ type: 'text', text: 'quick' }] });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'no' } }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    held,
    nextHeld: () => next,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

/** Rejects if `p` has not settled by the time `ms` pass (real time: a bound on a failure, not a wait). */
function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([p, new Promise<T>((_r, reject) => (timer = setTimeout(() => reject(new Error(what)), ms)))]).finally(() => clearTimeout(timer));
}

for (const [label, options] of [
  ['the default (undici) path', {}],
  ['the fetch path', { fetch: (input: string | URL | Request, init?: RequestInit) => fetch(input, init) }],
] as [string, StreamableHttpClientTransportOptions][]) {
  describe(`http-client: cancelling a 2026-07-28 call answered with a JSON body (${label})`, function () {
    this.timeout(20_000);

    it('[CANCEL-047] aborting the call closes its POST: the server sees the request closed, and no late answer arrives', async () => {
      const server = await slowJsonServer();
      const transport = createStreamableHttpClientTransport(server.url, { ...options, openStandaloneStream: false });
      const frames: RawFrame[] = [];
      transport.inbound$.subscribe((f) => frames.push(f));
      const client = new Client({ info: { name: 'spec', version: '1' } });
      try {
        await client.connect(transport);
        expect(client.era).to.equal('modern');
        const abort = new AbortController();
        const call = client.callTool('slow', {}, { signal: abort.signal });
        const held = await server.nextHeld();
        abort.abort();
        await call.then(
          () => expect.fail('the call resolved'),
          () => undefined,
        );
        await within(held.closed, 3_000, 'the server never saw the cancelled request closed');
        // Were it still open, this is where its answer would have come in.
        held.answer();
        const quick = await client.callTool('quick', {});
        expect(JSON.stringify(quick.content)).to.contain('quick');
        const stray = frames.filter((f) => JSON.stringify(f).includes('"late"'));
        expect(stray, 'the late answer of the cancelled call').to.deep.equal([]);
      } finally {
        await client.close();
        await server.close();
      }
    });
  });
}

describe('http-client: cancelling a 2026-07-28 call to our own server (a JSON answer, no stream)', function () {
  this.timeout(20_000);

  it('[CANCEL-047] the tool handler on the server sees its signal aborted', async () => {
    const mcp = createMcpServer({ info: { name: 'ours', version: '1' } });
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    let aborted!: () => void;
    const sawAbort = new Promise<void>((r) => (aborted = r));
    mcp.registerTool('slow', {}, async (_args, ctx) => {
      ctx.signal.addEventListener('abort', () => aborted());
      started();
      await sawAbort;
      return 'never sent';
    });
    const listening = await listen(createStreamableHttpHandler(mcp.server), { port: 0, logger: false });
    const client = new Client({ info: { name: 'spec', version: '1' } });
    try {
      await client.connect(createStreamableHttpClientTransport(listening.url, { openStandaloneStream: false }));
      expect(client.era).to.equal('modern');
      const abort = new AbortController();
      const call = client.callTool('slow', {}, { signal: abort.signal }).then(
        () => 'resolved',
        () => 'rejected',
      );
      await running;
      abort.abort();
      expect(await call).to.equal('rejected');
      await within(sawAbort, 3_000, 'the handler was never aborted');
    } finally {
      await client.close();
      await listening.close();
      await mcp.close();
    }
  });
});
