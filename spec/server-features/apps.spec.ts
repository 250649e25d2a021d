// MCP Apps on the server (io.modelcontextprotocol/ui): a ui:// app resource with _meta.ui on its
// listing and contents; tools linked to it. A client that renders apps (it declares the extension)
// sees the links and the app-only tools; one that does not gets the text fallback: no links, no
// app-only tools, and calling one is an unknown tool. Both eras.
import { expect } from 'chai';
import { createClient, type Client } from '../../lib/entries/client.js';
import { McpError } from '../../lib/errors.js';
import { createMcpServer, type McpServer } from '../../lib/mcp-server.js';
import { APP_MIME_TYPE, appContentSecurityPolicy, appsCapability } from '../../lib/protocol/apps-extension.js';
import { AppRegistrationError } from '../../lib/server-features/apps.js';
import { createMemoryPair } from '../../streams/memory.js';

const HTML = '<!DOCTYPE html><html><body><div id="out"></div></body></html>';

function server(): McpServer {
  const mcp = createMcpServer({ info: { name: 'weather', version: '1' } });
  mcp.registerAppResource('ui://weather/dashboard', { name: 'dashboard', description: 'A weather dashboard', html: HTML, csp: { connectDomains: ['https://api.example.com'] }, prefersBorder: true });
  mcp.registerTool('get_weather', { description: 'Weather for a city', ui: { resourceUri: 'ui://weather/dashboard' } }, () => ({
    content: [{ type: 'text', text: 'Sunny, 22 °C' }],
    structuredContent: { temperature: 22 },
  }));
  mcp.registerTool('refresh_dashboard', { ui: { resourceUri: 'ui://weather/dashboard', visibility: ['app'] } }, () => 'refreshed');
  mcp.registerTool('plain', {}, () => 'plain');
  return mcp;
}

async function connect(mcp: McpServer, era: 'legacy' | 'modern', apps: boolean): Promise<Client> {
  const [c, s] = createMemoryPair();
  await mcp.connect(s);
  const client = createClient({ info: { name: 'apps-spec', version: '1' }, era });
  if (apps) client.declareCapabilities(appsCapability());
  await client.connect(c);
  return client;
}

for (const era of ['legacy', 'modern'] as const) {
  describe(`MCP Apps on the server, ${era === 'modern' ? '2026-07-28' : '2025-11-25'} era`, () => {
    it('[APPS-001] [APPS-002] [APPS-003] the app is a ui:// resource of type text/html;profile=mcp-app with _meta.ui on its listing and contents', async () => {
      const client = await connect(server(), era, true);
      try {
        const { resources } = await client.listResources();
        const app = resources.find((r) => r.uri === 'ui://weather/dashboard')!;
        expect(app).to.include({ mimeType: APP_MIME_TYPE, name: 'dashboard', description: 'A weather dashboard' });
        expect(app._meta).to.deep.equal({ ui: { csp: { connectDomains: ['https://api.example.com'] }, prefersBorder: true } });
        const read = await client.readResource('ui://weather/dashboard');
        expect(read.contents[0]).to.deep.include({ uri: 'ui://weather/dashboard', mimeType: APP_MIME_TYPE, text: HTML });
        expect(read.contents[0]!._meta).to.deep.equal(app._meta);
      } finally {
        await client.close();
      }
    });

    it('[APPS-051] a client that renders apps sees the links (current and deprecated keys) and the app-only tool', async () => {
      const client = await connect(server(), era, true);
      try {
        const tools = await client.listTools();
        expect(tools.map((t) => t.name)).to.deep.equal(['get_weather', 'refresh_dashboard', 'plain']);
        expect(tools[0]!._meta).to.deep.equal({ ui: { resourceUri: 'ui://weather/dashboard' }, 'ui/resourceUri': 'ui://weather/dashboard' });
        expect(tools[1]!._meta?.['ui']).to.deep.equal({ resourceUri: 'ui://weather/dashboard', visibility: ['app'] });
        const refreshed = await client.callTool('refresh_dashboard', {});
        expect(refreshed.content[0]).to.deep.equal({ type: 'text', text: 'refreshed' });
      } finally {
        await client.close();
      }
    });

    it('[APPS-052] [APPS-053] [APPS-054] a client that does not: no links, the app-only tool hidden and unknown when called, text content kept', async () => {
      const client = await connect(server(), era, false);
      try {
        const tools = await client.listTools();
        expect(tools.map((t) => t.name)).to.deep.equal(['get_weather', 'plain']);
        expect(tools[0]!._meta).to.equal(undefined);
        const err = await client.request('tools/call', { name: 'refresh_dashboard', arguments: {} }).catch((e: unknown) => e);
        expect(err).to.be.instanceOf(McpError);
        expect((err as McpError).code).to.equal(-32602);
        const weather = await client.callTool('get_weather', {});
        expect(weather.content[0]).to.deep.equal({ type: 'text', text: 'Sunny, 22 °C' });
      } finally {
        await client.close();
      }
    });
  });
}

describe('MCP Apps: what registration refuses', () => {
  it('[APPS-004] a URI outside ui://, an HTML fragment, a link to a non-ui:// URI, an empty visibility', () => {
    const mcp = createMcpServer({ info: { name: 'x', version: '1' } });
    expect(() => mcp.registerAppResource('https://example.com/app', { html: HTML })).to.throw(AppRegistrationError, 'ui:// scheme');
    expect(() => mcp.registerAppResource('ui://x/frag', { html: '<div>hi</div>' })).to.throw(AppRegistrationError, 'complete HTML5 document');
    expect(() => mcp.registerTool('t1', { ui: { resourceUri: 'https://x' } }, () => 'x')).to.throw(AppRegistrationError, 'ui:// URI');
    expect(() => mcp.registerTool('t2', { ui: { resourceUri: 'ui://x/app', visibility: [] } }, () => 'x')).to.throw(AppRegistrationError, 'visibility');
  });
});

describe('MCP Apps: the CSP a host applies', () => {
  it("[APPS-006] [APPS-007] [APPS-019] [APPS-020] [APPS-021] [APPS-022] the spec's restrictive default without csp; declared origins only, nothing else; object-src 'none' always", () => {
    const none = appContentSecurityPolicy(undefined);
    expect(none).to.include("default-src 'none'").and.include("connect-src 'none'").and.include("frame-src 'none'").and.include("base-uri 'self'").and.include("object-src 'none'");
    expect(none).to.include("script-src 'self' 'unsafe-inline'").and.include("img-src 'self' data:");
    const some = appContentSecurityPolicy({ connectDomains: ['https://api.example.com', "'unsafe-eval'"], resourceDomains: ['https://cdn.example.com'] });
    expect(some).to.include('connect-src https://api.example.com;').and.include("script-src 'self' 'unsafe-inline' https://cdn.example.com");
    expect(some).to.not.include('unsafe-eval');
    const nested = appContentSecurityPolicy({ frameDomains: ['https://player.example.com'], baseUriDomains: ['https://cdn.example.com'] });
    expect(nested).to.include('frame-src https://player.example.com;').and.include("base-uri 'self' https://cdn.example.com;").and.include("connect-src 'none'");
  });
});
