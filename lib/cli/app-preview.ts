/**
 * `mcp-actors app`: a server's MCP App previewed in a browser. Two HTTP servers on 127.0.0.1: the
 * host page (one origin) and the sandbox proxy (another, as the Apps spec requires of web hosts).
 * The page runs the library's bridge (`mcp-actors/apps`, the package's own compiled modules and
 * xstate's, served as ES modules through an import map), asks this process to call the tool, and
 * renders the view; the view's tool calls and reads come back here to the CLI's client. Nothing
 * but the page's own origin may use that route.
 *
 * @see https://modelcontextprotocol.io/extensions/apps
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Client } from '../client.js';
import { sandboxProxyHeaders, sandboxProxyHtml } from '../apps/sandbox-proxy.js';
import type { AppResourceMeta } from '../protocol/apps-extension.js';
import { CliError, ExitCode } from './exit-codes.js';

/** The compiled modules the page imports (paths under the package's compiled root). */
const MODULES = ['lib/apps/bridge.js', 'lib/protocol/apps-extension.js', 'machines/app-bridge.machine.js'];

export interface AppPreview {
  url: string;
  close(): Promise<void>;
}

export interface AppPreviewOptions {
  client: Client;
  tool: { name: string; [key: string]: unknown };
  toolInput: Record<string, unknown>;
  html: string;
  meta: AppResourceMeta | undefined;
  port?: number;
  /** Told what the view asks of the host that the preview only reports (links, messages, logs). */
  report(line: string): void;
}

/** The compiled package root: this file's own tree when it runs compiled, else the build's `dist/`. */
function compiledRoot(): string {
  const here = fileURLToPath(import.meta.url);
  // .../lib/cli/app-preview.{js,ts} → the tree holding lib/ and machines/
  const tree = dirname(dirname(dirname(here)));
  if (here.endsWith('.js')) return tree;
  const dist = join(tree, 'dist');
  if (!MODULES.every((m) => existsSync(join(dist, m)))) {
    throw new CliError('The app preview serves the compiled bridge, and this checkout has not been built: run npm run build', ExitCode.BadInput);
  }
  return dist;
}

function xstateRoot(): string {
  const require = createRequire(import.meta.url);
  return dirname(dirname(require.resolve('xstate')));
}

function listen(handler: (req: IncomingMessage, res: ServerResponse) => void, port = 0): Promise<{ server: Server; origin: string }> {
  return new Promise((resolve, reject) => {
    const server = createServer(handler);
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const { port: bound } = server.address() as { port: number };
      resolve({ server, origin: `http://127.0.0.1:${bound}` });
    });
  });
}

function hostPage(sandboxUrl: string, tool: AppPreviewOptions['tool']): string {
  const imports = { xstate: '/_xstate/dist/xstate.esm.js' };
  const script = `
import { createAppBridge } from '/_mcp/lib/apps/bridge.js';
const rpc = async (method, params) => {
  const res = await fetch('/rpc', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ method, params }) });
  const body = await res.json();
  if (body.error) throw Object.assign(new Error(body.error.message), { code: body.error.code });
  return body.result;
};
const status = document.getElementById('status');
const bridge = createAppBridge({
  container: document.getElementById('app'),
  sandboxUrl: ${JSON.stringify(sandboxUrl)},
  hostInfo: { name: 'mcp-actors app preview', version: '0.1.0' },
  hostContext: { theme: matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light', platform: 'web', locale: navigator.language },
  server: { callTool: (name, args) => rpc('tools/call', { name, arguments: args }), readResource: (uri) => rpc('resources/read', { uri }), tools: () => rpc('tools/list', {}) },
  handlers: {
    openLink: (url) => { window.open(url, '_blank', 'noopener'); rpc('report', { line: 'the view opened ' + url }); },
    message: (m) => rpc('report', { line: 'the view sent a message: ' + JSON.stringify(m.content) }),
    updateModelContext: (c) => rpc('report', { line: 'the view updated the model context: ' + JSON.stringify(c).slice(0, 200) }),
    log: (p) => rpc('report', { line: 'view log (' + (p.level || 'info') + '): ' + JSON.stringify(p.data) }),
  },
});
window.bridge = bridge;
bridge.subscribe((s) => { status.textContent = s; document.body.dataset.state = s; });
const start = await rpc('start', {});
bridge.show({ html: start.html, meta: start.meta, tool: start.tool, toolInput: start.toolInput });
try { bridge.toolResult(await rpc('tools/call', { name: start.tool.name, arguments: start.toolInput })); }
catch (e) { bridge.toolCancelled(String(e.message || e)); }
`;
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(tool.name)} · mcp-actors app preview</title>
<style>body{margin:0;font:14px/1.4 system-ui,sans-serif;background:#f6f8fa}header{padding:8px 14px;border-bottom:1px solid #d0d7de;background:#fff;display:flex;gap:12px}
#status{color:#6e7781}main{max-width:900px;margin:16px auto;background:#fff;border:1px solid #d0d7de;border-radius:8px}</style>
<script type="importmap">${JSON.stringify({ imports })}</script></head>
<body><header><b>${escapeHtml(tool.name)}</b><span>app preview</span><span id="status">starting</span></header>
<main id="app"></main><script type="module">${script}</script></body></html>`;
}

const escapeHtml = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** Serve the preview; resolves with the page's URL. */
export async function startAppPreview(options: AppPreviewOptions): Promise<AppPreview> {
  const root = compiledRoot();
  const xstate = xstateRoot();
  const sandbox = await listen((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const hostOrigin = url.searchParams.get('host') ?? '';
    if (url.pathname !== '/sandbox' || !/^http:\/\/127\.0\.0\.1:\d+$/.test(hostOrigin)) return void res.writeHead(404).end();
    res.writeHead(200, sandboxProxyHeaders(hostOrigin)).end(sandboxProxyHtml(hostOrigin));
  });
  let hostOrigin = '';
  const page = hostPage(`${sandbox.origin}/sandbox`, options.tool);
  const serveFile = (res: ServerResponse, base: string, rel: string, allowed: (rel: string) => boolean) => {
    const path = normalize(join(base, rel));
    if (!path.startsWith(base + sep) || !allowed(rel) || !existsSync(path)) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' }).end(readFileSync(path));
  };
  const host = await listen((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.method === 'GET' && url.pathname === '/') {
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        'content-security-policy': `default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'unsafe-inline'; frame-src ${sandbox.origin}; connect-src 'self'`,
      });
      return void res.end(page);
    }
    if (req.method === 'GET' && url.pathname.startsWith('/_mcp/')) return serveFile(res, root, url.pathname.slice('/_mcp/'.length), (rel) => MODULES.includes(rel));
    if (req.method === 'GET' && url.pathname.startsWith('/_xstate/')) return serveFile(res, xstate, url.pathname.slice('/_xstate/'.length), (rel) => /^dist\/[\w.-]+\.esm\.js$|^dev\/dist\/[\w.-]+\.esm\.js$/.test(rel));
    if (req.method === 'POST' && url.pathname === '/rpc') return void rpc(req, res);
    res.writeHead(404).end();
  }, options.port);
  hostOrigin = host.origin;

  async function rpc(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const answer = (body: unknown): void => void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
    // Only the preview page may use the CLI's connection (no other site, no other tab's origin).
    if (req.headers.origin !== hostOrigin || req.headers['content-type'] !== 'application/json') return void res.writeHead(403).end();
    let body = '';
    for await (const chunk of req) {
      body += chunk;
      if (body.length > 4 * 1024 * 1024) return void res.writeHead(413).end();
    }
    let call: { method?: unknown; params?: Record<string, unknown> };
    try {
      call = JSON.parse(body) as typeof call;
    } catch {
      return void res.writeHead(400).end();
    }
    const p = call.params ?? {};
    try {
      switch (call.method) {
        case 'start':
          return answer({ result: { html: options.html, meta: options.meta ?? {}, tool: options.tool, toolInput: options.toolInput } });
        case 'tools/list':
          return answer({ result: await options.client.listTools() });
        case 'tools/call':
          return answer({ result: await options.client.callTool(String(p['name']), (p['arguments'] ?? {}) as Record<string, unknown>) });
        case 'resources/read':
          return answer({ result: await options.client.readResource(String(p['uri'])) });
        case 'report':
          options.report(String(p['line']).slice(0, 500));
          return answer({ result: {} });
        default:
          return answer({ error: { code: -32601, message: `Not served by the preview: ${String(call.method)}` } });
      }
    } catch (e) {
      const err = e as { code?: unknown; message?: unknown };
      return answer({ error: { code: typeof err.code === 'number' ? err.code : -32603, message: String(err.message ?? e) } });
    }
  }

  return {
    url: `${host.origin}/`,
    close: () => {
      host.server.closeAllConnections();
      sandbox.server.closeAllConnections();
      return Promise.all([new Promise<void>((r) => host.server.close(() => r())), new Promise<void>((r) => sandbox.server.close(() => r()))]).then(() => undefined);
    },
  };
}
