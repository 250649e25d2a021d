// The recording proxy (`mcp-actors record --target URL`) is an intermediary: the 2026-07-28
// request headers, Mcp-Param-* ones it knows nothing about included, reach the server unchanged.
// @see https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#server-behavior-for-custom-headers
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listen } from '../../lib/http/listen-port.js';
import { createMcpServer } from '../../lib/mcp-server.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';
import { post } from '../fixtures/http-server/raw.js';
import { background, CLI } from './helpers.js';
import { tsArgs } from '../helpers/ts-child.js';

const V = '2026-07-28';

describe('mcp-actors record as an HTTP intermediary', function () {
  this.timeout(30_000);

  it('[HTTP-163] [HTTP-179] forwards Mcp-Param-* headers it does not recognize, unchanged, with the standard ones; a header the body contradicts comes back 400', async () => {
    const mcp = createMcpServer({ info: { name: 'upstream', version: '1' } });
    mcp.registerTool('echo', { inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }, (a) => `echo:${String(a.text)}`);
    const server = await listen(createStreamableHttpHandler(mcp.server), { logger: false });
    const seen: IncomingHttpHeaders[] = [];
    server.server.prependListener('request', (req) => {
      if (req.method === 'POST') seen.push(req.headers);
    });
    const dir = mkdtempSync(join(tmpdir(), 'mcp-proxy-headers-'));
    const recorder = await background([...tsArgs(CLI), 'record', '--out', join(dir, 'h.jsonl'), '--target', server.url], /Point your client at (\S+)/);
    try {
      const url = recorder.match[1]!;
      const body = {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'echo', arguments: { text: 'via proxy' }, _meta: { 'io.modelcontextprotocol/protocolVersion': V, 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'spec', version: '1' } } },
      };
      const custom = { 'mcp-param-region': 'eu-west', 'mcp-param-tenant': '=?base64?YWNtZQ==?=' };
      const r = await post(url, body, { 'mcp-protocol-version': V, 'mcp-method': 'tools/call', 'mcp-name': 'echo', ...custom });
      expect(r.status).to.equal(200);
      expect((r.json as { result: { content: unknown } }).result.content).to.deep.equal([{ type: 'text', text: 'echo:via proxy' }]);
      expect(seen).to.have.length(1);
      expect(seen[0]).to.include({ 'mcp-protocol-version': V, 'mcp-method': 'tools/call', 'mcp-name': 'echo', ...custom });
      // A validation failure reaches the client through the proxy as an HTTP error status, not a 200.
      const mismatch = await post(url, body, { 'mcp-protocol-version': V, 'mcp-method': 'tools/call', 'mcp-name': 'not-echo' });
      expect(mismatch.status).to.equal(400);
      expect((mismatch.json as { error: { code: number } }).error.code).to.equal(-32020);
    } finally {
      await recorder.stop();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
