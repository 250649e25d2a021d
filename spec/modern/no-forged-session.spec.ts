// Revision 2026-07-28 has no session, and the server forges none to serve one of its requests:
// the handler's `ctx.session` is the request's own caller (made from its `_meta` envelope), over
// HTTP and over a session's transport (stdio) alike; the same caller carries the request's scope
// and actor, and ends with the request. A legacy request's `ctx.session` is its ServerSession.
import { expect } from 'chai';
import { PassThrough } from 'node:stream';
import { listen, type Listening } from '../../lib/http/listen-port.js';
import { createMcpServer, type McpServer } from '../../lib/mcp-server.js';
import { Session, type ServerCaller } from '../../lib/session/session.js';
import { ServerSession } from '../../lib/server.js';
import { createStdioServerTransport } from '../../streams/stdio-server.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';
import { post, until } from '../fixtures/http-server/raw.js';

const V = '2026-07-28';
const meta = () => ({
  'io.modelcontextprotocol/protocolVersion': V,
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
  'io.modelcontextprotocol/clientInfo': { name: 'spec', version: '1' },
});

interface Seen {
  caller: ServerCaller;
  isSession: boolean;
  phase: string;
  version: string | undefined;
  client: string | undefined;
  sameRequest: boolean;
}

function server(): { mcp: McpServer; seen: Seen[] } {
  const mcp = createMcpServer({ info: { name: 'no-forge', version: '1' } });
  const seen: Seen[] = [];
  mcp.registerTool('who', { description: 'who calls' }, (_a, ctx) => {
    const caller = ctx.session;
    seen.push({
      caller,
      isSession: caller instanceof Session,
      phase: caller.currentPhase,
      version: caller.protocolVersion,
      client: caller.peerInfo?.name,
      sameRequest: caller.requestScope !== undefined && caller.requestScope.request === ctx.request,
    });
    // A notification through the caller goes out related to the request (on its response stream).
    caller.notify('notifications/message', { level: 'info', data: 'dropped: no log level asked' });
    return 'ok';
  });
  return { mcp, seen };
}

function expectRequestCaller(s: Seen): void {
  expect(s.isSession, 'ctx.session is a Session').to.equal(false);
  expect(s.phase).to.equal('operating');
  expect(s.version).to.equal(V);
  expect(s.client).to.equal('spec');
  expect(s.sameRequest, 'ctx.session.requestScope.request is ctx.request').to.equal(true);
  // The caller ends with its request.
  expect(s.caller.currentPhase).to.equal('closed');
}

describe('modern/no-forged-session: a 2026-07-28 request is served with no session', () => {
  let http: Listening | undefined;
  afterEach(async () => {
    await http?.close();
    http = undefined;
  });

  it('over HTTP: ctx.session is the request\'s caller, not a Session, and the server holds no session', async () => {
    const { mcp, seen } = server();
    http = await listen(createStreamableHttpHandler(mcp.server), { logger: false });
    const body = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'who', arguments: {}, _meta: meta() } };
    const r = await post(http.url, body, { 'mcp-protocol-version': V, 'mcp-method': 'tools/call', 'mcp-name': 'who' });
    expect(r.json.result.content[0].text).to.equal('ok');
    expect(seen).to.have.length(1);
    expectRequestCaller(seen[0]!);
    expect(mcp.server.sessions.size).to.equal(0);
    await mcp.close();
  });

  it('over stdio: a 2026-07-28 request on a session\'s pipe is not served by that session nor by a forged one; a legacy request is', async () => {
    const { mcp, seen } = server();
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const lines: Record<string, any>[] = [];
    let buffer = '';
    stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
        lines.push(JSON.parse(buffer.slice(0, nl)) as Record<string, any>);
        buffer = buffer.slice(nl + 1);
      }
    });
    const session = await mcp.connect(createStdioServerTransport({ stdin, stdout }));
    const send = (frame: unknown) => stdin.write(`${JSON.stringify(frame)}\n`);
    send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'who', arguments: {}, _meta: meta() } });
    await until(() => lines.some((l) => l.id === 1), 'the modern call answered');
    expect(lines.find((l) => l.id === 1)!.result.content[0].text).to.equal('ok');
    // Only what the request asked for went out: no log message without a log level in its _meta.
    expect(lines.filter((l) => l.method === 'notifications/message')).to.deep.equal([]);
    expectRequestCaller(seen[0]!);
    expect(seen[0]!.caller).to.not.equal(session);

    send({ jsonrpc: '2.0', id: 2, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'spec', version: '1' } } });
    await until(() => lines.some((l) => l.id === 2), 'initialize answered');
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'who', arguments: {} } });
    await until(() => lines.some((l) => l.id === 3), 'the legacy call answered');
    expect(seen[1]!.caller).to.equal(session);
    expect(seen[1]!.caller).to.be.instanceOf(ServerSession);
    expect(seen[1]!.sameRequest).to.equal(false);
    expect(seen[1]!.version).to.equal('2025-11-25');
    stdin.end();
    await mcp.close();
  });
});
