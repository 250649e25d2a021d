// The MCP Apps host bridge (mcp-actors/apps) in a real browser: Debian's chromium driven by
// playwright-core. A host page (one origin) bundles the bridge as a user's bundler would (esbuild)
// and renders a server's ui:// app through the sandbox proxy page (another origin); the view's
// tool calls and reads go through our Client to a real McpServer. Checked: the view gets the tool
// input and result, calls a tool back through the host, resizes its frame, cannot call a tool only
// the model may call, cannot reach an origin its CSP does not declare, and its garbage gets errors
// while the host page goes on; teardown is answered and removes the frame.
import { expect } from 'chai';
import { createServer, type Server as HttpServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';
import { build } from 'esbuild';
import { chromium, type Browser, type Frame, type Page } from 'playwright-core';
import { createClient, type Client } from '../../lib/entries/client.js';
import { createMcpServer } from '../../lib/mcp-server.js';
import { appsCapability } from '../../lib/protocol/apps-extension.js';
import { sandboxProxyHeaders, sandboxProxyHtml } from '../../lib/apps/sandbox-proxy.js';
import { createMemoryPair } from '../../streams/memory.js';

/** The page's document, inside page.evaluate callbacks (this program has no DOM library). */
declare const document: any;

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const APPS_ENTRY = fileURLToPath(new URL('../../lib/apps/index.ts', import.meta.url));
const REPO = fileURLToPath(new URL('../../', import.meta.url));

/** The view: speaks the Apps protocol by hand, as the spec shows a view may. */
function viewHtml(forbiddenUrl: string): string {
  return `<!DOCTYPE html>
<html><head><title>weather</title></head>
<body style="margin:0">
<div id="input">(no input)</div><div id="result">(no result)</div><div id="refresh">(not refreshed)</div>
<div id="denied"></div><div id="csp"></div><div id="garbage"></div>
<button id="go">refresh</button>
<script>
  var id = 0, pending = {};
  function request(method, params) {
    var mine = ++id;
    parent.postMessage({ jsonrpc: '2.0', id: mine, method: method, params: params }, '*');
    return new Promise(function (resolve, reject) { pending[mine] = { resolve: resolve, reject: reject }; });
  }
  function notify(method, params) { parent.postMessage({ jsonrpc: '2.0', method: method, params: params }, '*'); }
  var garbageAnswers = [];
  window.addEventListener('message', function (e) {
    var m = e.data;
    if (m && m.id !== undefined && pending[m.id]) { var p = pending[m.id]; delete pending[m.id]; m.error ? p.reject(m.error) : p.resolve(m.result); return; }
    if (m && m.id !== undefined && m.error && (m.id === 'g1' || m.id === 'g2')) { garbageAnswers.push(m.id + ':' + m.error.code); document.getElementById('garbage').textContent = garbageAnswers.sort().join(','); return; }
    if (m && m.method === 'ui/notifications/tool-input') document.getElementById('input').textContent = 'input ' + JSON.stringify(m.params.arguments);
    if (m && m.method === 'ui/notifications/tool-result') document.getElementById('result').textContent = 'result ' + m.params.content[0].text;
    if (m && m.method === 'ui/resource-teardown') { notify('notifications/message', { level: 'info', data: 'teardown: ' + m.params.reason }); parent.postMessage({ jsonrpc: '2.0', id: m.id, result: {} }, '*'); }
  });
  request('ui/initialize', { protocolVersion: '2026-01-26', appInfo: { name: 'weather-view', version: '1' }, appCapabilities: {} }).then(function (init) {
    window.hostContext = init.hostContext;
    notify('ui/notifications/initialized', {});
    notify('ui/notifications/size-changed', { width: 400, height: 321 });
  });
  document.getElementById('go').addEventListener('click', function () {
    request('tools/call', { name: 'refresh_dashboard', arguments: {} }).then(function (r) { document.getElementById('refresh').textContent = r.content[0].text; });
    request('tools/call', { name: 'model_only', arguments: {} }).then(function () { document.getElementById('denied').textContent = 'allowed!'; }, function (err) { document.getElementById('denied').textContent = 'denied ' + err.code; });
    fetch(${JSON.stringify(forbiddenUrl)}).then(function () { document.getElementById('csp').textContent = 'reached!'; }, function () { document.getElementById('csp').textContent = 'blocked'; notify('notifications/message', { level: 'warning', data: 'csp blocked' }); });
    parent.postMessage('garbage', '*');
    parent.postMessage({ jsonrpc: '1.0', id: 'g1', method: 'tools/call' }, '*');
    parent.postMessage({ jsonrpc: '2.0', id: 'g2', method: 42 }, '*');
    parent.postMessage({ jsonrpc: '2.0', id: 'g3', method: 'tools/call', params: 'not an object' }, '*');
  });
</script></body></html>`;
}

/** The host page's script: the bridge, the page's own counter (to see the page still works). */
const HOST_ENTRY = `
import { createAppBridge } from ${JSON.stringify(APPS_ENTRY)};
const w = window;
w.logs = [];
w.pageClicks = 0;
document.getElementById('mine').addEventListener('click', () => { w.pageClicks++; });
w.host = createAppBridge({
  container: document.getElementById('app'),
  sandboxUrl: w.SANDBOX_URL,
  server: { callTool: (n, a) => w.mcpCallTool(n, a), readResource: (u) => w.mcpReadResource(u), tools: () => w.mcpTools() },
  hostInfo: { name: 'spec-host', version: '1.0.0' },
  hostContext: { theme: 'dark' },
  handlers: { log: (p) => w.logs.push(p) },
  loadTimeoutMs: 20000,
});
w.states = [];
w.host.subscribe((s) => w.states.push(s));
`;

function listen(handler: Parameters<typeof createServer>[1]): Promise<{ server: HttpServer; origin: string }> {
  return new Promise((resolve) => {
    const server = createServer(handler).listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolve({ server, origin: `http://127.0.0.1:${port}` });
    });
  });
}

describe('MCP Apps: the host bridge in chromium (mcp-actors/apps)', function () {
  this.timeout(60_000);
  let browser: Browser;
  let page: Page;
  let client: Client;
  let refreshes = 0;
  let forbiddenHits = 0;
  const servers: HttpServer[] = [];
  let html: string;

  before(async function () {
    if (!existsSync(CHROMIUM)) throw new Error(`No chromium at ${CHROMIUM}: apt-get install -y chromium`);
    this.timeout(120_000);
    const forbidden = await listen((_req, res) => {
      forbiddenHits++;
      res.writeHead(200, { 'access-control-allow-origin': '*' }).end('secret');
    });
    servers.push(forbidden.server);

    const mcp = createMcpServer({ info: { name: 'weather', version: '1.0.0' } });
    html = viewHtml(`${forbidden.origin}/steal`);
    mcp.registerAppResource('ui://weather/dashboard', { html, csp: { connectDomains: [] }, prefersBorder: true });
    mcp.registerTool('get_weather', { inputSchema: { type: 'object', properties: { city: { type: 'string' } } }, ui: { resourceUri: 'ui://weather/dashboard' } }, (args) => `Sunny in ${String(args['city'])}`);
    mcp.registerTool('refresh_dashboard', { ui: { resourceUri: 'ui://weather/dashboard', visibility: ['app'] } }, () => `refreshed ${++refreshes}`);
    mcp.registerTool('model_only', { ui: { resourceUri: 'ui://weather/dashboard', visibility: ['model'] } }, () => 'should not run from the app');
    const [c, s] = createMemoryPair();
    await mcp.connect(s);
    client = createClient({ info: { name: 'spec-host', version: '1.0.0' } });
    client.declareCapabilities(appsCapability());
    await client.connect(c);

    const bundle = await build({ stdin: { contents: HOST_ENTRY, resolveDir: REPO, loader: 'ts' }, bundle: true, write: false, format: 'esm', platform: 'browser', logLevel: 'silent' });
    const script = bundle.outputFiles[0]!.text;
    const sandbox = await listen((req, res) => {
      const hostOrigin = new URL(req.url!, 'http://x').searchParams.get('host') ?? '';
      res.writeHead(200, sandboxProxyHeaders(hostOrigin)).end(sandboxProxyHtml(hostOrigin));
    });
    servers.push(sandbox.server);
    const host = await listen((req, res) => {
      if (req.url === '/host.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<!DOCTYPE html><html><body><button id="mine">page button</button><div id="app"></div>
<script>window.SANDBOX_URL = ${JSON.stringify(`${sandbox.origin}/sandbox`)};</script><script type="module" src="/host.js"></script></body></html>`);
    });
    servers.push(host.server);

    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update'] });
    page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    await page.exposeFunction('mcpCallTool', (name: string, args: Record<string, unknown>) => client.callTool(name, args));
    await page.exposeFunction('mcpReadResource', (uri: string) => client.readResource(uri));
    await page.exposeFunction('mcpTools', () => client.listTools());
    await page.goto(`${host.origin}/`);
    await page.waitForFunction(() => (globalThis as { host?: unknown }).host !== undefined);
  });

  after(async () => {
    await browser?.close();
    await client?.close();
    for (const s of servers) s.close();
  });

  // The view's frame (the sandbox proxy's inner srcdoc iframe), waited for: on a loaded machine it
  // may not have navigated yet when the host says ready. No event can fire between the two lines.
  const view = async (): Promise<Frame> =>
    page.frames().find((f) => f.url() === 'about:srcdoc') ?? page.waitForEvent('framenavigated', { predicate: (f) => f.url() === 'about:srcdoc', timeout: 15_000 });

  it('[APPS-010] [APPS-013] [APPS-014] [APPS-015] [APPS-016] [APPS-018] [APPS-024] [APPS-029] [APPS-030] [APPS-055] renders the app for a tool call: the view gets the input then the result, and resizes its frame', async () => {
    const tools = await client.listTools();
    const tool = tools.find((t) => t.name === 'get_weather')!;
    const read = await client.readResource('ui://weather/dashboard');
    const content = read.contents[0] as { text: string; _meta?: { ui?: Record<string, unknown> } };
    await page.evaluate(({ html, meta, tool }) => (globalThis as any).host.show({ html, meta, tool, toolInput: { city: 'Lisbon' }, toolCallId: 7 }), { html: content.text, meta: content._meta?.ui ?? {}, tool });
    const result = await client.callTool('get_weather', { city: 'Lisbon' });
    await page.evaluate((r) => (globalThis as any).host.toolResult(r), result as unknown as Record<string, unknown>);
    await page.waitForFunction(() => (globalThis as any).host.state === 'ready');
    await (await view()).waitForFunction(() => document.getElementById('result')!.textContent !== '(no result)');
    expect(await (await view()).textContent('#input')).to.equal('input {"city":"Lisbon"}');
    expect(await (await view()).textContent('#result')).to.equal('result Sunny in Lisbon');
    expect(await (await view()).evaluate(() => (globalThis as any).hostContext.toolInfo)).to.deep.include({ id: 7 });
    await page.waitForFunction(() => document.querySelector('#app iframe')?.getAttribute('style')?.includes('height: 321px'));
    expect(await page.evaluate(() => (globalThis as any).states)).to.include.members(['awaitingProxy', 'awaitingView', 'initializing', 'ready']);
  });

  it('[APPS-005] [APPS-012] [APPS-027] [APPS-056] [APPS-057] the view calls an app tool back through the host; a model-only tool and an undeclared origin are refused; garbage gets errors and the page goes on', async () => {
    await (await view()).click('#go');
    await (await view()).waitForFunction(() => document.getElementById('refresh')!.textContent !== '(not refreshed)' && document.getElementById('csp')!.textContent !== '' && document.getElementById('denied')!.textContent !== '');
    expect(await (await view()).textContent('#refresh')).to.equal('refreshed 1');
    expect(refreshes).to.equal(1);
    expect(await (await view()).textContent('#denied')).to.equal('denied -32602');
    expect(await (await view()).textContent('#csp')).to.equal('blocked');
    expect(forbiddenHits).to.equal(0);
    await page.waitForFunction(() => (globalThis as any).logs.length > 0);
    expect(await page.evaluate(() => (globalThis as any).logs)).to.deep.include({ level: 'warning', data: 'csp blocked' });
    await (await view()).waitForFunction(() => document.getElementById('garbage')!.textContent === 'g1:-32600,g2:-32600');
    const errors = (await page.evaluate(() => (globalThis as any).host.errors)) as { kind: string; message: string }[];
    expect(errors.map((e) => e.kind)).to.include.members(['malformed', 'refused']);
    expect(errors.some((e) => e.message.includes('model_only'))).to.equal(true);
    // The host page is unharmed: its own button works, the bridge is still live.
    await page.click('#mine');
    expect(await page.evaluate(() => (globalThis as any).pageClicks)).to.equal(1);
    expect(await page.evaluate(() => (globalThis as any).host.state)).to.equal('ready');
  });

  it('teardown: the view is told why and answers; the frame is removed', async () => {
    const started = Date.now();
    await page.evaluate(() => (globalThis as any).host.teardown('the conversation moved on'));
    // Closed on the view's answer, not on the 2 s teardown wait.
    expect(Date.now() - started).to.be.below(1500);
    expect(await page.evaluate(() => (globalThis as any).logs)).to.deep.include({ level: 'info', data: 'teardown: the conversation moved on' });
    expect(await page.evaluate(() => (globalThis as any).host.state)).to.equal('closed');
    expect(await page.evaluate(() => document.querySelectorAll('#app iframe').length)).to.equal(0);
    expect(await page.evaluate(() => (globalThis as any).states)).to.include.members(['tearingDown', 'closed']);
  });
});
