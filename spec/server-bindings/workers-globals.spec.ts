// mcp-actors/web where only Cloudflare Workers' globals exist, WITHOUT the `nodejs_compat` flag.
// The entry is bundled as a Worker build does it (one file for a platform without node built-ins,
// `process.env.NODE_ENV` defined at build time) with no `node:` module to be had: a bundle that
// imports any (even behind a dynamic `import()`) fails the build. It is evaluated in a fresh V8
// realm (node:vm) that has the Web globals Workers have and nothing of Node's: no `process`, no
// `require`, no `Buffer`, timers that return numbers. No workerd runs here: this checks what the
// code needs from its host, not Workers themselves.
import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { build } from 'esbuild';

const WEB_ENTRY = fileURLToPath(new URL('../../lib/entries/web.ts', import.meta.url));
const REPO = fileURLToPath(new URL('../../', import.meta.url));

/** What a Worker's global scope offers that the handler could use (Workers' runtime APIs). */
const WORKER_GLOBALS = [
  'Request', 'Response', 'Headers', 'URL', 'URLSearchParams', 'ReadableStream', 'WritableStream', 'TransformStream',
  'TextEncoder', 'TextDecoder', 'AbortController', 'AbortSignal', 'EventTarget', 'Event', 'DOMException', 'crypto',
  'queueMicrotask', 'structuredClone', 'console', 'atob', 'btoa', 'performance', 'fetch', 'Blob', 'FormData',
] as const;

/** `source` bundled for a platform with no built-ins, as one script that sets `globalThis.web`. */
async function workerBundle(source: string): Promise<string> {
  const result = await build({
    stdin: { contents: source, resolveDir: REPO, loader: 'ts' },
    bundle: true,
    write: false,
    platform: 'neutral',
    format: 'iife',
    globalName: 'web',
    mainFields: ['module', 'main'],
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
    ignoreAnnotations: true,
  });
  return `${result.outputFiles[0]!.text}\nglobalThis.web = web;`;
}

/** A realm with Workers' globals and nothing else; what it `console.warn`s goes to `warned`. */
function workerRealm(warned: string[] = []): vm.Context {
  const scope: Record<string, unknown> = {};
  for (const name of WORKER_GLOBALS) scope[name] = globalThis[name];
  scope.console = { ...console, warn: (...args: unknown[]) => void warned.push(args.join(' ')) };
  // A Worker's timers return numbers (no unref, no ref).
  scope.setTimeout = (f: () => void, ms?: number) => Number(setTimeout(f, ms));
  scope.clearTimeout = (id?: number) => clearTimeout(id);
  scope.setInterval = (f: () => void, ms?: number) => Number(setInterval(f, ms));
  scope.clearInterval = (id?: number) => clearInterval(id);
  return vm.createContext(scope);
}

interface ToolContext {
  elicit(params: unknown, options: { inputKey: string }): Promise<{ action: string; content?: Record<string, unknown> }>;
}

interface WebEntry {
  createMcpServer(options: unknown): { registerTool(name: string, config: unknown, handler: (args: Record<string, unknown>, ctx?: ToolContext) => unknown): unknown };
  createMcpFetchHandler(mcp: unknown, options: unknown): ((request: Request) => Promise<Response>) & { close(): Promise<void> };
  text(s: string): unknown;
}

const HEADERS = { host: 'mcp.example.com', 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
  'io.modelcontextprotocol/clientInfo': { name: 'worker-spec', version: '1' },
};

describe('mcp-actors/web with only the globals of Cloudflare Workers, no nodejs_compat (a node:vm realm, not workerd)', function () {
  this.timeout(60_000);
  let script: string;
  before(async () => {
    script = await workerBundle(`export * from ${JSON.stringify(WEB_ENTRY)};`);
  });

  it('the Worker build step refuses a bundle that imports a node: built-in (what would catch a regression)', async () => {
    const failing = workerBundle(`import { randomBytes } from 'node:crypto'; export const id = randomBytes(4);`);
    await failing.then(
      () => expect.fail('a bundle importing node:crypto built'),
      (e: Error) => expect(e.message).to.match(/node:crypto/),
    );
  });

  it('builds with no node: module and evaluates with no process, Buffer or require; a warning goes to console.warn', () => {
    const warned: string[] = [];
    const realm = workerRealm(warned);
    vm.runInContext(script, realm);
    const web = realm.web as WebEntry;
    expect(web.createMcpFetchHandler).to.be.a('function');
    expect(['process', 'Buffer', 'require', 'global'].filter((name) => name in realm)).to.deep.equal([]);
    // Node would emit a process warning; here there is no process, and registering must not throw.
    web.createMcpServer({ info: { name: 'worker', version: '1.0.0' } }).registerTool('a bad name!', {}, () => ({ content: [] }));
    expect(warned.join('\n')).to.match(/McpToolNameWarning.*a bad name!/);
  });

  it('serves a 2026-07-28 tools/call with an input round (requestState signed, verified, a tampered one refused), and a 2025-11-25 session', async () => {
    const realm = workerRealm();
    vm.runInContext(script, realm);
    const web = realm.web as WebEntry;
    const mcp = web.createMcpServer({ info: { name: 'worker', version: '1.0.0' } });
    mcp.registerTool('greet', { inputSchema: { type: 'object', properties: { name: { type: 'string' } } } }, (args) => ({
      content: [web.text(`Hello, ${String(args['name'])}!`)],
    }));
    mcp.registerTool('ask', {}, async (_args, ctx) => {
      const answer = await ctx!.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } }, { inputKey: 'who' });
      return { content: [web.text(`Hi ${String(answer.content?.['name'] ?? answer.action)}`)] };
    });
    const handler = web.createMcpFetchHandler(mcp, { allowedHosts: ['mcp.example.com'] });
    const post = (body: unknown, headers: Record<string, string> = {}) =>
      handler(new Request('https://mcp.example.com/mcp', { method: 'POST', headers: { ...HEADERS, ...headers }, body: JSON.stringify(body) }));
    const modernCall = (id: number, params: Record<string, unknown>) =>
      post(
        { jsonrpc: '2.0', id, method: 'tools/call', params: { ...params, _meta: MODERN_META } },
        { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': String(params['name']) },
      );
    try {
      const modern = await modernCall(1, { name: 'greet', arguments: { name: 'Ada' } });
      expect(modern.status).to.equal(200);
      expect((await modern.json()) as unknown).to.have.nested.property('result.content[0].text', 'Hello, Ada!');

      const round = await modernCall(2, { name: 'ask' });
      expect(round.status).to.equal(200);
      const r1 = ((await round.json()) as { result: { resultType: string; requestState: string; inputRequests: Record<string, { method: string }> } }).result;
      expect(r1.resultType).to.equal('input_required');
      expect(r1.inputRequests['who']?.method).to.equal('elicitation/create');
      expect(r1.requestState).to.match(/^v1\.[\w-]+\.[\w-]{43}$/);
      const inputResponses = { who: { action: 'accept', content: { name: 'Grace' } } };
      const tampered = await modernCall(3, { name: 'ask', inputResponses, requestState: `${r1.requestState.slice(0, -2)}AA` });
      expect((await tampered.json()) as unknown).to.have.nested.property('error.code', -32602);
      const resumed = await modernCall(4, { name: 'ask', inputResponses, requestState: r1.requestState });
      expect((await resumed.json()) as unknown).to.deep.nested.include({ 'result.resultType': 'complete', 'result.content[0].text': 'Hi Grace' });

      const init = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'w', version: '1' } } });
      expect(init.status).to.equal(200);
      const sid = init.headers.get('mcp-session-id');
      expect(sid).to.match(/^[\x21-\x7e]{16,}$/);
      await init.body?.cancel();
      const session = { 'mcp-session-id': sid!, 'mcp-protocol-version': '2025-11-25' };
      expect((await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session)).status).to.equal(202);
      const called = await post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'greet', arguments: { name: 'Grace' } } }, session);
      expect(called.status).to.equal(200);
      expect(await called.text()).to.contain('Hello, Grace!');
    } finally {
      await handler.close();
    }
  });
});
