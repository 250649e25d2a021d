/**
 * Resumability end to end, our client against our server over real sockets: the server sends
 * 1,000 progress notifications on a request's SSE stream while the test cuts the connection
 * 100 times; the client resumes with Last-Event-ID each time and sees every message exactly
 * once, in order, then the result.
 */
import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '../../lib/entries/client.js';
import { Server } from '../../lib/server.js';
import { MemoryEventStore } from '../../streams/event-store.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';
import { CLIENT_INFO, SERVER_INFO } from '../helpers/raw-peer.js';

// RESUMABILITY_MESSAGES=10000 makes it 1,000 cuts (scripts/robustness.ts runs that).
const MESSAGES = Number(process.env.RESUMABILITY_MESSAGES ?? 1000);

describe('streamable HTTP resumability under repeated cuts', () => {
  it(`[HTTP-017] [HTTP-025] ${MESSAGES} messages, ${MESSAGES / 10} cuts: each message arrives exactly once, in order`, async function () {
    this.timeout(60_000 * Math.max(1, MESSAGES / 1000));
    const open = new Set<http.ServerResponse>();
    let cuts = 0;
    const server = new Server({ info: SERVER_INFO, capabilities: { tools: {} } });
    server.onRequest('tools/call', async (_params, ctx) => {
      for (let i = 1; i <= MESSAGES; i++) {
        ctx.sendProgress(i, MESSAGES);
        if (i % 10 === 5) {
          // Cut every SSE response open right now, mid-stream.
          for (const res of open) res.socket?.destroy();
          cuts++;
        }
        await new Promise((r) => setImmediate(r));
      }
      return { content: [{ type: 'text', text: 'done' }] };
    });
    const handler = createStreamableHttpHandler(server, {
      responseMode: 'sse',
      retryMs: 1,
      keepAliveMs: false,
      eventStore: new MemoryEventStore({ maxEventsPerSession: Math.max(5000, MESSAGES * 2), maxCharsPerSession: Math.max(4, MESSAGES / 250) * 1024 * 1024 }),
    });
    const httpServer = http.createServer((req, res) => {
      if (req.method === 'GET' || req.method === 'POST') {
        open.add(res);
        res.on('close', () => open.delete(res));
      }
      handler(req, res);
    });
    await new Promise<void>((r) => httpServer.listen(0, '127.0.0.1', () => r()));
    const { port } = httpServer.address() as AddressInfo;
    // Resumption with Last-Event-ID: the legacy era (2026-07-28 streams are not resumable).
    const client = new Client({ era: 'legacy', info: CLIENT_INFO });
    await client.connect(
      createStreamableHttpClientTransport(`http://127.0.0.1:${port}/mcp`, {
        openStandaloneStream: false,
        reconnect: { maxAttempts: 20, initialDelayMs: 1, maxDelayMs: 5 },
      }),
    );
    try {
      const seen: number[] = [];
      const result = await client.request('tools/call', { name: 'burst' }, { timeout: 50_000 * Math.max(1, MESSAGES / 1000), onprogress: (p) => seen.push(p.progress) });
      expect(result.content).to.deep.equal([{ type: 'text', text: 'done' }]);
      expect(cuts).to.equal(MESSAGES / 10);
      expect(seen.length).to.equal(MESSAGES);
      expect(seen).to.deep.equal(Array.from({ length: MESSAGES }, (_, i) => i + 1));
    } finally {
      await client.close();
      await handler.close();
      httpServer.closeAllConnections();
      await new Promise((r) => httpServer.close(r));
    }
  });
});
