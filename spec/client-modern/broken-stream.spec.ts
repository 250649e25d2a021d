// A broken HTTP response stream in the modern era (2026-07-28): streams are not resumable, so the
// request is lost and the client re-issues it as a new request with a new id (changelog, SEP-2575).
// The server here cuts the connection in the middle of an SSE stream or of a JSON body; a server
// that cuts every stream gets a bounded number of re-issues, then a typed error, and the client
// stays usable.
import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '../../lib/entries/client.js';
import { McpError } from '../../lib/errors.js';
import { MAX_REISSUES } from '../../lib/client-modern/modern-link.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';

type Msg = { id?: number | string; method: string; params?: Record<string, any> };
const V = '2026-07-28';
const DISCOVER = { resultType: 'complete', supportedVersions: [V], capabilities: { tools: {} }, ttlMs: 0, cacheScope: 'public' };

/** How the server answers one tools/call: cut the SSE stream, cut the JSON body, or answer. */
type Answer = 'cut-sse' | 'cut-json' | 'reset' | 'answer';

async function cuttingServer(plan: (call: number) => Answer) {
  const calls: Msg[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const msg = JSON.parse(body) as Msg;
      if (msg.method === 'server/discover') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: DISCOVER }));
        return;
      }
      calls.push(msg);
      const how = plan(calls.length);
      if (how === 'reset') {
        // The connection dies before any answer (a kept-alive socket closed as it was reused).
        req.socket.destroy();
        return;
      }
      if (how === 'cut-sse') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        // A notification of the request, then the connection dies before the response.
        res.write(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'working' } })}\n\n`);
        setTimeout(() => res.socket?.destroy(), 20);
        return;
      }
      const answer = JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: { resultType: 'complete', content: [{ type: 'text', text: `answered call ${calls.length}` }] } });
      if (how === 'cut-json') {
        // The headers promise a longer body than arrives.
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(answer.length + 100) });
        res.write(answer.slice(0, 10));
        setTimeout(() => res.socket?.destroy(), 20);
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(answer);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    calls,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const textOf = (r: { content?: unknown }) => ((r.content ?? []) as { text?: string }[]).map((b) => b.text).join('');

describe('client: a broken HTTP response stream in the modern era (2026-07-28)', () => {
  it('an SSE stream cut before its response: the request is re-issued with a new id and its answer returned', async () => {
    const server = await cuttingServer((n) => (n === 1 ? 'cut-sse' : 'answer'));
    const client = new Client({ info: { name: 'spec', version: '1' } });
    try {
      await client.connect(createStreamableHttpClientTransport(server.url));
      expect(client.era).to.equal('modern');
      const result = await client.callTool('work', { x: 1 });
      expect(textOf(result)).to.equal('answered call 2');
      expect(server.calls).to.have.length(2);
      expect(server.calls[1]!.id).to.not.equal(server.calls[0]!.id);
      // The same request: same method and arguments, the envelope again.
      expect(server.calls[1]!.params!.arguments).to.deep.equal({ x: 1 });
      expect(server.calls[1]!.params!._meta['io.modelcontextprotocol/protocolVersion']).to.equal(V);
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('a JSON body cut short: re-issued with a new id as well', async () => {
    const server = await cuttingServer((n) => (n === 1 ? 'cut-json' : 'answer'));
    const client = new Client({ info: { name: 'spec', version: '1' } });
    try {
      await client.connect(createStreamableHttpClientTransport(server.url));
      expect(textOf(await client.callTool('work'))).to.equal('answered call 2');
      expect(new Set(server.calls.map((c) => c.id)).size).to.equal(2);
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('a connection reset before any answer: the request is re-issued with a new id', async () => {
    const server = await cuttingServer((n) => (n === 1 ? 'reset' : 'answer'));
    const client = new Client({ info: { name: 'spec', version: '1' } });
    try {
      await client.connect(createStreamableHttpClientTransport(server.url));
      expect(textOf(await client.callTool('work'))).to.equal('answered call 2');
      expect(new Set(server.calls.map((c) => c.id)).size).to.equal(2);
    } finally {
      await client.close();
      await server.close();
    }
  });

  it(`a server that cuts every stream: ${MAX_REISSUES} re-issues, then a typed error saying the stream broke; the client stays usable`, async () => {
    let cutting = true;
    const server = await cuttingServer(() => (cutting ? 'cut-sse' : 'answer'));
    const client = new Client({ info: { name: 'spec', version: '1' } });
    try {
      await client.connect(createStreamableHttpClientTransport(server.url));
      const error = await client.callTool('work').then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(McpError);
      expect((error as McpError).message).to.match(/response stream .* before its response/);
      expect(((error as McpError).data as { streamBroken?: boolean }).streamBroken).to.equal(true);
      expect(server.calls).to.have.length(1 + MAX_REISSUES);
      expect(new Set(server.calls.map((c) => c.id)).size).to.equal(1 + MAX_REISSUES);
      cutting = false;
      expect(textOf(await client.callTool('work'))).to.match(/^answered call/);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
