import { expect } from 'chai';
import { approveReadOnlyFromTrustedServers, ToolCallDeniedError, type ToolCallApprovalRequest } from '../../lib/client-features/tool-approval.js';
import type { ToolCallRecord } from '../../lib/client-features/tool-audit.js';
import { createHost, type Host } from '../../lib/entries/host.js';
import { listen, type Listening } from '../../lib/http/listen-port.js';
import { createMcpServer } from '../../lib/mcp-server.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';

/** An HTTP MCP server with a read-only `look` tool; counts the calls it ran. */
async function webServer(name: string) {
  const mcp = createMcpServer({ info: { name, version: '1.0.0' } });
  const ran: string[] = [];
  mcp.registerTool('look', { annotations: { readOnlyHint: true } }, () => {
    ran.push('look');
    return 'seen';
  });
  const listening: Listening = await listen(createStreamableHttpHandler(mcp.server), { port: 0, logger: false });
  return { ran, listening };
}

describe('multi-server host: tool call approval and audit', function () {
  this.timeout(20_000);
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const x of open.splice(0).reverse()) await x.close();
  });

  it('[TOOL-001] [TOOL-017] [TOOL-007] [TOOL-020] asks with the configured server name, trusts annotations only of trusted servers, audits every call', async () => {
    const mine = await webServer('mine');
    const theirs = await webServer('theirs');
    open.push(mine.listening, theirs.listening);
    const asked: ToolCallApprovalRequest[] = [];
    const host: Host = createHost({
      servers: { mine: { url: mine.listening.url }, theirs: { url: theirs.listening.url } },
      trustedServers: ['mine'],
      approveToolCall: approveReadOnlyFromTrustedServers((request) => {
        asked.push(request);
        return false;
      }),
    });
    open.push(host);
    const audit: ToolCallRecord[] = [];
    host.toolCalls$.subscribe((r) => audit.push(r));
    await host.start();
    await host.whenReady();
    await host.listTools();

    await host.callTool('mine__look', { q: 'x' });
    const e = await host.callTool('theirs__look', { q: 'y', token: 't0k' }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(e).to.be.instanceOf(ToolCallDeniedError);
    expect(mine.ran).to.deep.equal(['look']);
    expect(theirs.ran, 'denied: never sent').to.deep.equal([]);
    expect(asked.map((r) => [r.serverName, r.tool, r.annotationsTrusted, r.arguments])).to.deep.equal([['theirs', 'look', false, { q: 'y', token: 't0k' }]]);
    expect(asked[0]!.server?.name).to.equal('theirs');
    expect(audit.map((r) => [r.serverName, r.tool, r.outcome, r.arguments])).to.deep.equal([
      ['mine', 'look', 'success', { q: 'x' }],
      ['theirs', 'look', 'denied', { q: 'y', token: '[REDACTED]' }],
    ]);
  });

  it('refuses trustedServers that name no configured server', () => {
    expect(() => createHost({ servers: { a: { url: 'http://127.0.0.1:1/mcp' } }, trustedServers: ['b'] })).to.throw(TypeError, /trustedServers names "b"/);
  });
});
