// A resource server that takes only tokens issued for it, and clients: one with a token, one
// with the OAuth flow (a 401 runs discovery, registration, PKCE and the token request).
import { createClient, listen, createMcpServer, text, TransportError, McpError } from 'mcp-actors';
import { InMemoryOAuthClientProvider, createProtectedResourceMetadataHandler, requireBearerAuth } from 'mcp-actors/auth';
import { createStreamableHttpClientTransport, createStreamableHttpHandler } from 'mcp-actors/streams';

const mcp = createMcpServer({ info: { name: 'protected', version: '1.0.0' } });
mcp.registerTool('whoami', {}, (_args, ctx) => ({ content: [text(JSON.stringify(ctx.authInfo))] })); // who called (never the token)

// Server: tokens must be issued for this server (audience), unexpired, with the scopes asked
// for. In production, verify with introspectionVerifier({ endpoint }) or your JWT check.
const port = Number(process.env['PORT'] ?? 3001);
const resource = `http://127.0.0.1:${port}/mcp`;
const handler = createStreamableHttpHandler(mcp.server, {
  authenticate: requireBearerAuth({
    resource,
    verifyAccessToken: (token) =>
      token === 'demo-token' ? { clientId: 'demo', scopes: ['mcp:read'], audience: resource, expiresAt: Math.floor(Date.now() / 1000) + 3600 } : undefined,
  }),
});
const server = await listen(createProtectedResourceMetadataHandler({ resource, authorizationServers: ['https://auth.example.com'] }, handler), {
  port,
  logger: false,
});

// A client with a token it already has.
const withToken = createClient({ info: { name: 'agent', version: '1.0.0' } });
await withToken.connect(createStreamableHttpClientTransport(server.url, { headers: { Authorization: 'Bearer demo-token' } }));
console.log(JSON.stringify((await withToken.callTool('whoami')).content));
await withToken.close();

// A client without one is refused (401 with the resource metadata to start OAuth from).
const anonymous = createClient({ info: { name: 'anonymous', version: '1.0.0' } });
await anonymous.connect(createStreamableHttpClientTransport(server.url)).catch((e: unknown) => {
  console.log(e instanceof TransportError || e instanceof McpError ? e.message.split('\n')[0] : e);
});

// The OAuth flow for a user: `authorize` is your part (open the URL, return the redirect URL).
const auth = new InMemoryOAuthClientProvider({
  redirectUrl: 'http://127.0.0.1:8765/callback',
  authorize: async (url) => {
    throw new Error(`open ${url.origin} in a browser and return the redirect URL`);
  },
});
void auth; // client.connect(createStreamableHttpClientTransport(url, { auth }))
await server.close();
