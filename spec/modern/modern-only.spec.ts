// A server that speaks only 2026-07-28 (`supportedVersions: ['2026-07-28']`): legacy clients are
// told which versions it speaks; modern clients are served as usual.
import { expect } from 'chai';
import { Client } from '../../lib/entries/client.js';
import { McpError } from '../../lib/errors.js';
import { createMcpServer } from '../../lib/mcp-server.js';
import { ErrorCode } from '../../lib/jsonrpc/error-codes.js';
import { listen } from '../../lib/http/listen-port.js';
import { createMemoryPair } from '../../streams/memory.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CLIENT_INFO, SERVER_INFO } from '../helpers/raw-peer.js';
import { initializeRequest, post, raw } from '../fixtures/http-server/raw.js';

function modernOnly() {
  const mcp = createMcpServer({ info: SERVER_INFO, supportedVersions: ['2026-07-28'] });
  mcp.registerTool('add', { description: 'adds', inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } } }, (args) =>
    String((args.a as number) + (args.b as number)),
  );
  return mcp;
}

describe('modern/modern-only: a server that speaks only 2026-07-28', () => {
  it('[LIFE-114] refuses initialize with -32022 naming the versions it speaks, so a legacy client can say why', async () => {
    const mcp = modernOnly();
    const [a, b] = createMemoryPair();
    await mcp.connect(a);
    const client = new Client({ info: CLIENT_INFO, era: 'legacy' });
    const error = await client.connect(b).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(McpError);
    expect((error as McpError).code).to.equal(ErrorCode.UnsupportedProtocolVersion);
    expect((error as McpError).message).to.contain('2026-07-28');
    expect((error as McpError).data).to.deep.equal({ supported: ['2026-07-28'], requested: '2025-11-25' });
  });

  it('serves a client with default options in the modern era on the same transport kind', async () => {
    const mcp = modernOnly();
    const [a, b] = createMemoryPair();
    await mcp.connect(a);
    const client = new Client({ info: CLIENT_INFO, era: 'auto' });
    await client.connect(b);
    expect(client.era).to.equal('modern');
    const result = await client.callTool('add', { a: 2, b: 3 });
    expect(result.content).to.deep.equal([{ type: 'text', text: '5' }]);
    const discovered = await client.discover();
    expect(discovered.supportedVersions).to.deep.equal(['2026-07-28']);
  });

  it('[LIFE-110] refuses an extension identifier without a prefix or against the _meta key rules at construction, saying why', () => {
    expect(() => createMcpServer({ info: SERVER_INFO, extensions: { tasks: {} } })).to.throw(/Extension identifier "tasks".*needs a prefix/);
    expect(() => createMcpServer({ info: SERVER_INFO, extensions: { 'com.-bad/ext': {} } })).to.throw(/Extension identifier "com.-bad\/ext".*prefix label "-bad"/);
    expect(() => createMcpServer({ info: SERVER_INFO, extensions: { 'com.example/search-v2': { depth: 2 } } })).to.not.throw();
  });

  it('names an unknown revision in supportedVersions at construction', () => {
    expect(() => createMcpServer({ info: SERVER_INFO, supportedVersions: ['2026-07-28', '2027-01-01'] })).to.throw(/Unsupported protocol revision "2027-01-01"/);
  });

  it('a server that lists session revisions beside 2026-07-28 negotiates only those in initialize', async () => {
    const mcp = createMcpServer({ info: SERVER_INFO, supportedVersions: ['2026-07-28', '2025-06-18'] });
    const [a, b] = createMemoryPair();
    await mcp.connect(a);
    const client = new Client({ info: CLIENT_INFO, era: 'legacy' });
    await client.connect(b);
    expect(client.protocolVersion).to.equal('2025-06-18');
  });

  describe('over Streamable HTTP', () => {
    async function serve() {
      const mcp = modernOnly();
      return listen(createStreamableHttpHandler(mcp.server), { logger: false });
    }

    it('[LIFE-114] [HTTP-184] answers initialize with 400 and -32022 under its id, naming the versions, and mints no session id', async () => {
      const http = await serve();
      try {
        const r = await post(http.url, initializeRequest('2025-11-25', 9));
        expect(r.status).to.equal(400);
        expect(r.headers).not.to.have.property('mcp-session-id');
        expect(r.json.id).to.equal(9);
        expect(r.json.error.code).to.equal(-32022);
        expect(r.json.error.message).to.contain('2026-07-28');
        expect(r.json.error.data).to.deep.equal({ supported: ['2026-07-28'], requested: '2025-11-25' });
        // A legacy request that carries a session id: the id is ignored, not echoed.
        const listed = await post(http.url, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'mcp-session-id': 'abc', 'mcp-protocol-version': '2025-11-25' });
        expect([listed.status, listed.json.error.code]).to.deep.equal([400, -32022]);
        expect(listed.headers).not.to.have.property('mcp-session-id');
      } finally {
        await http.close();
      }
    });

    it('[HTTP-134] rejects a request without MCP-Protocol-Version with 400: a modern one -32020, a legacy one -32022', async () => {
      const http = await serve();
      try {
        const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': CLIENT_INFO };
        const modernCall = await post(http.url, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta } }, { 'mcp-method': 'tools/list' });
        expect([modernCall.status, modernCall.json.id, modernCall.json.error.code]).to.deep.equal([400, 1, -32020]);
        expect(modernCall.json.error.message).to.contain('MCP-Protocol-Version');
        const legacyCall = await post(http.url, { jsonrpc: '2.0', id: 2, method: 'tools/list' });
        expect([legacyCall.status, legacyCall.json.id, legacyCall.json.error.code]).to.deep.equal([400, 2, -32022]);
      } finally {
        await http.close();
      }
    });

    it('[HTTP-183] [HTTP-185] answers GET (Last-Event-ID or not) and DELETE with 405, allowing POST', async () => {
      const http = await serve();
      try {
        for (const [method, headers] of [
          ['GET', { accept: 'text/event-stream' }],
          ['GET', { accept: 'text/event-stream', 'last-event-id': 'x.1.2', 'mcp-session-id': 'abc' }],
          ['DELETE', { 'mcp-session-id': 'abc' }],
        ] as const) {
          const r = await raw(http.url, { method, headers });
          expect([method, r.status, r.headers.allow]).to.deep.equal([method, 405, 'POST']);
        }
      } finally {
        await http.close();
      }
    });

    it('[HTTP-184] serves a modern request that carries a stray Mcp-Session-Id, and echoes none', async () => {
      const http = await serve();
      try {
        const client = new Client({ info: CLIENT_INFO, era: 'auto' });
        await client.connect(createStreamableHttpClientTransport(http.url));
        expect(client.era).to.equal('modern');
        expect((await client.callTool('add', { a: 1, b: 1 })).content).to.deep.equal([{ type: 'text', text: '2' }]);
        const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': CLIENT_INFO };
        const r = await post(
          http.url,
          { jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: meta } },
          { 'mcp-session-id': 'abc', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' },
        );
        expect(r.status).to.equal(200);
        expect(r.json.result.tools.map((t: { name: string }) => t.name)).to.deep.equal(['add']);
        expect(r.headers).not.to.have.property('mcp-session-id');
        await client.close();
      } finally {
        await http.close();
      }
    });

    it('[LIFE-114] the official SDK 1.x client, which cannot fall forward, fails connect() with a message naming 2026-07-28', async () => {
      const http = await serve();
      try {
        const sdk = new SdkClient({ name: 'legacy', version: '1' });
        const error = await sdk.connect(new StreamableHTTPClientTransport(new URL(http.url))).then(
          () => undefined,
          (e: unknown) => e as Error,
        );
        expect(error?.message).to.contain('2026-07-28');
        await sdk.close();
      } finally {
        await http.close();
      }
    });

    it('refuses legacySse on a modern-only server at construction, saying why', () => {
      expect(() => createStreamableHttpHandler(modernOnly().server, { legacySse: true })).to.throw(/speaks only 2026-07-28/);
    });
  });
});
