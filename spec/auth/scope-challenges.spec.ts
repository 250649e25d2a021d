// Scope selection and step-up against an in-test authorization server and protected MCP server on
// 127.0.0.1, through the Streamable HTTP transport's `auth` option (2026-07-28 scope strategy).
import { expect } from 'chai';
import { AuthorizationError } from '../../lib/auth/authorization-errors.js';
import { OAuthClient } from '../../lib/auth/oauth-client.js';
import { headlessAuthorize, InMemoryOAuthClientProvider } from '../../lib/auth/provider.js';
import { Client } from '../../lib/entries/client.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';
import { startAuthorizationServer, startProtectedServer, type ProtectedServerOptions, type TestAuthorizationServer, type TestProtectedServer } from './helpers.js';

const REDIRECT = 'http://127.0.0.1:1/callback';

describe('OAuth client: challenged scopes and step-up', () => {
  let as: TestAuthorizationServer | undefined;
  let rs: TestProtectedServer | undefined;
  let client: Client | undefined;

  afterEach(async () => {
    await client?.close().catch(() => {});
    client = undefined;
    await rs?.close();
    await as?.close();
  });

  async function connect(rsOptions: Partial<ProtectedServerOptions>): Promise<{ client: Client; oauth: OAuthClient }> {
    as = await startAuthorizationServer();
    rs = await startProtectedServer({ as, ...rsOptions });
    const oauth = new OAuthClient({ serverUrl: rs.url, provider: new InMemoryOAuthClientProvider({ redirectUrl: REDIRECT, authorize: headlessAuthorize() }) });
    client = new Client({ info: { name: 'scopes', version: '1.0.0' } });
    await client.connect(createStreamableHttpClientTransport(rs.url, { auth: oauth }));
    return { client, oauth };
  }

  it('[AUTH-128] [AUTH-129] asks for exactly the challenged scopes, even when they are outside scopes_supported (neither filtered by it nor widened to it)', async () => {
    const { client: c } = await connect({ requiredScopes: ['files:read:project-7'], scopesSupported: ['mcp:basic', 'mcp:admin'] });
    expect((await c.listTools()).map((t) => t.name)).to.deep.equal(['echo']);
    expect(as!.authorizations.map((q) => q.get('scope'))).to.deep.equal(['files:read:project-7']);
    expect([...as!.tokens.values()].map((t) => t.scopes)).to.deep.equal([['files:read:project-7']]);
  });

  it('[AUTH-130] [AUTH-172] [AUTH-173] a per-operation challenge steps up to the union with the scopes already asked for, so the earlier operation keeps working without another authorization', async () => {
    // The server names only the current operation's scope in each 403 (RFC 6750 §3.1).
    const { client: c } = await connect({ methodScopes: { 'tools/list': ['mcp:read'], 'tools/call': ['mcp:write'] } });
    await c.listTools();
    await c.callTool('echo', {});
    await c.listTools();
    await c.callTool('echo', {});
    // The connection (no scope asked), then one step-up per operation, the second keeping the first.
    expect(as!.authorizations.map((q) => q.get('scope'))).to.deep.equal([null, 'mcp:read', 'mcp:read mcp:write']);
  });

  it('[AUTH-174] a 403 asking for scopes the token was already granted starts no new authorization: a typed insufficient_scope error at once, the next attempt too, and other calls keep working', async () => {
    // tools/call is refused whatever the token holds; the first 403 still gets one step-up,
    // because the token does not have files:write yet.
    const { client: c, oauth } = await connect({ requiredScopes: ['mcp:basic'], refusedMethods: { 'tools/call': ['files:write'] } });
    const first = await c.callTool('echo', {}).then(() => undefined, (e: unknown) => e);
    expect(String((first as Error)?.message)).to.match(/already granted/);
    expect(oauth.snapshot?.context.error).to.be.instanceOf(AuthorizationError);
    expect(oauth.snapshot?.context.error?.code).to.equal('insufficient_scope');
    // The token is kept for what it allows: no failed state, so it is refreshed or used as before.
    expect(oauth.snapshot?.value).to.equal('authorized');
    expect(as!.authorizations.map((q) => q.get('scope'))).to.deep.equal(['mcp:basic', 'mcp:basic files:write']);
    // A call that the token allows succeeds (and resets the attempt count)...
    expect((await c.listTools()).map((t) => t.name)).to.deep.equal(['echo']);
    // ...and the refused operation does not send the user to the authorization server again.
    const again = await c.callTool('echo', {}).then(() => undefined, (e: unknown) => e);
    expect(String((again as Error)?.message)).to.match(/already granted/);
    expect(as!.authorizations).to.have.length(2);
  });
});
