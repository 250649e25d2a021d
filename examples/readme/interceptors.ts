// Interceptors: stages around every request (and notification) a server serves, in both eras and
// on every transport, run in the order they are registered. Run it with `node interceptors.js`.
import { createMcpServer, logging, McpError, rateLimitPerCaller, redactArguments, text } from 'mcp-actors';
import { createStdioServerTransport } from 'mcp-actors/streams';

const mcp = createMcpServer({ info: { name: 'guarded', version: '1.0.0' } });
mcp.registerTool('login', { description: 'Logs in' }, async (args) => ({ content: [text(`welcome ${String(args.user)}`)] }));

// 60 requests a minute per caller (the authenticated principal, else the session): over that,
// -32090 with `data.retryAfterMs`, on the server's clock.
mcp.use(rateLimitPerCaller({ perMinute: 60 }));
// The stages after this one (the log below) see "[redacted]"; the tool still gets the password.
mcp.use(redactArguments(['password']));
mcp.use(logging((entry) => console.error(JSON.stringify(entry)), { withParams: true }));
// Your own: read the caller, rewrite params or the result, answer without the handler, or refuse.
mcp.use(async (req, next) => {
  if (req.method === 'tools/call' && req.caller.era === 'modern' && req.caller.principal === undefined) {
    throw new McpError(-32001, 'Sign in first');
  }
  const result = await next();
  return req.method === 'tools/list' ? { ...result, _meta: { 'com.example/served-by': 'guarded' } } : result;
});

await mcp.connect(createStdioServerTransport());
