/**
 * Authorization interop with the official SDK (1.32.2), both ways, each over real HTTP on
 * 127.0.0.1 with the SDK's own authorization server (`mcpAuthRouter` + its in-memory demo
 * provider: DCR, PKCE, an authorization endpoint that approves at once):
 *
 * - our client's whole flow (401 → RFC 9728 → RFC 8414 → DCR → PKCE → token with `resource`)
 *   against an SDK server behind the SDK's `requireBearerAuth` with `expectedResource`;
 * - the SDK client's flow (its `auth()` and `OAuthClientProvider`) against our server behind
 *   `requireBearerAuth` + `createProtectedResourceMetadataHandler`, verifying tokens by RFC 7662
 *   introspection at that authorization server.
 */
import { expect } from 'chai';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError, type OAuthClientProvider as SdkOAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { DemoInMemoryAuthProvider } from '@modelcontextprotocol/sdk/examples/server/demoInMemoryOAuthProvider.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { getOAuthProtectedResourceMetadataUrl, mcpAuthMetadataRouter, mcpAuthRouter, createOAuthMetadata } from '@modelcontextprotocol/sdk/server/auth/router.js';
import { requireBearerAuth as sdkRequireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { createClient } from '../../../lib/entries/client.js';
import { createHeadlessOAuthProvider } from '../../../lib/auth/provider.js';
import { bearerAuthInfo } from '../../../lib/auth/server/auth-info.js';
import { requireBearerAuth } from '../../../lib/auth/server/bearer-auth.js';
import { introspectionVerifier } from '../../../lib/auth/server/introspection.js';
import { createProtectedResourceMetadataHandler } from '../../../lib/auth/server/protected-resource-handler.js';
import { listen, type Listening } from '../../../lib/http/listen-port.js';
import { Server } from '../../../lib/server.js';
import { createStreamableHttpClientTransport } from '../../../streams/streamable-http-client.js';
import { createStreamableHttpHandler } from '../../../lib/server-bindings/streamable-http-server.js';

const REDIRECT = 'http://127.0.0.1:9/callback'; // nothing listens: the code is read from the redirect

interface Seen {
  method: string;
  path: string;
  authorization: string | undefined;
  status?: number;
}

/** An HTTP server on 127.0.0.1 whose handler is set once its port is known. */
async function loopback(): Promise<{ server: HttpServer; origin: string; set(h: (req: IncomingMessage, res: ServerResponse) => void): void; close(): Promise<void> }> {
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  const server = createServer((req, res) => handler!(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    origin: `http://127.0.0.1:${port}`,
    set: (h) => (handler = h),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The SDK's authorization server (DCR, authorize, token) plus an RFC 7662 introspection endpoint. */
async function sdkAuthorizationServer(resource: () => string) {
  const http = await loopback();
  const issuer = new URL(`${http.origin}/`);
  const provider = new DemoInMemoryAuthProvider((r) => r?.href === resource());
  const app = express();
  app.use(mcpAuthRouter({ provider, issuerUrl: issuer, scopesSupported: ['mcp:tools'] }));
  app.post('/introspect', express.urlencoded({ extended: false }), async (req, res) => {
    try {
      const info = await provider.verifyAccessToken(String(req.body.token));
      res.json({ active: true, client_id: info.clientId, scope: info.scopes.join(' '), exp: info.expiresAt, aud: info.resource?.href });
    } catch {
      res.json({ active: false });
    }
  });
  http.set(app);
  const metadata = createOAuthMetadata({ provider, issuerUrl: issuer, scopesSupported: ['mcp:tools'] });
  return { http, issuer: issuer.href, provider, metadata };
}

describe('interop: authorization with the official SDK', function () {
  this.timeout(20_000);
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close().catch(() => {});
  });

  it('[AUTH-007] [AUTH-009] [AUTH-016] [AUTH-017] [AUTH-025] [AUTH-026] [AUTH-045] our client authorizes at the SDK authorization server and calls an SDK server that checks the token audience', async () => {
    const rs = await loopback();
    closers.push(rs.close);
    const mcpUrl = new URL(`${rs.origin}/mcp`);
    const as = await sdkAuthorizationServer(() => mcpUrl.href);
    closers.push(as.http.close);

    const seen: Seen[] = [];
    const app = express();
    app.use((req, res, next) => {
      const entry: Seen = { method: req.method, path: req.path, authorization: req.headers.authorization };
      seen.push(entry);
      res.on('finish', () => (entry.status = res.statusCode));
      next();
    });
    app.use(mcpAuthMetadataRouter({ oauthMetadata: as.metadata, resourceServerUrl: mcpUrl, scopesSupported: ['mcp:tools'] }));
    const bearer = sdkRequireBearerAuth({ verifier: as.provider, resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpUrl), expectedResource: mcpUrl });
    app.post('/mcp', bearer, express.json(), async (req, res) => {
      // Stateless: one SDK server per request, as the SDK's stateless example.
      const server = new McpServer({ name: 'sdk-protected', version: '1.0.0' });
      server.registerTool('whoami', { description: 'Who the token says the caller is' }, async (extra) => ({
        content: [{ type: 'text', text: JSON.stringify({ clientId: extra.authInfo?.clientId, resource: extra.authInfo?.resource?.href }) }],
      }));
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    });
    app.get('/mcp', bearer, (_req, res) => res.status(405).set('allow', 'POST').end());
    app.delete('/mcp', bearer, (_req, res) => res.status(405).set('allow', 'POST').end());
    rs.set(app);

    const provider = createHeadlessOAuthProvider({ redirectUrl: REDIRECT, clientMetadata: { client_name: 'mcp-actors interop' } });
    const client = createClient({ info: { name: 'ours', version: '1.0.0' } });
    await client.connect(createStreamableHttpClientTransport(mcpUrl, { auth: provider }));
    const result = await client.callTool('whoami', {});
    const said = JSON.parse((result.content[0] as { text: string }).text) as { clientId: string; resource: string };
    await client.close();

    // The SDK's authorization server registered us, and the token it issued names this server.
    const registered = await provider.clientInformation(as.issuer);
    expect(registered?.client_id, 'registered by DCR').to.be.a('string').and.not.equal('');
    expect(said.clientId).to.equal(registered!.client_id);
    expect(said.resource).to.equal(mcpUrl.href);
    // Only the very first request went without a token; every MCP request after it carried one.
    const mcpRequests = seen.filter((s) => s.path === '/mcp');
    expect(mcpRequests[0]).to.include({ method: 'POST', status: 401 });
    expect(mcpRequests[0]!.authorization).to.equal(undefined);
    expect(mcpRequests.slice(1).length).to.be.greaterThan(2);
    for (const r of mcpRequests.slice(1)) expect(r.authorization, `${r.method} ${r.path}`).to.match(/^Bearer \S+$/);
    expect(seen.some((s) => s.path === '/.well-known/oauth-protected-resource/mcp' && s.status === 200)).to.equal(true);
  });

  it('[AUTH-006] [AUTH-010] [AUTH-012] [AUTH-028] [AUTH-029] the SDK client authorizes with its own flow and calls our server, which verifies tokens by introspection', async () => {
    const rs = await loopback();
    closers.push(rs.close);
    let mcpUrl = '';
    const as = await sdkAuthorizationServer(() => mcpUrl);
    closers.push(as.http.close);

    const server = new Server({ info: { name: 'ours-protected', version: '1.0.0' }, capabilities: { tools: {} } });
    server.onRequest('tools/list', () => ({ tools: [{ name: 'whoami', inputSchema: { type: 'object' } }] }));
    server.onRequest('tools/call', (_params, ctx) => {
      const info = bearerAuthInfo(ctx.authInfo);
      return { content: [{ type: 'text', text: JSON.stringify({ clientId: info?.clientId, scopes: info?.scopes, resource: info?.resource }) }] };
    });
    const slot: { handler?: (req: IncomingMessage, res: ServerResponse) => void } = {};
    const front = Object.assign((req: IncomingMessage, res: ServerResponse) => slot.handler!(req, res), { path: '/mcp', close: async () => {} });
    const listening: Listening = await listen(front, { logger: false });
    closers.push(() => listening.close());
    mcpUrl = listening.url;
    const auth = requireBearerAuth({ resource: mcpUrl, verifyAccessToken: introspectionVerifier({ endpoint: `${as.http.origin}/introspect` }) });
    const mcp = createStreamableHttpHandler(server, { authenticate: auth });
    slot.handler = createProtectedResourceMetadataHandler({ resource: mcpUrl, authorizationServers: [as.issuer], scopesSupported: ['mcp:tools'] }, mcp);
    closers.push(() => server.close());

    // The SDK's provider interface, headless: the authorization URL is fetched without a browser.
    let authorizationUrl: URL | undefined;
    let info: OAuthClientInformationMixed | undefined;
    let tokens: OAuthTokens | undefined;
    let verifier = '';
    const sdkProvider: SdkOAuthClientProvider = {
      get redirectUrl() {
        return REDIRECT;
      },
      get clientMetadata(): OAuthClientMetadata {
        return { client_name: 'sdk interop client', redirect_uris: [REDIRECT], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_post' };
      },
      clientInformation: () => info,
      saveClientInformation: (i) => void (info = i),
      tokens: () => tokens,
      saveTokens: (t) => void (tokens = t),
      redirectToAuthorization: (url) => void (authorizationUrl = url),
      saveCodeVerifier: (v) => void (verifier = v),
      codeVerifier: () => verifier,
    };

    const first = new SdkClient({ name: 'sdk', version: '1.0.0' });
    const firstTransport = new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: sdkProvider });
    let refused: unknown;
    await first.connect(firstTransport).catch((e: unknown) => (refused = e));
    expect(refused, 'our 401 sends the SDK client to authorize').to.be.instanceOf(UnauthorizedError);
    expect(authorizationUrl?.searchParams.get('resource')).to.equal(mcpUrl);

    const redirect = await fetch(authorizationUrl!, { redirect: 'manual' });
    const code = new URL(redirect.headers.get('location')!).searchParams.get('code');
    expect(code, 'the SDK authorization server redirected with a code').to.be.a('string');
    await firstTransport.finishAuth(code!);
    expect(tokens?.access_token).to.be.a('string');

    const client = new SdkClient({ name: 'sdk', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: sdkProvider }));
    const result = (await client.callTool({ name: 'whoami', arguments: {} })) as { content: { text: string }[] };
    const said = JSON.parse(result.content[0]!.text) as { clientId: string; resource: string };
    expect(said.clientId).to.equal(info?.client_id);
    expect(said.resource).to.equal(mcpUrl);
    await client.close();

    // A token the authorization server never issued is refused with the RFC 9728 pointer.
    const forged = await fetch(mcpUrl, {
      method: 'POST',
      headers: { authorization: 'Bearer not-a-token', 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(forged.status).to.equal(401);
    expect(forged.headers.get('www-authenticate')).to.match(/error="invalid_token"/).and.match(/resource_metadata="[^"]+oauth-protected-resource\/mcp"/);
  });
});
