// perCallerView (issue 29, per-caller views): two callers with different scopes see different
// tool lists and get -32602 for a tool they cannot see, as if it did not exist; both eras.
import { expect } from 'chai';
import { McpError } from '../../../lib/errors.js';
import { createMcpServer, type McpServer } from '../../../lib/mcp-server.js';
import type { InterceptedRequest } from '../../../lib/server-features/interceptors/server-chain.js';
import { perCallerView } from '../../../lib/server-features/interceptors/views.js';
import { createMcpFetchHandler } from '../../../lib/server-bindings/fetch-handler.js';
import { connect, MATRIX } from './harness.js';
import { connect as connectMemory, makeServer, settle } from '../helpers.js';

const scopesOf = (req: InterceptedRequest) => ((req.caller.authInfo as { scopes?: string[] } | undefined)?.scopes ?? []);

function server(): McpServer {
  const mcp = createMcpServer({ info: { name: 'views', version: '1' } });
  mcp.registerTool('status', { description: 'for everyone' }, async () => 'all good');
  mcp.registerTool('shutdown', { description: 'admins only' }, async () => 'shutting down');
  mcp.registerPrompt('ops', { description: 'admins only' }, async () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'ops' } }] }));
  return mcp;
}

describe('perCallerView: what each caller can see', () => {
  it('2026-07-28 over HTTP: a caller without the admin scope sees no admin tool or prompt and gets -32602 as for an unknown one', async () => {
    const mcp = server();
    const admin = (name: string, req: InterceptedRequest) => scopesOf(req).includes('admin') || !['shutdown', 'ops'].includes(name);
    mcp.use(perCallerView({ tools: admin, prompts: admin }));
    const handler = createMcpFetchHandler(mcp, {
      authenticate: (req) => ({ ok: true, authInfo: { sub: String(req.headers['x-user']), scopes: req.headers['x-user'] === 'ada' ? ['admin'] : [] } }),
    });
    const V = '2026-07-28';
    let id = 0;
    const send = async (user: string, method: string, params: Record<string, unknown> = {}) => {
      const body = { jsonrpc: '2.0', id: ++id, method, params: { ...params, _meta: { 'io.modelcontextprotocol/protocolVersion': V, 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' } } } };
      const name: Record<string, string> = typeof params.name === 'string' ? { 'mcp-name': params.name } : {};
      const res = await handler(new Request('http://127.0.0.1:8080/mcp', {
        method: 'POST',
        headers: { 'x-user': user, 'mcp-protocol-version': V, 'mcp-method': method, ...name, accept: 'application/json, text/event-stream', 'content-type': 'application/json', host: '127.0.0.1:8080' },
        body: JSON.stringify(body),
      }));
      return (await res.json()) as { result?: Record<string, any>; error?: { code: number; message: string } };
    };
    const names = (r: { result?: Record<string, any> }, key: string) => (r.result?.[key] as { name: string }[]).map((t) => t.name).sort();
    expect(names(await send('ada', 'tools/list'), 'tools')).to.deep.equal(['shutdown', 'status']);
    expect(names(await send('bo', 'tools/list'), 'tools')).to.deep.equal(['status']);
    expect(names(await send('bo', 'prompts/list'), 'prompts')).to.deep.equal([]);
    expect((await send('ada', 'tools/call', { name: 'shutdown', arguments: {} })).result?.content[0].text).to.equal('shutting down');
    const refused = await send('bo', 'tools/call', { name: 'shutdown', arguments: {} });
    const unknown = await send('bo', 'tools/call', { name: 'nonexistent', arguments: {} });
    expect(refused.error).to.deep.include({ code: -32602, message: 'Unknown tool: shutdown' });
    expect(unknown.error?.code).to.equal(-32602);
    expect((await send('bo', 'prompts/get', { name: 'ops' })).error).to.deep.include({ code: -32602, message: 'Unknown prompt: ops' });
    await mcp.close();
  });

  it('legacy sessions over stdio: the view follows the session; the hidden tool is refused like an unknown one', async () => {
    const mcp = server();
    mcp.use(perCallerView({ tools: (name, req) => req.caller.sessionId === 'session-1' || name !== 'shutdown' }));
    const first = await connect(mcp, 'legacy', 'stdio');
    const second = await connect(mcp, 'legacy', 'stdio');
    try {
      expect((await first.client.listTools()).tools.map((t) => t.name).sort()).to.deep.equal(['shutdown', 'status']);
      expect((await second.client.listTools()).tools.map((t) => t.name)).to.deep.equal(['status']);
      const e = await second.client.callTool({ name: 'shutdown', arguments: {} }).catch((x: unknown) => x);
      expect((e as McpError).code).to.equal(-32602);
      expect((e as McpError).message).to.equal('Unknown tool: shutdown');
    } finally {
      await first.close();
      await second.close();
    }
  });
  for (const { era, wire } of MATRIX) {
    it(`${era} over ${wire}: templates leave resources/templates/list, and completing a hidden template or prompt is refused as unknown (-32602)`, async () => {
      const mcp = createMcpServer({ info: { name: 'views', version: '1' } });
      const files = (value: string) => ['a.txt', 'b.txt'].filter((f) => f.startsWith(value));
      mcp.registerResourceTemplate('public', 'notes://public/{file}', { complete: { file: files } }, (uri) => ({ contents: [{ uri, text: 'p' }] }));
      mcp.registerResourceTemplate('secret', 'notes://secret/{file}', { complete: { file: files } }, (uri) => ({ contents: [{ uri, text: 's' }] }));
      mcp.registerPrompt('ops', { description: 'admins only', arguments: [{ name: 'host', complete: () => ['db1'] }] }, async () => ({ messages: [] }));
      const hidden = (name: string) => !name.includes('secret') && name !== 'ops';
      mcp.use(perCallerView({ resources: hidden, prompts: hidden }));
      const c = await connect(mcp, era, wire);
      try {
        expect((await c.client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).to.deep.equal(['notes://public/{file}']);
        const seen = await c.client.complete({ type: 'ref/resource', uri: 'notes://public/{file}' }, { name: 'file', value: 'a' });
        expect(seen.completion.values).to.deep.equal(['a.txt']);
        const refused = await c.client.complete({ type: 'ref/resource', uri: 'notes://secret/{file}' }, { name: 'file', value: 'a' }).catch((x: unknown) => x);
        expect((refused as McpError).code).to.equal(-32602);
        expect((refused as McpError).message).to.equal('Unknown resource template: notes://secret/{file}');
        const prompt = await c.client.complete({ type: 'ref/prompt', name: 'ops' }, { name: 'host', value: '' }).catch((x: unknown) => x);
        expect((prompt as McpError).code).to.equal(-32602);
      } finally {
        await c.close();
      }
    });
  }

  it('a page keeps the server\'s page size before filtering: a filtered page may be short, its cursor still leads to the rest (documented, not filled)', async () => {
    const mcp = createMcpServer({ info: { name: 'views', version: '1' }, pageSize: 2 });
    for (const n of ['a', 'hidden1', 'hidden2', 'b', 'c']) mcp.registerTool(n, {}, async () => n);
    mcp.use(perCallerView({ tools: (name) => !name.startsWith('hidden') }));
    const c = await connect(mcp, 'legacy', 'stdio');
    try {
      const pages: string[][] = [];
      for await (const page of c.client.pagesOfTools()) pages.push(page.tools.map((t) => t.name));
      expect(pages).to.deep.equal([['a'], ['b'], ['c']]);
    } finally {
      await c.close();
    }
  });
  it('legacy sessions: list_changed goes only to the sessions whose visible tools or prompts changed (debounced, on the simulated clock)', async () => {
    const { mcp, clock } = makeServer({ listChangedDebounceMs: 10 });
    mcp.registerTool('status', {}, () => 'ok');
    mcp.registerPrompt('hello', {}, async () => ({ messages: [] }));
    const admin = (name: string, req: InterceptedRequest) => req.caller.sessionId === 'session-1' || !name.startsWith('admin_');
    mcp.use(perCallerView({ tools: admin, prompts: admin }));
    clock.advance(1000); // what the registrations above announced is out before anyone connects
    const one = await connectMemory(mcp);
    const two = await connectMemory(mcp);
    expect([one.session.callerLabel, two.session.callerLabel]).to.deep.equal(['session-1', 'session-2']);
    const step = async (f: () => void) => {
      one.notes.length = 0;
      two.notes.length = 0;
      f();
      clock.advance(10);
      await settle();
      return [one.notes.map((n) => n.method), two.notes.map((n) => n.method)];
    };
    const T = 'notifications/tools/list_changed';
    const P = 'notifications/prompts/list_changed';
    let handle!: ReturnType<McpServer['registerTool']>;
    // A tool only session-1 sees: only session-1 is told (added, updated, removed).
    expect(await step(() => (handle = mcp.registerTool('admin_reset', {}, () => 'reset')))).to.deep.equal([[T], []]);
    expect(await step(() => handle.update({ description: 'resets' }))).to.deep.equal([[T], []]);
    expect(await step(() => handle.remove())).to.deep.equal([[T], []]);
    // A tool everyone sees, and a visible one changed: both are told.
    expect(await step(() => mcp.registerTool('uptime', {}, () => '1d'))).to.deep.equal([[T], [T]]);
    // Prompts alike.
    expect(await step(() => mcp.registerPrompt('admin_ops', {}, async () => ({ messages: [] })))).to.deep.equal([[P], []]);
    expect(await step(() => mcp.registerPrompt('greet', {}, async () => ({ messages: [] })))).to.deep.equal([[P], [P]]);
    await one.client.close();
    await two.client.close();
    await mcp.close();
  });
});
