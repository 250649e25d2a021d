// Per-caller views: what a caller may see follows its token's scopes. A caller without `admin`
// does not find `shutdown` in tools/list and gets -32602 "Unknown tool: shutdown" for a call,
// as for a tool that does not exist; both eras, every transport.
import { createClient, createMcpServer, listen, McpError, perCallerView, text, type InterceptedRequest } from 'mcp-actors';
import { requireBearerAuth } from 'mcp-actors/auth';
import { createStreamableHttpClientTransport, createStreamableHttpHandler } from 'mcp-actors/streams';

const mcp = createMcpServer({ info: { name: 'ops', version: '1.0.0' } });
mcp.registerTool('status', {}, async () => ({ content: [text('all good')] }));
mcp.registerTool('shutdown', {}, async () => ({ content: [text('shutting down')] }));

const scopes = (req: InterceptedRequest) => (req.caller.authInfo as { scopes?: string[] } | undefined)?.scopes ?? [];
const adminOnly = new Set(['shutdown']);
mcp.use(perCallerView({ tools: (name, req) => !adminOnly.has(name) || scopes(req).includes('admin') }));

const port = Number(process.env['PORT'] ?? 3002);
const resource = `http://127.0.0.1:${port}/mcp`;
const expiresAt = Math.floor(Date.now() / 1000) + 3600;
// Two demo tokens; in production, the authorization server's verifier.
const tokens: Record<string, string[]> = { 'admin-token': ['mcp', 'admin'], 'user-token': ['mcp'] };
const server = await listen(
  createStreamableHttpHandler(mcp.server, {
    authenticate: requireBearerAuth({ resource, verifyAccessToken: (t) => (tokens[t] ? { clientId: t, scopes: tokens[t], audience: resource, expiresAt } : undefined) }),
  }),
  { port, logger: false },
);

for (const token of Object.keys(tokens)) {
  const client = createClient({ info: { name: token, version: '1.0.0' } });
  await client.connect(createStreamableHttpClientTransport(server.url, { headers: { Authorization: `Bearer ${token}` } }));
  const names = (await client.listTools()).tools.map((t) => t.name);
  const call = await client.callTool('shutdown').then(() => 'called', (e: unknown) => (e instanceof McpError ? `${e.code} ${e.message}` : String(e)));
  console.log(token, names, call); // user-token [ 'status' ] -32602 Unknown tool: shutdown
  await client.close();
}
await server.close();
await mcp.close();
