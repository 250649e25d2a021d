// Client credentials are kept per authorization server (issuer), and the client registers anew
// when the MCP server moves to another authorization server (revision 2026-07-28's authorization
// updates): nothing of the first server (its client_id, its refresh token, pre-registered
// credentials meant for it) is ever sent to the second.
import { expect } from 'chai';
import { OAuthClient } from '../../lib/auth/oauth-client.js';
import { headlessAuthorize, InMemoryOAuthClientProvider } from '../../lib/auth/provider.js';
import { Client } from '../../lib/entries/client.js';
import { ManualClock } from '../../lib/clock.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';
import { startAuthorizationServer, startProtectedServer, T0, type TestAuthorizationServer, type TestProtectedServer } from './helpers.js';

const REDIRECT = 'http://127.0.0.1:1/callback';

describe('OAuth client: credentials per issuer, and a move to another authorization server', () => {
  const servers: { close(): Promise<void> }[] = [];
  const clients: Client[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });

  async function setUp(clock?: ManualClock): Promise<{ as1: TestAuthorizationServer; as2: TestAuthorizationServer; rs: TestProtectedServer }> {
    const as1 = await startAuthorizationServer({ clientIdPrefix: 'as1-client', issueRefreshTokens: true, ...(clock && { clock }) });
    const as2 = await startAuthorizationServer({ clientIdPrefix: 'as2-client', issuerPath: '/tenant2', issueRefreshTokens: true, ...(clock && { clock }) });
    const rs = await startProtectedServer({ as: as1 });
    servers.push(as1, as2, rs);
    return { as1, as2, rs };
  }
  const provider = (extra: Partial<ConstructorParameters<typeof InMemoryOAuthClientProvider>[0]> = {}) =>
    new InMemoryOAuthClientProvider({ redirectUrl: REDIRECT, clientMetadata: { client_name: 'migrating' }, authorize: headlessAuthorize(), ...extra });
  async function connect(auth: InMemoryOAuthClientProvider | OAuthClient, url: string, clock?: ManualClock): Promise<Client> {
    const client = new Client({ info: { name: 'migrating', version: '1.0.0' } });
    clients.push(client);
    await client.connect(createStreamableHttpClientTransport(url, { auth, ...(clock && { clock }) }));
    return client;
  }
  /** Every client_id a server was shown (authorization and token requests, Basic or form). */
  const clientIdsSeenBy = (as: TestAuthorizationServer) => [
    ...as.authorizations.map((q) => q.get('client_id')),
    ...as.tokenRequests.map((t) => t.form.get('client_id') ?? (t.authorization ? decodeURIComponent(Buffer.from(t.authorization.slice(6), 'base64').toString().split(':')[0]!) : null)),
  ];

  it('[AUTH-179] [AUTH-216] [AUTH-217] registers again at the new server once the old one\'s tokens are refused, and never shows it the old client_id', async () => {
    const { as1, as2, rs } = await setUp();
    const p = provider();
    const client = await connect(p, rs.url);
    await client.listTools();
    expect(as1.registrations).to.have.length(1);
    const firstId = p.clientInformation(as1.issuer)!.client_id;

    rs.useAuthorizationServer(as2);
    expect((await client.callTool('echo', {})).content).to.deep.equal([{ type: 'text', text: 'ok' }]);
    expect(as2.registrations).to.have.length(1);
    const secondId = p.clientInformation(as2.issuer)!.client_id;
    expect(secondId).to.be.a('string').and.not.equal(firstId);
    // Kept per issuer: both are there.
    expect(p.clientInformation(as1.issuer)!.client_id).to.equal(firstId);
    const shownToAs2 = clientIdsSeenBy(as2);
    expect(shownToAs2).to.not.include(firstId);
    expect(shownToAs2.filter((id) => id !== null)).to.include(secondId);
    // No token request at the new server carried the old server's refresh token.
    const oldRefresh = [...as1.refreshTokens.keys()];
    for (const t of as2.tokenRequests) expect(oldRefresh).to.not.include(t.form.get('refresh_token'));
  });

  it('[AUTH-179] [AUTH-217] an expired token from the old server is not refreshed at the new one, even with credentials valid there: the whole flow runs', async () => {
    const clock = new ManualClock(T0);
    const shared = { client_id: 'shared-client', token_endpoint_auth_method: 'none', redirect_uris: [REDIRECT] };
    const as1 = await startAuthorizationServer({ clients: [shared], issueRefreshTokens: true, clock });
    const as2 = await startAuthorizationServer({ clients: [shared], issuerPath: '/tenant2', issueRefreshTokens: true, clock });
    const rs = await startProtectedServer({ as: as1 });
    servers.push(as1, as2, rs);
    // Credentials meant for every server (not bound to an issuer), so the new server knows them too.
    const p = provider({ clientInformation: { client_id: 'shared-client', token_endpoint_auth_method: 'none' } });
    const first = await connect(p, rs.url, clock);
    await first.listTools();
    const oldRefresh = p.tokens()!.refresh_token!;
    expect(oldRefresh).to.be.a('string');
    await first.close();

    // Later, a new client with the stored tokens; the server has moved, and the token has expired.
    rs.useAuthorizationServer(as2);
    clock.advance(2 * 3600_000);
    const second = await connect(p, rs.url, clock);
    await second.listTools();
    expect(as2.tokenRequests.map((t) => t.form.get('grant_type'))).to.deep.equal(['authorization_code']);
    for (const t of as2.tokenRequests) expect(t.form.get('refresh_token')).to.not.equal(oldRefresh);
    expect(p.tokens()!.issuer).to.equal(as2.issuer);
  });

  it('[AUTH-179] [AUTH-216] [AUTH-218] pre-registered credentials bound to an issuer are used only there; another server gets a registration', async () => {
    const { as1, as2, rs } = await setUp();
    const p = provider({ clientInformation: { client_id: 'pre-registered-at-as1' }, clientInformationIssuer: as1.issuer });
    expect(p.clientInformation(as1.issuer)).to.deep.equal({ client_id: 'pre-registered-at-as1' });
    expect(p.clientInformation(as2.issuer)).to.equal(undefined);
    rs.useAuthorizationServer(as2);
    const client = await connect(p, rs.url);
    await client.listTools();
    expect(as2.registrations).to.have.length(1);
    expect(clientIdsSeenBy(as2)).to.not.include('pre-registered-at-as1');
  });
});
