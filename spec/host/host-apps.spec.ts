// The host and MCP Apps, over real HTTP on 127.0.0.1: the agent's tool list (tools$, listTools)
// leaves out the tools only an app may call, while an app reaches them through appServer(server);
// appView(tool) reads the view a tool links to from the tool's own server and refuses one that
// server does not serve, or that is not app HTML, with a clear error rather than a blank view.
import { expect } from 'chai';
import { filter, firstValueFrom } from 'rxjs';
import { AppViewError } from '../../lib/host/app-view.js';
import { createHost, type Host, type HostOptions } from '../../lib/host/host.js';
import { listen } from '../../lib/http/listen-port.js';
import { createMcpServer, type McpServer } from '../../lib/mcp-server.js';
import { APP_MIME_TYPE, appsCapability } from '../../lib/protocol/apps-extension.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';

const HTML = '<!DOCTYPE html><html><body>weather view</body></html>';

function weatherServer(calls: string[]): McpServer {
  const mcp = createMcpServer({ info: { name: 'weather', version: '1' } });
  mcp.registerAppResource('ui://weather/dashboard', { html: HTML, csp: { connectDomains: ['https://api.weather.example'] } });
  // A ui:// resource that is plain HTML, not an app view.
  mcp.registerResource('fake', 'ui://weather/fake', { mimeType: 'text/html' }, () => ({ contents: [{ uri: 'ui://weather/fake', mimeType: 'text/html', text: '<p>not an app</p>' }] }));
  const tool = (name: string, ui?: { resourceUri: string; visibility?: ('model' | 'app')[] }) =>
    mcp.registerTool(name, { description: name, ...(ui && { ui }) }, () => {
      calls.push(name);
      return name;
    });
  tool('show_weather', { resourceUri: 'ui://weather/dashboard' });
  tool('refresh', { resourceUri: 'ui://weather/dashboard', visibility: ['app'] });
  tool('forecast', { resourceUri: 'ui://weather/dashboard', visibility: ['model'] });
  tool('plain');
  tool('broken', { resourceUri: 'ui://weather/missing' });
  tool('fake_app', { resourceUri: 'ui://weather/fake' });
  return mcp;
}

async function withHost(options: Omit<HostOptions, 'servers'>, body: (host: Host, calls: string[]) => Promise<void>): Promise<void> {
  const calls: string[] = [];
  const mcp = weatherServer(calls);
  const web = await listen(createStreamableHttpHandler(mcp.server), { port: 0, host: '127.0.0.1', logger: false });
  const host = createHost({ servers: { weather: { url: web.url } }, ...options });
  try {
    await host.start();
    await host.whenReady();
    await body(host, calls);
  } finally {
    await host.close();
    await web.close();
    await mcp.close();
  }
}

const names = (tools: { name: string }[]) => tools.map((t) => t.name).sort();

describe('host: MCP Apps', function () {
  this.timeout(20_000);

  it('[APPS-011] the agent\'s tool list (listTools, tools$) has no app-only tool, and the agent cannot call one by name; the app still lists and calls it through appServer', async () => {
    // The clients say they render apps (so the server lists its app-only tools): the host's own filter is what hides them.
    await withHost({ onClient: (c) => c.declareCapabilities(appsCapability()) }, async (host, calls) => {
      const forAgent = ['weather__broken', 'weather__fake_app', 'weather__forecast', 'weather__plain', 'weather__show_weather'];
      expect(names(await host.listTools())).to.deep.equal(forAgent);
      expect(names(await firstValueFrom(host.tools$.pipe(filter((t) => t.length > 0))))).to.deep.equal(forAgent);
      // Not in the agent's list, and not callable by the agent by name either ("model": visible to and callable by the agent).
      const refused = await host.callTool('weather__refresh', {}).then(() => undefined, (e: Error) => e);
      expect(refused?.message).to.match(/apps only.*appServer\("weather"\)/);
      expect(calls).to.deep.equal([]);
      expect((await host.callTool('weather__forecast', {})).isError).to.not.equal(true);
      calls.length = 0;
      const app = host.appServer('weather');
      expect(names(await app.tools())).to.include('refresh');
      await app.callTool('refresh', {});
      expect(calls).to.deep.equal(['refresh']);
      expect(((await app.readResource('ui://weather/dashboard')).contents as unknown[]).length).to.equal(1);
    });
  });

  it('apps: true makes each client declare the extension: the app-only tool reaches appServer, still not the agent', async () => {
    await withHost({ apps: true }, async (host) => {
      expect(names(await host.appServer('weather').tools())).to.include('refresh');
      expect(names(await host.listTools())).to.not.include('weather__refresh');
      expect(() => host.appServer('nowhere')).to.throw(/nowhere/);
    });
  });

  it('[APPS-009] appView reads the linked view from the tool\'s server; a view the server does not serve, or that is no app, is refused by name', async () => {
    await withHost({ apps: true }, async (host) => {
      const view = await host.appView('weather__show_weather');
      expect(view).to.deep.include({ resourceUri: 'ui://weather/dashboard', html: HTML, meta: { csp: { connectDomains: ['https://api.weather.example'] } } });
      expect(view.tool.name).to.equal('show_weather');

      const missing = await host.appView('weather__broken').catch((e: unknown) => e);
      expect(missing).to.be.instanceOf(AppViewError).and.include({ reason: 'missing', resourceUri: 'ui://weather/missing' });
      expect((missing as Error).message).to.include('"broken" links to ui://weather/missing, which weather does not serve');

      const fake = await host.appView('weather__fake_app').catch((e: unknown) => e);
      expect(fake).to.be.instanceOf(AppViewError).and.include({ reason: 'not-an-app' });
      expect((fake as Error).message).to.include(`not an app view (${APP_MIME_TYPE})`);

      const plain = await host.appView('weather__plain').catch((e: unknown) => e);
      expect(plain).to.be.instanceOf(AppViewError).and.include({ reason: 'no-app' });
      // The host goes on: the next view is served.
      expect((await host.appView('weather__forecast')).html).to.equal(HTML);
    });
  });
});
