// perCallerView where notifications go (issue 29): a caller is told of a resource list change
// only when what it can see changed, and of a resource update only when it can see the
// resource; legacy sessions and 2026-07-28 listen streams, over real HTTP on 127.0.0.1, two
// callers told apart by their token's scopes. The debounce runs on the simulated clock.
import { expect } from 'chai';
import { Client } from '../../../lib/client.js';
import { listen, type Listening } from '../../../lib/http/listen-port.js';
import type { McpServer } from '../../../lib/mcp-server.js';
import type { InterceptedRequest } from '../../../lib/server-features/interceptors/server-chain.js';
import { perCallerView } from '../../../lib/server-features/interceptors/views.js';
import { createStreamableHttpHandler } from '../../../lib/server-bindings/streamable-http-server.js';
import { createStreamableHttpClientTransport } from '../../../streams/streamable-http-client.js';
import { makeServer, settle } from '../helpers.js';
import { connect, until } from './harness.js';

const V = '2026-07-28';
const scopesOf = (req: InterceptedRequest) => (req.caller.authInfo as { scopes?: string[] } | undefined)?.scopes ?? [];
/** Admin entries (`…/admin/…`, `admin_…`) for the admin scope only; `revoked` uris for nobody without it. */
function adminView(revoked: Set<string>) {
  return (name: string, req: InterceptedRequest) => scopesOf(req).includes('admin') || (!name.includes('/admin/') && !name.startsWith('admin_') && !revoked.has(name));
}

function serve(mcp: McpServer): Promise<Listening> {
  const handler = createStreamableHttpHandler(mcp.server, {
    authenticate: (req) => ({ ok: true, authInfo: { sub: String(req.headers['x-user']), scopes: req.headers['x-user'] === 'ada' ? ['admin'] : [] } }),
  });
  return listen(handler, { logger: false });
}

const LIST = 'notifications/resources/list_changed';
const UPDATED = 'notifications/resources/updated';

describe('perCallerView: notifications tell each caller only what it can see', () => {
  it('legacy sessions over HTTP: resources list_changed and resources/updated reach only the callers that see the change', async () => {
    const { mcp, clock } = makeServer({ listChangedDebounceMs: 10 });
    const revoked = new Set<string>();
    mcp.registerResource('readme', 'notes://shared/readme', {}, (uri) => ({ contents: [{ uri, text: 'hi' }] }));
    mcp.use(perCallerView({ resources: adminView(revoked) }));
    clock.advance(1000);
    const http = await serve(mcp);
    const heard: Record<string, { method: string; uri?: string }[]> = { ada: [], bo: [] };
    const clients: Client[] = [];
    try {
      for (const user of ['ada', 'bo']) {
        const client = new Client({ era: 'legacy', info: { name: user, version: '1' } });
        for (const m of [LIST, UPDATED]) client.onNotification(m, (p) => void heard[user]!.push({ method: m, ...(p?.uri !== undefined && { uri: String(p.uri) }) }));
        await client.connect(createStreamableHttpClientTransport(http.url, { headers: { 'x-user': user } }));
        clients.push(client);
      }
      const [ada, bo] = clients as [Client, Client];
      // Both subscribe to the shared resource while both can see it.
      const subs = [ada.subscribe('notes://shared/readme').subscribe(), bo.subscribe('notes://shared/readme').subscribe()];
      await until(() => [...mcp.server.sessions].filter((s) => mcp.resources.subscriptionsOf(s).size === 1).length === 2, 'both subscriptions');
      const change = async (f: () => void, expected: { ada: number; bo: number }) => {
        f();
        clock.advance(10);
        await settle();
        await until(() => heard.ada!.length >= expected.ada && heard.bo!.length >= expected.bo, 'notifications');
      };
      // An admin resource: only ada is told; then one everyone sees: both (bo's first is this one).
      await change(() => mcp.registerResource('keys', 'notes://admin/keys', {}, (uri) => ({ contents: [{ uri, text: 'k' }] })), { ada: 1, bo: 0 });
      await change(() => mcp.registerResource('faq', 'notes://shared/faq', {}, (uri) => ({ contents: [{ uri, text: 'q' }] })), { ada: 2, bo: 1 });
      expect(heard.ada).to.deep.equal([{ method: LIST }, { method: LIST }]);
      expect(heard.bo).to.deep.equal([{ method: LIST }]);
      // A hidden template too; a change the registry cannot see (notifyListChanged) goes to both.
      await change(() => mcp.registerResourceTemplate('logs', 'notes://admin/logs/{day}', {}, (uri) => ({ contents: [{ uri, text: 'l' }] })), { ada: 3, bo: 1 });
      await change(() => mcp.resources.notifyListChanged(), { ada: 4, bo: 2 });
      expect(heard.bo).to.deep.equal([{ method: LIST }, { method: LIST }]);
      // bo loses sight of the readme it subscribed to: its updates go to ada only.
      heard.ada!.length = 0;
      heard.bo!.length = 0;
      revoked.add('notes://shared/readme');
      expect(mcp.resources.notifyUpdated('notes://shared/readme')).to.equal(1);
      revoked.clear();
      expect(mcp.resources.notifyUpdated('notes://shared/readme')).to.equal(2);
      await until(() => heard.ada!.length === 2 && heard.bo!.length === 1, 'updates');
      expect(heard.bo).to.deep.equal([{ method: UPDATED, uri: 'notes://shared/readme' }]);
      for (const s of subs) s.unsubscribe();
    } finally {
      for (const c of clients) await c.close().catch(() => {});
      await mcp.close();
      await http.close();
    }
  });

  it('legacy sessions over stdio: the session is the identity; a resource only session-1 may see is announced and updated to it alone', async () => {
    const { mcp, clock } = makeServer({ listChangedDebounceMs: 10 });
    mcp.registerResource('readme', 'notes://shared/readme', {}, (uri) => ({ contents: [{ uri, text: 'hi' }] }));
    mcp.registerResource('keys', 'notes://admin/keys', {}, (uri) => ({ contents: [{ uri, text: 'k' }] }));
    mcp.use(perCallerView({ resources: (uri, req) => req.caller.sessionId === 'session-1' || !uri.includes('/admin/') }));
    clock.advance(1000);
    const heard: { method: string; uri?: string }[][] = [[], []];
    const setup = (i: number) => (client: Client) => {
      for (const m of [LIST, UPDATED]) client.onNotification(m, (p) => void heard[i]!.push({ method: m, ...(p?.uri !== undefined && { uri: String(p.uri) }) }));
    };
    const one = await connect(mcp, 'legacy', 'stdio', { setup: setup(0) });
    const two = await connect(mcp, 'legacy', 'stdio', { setup: setup(1) });
    try {
      const subs = [one.client.subscribe('notes://admin/keys').subscribe(), one.client.subscribe('notes://shared/readme').subscribe(), two.client.subscribe('notes://shared/readme').subscribe()];
      await until(() => [...mcp.server.sessions].reduce((n, s) => n + mcp.resources.subscriptionsOf(s).size, 0) === 3, 'the subscriptions');
      mcp.registerResource('more', 'notes://admin/more', {}, (uri) => ({ contents: [{ uri, text: 'm' }] }));
      clock.advance(10);
      mcp.registerResource('faq', 'notes://shared/faq', {}, (uri) => ({ contents: [{ uri, text: 'q' }] }));
      clock.advance(10);
      expect(mcp.resources.notifyUpdated('notes://admin/keys')).to.equal(1);
      expect(mcp.resources.notifyUpdated('notes://shared/readme')).to.equal(2);
      await until(() => heard[0]!.length === 4 && heard[1]!.length === 2, 'notifications');
      expect(heard[0]).to.deep.equal([{ method: LIST }, { method: LIST }, { method: UPDATED, uri: 'notes://admin/keys' }, { method: UPDATED, uri: 'notes://shared/readme' }]);
      expect(heard[1]).to.deep.equal([{ method: LIST }, { method: UPDATED, uri: 'notes://shared/readme' }]);
      for (const s of subs) s.unsubscribe();
    } finally {
      await one.close();
      await two.close();
    }
  });

  it('2026-07-28 listen streams over HTTP: a stream hears of a list change it can see and of updates of resources it can see, and of nothing else', async () => {
    const { mcp, clock } = makeServer({ listChangedDebounceMs: 10 });
    mcp.registerTool('status', {}, () => 'ok');
    mcp.registerResource('readme', 'notes://shared/readme', {}, (uri) => ({ contents: [{ uri, text: 'hi' }] }));
    mcp.registerResource('keys', 'notes://admin/keys', {}, (uri) => ({ contents: [{ uri, text: 'k' }] }));
    const view = adminView(new Set());
    mcp.use(perCallerView({ resources: view, tools: view }));
    clock.advance(1000);
    const http = await serve(mcp);
    const streams: { frames: { method?: string; params?: Record<string, unknown> }[]; stop(): void }[] = [];
    try {
      for (const user of ['ada', 'bo']) {
        const notifications = { resourcesListChanged: true, toolsListChanged: true, resourceSubscriptions: ['notes://shared/readme', 'notes://admin/keys'] };
        streams.push(await openListen(http.url, user, notifications));
      }
      const [ada, bo] = streams as [(typeof streams)[0], (typeof streams)[0]];
      const methods = (s: typeof ada) => s.frames.map((f) => (f.method === UPDATED ? `${f.method} ${String(f.params?.uri)}` : f.method));
      await until(() => ada.frames.length === 1 && bo.frames.length === 1, 'acknowledgments');
      const change = async (f: () => void, expected: { ada: number; bo: number }) => {
        f();
        clock.advance(10);
        await settle();
        await until(() => ada.frames.length >= expected.ada && bo.frames.length >= expected.bo, 'notifications');
      };
      await change(() => mcp.registerResource('more', 'notes://admin/more', {}, (uri) => ({ contents: [{ uri, text: 'm' }] })), { ada: 2, bo: 1 });
      await change(() => mcp.registerTool('admin_reset', {}, () => 'reset'), { ada: 3, bo: 1 });
      await change(() => mcp.registerResource('faq', 'notes://shared/faq', {}, (uri) => ({ contents: [{ uri, text: 'q' }] })), { ada: 4, bo: 2 });
      mcp.resources.notifyUpdated('notes://admin/keys');
      mcp.resources.notifyUpdated('notes://shared/readme');
      await until(() => ada.frames.length === 6 && bo.frames.length === 3, 'updates');
      const ack = 'notifications/subscriptions/acknowledged';
      expect(methods(ada)).to.deep.equal([ack, LIST, 'notifications/tools/list_changed', LIST, `${UPDATED} notes://admin/keys`, `${UPDATED} notes://shared/readme`]);
      expect(methods(bo)).to.deep.equal([ack, LIST, `${UPDATED} notes://shared/readme`]);
    } finally {
      for (const s of streams) s.stop();
      await mcp.close();
      await http.close();
    }
  });

  it('2026-07-28 listen over HTTP: the acknowledgment names only the resources the caller can see; a hidden one is left out like any opt-in not honoured', async () => {
    const { mcp, clock } = makeServer();
    mcp.registerResource('readme', 'notes://shared/readme', {}, (uri) => ({ contents: [{ uri, text: 'hi' }] }));
    mcp.registerResource('keys', 'notes://admin/keys', {}, (uri) => ({ contents: [{ uri, text: 'k' }] }));
    mcp.use(perCallerView({ resources: adminView(new Set()) }));
    clock.advance(1000);
    const http = await serve(mcp);
    const streams: Awaited<ReturnType<typeof openListen>>[] = [];
    try {
      // A uri no resource has yet: acknowledged when the caller would see it, like a known one.
      const asked = ['notes://shared/readme', 'notes://admin/keys', 'notes://shared/later', 'notes://admin/later'];
      for (const user of ['ada', 'bo']) streams.push(await openListen(http.url, user, { resourceSubscriptions: asked }));
      const [ada, bo] = streams as [(typeof streams)[0], (typeof streams)[0]];
      await until(() => ada.frames.length === 1 && bo.frames.length === 1, 'acknowledgments');
      const acked = (s: typeof ada) => (s.frames[0]!.params?.notifications as { resourceSubscriptions?: string[] }).resourceSubscriptions;
      expect(ada.frames[0]!.method).to.equal('notifications/subscriptions/acknowledged');
      expect(acked(ada)).to.deep.equal(asked);
      expect(acked(bo)).to.deep.equal(['notes://shared/readme', 'notes://shared/later']);
      expect(JSON.stringify(bo.frames[0])).to.not.include('admin');
    } finally {
      for (const s of streams) s.stop();
      await mcp.close();
      await http.close();
    }
  });
});

/** POST `subscriptions/listen` as `user` and collect the stream's frames (SSE) as they come. */
async function openListen(url: string, user: string, notifications: Record<string, unknown>) {
  const controller = new AbortController();
  const body = {
    jsonrpc: '2.0',
    id: `listen-${user}`,
    method: 'subscriptions/listen',
    params: { notifications, _meta: { 'io.modelcontextprotocol/protocolVersion': V, 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: user, version: '1' } } },
  };
  const res = await fetch(url, {
    method: 'POST',
    signal: controller.signal,
    headers: { 'x-user': user, 'mcp-protocol-version': V, 'mcp-method': 'subscriptions/listen', accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.headers.get('content-type')).to.match(/text\/event-stream/);
  const frames: { method?: string; params?: Record<string, unknown> }[] = [];
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      buffer += value;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = event.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).join('\n');
        if (data !== '') frames.push(JSON.parse(data) as (typeof frames)[0]);
      }
    }
  })();
  return { frames, stop: () => controller.abort() };
}
