// MCP over TCP and Unix-domain sockets (streams/socket.ts): every message both ways, unchanged,
// framed as stdio is.
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect as netConnect, createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '../../lib/entries/client.js';
import type { FrameEvent } from '../../lib/session/session.js';
import { Server, type ServerSession } from '../../lib/server.js';
import { createSocketTransport } from '../../streams/socket.js';
import { CLIENT_INFO, SERVER_INFO } from '../helpers/raw-peer.js';

/** Our Server behind a net.Server (TCP on 127.0.0.1, or a Unix-domain socket at `path`). */
async function socketServer(path?: string): Promise<{ net: NetServer; sessions: ServerSession[]; address: { path: string } | { port: number; host: string } }> {
  const server = new Server({ info: SERVER_INFO, capabilities: { tools: {} } });
  server.onRequest('tools/call', async (params, ctx) => {
    const name = String(params?.name);
    if (name !== 'echo') throw new Error('no such tool');
    ctx.sendProgress(1, 2, 'half');
    ctx.sendProgress(2, 2, 'all');
    return { content: [{ type: 'text', text: String((params?.arguments as { text?: string })?.text) }], _meta: { 'com.example/served-by': 'socket' } };
  });
  const sessions: ServerSession[] = [];
  const net = createNetServer((conn) => {
    conns.add(conn);
    conn.once('close', () => conns.delete(conn));
    void server.connect(createSocketTransport(conn)).then((s) => sessions.push(s));
  });
  await new Promise<void>((resolve) => (path ? net.listen(path, resolve) : net.listen(0, '127.0.0.1', resolve)));
  const a = net.address();
  return { net, sessions, address: path ? { path } : { port: (a as { port: number }).port, host: '127.0.0.1' } };
}

function open(address: { path: string } | { port: number; host: string }): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = netConnect(address as never, () => resolve(s));
    s.once('error', reject);
  });
}

/** Server-side connections still open (destroyed after each test, so the net.Server can close). */
const conns = new Set<Socket>();

const framesOf = (events: FrameEvent[], direction: 'in' | 'out') => events.filter((e) => e.direction === direction).map((e) => e.frame);

describe('MCP over a socket (TCP, Unix domain)', function () {
  this.timeout(10_000);
  let dir: string;
  let net: NetServer | undefined;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'mcp-sock-'))));
  afterEach(async () => {
    for (const c of conns) c.destroy();
    await new Promise<void>((r) => (net ? net.close(() => r()) : r()));
    net = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  for (const kind of ['unix', 'tcp'] as const) {
    it(`[TRAN-017] [TRAN-018] [TRAN-003] ${kind}: delivers every request, notification and response both ways unchanged, _meta included`, async () => {
      const fx = await socketServer(kind === 'unix' ? join(dir, 'mcp.sock') : undefined);
      net = fx.net;
      const client = new Client({ era: 'legacy', info: CLIENT_INFO });
      client.setRoots([{ uri: 'file:///work', name: 'work' }]);
      const clientFrames: FrameEvent[] = [];
      client.frames$.subscribe((f) => clientFrames.push(f));
      await client.connect(createSocketTransport(await open(fx.address)));
      const session = fx.sessions[0]!;
      await session.whenOperating();
      const serverFrames: FrameEvent[] = [];
      session.frames$.subscribe((f) => serverFrames.push(f));

      const progress: unknown[] = [];
      const result = await client.request('tools/call', { name: 'echo', arguments: { text: 'héllo\nworld' }, _meta: { progressToken: 'p-1', 'com.example/trace': 'abc' } }, { onprogress: (p) => progress.push(p) });
      expect(result).to.deep.equal({ content: [{ type: 'text', text: 'héllo\nworld' }], _meta: { 'com.example/served-by': 'socket' } });
      expect(progress).to.have.length(2);
      const failed = await client.request('tools/call', { name: 'nope' }).then(() => undefined, (e: { code: number }) => e.code);
      expect(failed).to.equal(-32603);
      client.notify('notifications/roots/list_changed');
      expect(await session.request('roots/list')).to.deep.equal({ roots: [{ uri: 'file:///work', name: 'work' }] });
      await client.ping();

      // What one side sent is what the other received, frame for frame, in order.
      const clientSent = framesOf(clientFrames, 'out').slice(-5);
      expect(framesOf(serverFrames, 'in')).to.deep.equal(clientSent);
      expect(framesOf(clientFrames, 'in').slice(-framesOf(serverFrames, 'out').length)).to.deep.equal(framesOf(serverFrames, 'out'));
      const kinds = framesOf(serverFrames, 'in').map((f) => (f as { method?: string }).method ?? 'response');
      expect(kinds).to.deep.equal(['tools/call', 'tools/call', 'notifications/roots/list_changed', 'response', 'ping']);
      expect((framesOf(serverFrames, 'in')[0] as unknown as { params: { _meta: unknown } }).params._meta).to.deep.equal({ progressToken: 'p-1', 'com.example/trace': 'abc' });
      expect(framesOf(serverFrames, 'out').map((f) => (f as { method?: string }).method ?? 'response')).to.deep.equal([
        'notifications/progress',
        'notifications/progress',
        'response',
        'response',
        'roots/list',
        'response',
      ]);
      // The lifecycle holds: initialize first (above), and closing the client ends the server's session.
      expect(framesOf(clientFrames, 'out')[0]).to.have.property('method', 'initialize');
      await client.close();
      const deadline = Date.now() + 5_000;
      while (session.currentPhase !== 'closed' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      expect(session.currentPhase).to.equal('closed');
    });
  }

  it('[TRAN-020] [STDIO-017] frames as stdio does: one JSON-RPC message per line, read across chunk boundaries, written one per line', async () => {
    const fx = await socketServer(join(dir, 'raw.sock'));
    net = fx.net;
    const raw = await open(fx.address);
    let received = '';
    raw.setEncoding('utf8');
    raw.on('data', (d: string) => (received += d));
    const lines = async (n: number) => {
      const deadline = Date.now() + 5_000;
      while (received.split('\n').length - 1 < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      return received.split('\n').slice(0, n);
    };
    const init = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: CLIENT_INFO } });
    // A line split across two writes, then two messages in one write.
    raw.write(init.slice(0, 20));
    raw.write(init.slice(20) + '\n');
    const [first] = await lines(1);
    expect(JSON.parse(first!)).to.include({ jsonrpc: '2.0', id: 1 }).and.to.have.nested.property('result.serverInfo.name', SERVER_INFO.name);
    raw.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n' + JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'a\nb' }, _meta: { progressToken: 7 } } }) + '\n');
    const all = await lines(4);
    // Progress twice, then the answer; the newline inside the text is escaped, never raw.
    expect(all.slice(1).map((l) => JSON.parse(l).method ?? JSON.parse(l).id)).to.deep.equal(['notifications/progress', 'notifications/progress', 2]);
    expect(JSON.parse(all[3]!).result.content[0].text).to.equal('a\nb');
    // Ending our side ends the session (as closing a stdio server's stdin does), and the socket.
    const closed = new Promise((r) => raw.once('close', r));
    raw.end();
    await closed;
    const session = fx.sessions[0]!;
    const deadline = Date.now() + 5_000;
    while (session.currentPhase !== 'closed' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(session.currentPhase).to.equal('closed');
  });
});
