// An MCP App (the io.modelcontextprotocol/ui extension): a ui:// view linked to a tool. Hosts that
// render apps show the view with the tool's input and result; others get the tool's text.
// Preview it in a browser: npx mcp-actors app get_weather city=Lisbon --stdio "node apps.js"
import { createMcpServer } from 'mcp-actors';
import { createStdioServerTransport } from 'mcp-actors/streams';

const mcp = createMcpServer({ info: { name: 'weather', version: '1.0.0' } });
mcp.registerAppResource('ui://weather/card', {
  description: 'The weather as a card',
  csp: { connectDomains: [] }, // the view reaches no other origin
  html: `<!DOCTYPE html><html><body><h1 id="out">…</h1><script>
    addEventListener('message', (e) => {
      if (e.data?.method === 'ui/notifications/tool-result') out.textContent = e.data.params.content[0].text;
    });
    parent.postMessage({ jsonrpc: '2.0', id: 1, method: 'ui/initialize', params: { protocolVersion: '2026-01-26', appInfo: { name: 'card', version: '1' }, appCapabilities: {} } }, '*');
    addEventListener('message', (e) => { if (e.data?.id === 1) parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/initialized' }, '*'); });
  </script></body></html>`,
});
mcp.registerTool(
  'get_weather',
  { inputSchema: { type: 'object', properties: { city: { type: 'string' } } }, ui: { resourceUri: 'ui://weather/card' } },
  (args) => `Sunny in ${String(args['city'])}`, // the text every host gets
);
await mcp.connect(createStdioServerTransport());
