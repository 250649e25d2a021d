// Per-server and per-caller views at the gateway: an upstream of ours (2026-07-28 over HTTP) with
// tools, prompts, resources and a template, some hidden or renamed by the server's view (as the
// option and as keys of its mcpServers entry), and a per-caller predicate over the caller's
// principal. A hidden name is unknown (-32602); a caller hears list_changed only for what it sees.
import { expect } from 'chai';
import { filter, firstValueFrom } from 'rxjs';
import { z } from 'zod';
import { Client } from '../../lib/client.js';
import { McpError } from '../../lib/errors.js';
import { createGateway, type Gateway, type GatewayOptions } from '../../lib/gateway/gateway.js';
import { compileView } from '../../lib/gateway/server-views.js';
import { listen, type Listening } from '../../lib/http/listen-port.js';
import { createMcpServer, type McpServer } from '../../lib/mcp-server.js';
import type { Tool } from '../../lib/protocol/schema/index.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';
import type { InterceptedRequest } from '../../lib/server-features/interceptors/server-chain.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';

const textOf = (r: { content?: unknown }) => ((r.content ?? []) as { text?: string }[]).map((b) => b.text ?? '').join('\n');
const codeOf = (p: Promise<unknown>) => p.then(() => 0, (e: unknown) => (e instanceof McpError ? e.code : -1));
const names = (list: { name: string }[]) => list.map((t) => t.name).sort();

function upstreamServer(): McpServer {
  const mcp = createMcpServer({ info: { name: 'up', version: '1.0.0' }, supportedVersions: ['2026-07-28'] });
  mcp.registerTool('add', { inputSchema: { a: z.number(), b: z.number() } }, ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }));
  mcp.registerTool('echo', { inputSchema: { text: z.string() } }, ({ text }) => ({ content: [{ type: 'text', text }] }));
  mcp.registerTool('secret_key', {}, () => ({ content: [{ type: 'text', text: 'hunter2' }] }));
  mcp.registerTool('admin_reset', {}, () => ({ content: [{ type: 'text', text: 'reset' }] }));
  mcp.registerPrompt('greet', {}, () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'hello' } }] }));
  mcp.registerPrompt('internal', {}, () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'internal' } }] }));
  mcp.registerResource('open', 'mem://open', {}, () => ({ contents: [{ uri: 'mem://open', text: 'open' }] }));
  mcp.registerResource('hidden', 'mem://hidden', {}, () => ({ contents: [{ uri: 'mem://hidden', text: 'hidden' }] }));
  mcp.registerResourceTemplate('note', 'mem://notes/{id}', {}, (uri) => ({ contents: [{ uri, text: 'note' }] }));
  mcp.registerResourceTemplate('private', 'mem://private/{id}', {}, (uri) => ({ contents: [{ uri, text: 'private' }] }));
  return mcp;
}

describe('gateway: per-server and per-caller views', function () {
  this.timeout(60_000);
  let upstream: McpServer;
  let upstreamWeb: Listening;

  beforeEach(async () => {
    upstream = upstreamServer();
    upstreamWeb = await listen(createStreamableHttpHandler(upstream.server), { port: 0, logger: false });
  });
  afterEach(async () => {
    await upstreamWeb?.close();
    await upstream?.close();
  });

  /** A gateway over the upstream, served over HTTP; the caller is who the `x-user` header names. */
  async function serve(options: Omit<GatewayOptions, 'servers'> & { entry?: Record<string, unknown> }): Promise<{ gateway: Gateway; web: Listening; client: (user: string, era: 'legacy' | 'modern') => Promise<Client> }> {
    const { entry = {}, ...rest } = options;
    const gateway = createGateway({ servers: { up: { url: upstreamWeb.url, ...entry } }, ...rest });
    await gateway.start();
    const web = await listen(createStreamableHttpHandler(gateway.server.server, { authenticate: (req) => ({ ok: true, authInfo: { sub: String(req.headers['x-user']), scopes: req.headers['x-user'] === 'ada' ? ['admin'] : [] } }) }), { port: 0, logger: false });
    const client = async (user: string, era: 'legacy' | 'modern') => {
      const c = new Client({ info: { name: user, version: '1.0.0' }, era });
      await c.connect(createStreamableHttpClientTransport(web.url, { headers: { 'x-user': user } }));
      return c;
    };
    return { gateway, web, client };
  }

  for (const era of ['legacy', 'modern'] as const) {
    it(`per server (${era} caller): excluded names are not listed and are unknown; a renamed tool calls the upstream's own`, async () => {
      const { gateway, web, client } = await serve({
        views: {
          up: {
            tools: { exclude: ['secret_*'], rename: { add: 'sum' } },
            prompts: { include: ['greet'] },
            resources: { exclude: ['mem://hidden'] },
            templates: { include: ['mem://notes/*'] },
          },
        },
      });
      const c = await client('bo', era);
      try {
        expect(names(await c.listTools())).to.deep.equal(['up__admin_reset', 'up__echo', 'up__sum']);
        expect(textOf(await c.callTool('up__sum', { a: 2, b: 3 }))).to.equal('5');
        expect(await codeOf(c.callTool('up__secret_key', {}))).to.equal(-32602);
        expect(await codeOf(c.callTool('up__add', { a: 1, b: 1 }))).to.equal(-32602);
        expect(names(await c.listPrompts())).to.deep.equal(['up__greet']);
        expect(await codeOf(c.getPrompt('up__internal'))).to.equal(-32602);
        expect((await c.listResources()).map((r) => r.uri)).to.deep.equal(['mem://open']);
        expect(await codeOf(c.readResource('mem://hidden'))).to.not.equal(0);
        expect((await c.listResourceTemplates()).map((t) => t.uriTemplate)).to.deep.equal(['mem://notes/{id}']);
        expect(await codeOf(c.readResource('mem://private/1'))).to.not.equal(0);
      } finally {
        await c.close();
        await web.close();
        await gateway.close();
      }
    });
  }

  it('per server, from the mcpServers entry: the same keys; a function view too', async () => {
    const { gateway, web, client } = await serve({ entry: { tools: { include: ['echo', 'add'] } }, views: {} });
    const c = await client('bo', 'legacy');
    try {
      expect(names(await c.listTools())).to.deep.equal(['up__add', 'up__echo']);
    } finally {
      await c.close();
      await web.close();
      await gateway.close();
    }
    const fn = await serve({ views: { up: { tools: (name) => (name === 'echo' ? 'say' : name.startsWith('admin')) } } });
    const d = await fn.client('bo', 'modern');
    try {
      expect(names(await d.listTools())).to.deep.equal(['up__admin_reset', 'up__say']);
      expect(textOf(await d.callTool('up__say', { text: 'via function' }))).to.equal('via function');
    } finally {
      await d.close();
      await fn.web.close();
      await fn.gateway.close();
    }
  });

  it('bad views are refused with a clear error', () => {
    expect(() => createGateway({ servers: { up: { url: 'http://127.0.0.1:1/mcp' } }, views: { nope: {} } })).to.throw(/views: no server is named "nope"/);
    expect(() => compileView('up', { tools: { exclude: 'secret' } })).to.throw(/up\.tools\.exclude must be an array/);
    expect(() => compileView('up', { resources: { rename: {} } })).to.throw(/URIs are not renamed/);
    expect(() => compileView('up', { tools: { rename: { a: 'x', b: 'x' } } })).to.throw(/two names the name "x"/);
    expect(() => compileView('up', { tool: {} })).to.throw(/unknown key "tool"/);
  });

  it('per caller: each sees what the predicate lets it; a hidden tool is unknown; list_changed only for what it sees', async () => {
    const scopes = (req: InterceptedRequest) => (req.caller.authInfo as { scopes?: string[] } | undefined)?.scopes ?? [];
    const { gateway, web, client } = await serve({ callerView: { tools: (name, req) => !name.startsWith('up__admin') || scopes(req).includes('admin') } });
    const ada = await client('ada', 'legacy');
    const bo = await client('bo', 'legacy');
    const modernBo = await client('bo', 'modern');
    try {
      expect(names(await ada.listTools())).to.include('up__admin_reset');
      expect(names(await bo.listTools())).to.not.include('up__admin_reset');
      expect(names(await modernBo.listTools())).to.not.include('up__admin_reset');
      expect(textOf(await ada.callTool('up__admin_reset', {}))).to.equal('reset');
      expect(await codeOf(bo.callTool('up__admin_reset', {}))).to.equal(-32602);
      expect(await codeOf(modernBo.callTool('up__admin_reset', {}))).to.equal(-32602);

      // A new admin tool upstream: ada is told, bo is not; then a tool bo sees: bo is told.
      const seen: string[][] = [];
      bo.tools$.subscribe((ts: Tool[]) => seen.push(names(ts)));
      const adaSees = firstValueFrom(ada.tools$.pipe(filter((ts: Tool[]) => ts.some((t) => t.name === 'up__admin_wipe'))));
      upstream.registerTool('admin_wipe', {}, () => ({ content: [{ type: 'text', text: 'wiped' }] }));
      await adaSees;
      const boSees = firstValueFrom(bo.tools$.pipe(filter((ts: Tool[]) => ts.some((t) => t.name === 'up__ping'))));
      upstream.registerTool('ping', {}, () => ({ content: [{ type: 'text', text: 'pong' }] }));
      await boSees;
      expect(seen.flat()).to.not.include('up__admin_wipe');
    } finally {
      await Promise.all([ada.close(), bo.close(), modernBo.close()]);
      await web.close();
      await gateway.close();
    }
  });
});
