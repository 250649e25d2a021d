// Refresh tokens (2026-07-28 "Refresh Tokens"): our client through the Streamable HTTP transport's
// `auth` option, against an in-test authorization server and protected MCP server on 127.0.0.1,
// on a simulated clock.
import { expect } from 'chai';
import { OAuthClient, type OAuthClientSnapshot } from '../../lib/auth/oauth-client.js';
import { headlessAuthorize, InMemoryOAuthClientProvider } from '../../lib/auth/provider.js';
import { Client } from '../../lib/entries/client.js';
import { ManualClock } from '../../lib/clock.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';
import { startAuthorizationServer, startProtectedServer, T0, type AuthorizationServerOptions, type ProtectedServerOptions, type TestAuthorizationServer, type TestProtectedServer } from './helpers.js';

const REDIRECT = 'http://127.0.0.1:1/callback';

describe('OAuth client: refresh tokens', () => {
  let as: TestAuthorizationServer | undefined;
  let rs: TestProtectedServer | undefined;
  let client: Client | undefined;
  let unsubscribe: (() => void) | undefined;

  afterEach(async () => {
    unsubscribe?.();
    await client?.close().catch(() => {});
    client = undefined;
    await rs?.close();
    await as?.close();
  });

  async function connect(asOptions: AuthorizationServerOptions, clock: ManualClock, rsOptions: Partial<ProtectedServerOptions> = {}) {
    as = await startAuthorizationServer({ expiresIn: 60, clock, ...asOptions });
    rs = await startProtectedServer({ as, ...rsOptions });
    const provider = new InMemoryOAuthClientProvider({ redirectUrl: REDIRECT, authorize: headlessAuthorize() });
    const oauth = new OAuthClient({ serverUrl: rs.url, provider, clock });
    client = new Client({ info: { name: 'refresh', version: '1.0.0' } });
    await client.connect(createStreamableHttpClientTransport(rs.url, { auth: oauth, clock }));
    const states: string[] = [];
    unsubscribe = await oauth.subscribe((s: OAuthClientSnapshot) => states.push(String(s.value)));
    return { client, provider, states };
  }

  it('[AUTH-163] does not count on a refresh token: when none was issued, an expired token leads to a new authorization, never to a refresh', async () => {
    const clock = new ManualClock(T0);
    const { client: c, provider, states } = await connect({ issueRefreshTokens: false }, clock);
    expect(provider.tokens()?.refresh_token).to.equal(undefined);
    clock.advance(61_000);
    expect((await c.listTools()).map((t) => t.name)).to.deep.equal(['echo']);
    expect(as!.authorizations).to.have.length(2);
    expect(as!.tokenRequests.map((r) => r.form.get('grant_type'))).to.deep.equal(['authorization_code', 'authorization_code']);
    expect(states).not.to.include('refreshing');
  });

  it('[AUTH-163] keeps the refresh token it has when a refresh answer brings no new one, and refreshes with it again later', async () => {
    const clock = new ManualClock(T0);
    const { client: c, provider } = await connect({ issueRefreshTokens: true, rotateRefreshTokens: false }, clock);
    const refreshToken = provider.tokens()?.refresh_token;
    expect(refreshToken).to.be.a('string');
    for (let i = 0; i < 2; i++) {
      clock.advance(61_000);
      await c.listTools();
      expect(provider.tokens()?.refresh_token).to.equal(refreshToken);
    }
    expect(as!.tokenRequests.map((r) => r.form.get('refresh_token'))).to.deep.equal([null, refreshToken, refreshToken]);
    expect(as!.authorizations).to.have.length(1);
  });

  it('after a request that gave up (retry limit), an expired token is still refreshed, not replaced by a new authorization', async () => {
    const clock = new ManualClock(T0);
    // tools/list needs a scope the server never grants: three step-ups, then retry_limit.
    const { client: c, states } = await connect({ issueRefreshTokens: true, withheldScopes: ['mcp:admin'] }, clock, { methodScopes: { 'tools/list': ['mcp:admin'] } });
    const error = await c.listTools().then(() => undefined, (e: unknown) => e);
    expect(String((error as Error)?.message)).to.match(/after 3 authorization attempt\(s\)/);
    expect(states.at(-1)).to.equal('failed');
    const authorizations = as!.authorizations.length;
    clock.advance(61_000);
    expect((await c.callTool('echo', {})).content).to.have.length(1);
    expect(as!.authorizations).to.have.length(authorizations);
    expect(as!.tokenRequests.at(-1)!.form.get('grant_type')).to.equal('refresh_token');
  });

  it('after a request that gave up (retry limit), an expired token without a refresh token leads to one new authorization, not to the same retry_limit', async () => {
    const clock = new ManualClock(T0);
    const { client: c } = await connect({ issueRefreshTokens: false, withheldScopes: ['mcp:admin'] }, clock, { methodScopes: { 'tools/list': ['mcp:admin'] } });
    const error = await c.listTools().then(() => undefined, (e: unknown) => e);
    expect(String((error as Error)?.message)).to.match(/after 3 authorization attempt\(s\)/);
    const authorizations = as!.authorizations.length;
    clock.advance(61_000);
    expect((await c.callTool('echo', {})).content).to.have.length(1);
    expect(as!.authorizations).to.have.length(authorizations + 1);
  });

  it('[AUTH-161] sends a refresh token only to the token endpoint, in the POST body: never in a URL, never to the MCP server', async () => {
    const clock = new ManualClock(T0);
    const { client: c } = await connect({ issueRefreshTokens: true }, clock);
    for (let i = 0; i < 2; i++) {
      clock.advance(61_000);
      await c.listTools();
    }
    const refreshTokens = as!.tokenRequests.map((r) => r.form.get('refresh_token')).filter((t): t is string => t !== null);
    expect(refreshTokens).to.have.length(2);
    for (const token of refreshTokens) {
      for (const r of rs!.requests) expect(`${r.url} ${r.authorization ?? ''}`).not.to.include(token);
      const carrying = as!.requests.filter((r) => JSON.stringify(r).includes(token));
      expect(carrying.map((r) => `${r.method} ${r.url}`)).to.deep.equal(['POST /token']);
      expect(carrying[0]!.body?.refresh_token).to.equal(token);
    }
  });
});
