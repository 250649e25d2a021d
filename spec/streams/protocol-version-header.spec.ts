import { expect } from 'chai';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Client } from '../../lib/entries/client.js';
import { listen, type Listening } from '../../lib/http/listen-port.js';
import { createMcpServer } from '../../lib/mcp-server.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';
import { CLIENT_INFO, SERVER_INFO } from '../helpers/raw-peer.js';

describe('HTTP client: MCP-Protocol-Version header', function () {
  this.timeout(20_000);
  let listening: Listening | undefined;
  afterEach(async () => {
    await listening?.close();
    listening = undefined;
  });

  for (const version of ['2025-11-25', '2025-06-18']) {
    it(`[LIFE-015] sends MCP-Protocol-Version: ${version} on every request after initialization (POST, GET, DELETE)`, async () => {
      const mcp = createMcpServer({ info: SERVER_INFO });
      mcp.registerTool('echo', {}, () => 'ok');
      const handler = createStreamableHttpHandler(mcp.server);
      const seen: { method: string; body: string; header: string | undefined }[] = [];
      listening = await listen(
        (req: IncomingMessage, res: ServerResponse) => {
          const entry = { method: req.method ?? '', body: '', header: req.headers['mcp-protocol-version'] as string | undefined };
          seen.push(entry);
          // Peek at the JSON-RPC method without consuming the stream the handler reads.
          req.on('data', (chunk: Buffer) => (entry.body += chunk.toString()));
          return handler(req, res);
        },
        { port: 0, logger: false },
      );
      const client = new Client({ era: 'legacy', info: CLIENT_INFO, supportedVersions: [version] });
      await client.connect(createStreamableHttpClientTransport(new URL('/mcp', listening.url)));
      expect(client.protocolVersion).to.equal(version);
      await client.listTools();
      await client.callTool('echo', {});
      await client.ping();
      await client.close();

      const initialize = seen.findIndex((s) => s.body.includes('"initialize"'));
      expect(initialize).to.equal(0);
      const after = seen.slice(initialize + 1);
      expect(after.map((s) => s.method)).to.include.members(['POST', 'GET', 'DELETE']);
      expect(after.length).to.be.greaterThan(3);
      for (const s of after) expect(s.header, `${s.method} ${s.body.slice(0, 60)}`).to.equal(version);
    });
  }
});
