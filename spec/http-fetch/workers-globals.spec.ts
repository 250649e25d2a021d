// mcp-actors/web where only Cloudflare Workers' globals exist. The entry is bundled as a Worker
// build does it (one file for a platform without node built-ins, `process.env.NODE_ENV` defined at
// build time, `node:crypto` from the `nodejs_compat` flag) and evaluated in a fresh V8 realm
// (node:vm) that has the Web globals Workers have and nothing of Node's: no `process`, no
// `require`, timers that return numbers. No workerd runs here: this checks what the code needs
// from its host, not Workers themselves.
import { expect } from 'chai';
import * as nodeCrypto from 'node:crypto';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { build } from 'esbuild';

const WEB_ENTRY = fileURLToPath(new URL('../../lib/web.ts', import.meta.url));
const REPO = fileURLToPath(new URL('../../', import.meta.url));

/** What a Worker's global scope offers that the handler could use (Workers' runtime APIs). */
const WORKER_GLOBALS = [
  'Request', 'Response', 'Headers', 'URL', 'URLSearchParams', 'ReadableStream', 'WritableStream', 'TransformStream',
  'TextEncoder', 'TextDecoder', 'AbortController', 'AbortSignal', 'EventTarget', 'Event', 'DOMException', 'crypto',
  'queueMicrotask', 'structuredClone', 'console', 'atob', 'btoa', 'performance', 'fetch', 'Blob', 'FormData',
] as const;

/** The entry as one script that sets `globalThis.web`; `node:crypto` comes from `globalThis.__nodeCompatCrypto`. */
async function workerBundle(): Promise<string> {
  const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
  const result = await build({
    stdin: { contents: `export * from ${JSON.stringify(WEB_ENTRY)};`, resolveDir: REPO, loader: 'ts' },
    bundle: true,
    write: false,
    platform: 'neutral',
    format: 'iife',
    globalName: 'web',
    mainFields: ['module', 'main'],
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'error',
    ignoreAnnotations: true,
    plugins: [
      {
        name: 'nodejs-compat',
        setup(b) {
          b.onResolve({ filter: /^(node:)?crypto$/ }, () => ({ path: 'crypto', namespace: 'nodejs-compat' }));
          b.onLoad({ filter: /.*/, namespace: 'nodejs-compat' }, () => ({ contents: 'module.exports = globalThis.__nodeCompatCrypto;', loader: 'js' }));
          // Any other built-in stays a require() the realm cannot satisfy: reached at the top level, evaluation fails.
          b.onResolve({ filter: /.*/ }, (a) => (builtins.has(a.path) ? { path: a.path, external: true } : undefined));
        },
      },
    ],
  });
  return `${result.outputFiles[0]!.text}\nglobalThis.web = web;`;
}

/** A realm with Workers' globals; `Buffer` only when `nodejsCompat` (the flag's global). */
function workerRealm(nodejsCompat: boolean): vm.Context {
  const scope: Record<string, unknown> = { __nodeCompatCrypto: nodeCrypto };
  for (const name of WORKER_GLOBALS) scope[name] = globalThis[name];
  // A Worker's timers return numbers (no unref, no ref).
  scope.setTimeout = (f: () => void, ms?: number) => Number(setTimeout(f, ms));
  scope.clearTimeout = (id?: number) => clearTimeout(id);
  scope.setInterval = (f: () => void, ms?: number) => Number(setInterval(f, ms));
  scope.clearInterval = (id?: number) => clearInterval(id);
  if (nodejsCompat) scope.Buffer = Buffer;
  return vm.createContext(scope);
}

interface WebEntry {
  createMcpServer(options: unknown): { registerTool(name: string, config: unknown, handler: (args: Record<string, unknown>) => unknown): unknown };
  createMcpFetchHandler(mcp: unknown, options: unknown): ((request: Request) => Promise<Response>) & { close(): Promise<void> };
  text(s: string): unknown;
}

const HEADERS = { host: 'mcp.example.com', 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'worker-spec', version: '1' },
};

describe('mcp-actors/web with only the globals of Cloudflare Workers (a node:vm realm, not workerd)', function () {
  this.timeout(60_000);
  let script: string;
  before(async () => {
    script = await workerBundle();
  });

  it('evaluates with no process, Buffer or require: its top-level imports need only node:crypto (nodejs_compat)', () => {
    const realm = workerRealm(false);
    vm.runInContext(script, realm);
    const web = realm.web as Record<string, unknown>;
    expect(web.createMcpFetchHandler).to.be.a('function');
    expect(web.createMcpServer).to.be.a('function');
    expect('process' in realm || 'Buffer' in realm || 'require' in realm).to.equal(false);
  });

  it('with nodejs_compat’s Buffer: serves a 2026-07-28 tools/call, and a 2025-11-25 session (initialize, then tools/call on it)', async () => {
    const realm = workerRealm(true);
    vm.runInContext(script, realm);
    const web = realm.web as WebEntry;
    const mcp = web.createMcpServer({ info: { name: 'worker', version: '1.0.0' } });
    mcp.registerTool('greet', { inputSchema: { type: 'object', properties: { name: { type: 'string' } } } }, (args) => ({
      content: [web.text(`Hello, ${String(args['name'])}!`)],
    }));
    const handler = web.createMcpFetchHandler(mcp, { allowedHosts: ['mcp.example.com'] });
    const post = (body: unknown, headers: Record<string, string> = {}) =>
      handler(new Request('https://mcp.example.com/mcp', { method: 'POST', headers: { ...HEADERS, ...headers }, body: JSON.stringify(body) }));
    try {
      const modern = await post(
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'greet', arguments: { name: 'Ada' }, _meta: MODERN_META } },
        { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'greet' },
      );
      expect(modern.status).to.equal(200);
      expect((await modern.json()) as unknown).to.have.nested.property('result.content[0].text', 'Hello, Ada!');

      const init = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'w', version: '1' } } });
      expect(init.status).to.equal(200);
      const sid = init.headers.get('mcp-session-id');
      expect(sid).to.match(/^[\x21-\x7e]{16,}$/);
      await init.body?.cancel();
      const session = { 'mcp-session-id': sid!, 'mcp-protocol-version': '2025-11-25' };
      expect((await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session)).status).to.equal(202);
      const called = await post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'greet', arguments: { name: 'Grace' } } }, session);
      expect(called.status).to.equal(200);
      const answer = await called.text();
      expect(answer).to.contain('Hello, Grace!');
    } finally {
      await handler.close();
    }
  });
});
