// Hibernation of idle legacy Streamable HTTP sessions (issue 26): a session quiet for
// hibernateAfterMs keeps only a compact record, and its next request revives it unchanged. On a
// simulated clock (no sleeps), over real HTTP on 127.0.0.1, with an McpServer as users build it.
import { expect } from 'chai';
import { z } from 'zod';
import { ManualClock } from '../../lib/clock.js';
import { listen, type Listening } from '../../lib/http/listen-port.js';
import { createMcpServer, type McpServer } from '../../lib/mcp-server.js';
import type { ServerSession } from '../../lib/server.js';
import { createStreamableHttpHandler, type StreamableHttpHandler, type StreamableHttpOptions } from '../../lib/server-bindings/streamable-http-server.js';
import { callTool, getStream, openSession, post, until } from '../fixtures/http-server/raw.js';

const VERSION = '2025-06-18';
const h = (sid: string) => ({ 'mcp-session-id': sid, 'mcp-protocol-version': VERSION });
const URI = 'memo://board';

describe('Streamable HTTP server: hibernation of idle sessions (issue 26)', () => {
  let clock: ManualClock;
  let mcp: McpServer;
  let handler: StreamableHttpHandler;
  let listening: Listening;
  let url: string;
  let announced: ServerSession[];

  async function start(options: StreamableHttpOptions = {}): Promise<void> {
    clock = new ManualClock(0);
    mcp = createMcpServer({ info: { name: 'hibernation', version: '1.0.0' }, clock, journal: true });
    mcp.registerTool('report', { description: 'Logs at info and error, answers with the revision', inputSchema: z.object({}) }, (_args, ctx) => {
      ctx.log.info('info line');
      ctx.log.error('error line');
      return `revision ${ctx.session.protocolVersion}`;
    });
    mcp.registerResource('board', URI, { mimeType: 'text/plain' }, () => ({ contents: [{ uri: URI, text: 'memo' }] }));
    announced = [];
    mcp.sessions$.subscribe((s) => announced.push(s));
    handler = createStreamableHttpHandler(mcp.server, { clock, keepAliveMs: false, sessionIdleTtlMs: 5000, hibernateAfterMs: 1000, ...options });
    listening = await listen(handler, { port: 0, logger: false });
    url = listening.url;
  }
  afterEach(async () => {
    await handler?.close();
    await listening?.close();
  });

  /** A session at VERSION with level `warning` and a subscription to URI. */
  async function configuredSession(): Promise<string> {
    const sid = await openSession(url, VERSION);
    expect((await post(url, { jsonrpc: '2.0', id: 1, method: 'logging/setLevel', params: { level: 'warning' } }, h(sid))).status).to.equal(200);
    expect((await post(url, { jsonrpc: '2.0', id: 2, method: 'resources/subscribe', params: { uri: URI } }, h(sid))).status).to.equal(200);
    return sid;
  }

  it('hibernates a session quiet for hibernateAfterMs; the next POST revives it with its revision, log level and subscriptions, and it never looked closed', async () => {
    await start();
    const sid = await configuredSession();
    const [session] = announced;
    clock.advance(999);
    expect(handler.stats.hibernatedSessions).to.equal(0);
    clock.advance(1);
    expect(handler.stats.hibernatedSessions, 'hibernated after 1000 ms quiet').to.equal(1);
    expect(handler.sessionCount, 'still an open session').to.equal(1);
    expect(session!.currentPhase).to.equal('operating');
    expect(mcp.sessions.has(session!)).to.equal(true);
    // A resource update with no stream open follows the rule of a live session without one: not delivered, nothing wakes.
    expect(mcp.resources.notifyUpdated(URI)).to.equal(1);
    expect(handler.stats.hibernatedSessions).to.equal(1);

    const res = await post(url, callTool(3, 'report'), h(sid));
    expect(res.status).to.equal(200);
    expect(handler.stats.hibernatedSessions, 'revived').to.equal(0);
    // The request's log lines went on its stream (auto mode): only what passes the `warning` level.
    const messages = res.body.split('\n').filter((l) => l.startsWith('data: ')).map((l) => JSON.parse(l.slice(6)) as { method?: string; params?: { level?: string }; result?: { content: { text: string }[] } });
    expect(messages.filter((m) => m.method === 'notifications/message').map((m) => m.params?.level)).to.deep.equal(['error']);
    expect(messages.at(-1)?.result?.content[0]?.text).to.equal(`revision ${VERSION}`);
    expect(announced, 'sessions$ announced it once').to.have.length(1);
    expect(mcp.resources.subscriptionsOf(session!)).to.deep.equal(new Set([URI]));

    // Its subscription still holds: an update reaches its GET stream.
    const get = await getStream(url, h(sid));
    mcp.resources.notifyUpdated(URI);
    await get.waitForMessages(1);
    expect(get.messages[0]).to.deep.include({ method: 'notifications/resources/updated', params: { uri: URI } });
    get.close();
    await get.done;

    const notes = session!.journal!.entries.filter((e) => e.kind === 'note').map((e) => (e as { note: string }).note);
    expect(notes).to.deep.equal(['hibernated', 'revived']);
  });

  it('a GET stream opened on a hibernated session carries what the server sends, and keeps the session awake while open', async () => {
    await start();
    const sid = await openSession(url, VERSION);
    clock.advance(1000);
    expect(handler.stats.hibernatedSessions).to.equal(1);
    const get = await getStream(url, h(sid));
    expect(handler.stats.hibernatedSessions).to.equal(0);
    mcp.registerTool('late', { description: 'registered later', inputSchema: z.object({}) }, () => 'late');
    clock.fireNamed('list-changed:tools'); // its debounce
    await get.waitForMessages(1);
    expect(get.messages[0]).to.deep.include({ method: 'notifications/tools/list_changed' });
    clock.advance(4000);
    expect(handler.stats.hibernatedSessions, 'an open stream keeps it awake').to.equal(0);
    expect(handler.sessionCount).to.equal(1);
    get.close();
    await get.done;
    await until(() => handler.stats.openStreams === 0, 'the stream to close');
    clock.advance(1000);
    expect(handler.stats.hibernatedSessions).to.equal(1);
  });

  it('a hibernated session expires sessionIdleTtlMs after its last activity: closed, then 404; an unknown id is 404 too', async () => {
    await start();
    const sid = await openSession(url, VERSION);
    const [session] = announced;
    clock.advance(1000);
    expect(handler.stats.hibernatedSessions).to.equal(1);
    clock.advance(3999);
    expect(handler.sessionCount).to.equal(1);
    clock.advance(1);
    expect(handler.sessionCount, 'expired at 5000 ms idle').to.equal(0);
    await until(() => session!.currentPhase === 'closed', 'the ServerSession to close');
    expect(mcp.sessions.size).to.equal(0);
    expect((await post(url, callTool(1, 'report'), h(sid))).status).to.equal(404);
    expect((await post(url, callTool(1, 'report'), h('no-such-session'))).status).to.equal(404);
  });

  it('closing a hibernated ServerSession ends it as a live one ends: its id is then 404', async () => {
    await start();
    const sid = await openSession(url, VERSION);
    const [session] = announced;
    clock.advance(1000);
    expect(handler.stats.hibernatedSessions).to.equal(1);
    await session!.close();
    expect(session!.currentPhase).to.equal('closed');
    expect(handler.sessionCount).to.equal(0);
    expect((await post(url, callTool(1, 'report'), h(sid))).status).to.equal(404);
  });

  it("another principal's request for a hibernated session is 404, as for an unknown one, and does not wake it; its owner's revives it with the new credentials", async () => {
    const users: Record<string, { sub: string; scopes: string[] }> = { alice: { sub: 'alice', scopes: ['a'] }, 'alice-2': { sub: 'alice', scopes: ['b'] }, bob: { sub: 'bob', scopes: [] } };
    await start({
      authenticate: (req) => {
        const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
        return users[token] === undefined ? { ok: false, status: 401 } : { ok: true, authInfo: { token, ...users[token] } };
      },
    });
    mcp.registerTool('whoami', { description: 'The caller token', inputSchema: z.object({}) }, (_args, ctx) => String((ctx.authInfo as { token: string }).token));
    const sid = await openSession(url, VERSION, { authorization: 'Bearer alice' });
    clock.advance(1000);
    expect(handler.stats.hibernatedSessions).to.equal(1);
    expect((await post(url, callTool(1, 'whoami'), { ...h(sid), authorization: 'Bearer bob' })).status).to.equal(404);
    expect(handler.stats.hibernatedSessions, 'still asleep').to.equal(1);
    const res = await post(url, callTool(2, 'whoami'), { ...h(sid), authorization: 'Bearer alice-2' });
    expect(res.status).to.equal(200);
    expect(res.body).to.contain('alice-2');
  });

  it('the event ids of a session keep their meaning across hibernation (same tag and stream numbers)', async () => {
    await start({ responseMode: 'sse' });
    const sid = await openSession(url, VERSION);
    const res = await post(url, callTool(2, 'report'), h(sid));
    const ids = [...res.body.matchAll(/^id: (.+)$/gm)].map((m) => m[1]!);
    expect(ids.length, 'two log lines and the answer').to.equal(3);
    const [tag] = ids[0]!.split('.');
    clock.advance(1000);
    expect(handler.stats.hibernatedSessions).to.equal(1);
    // Stream 1 was this session's and has ended: nothing more will come (204), as for a live session.
    const ended = await getStream(url, { ...h(sid), 'last-event-id': ids[0]! });
    await ended.done;
    expect(ended.status).to.equal(204);
    // A stream it never had, or another session's tag, is still refused.
    expect((await getStream(url, { ...h(sid), 'last-event-id': `${tag}.2.1` })).status).to.equal(400);
    expect((await getStream(url, { ...h(sid), 'last-event-id': `x${tag}.1.1` })).status).to.equal(400);
  });

  it('hibernateAfterMs: false keeps every session as it is', async () => {
    await start({ hibernateAfterMs: false });
    await openSession(url, VERSION);
    clock.advance(4000);
    expect(handler.stats.hibernatedSessions).to.equal(0);
    expect(handler.sessionCount).to.equal(1);
  });
});
