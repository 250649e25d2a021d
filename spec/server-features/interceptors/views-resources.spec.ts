// Access control on resources (RES-009, RES-011, SEC-010): perCallerView({ resources }) decides who
// may see a resource before anything is read. A caller not allowed never finds it in a list, is
// refused a read or a subscription as for a resource that does not exist, and the read callback
// does not run for it; an allowed caller of the same server reads it.
import { expect } from 'chai';
import { McpError } from '../../../lib/errors.js';
import { createMcpServer, type McpServer } from '../../../lib/mcp-server.js';
import type { InterceptedRequest } from '../../../lib/server-features/interceptors/server-chain.js';
import { perCallerView } from '../../../lib/server-features/interceptors/views.js';
import { createMcpFetchHandler } from '../../../lib/server-bindings/fetch-handler.js';
import { connect } from './harness.js';

/** A server with one public and one payroll resource (fixed and templated); counts the reads that ran. */
function payroll(): { mcp: McpServer; reads: string[] } {
  const reads: string[] = [];
  const mcp = createMcpServer({ info: { name: 'views', version: '1' } });
  mcp.registerResource('handbook', 'docs://handbook', {}, (uri) => {
    reads.push(uri);
    return { contents: [{ uri, text: 'be kind' }] };
  });
  mcp.registerResource('salaries', 'hr://salaries', {}, (uri) => {
    reads.push(uri);
    return { contents: [{ uri, text: 'ada: 1' }] };
  });
  mcp.registerResourceTemplate('payslip', 'hr://payslips/{who}', {}, (uri) => {
    reads.push(uri);
    return { contents: [{ uri, text: 'payslip' }] };
  });
  return { mcp, reads };
}

const hr = (uri: string): boolean => uri.startsWith('hr://');

describe('perCallerView on resources: permissions checked before the operation', () => {
  it('[RES-009] [RES-011] [SEC-010] legacy sessions: the other session lists no hr resource, is refused read and subscribe (-32002), and no read callback runs for it', async () => {
    const { mcp, reads } = payroll();
    mcp.use(perCallerView({ resources: (uri, req) => req.caller.sessionId === 'session-1' || !hr(uri) }));
    const allowed = await connect(mcp, 'legacy', 'stdio');
    const other = await connect(mcp, 'legacy', 'stdio');
    try {
      expect((await allowed.client.listResources()).resources.map((r) => r.uri).sort()).to.deep.equal(['docs://handbook', 'hr://salaries']);
      expect((await other.client.listResources()).resources.map((r) => r.uri)).to.deep.equal(['docs://handbook']);
      expect((await other.client.listResourceTemplates()).resourceTemplates).to.deep.equal([]);
      for (const uri of ['hr://salaries', 'hr://payslips/ada']) {
        const e = await other.client.readResource({ uri }).catch((x: unknown) => x);
        expect(e).to.be.instanceOf(McpError);
        expect((e as McpError).code).to.equal(-32002);
        expect((e as McpError).message).to.equal(`Resource not found: ${uri}`);
      }
      const sub = await other.client.request('resources/subscribe', { uri: 'hr://salaries' }).catch((x: unknown) => x);
      expect((sub as McpError).code).to.equal(-32002);
      expect(reads).to.deep.equal([]);
      expect((await allowed.client.readResource({ uri: 'hr://salaries' })).contents[0]).to.deep.include({ text: 'ada: 1' });
      expect((await other.client.readResource({ uri: 'docs://handbook' })).contents[0]).to.deep.include({ text: 'be kind' });
      expect(reads).to.deep.equal(['hr://salaries', 'docs://handbook']);
    } finally {
      await allowed.close();
      await other.close();
    }
  });

  it('[RES-009] [RES-011] 2026-07-28 over HTTP: the token without the hr scope is refused the read as an unknown resource; the read callback never runs for it', async () => {
    const { mcp, reads } = payroll();
    const scopes = (req: InterceptedRequest) => ((req.caller.authInfo as { scopes?: string[] } | undefined)?.scopes ?? []);
    mcp.use(perCallerView({ resources: (uri, req) => scopes(req).includes('hr') || !hr(uri) }));
    const handler = createMcpFetchHandler(mcp, {
      authenticate: (req) => ({ ok: true, authInfo: { sub: String(req.headers['x-user']), scopes: req.headers['x-user'] === 'ada' ? ['hr'] : [] } }),
    });
    const V = '2026-07-28';
    let id = 0;
    const send = async (user: string, method: string, params: Record<string, unknown> = {}) => {
      const meta = { 'io.modelcontextprotocol/protocolVersion': V, 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' } };
      const name: Record<string, string> = typeof params.uri === 'string' ? { 'mcp-name': params.uri } : {};
      const res = await handler(new Request('http://127.0.0.1:8080/mcp', {
        method: 'POST',
        headers: { 'x-user': user, 'mcp-protocol-version': V, 'mcp-method': method, ...name, accept: 'application/json, text/event-stream', 'content-type': 'application/json', host: '127.0.0.1:8080' },
        body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params: { ...params, _meta: meta } }),
      }));
      return (await res.json()) as { result?: Record<string, any>; error?: { code: number; message: string } };
    };
    try {
      expect(((await send('bo', 'resources/list')).result?.resources as { uri: string }[]).map((r) => r.uri)).to.deep.equal(['docs://handbook']);
      const refused = await send('bo', 'resources/read', { uri: 'hr://salaries' });
      const unknown = await send('bo', 'resources/read', { uri: 'hr://nothing-here' });
      expect(refused.error?.code).to.equal(-32602);
      expect(refused.error?.code).to.equal(unknown.error?.code);
      expect(reads).to.deep.equal([]);
      expect((await send('ada', 'resources/read', { uri: 'hr://salaries' })).result?.contents[0].text).to.equal('ada: 1');
      expect(reads).to.deep.equal(['hr://salaries']);
    } finally {
      await mcp.close();
    }
  });
});
