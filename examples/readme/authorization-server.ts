// Three ways to put authorization in front of an MCP server: `node authorization-server.js embedded`
// (our authorization server with its own sign-in pages), `front` (the same, with sign-in delegated
// to an identity provider that offers no dynamic registration), or `external` (yours).
import { createServer } from 'node:http';
import { createAuthorizationServer, createProtectedResourceMetadataHandler, introspectionVerifier, memoryAccounts, requireBearerAuth, type VerifyAccessToken } from 'mcp-actors/auth';
import { createMcpServer, listen, text } from 'mcp-actors';
import { createStreamableHttpHandler } from 'mcp-actors/streams';

const resource = 'http://127.0.0.1:3001/mcp';
const issuer = 'http://127.0.0.1:4000';
const mode = process.argv[2] ?? 'embedded';
let verifyAccessToken: VerifyAccessToken;
let authorizationServers: string[];

if (mode === 'external') {
  // Your authorization server issues the tokens; this server asks it about each one (RFC 7662).
  verifyAccessToken = introspectionVerifier({ endpoint: 'https://auth.example.com/introspect', clientId: 'mcp-server', clientSecret: process.env['INTROSPECTION_SECRET'] ?? '' });
  authorizationServers = ['https://auth.example.com'];
} else {
  // Embedded (needs `npm install oidc-provider`). As a front: register it once at the identity
  // provider, redirect URI `${issuer}/upstream/callback`; MCP clients register here.
  const as = await createAuthorizationServer({
    issuer,
    resources: [{ uri: resource, scopes: ['mcp'] }],
    ...(mode === 'front'
      ? { upstream: { issuer: 'https://idp.example.com', clientId: 'mcp-front', clientSecret: process.env['IDP_CLIENT_SECRET'] ?? '' } }
      : { accounts: memoryAccounts({ alice: process.env['ALICE_PASSWORD'] ?? 'correct horse' }) }),
  });
  createServer((req, res) => as.handler(req, res)).listen(4000, '127.0.0.1');
  verifyAccessToken = as.verifier(resource); // its own keys: no network
  authorizationServers = [issuer];
}

const mcp = createMcpServer({ info: { name: 'protected', version: '1.0.0' } });
mcp.registerTool('whoami', {}, (_args, ctx) => ({ content: [text(JSON.stringify(ctx.authInfo))] }));
// Tokens for this server only (audience), unexpired; DPoP-bound ones with a proof by their key.
const handler = createStreamableHttpHandler(mcp.server, { authenticate: requireBearerAuth({ resource, verifyAccessToken, dpop: true }) });
await listen(createProtectedResourceMetadataHandler({ resource, authorizationServers }, handler), { port: 3001 });
