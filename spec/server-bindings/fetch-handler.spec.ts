// The Web-standard handler called as fetch runtimes call it: a `Request` in, a `Response` out, no
// network. What only this edge has: the Host policy without a socket, SSE as a ReadableStream whose
// cancellation is the client leaving, the request's signal, bodies that fail or were used, the
// Protected Resource Metadata as a fetch handler, and an entry that needs no node: built-in.
// (Everything else is the node handler's core: MCP_HTTP_EDGE=fetch runs the Node HTTP server's specs in spec/server-bindings through it.)
import { expect } from 'chai';
import { request as httpRequest } from 'node:http';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { createProtectedResourceMetadataFetchHandler, createProtectedResourceMetadataHandler } from '../../lib/auth/server/protected-resource-handler.js';
import { requireBearerAuth } from '../../lib/auth/server/bearer-auth.js';
import { listen } from '../../lib/http/listen-port.js';
import { serveFetch } from '../../lib/http/serve-fetch.js';
import { createMcpServer, type McpServer } from '../../lib/mcp-server.js';
import { text } from '../../lib/server-features/content.js';
import { createMcpFetchHandler, type McpFetchHandler } from '../../lib/server-bindings/fetch-handler.js';
import { SseParser, type SseEvent } from '../../streams/sse-parse.js';

const ORIGIN = 'http://127.0.0.1:8080';
const ENDPOINT = `${ORIGIN}/mcp`;
const POST_HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json', host: '127.0.0.1:8080' };
const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'spec', version: '1' },
};
const init = (id = 1) => ({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'spec', version: '1' } } });

function modernCall(id: number, name: string, args: Record<string, unknown>, progressToken?: string): Request {
  const meta = progressToken === undefined ? MODERN_META : { ...MODERN_META, progressToken };
  return new Request(ENDPOINT, {
    method: 'POST',
    headers: { ...POST_HEADERS, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, _meta: meta } }),
  });
}

const post = (body: unknown, headers: Record<string, string> = {}, init: RequestInit = {}) =>
  new Request(ENDPOINT, { method: 'POST', headers: { ...POST_HEADERS, ...headers }, body: JSON.stringify(body), ...init });

/** Reads a streamed body's SSE events: `next(test)` resolves with the first one that passes. */
function sseReader(response: Response) {
  const reader = response.body!.getReader();
  const events: SseEvent[] = [];
  const parser = new SseParser((item) => {
    if (item.type === 'event') events.push(item);
  });
  return {
    reader,
    events,
    async next(test: (e: SseEvent) => boolean): Promise<SseEvent> {
      for (;;) {
        const found = events.find(test);
        if (found) return found;
        const { value, done } = await reader.read();
        if (done) throw new Error(`the stream ended; events: ${JSON.stringify(events)}`);
        parser.push(value);
      }
    },
  };
}

/** Resolves once `test()` holds; fails after `ms`. */
async function until(test: () => boolean, what: string, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!test()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('the Web-standard fetch handler (createMcpFetchHandler)', () => {
  let mcp: McpServer;
  let handler: McpFetchHandler;
  const aborted: string[] = [];
  let release: (() => void) | undefined;

  beforeEach(() => {
    aborted.length = 0;
    release = undefined;
    mcp = createMcpServer({ info: { name: 'fetch-spec', version: '1.0.0' } });
    mcp.registerTool('echo', { inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }, (args) => ({ content: [text(String(args['text']))] }));
    mcp.registerTool('wait', { inputSchema: { type: 'object' } }, async (_args, ctx) => {
      ctx.progress(1, 2, 'waiting');
      await new Promise<void>((resolve) => {
        release = resolve;
        ctx.signal.addEventListener('abort', () => {
          aborted.push(String(ctx.signal.reason ?? 'aborted'));
          resolve();
        });
      });
      return { content: [text('released')] };
    });
    mcp.registerTool('quiet', { inputSchema: { type: 'object' } }, async (_args, ctx) => {
      await new Promise<void>((resolve) => {
        release = resolve;
        ctx.signal.addEventListener('abort', () => {
          aborted.push('quiet');
          resolve();
        });
      });
      return { content: [text('released')] };
    });
    handler = createMcpFetchHandler(mcp);
  });
  afterEach(async () => {
    release?.();
    await handler.close();
  });

  it('takes a Server or an McpServer, and carries the handler extras (path, stats, sessionCount, close)', async () => {
    const fromServer = createMcpFetchHandler(mcp.server, { path: '/rpc' });
    expect(fromServer.path).to.equal('/rpc');
    expect(handler.path).to.equal('/mcp');
    const res = await handler(post(init()));
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('application/json');
    expect(res.headers.get('mcp-session-id')).to.match(/^[A-Za-z0-9_-]{22}$/);
    expect(((await res.json()) as { result: { serverInfo: { name: string } } }).result.serverInfo.name).to.equal('fetch-spec');
    expect(handler.sessionCount).to.equal(1);
    expect(handler.stats).to.deep.equal({ sessions: 1, hibernatedSessions: 0, legacySessions: 0, openStreams: 0, resumptions: 0 });
    await fromServer.close();
  });

  it('[HTTP-002] without allowedHosts acts as on a loopback address: loopback Host names and origins only', async () => {
    for (const host of ['localhost:3000', '127.0.0.1', '[::1]:8080']) expect((await handler(post(init(), { host }))).status, host).to.equal(200);
    for (const host of ['mcp.example.com', 'evil.example:8080', '127.0.0.1.evil.example']) {
      const res = await handler(post(init(), { host }));
      expect(res.status, host).to.equal(403);
      expect(((await res.json()) as { error: { message: string } }).error.message).to.contain('DNS rebinding');
    }
    expect((await handler(post(init(), { origin: 'http://localhost:5173' }))).status).to.equal(200);
    expect((await handler(post(init(), { origin: 'https://mcp.example.com' }))).status).to.equal(403);
  });

  it('[HTTP-002] with allowedHosts acts as on a public address: those hosts, and origins of the Host itself or allowedOrigins', async () => {
    const pub = createMcpFetchHandler(mcp, { allowedHosts: ['mcp.example.com'] });
    try {
      expect((await pub(post(init(), { host: 'mcp.example.com' }))).status).to.equal(200);
      expect((await pub(post(init(), { host: 'localhost' }))).status).to.equal(403);
      expect((await pub(post(init(), { host: 'mcp.example.com', origin: 'http://mcp.example.com' }))).status).to.equal(200);
      expect((await pub(post(init(), { host: 'mcp.example.com', origin: 'http://localhost:5173' }))).status).to.equal(403);
    } finally {
      await pub.close();
    }
  });

  it('streams a session’s GET as a ReadableStream; cancelling it is the client leaving (the session stays)', async () => {
    const opened = await handler(post(init()));
    const sid = opened.headers.get('mcp-session-id')!;
    const common = { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' };
    expect((await handler(post({ jsonrpc: '2.0', method: 'notifications/initialized' }, common))).status).to.equal(202);
    const get = await handler(new Request(ENDPOINT, { headers: { ...common, host: '127.0.0.1', accept: 'text/event-stream' } }));
    expect(get.status).to.equal(200);
    expect(get.headers.get('content-type')).to.equal('text/event-stream');
    expect(handler.stats.openStreams).to.equal(1);
    // A change of the tool list goes on the standalone stream.
    mcp.registerTool('late', { inputSchema: { type: 'object' } }, () => ({ content: [text('late')] }));
    const stream = sseReader(get);
    const changed = await stream.next((e) => e.data.includes('list_changed'));
    expect(JSON.parse(changed.data)).to.deep.include({ method: 'notifications/tools/list_changed' });
    await stream.reader.cancel();
    await until(() => handler.stats.openStreams === 0, 'the stream to be dropped');
    expect(handler.sessionCount).to.equal(1);
    const call = await handler(post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'still here' } } }, common));
    expect(JSON.stringify(await call.json())).to.contain('still here');
  });

  it('[CANCEL-067] 2026-07-28: progress first makes the answer an SSE stream, and cancelling that stream cancels the request', async () => {
    const res = await handler(modernCall(7, 'wait', {}, 'p1'));
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('text/event-stream');
    const stream = sseReader(res);
    const first = await stream.next(() => true);
    expect(JSON.parse(first.data)).to.deep.include({ method: 'notifications/progress' });
    expect(aborted).to.deep.equal([]);
    await stream.reader.cancel();
    await until(() => aborted.length === 1, 'the handler to be aborted');
    expect(aborted[0]).to.contain('closed');
  });

  it('[CANCEL-067] 2026-07-28: a client that leaves before a JSON answer (the request’s signal) cancels the request', async () => {
    const controller = new AbortController();
    const request = modernCall(8, 'quiet', {});
    const pending = handler(new Request(request, { signal: controller.signal }));
    await until(() => release !== undefined, 'the handler to start');
    controller.abort();
    await until(() => aborted.includes('quiet'), 'the handler to be aborted');
    void pending;
  });

  it('2026-07-28: a JSON answer without notifications, served with no session kept', async () => {
    const res = await handler(modernCall(9, 'echo', { text: 'modern' }));
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('application/json');
    const body = (await res.json()) as { result: { content: unknown } };
    expect(body.result.content).to.deep.equal([{ type: 'text', text: 'modern' }]);
    expect(handler.sessionCount).to.equal(0);
  });

  it('a body that fails while arriving, or one already read, is a 400 with a JSON-RPC error', async () => {
    const failing = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode('{"jsonrpc":'));
        c.error(new Error('connection reset'));
      },
    });
    const broken = await handler(new Request(ENDPOINT, { method: 'POST', headers: POST_HEADERS, body: failing, duplex: 'half' } as RequestInit));
    expect(broken.status).to.equal(400);
    expect(((await broken.json()) as { error: { message: string } }).error.message).to.equal('Bad Request: the request body could not be read');
    const used = post(init());
    await used.text();
    const again = await handler(used);
    expect(again.status).to.equal(400);
  });

  it('serves the 2024-11-05 HTTP+SSE endpoints: the endpoint event, then answers on the stream', async () => {
    const legacy = createMcpFetchHandler(mcp, { legacySse: true });
    try {
      const stream = await legacy(new Request(`${ORIGIN}/sse`, { headers: { host: '127.0.0.1', accept: 'text/event-stream' } }));
      expect(stream.status).to.equal(200);
      const { reader, next } = sseReader(stream);
      const endpoint = await next((e) => e.event === 'endpoint');
      const accepted = await legacy(new Request(`${ORIGIN}${endpoint.data}`, { method: 'POST', headers: { host: '127.0.0.1', 'content-type': 'application/json' }, body: JSON.stringify(init(5)) }));
      expect(accepted.status).to.equal(202);
      const answer = await next((e) => e.data.includes('"id":5'));
      expect(JSON.parse(answer.data).result.serverInfo.name).to.equal('fetch-spec');
      expect(legacy.stats.legacySessions).to.equal(1);
      await reader.cancel();
      await until(() => legacy.stats.legacySessions === 0, 'the legacy session to end with its stream');
    } finally {
      await legacy.close();
    }
  });

  it('close() ends open streams and answers new requests 503', async () => {
    const opened = await handler(post(init()));
    const sid = opened.headers.get('mcp-session-id')!;
    const get = await handler(new Request(ENDPOINT, { headers: { host: '127.0.0.1', accept: 'text/event-stream', 'mcp-session-id': sid } }));
    const reader = get.body!.getReader();
    await handler.close();
    for (;;) if ((await reader.read()).done) break;
    const after = await handler(post(init()));
    expect(after.status).to.equal(503);
  });

  it('[AUTH-006] the Protected Resource Metadata as a fetch handler: the node handler’s document and answers, other requests to the MCP handler', async () => {
    const options = { resource: 'http://127.0.0.1:8080/mcp', authorizationServers: ['https://auth.example.com'], scopesSupported: ['mcp'] };
    const protectedMcp = createMcpFetchHandler(mcp, {
      authenticate: requireBearerAuth({ resource: options.resource, verifyAccessToken: (t) => (t === 'ok' ? { clientId: 'c', scopes: ['mcp'], expiresAt: 4_102_444_800, resource: options.resource } : undefined) }),
    });
    const prm = createProtectedResourceMetadataFetchHandler(options, protectedMcp);
    const node = await listen(createProtectedResourceMetadataHandler(options), { logger: false });
    try {
      expect(prm.path).to.equal('/mcp');
      for (const [method, path] of [
        ['GET', '/.well-known/oauth-protected-resource/mcp'],
        ['GET', '/.well-known/oauth-protected-resource'],
        ['OPTIONS', '/.well-known/oauth-protected-resource/mcp'],
        ['POST', '/.well-known/oauth-protected-resource/mcp'],
      ] as const) {
        const ours = await prm(new Request(`${ORIGIN}${path}`, { method }));
        const reference = await fetch(`${new URL(node.url).origin}${path}`, { method });
        expect(ours.status, `${method} ${path}`).to.equal(reference.status);
        for (const h of ['content-type', 'cache-control', 'access-control-allow-origin', 'allow']) expect(ours.headers.get(h), h).to.equal(reference.headers.get(h));
        expect(await ours.text()).to.equal(await reference.text());
      }
      const denied = await prm(post(init()));
      expect(denied.status).to.equal(401);
      expect(denied.headers.get('www-authenticate')).to.contain('resource_metadata="http://127.0.0.1:8080/.well-known/oauth-protected-resource/mcp"');
      expect((await prm(post(init(), { authorization: 'Bearer ok' }))).status).to.equal(200);
      const alone = createProtectedResourceMetadataFetchHandler(options);
      expect((await alone(new Request(`${ORIGIN}/elsewhere`))).status).to.equal(404);
    } finally {
      await prm.close();
      await node.close();
    }
  });

  it('serveFetch on Node: a request the Fetch API refuses (TRACE) or an absolute-form target is a 400, and it serves on', async () => {
    const served = await serveFetch(handler, { logger: false });
    try {
      const target = new URL(served.url);
      const raw = (method: string, path: string) =>
        new Promise<number>((resolve, reject) => {
          const req = httpRequest({ host: target.hostname, port: target.port, method, path, agent: false }, (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          });
          req.on('error', reject);
          req.end();
        });
      expect(await raw('TRACE', '/mcp')).to.equal(400);
      expect(await raw('GET', `http://${target.host}/mcp`)).to.equal(400);
      expect((await fetch(served.url, { method: 'POST', headers: POST_HEADERS, body: JSON.stringify(init()) })).status).to.equal(200);
    } finally {
      await served.close();
    }
  });

  it('mcp-actors/web imports no node: built-in, not even behind a dynamic import() (Workers without nodejs_compat)', async () => {
    // The static import graph of lib/entries/web.ts, dependencies included, bundled for a platform without
    // node built-ins; dynamic imports (serveFetch's node:http bridge, loaded only on Node) left out.
    const entry = fileURLToPath(new URL('../../lib/entries/web.ts', import.meta.url));
    const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      write: false,
      platform: 'neutral',
      format: 'esm',
      splitting: true,
      outdir: 'unused',
      mainFields: ['module', 'main'],
      metafile: true,
      logLevel: 'silent',
      ignoreAnnotations: true,
      external: [...builtins],
    });
    const inputs = result.metafile.inputs;
    const reached = new Set<string>();
    const imported = new Map<string, string>();
    const walk = (file: string) => {
      if (reached.has(file)) return;
      reached.add(file);
      for (const i of inputs[file]?.imports ?? []) {
        if (builtins.has(i.path)) imported.set(i.path, file);
        else if (!i.external) walk(i.path);
      }
    };
    walk(Object.keys(inputs).find((f) => f.endsWith('lib/entries/web.ts'))!);
    expect(reached.size).to.be.greaterThan(50);
    expect(Object.fromEntries(imported)).to.deep.equal({});
  });
});
