// DPoP (RFC 9449, MCP's DPoP extension SEP-1932) in our OAuth client, end to end: our Client over
// Streamable HTTP with `auth`, against an in-test authorization server and resource server that
// check every proof (spec/auth/dpop-servers.ts: signature with the header's jwk, typ, htm, htu,
// iat, ath, the token's key binding, jti never reused) and may demand nonces. One simulated clock.
import { expect } from 'chai';
import { createClientCredentialsProvider } from '../../lib/auth/client-credentials-provider.js';
import { DpopProver, dpopHtu } from '../../lib/auth/dpop.js';
import { AuthorizationError, TokenEndpointError } from '../../lib/auth/authorization-errors.js';
import { OAuthClient, type OAuthClientOptions } from '../../lib/auth/oauth-client.js';
import { InMemoryOAuthClientProvider } from '../../lib/auth/provider.js';
import { Client } from '../../lib/entries/client.js';
import { ManualClock } from '../../lib/clock.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';
import { checkProof, startDpopAuthServer, startDpopResourceServer, thumbprint, type DpopAuthServer, type DpopAuthServerOptions, type DpopResourceServer } from './dpop-servers.js';

const T0 = 1_700_000_000_000;
const REDIRECT = 'http://127.0.0.1:9/callback';

describe('DPoP (RFC 9449, SEP-1932): proofs on token and MCP requests, nonces', () => {
  let clock: ManualClock;
  let as: DpopAuthServer;
  let rs: DpopResourceServer;
  let client: Client | undefined;

  async function setUp(asOptions: Partial<DpopAuthServerOptions> = {}, rsOptions: Parameters<typeof startDpopResourceServer>[2] = {}) {
    clock = new ManualClock(T0);
    as = await startDpopAuthServer({ clock, algs: ['ES256'], ...asOptions });
    rs = await startDpopResourceServer(as, clock, rsOptions);
  }

  /** A user's authorization without a user: the "authorization server" answers with a code at once. */
  function userProvider(): InMemoryOAuthClientProvider {
    return new InMemoryOAuthClientProvider({
      redirectUrl: REDIRECT,
      clientInformation: { client_id: 'public-client', token_endpoint_auth_method: 'none' },
      authorize: (url) => {
        const back = new URL(REDIRECT);
        back.searchParams.set('code', 'the-code');
        back.searchParams.set('state', url.searchParams.get('state') ?? '');
        return Promise.resolve(back);
      },
    });
  }

  async function connect(options: Partial<OAuthClientOptions> = {}): Promise<{ c: Client; oauth: OAuthClient }> {
    const oauth = new OAuthClient({ serverUrl: rs.url, provider: userProvider(), clock, ...options });
    client = new Client({ info: { name: 'dpop', version: '1.0.0' } });
    await client.connect(createStreamableHttpClientTransport(rs.url, { auth: oauth, clock }));
    return { c: client, oauth };
  }

  /** Every jti the two servers saw: none twice. */
  function expectFreshJtis(): void {
    const jtis = [...as.tokenRequests.map((r) => r.proof?.claims.jti), ...rs.requests.map((r) => r.proof?.claims.jti)].filter((j) => j !== undefined);
    expect(new Set(jtis).size, 'a jti was reused').to.equal(jtis.length);
  }

  afterEach(async () => {
    await client?.close().catch(() => {});
    client = undefined;
    await rs?.close();
    await as?.close();
  });

  it('a proof signed with the key in its header: typ dpop+jwt, ES256, public jwk only; htu without query or fragment', () => {
    clock = new ManualClock(T0);
    const prover = new DpopProver();
    const proof = prover.proof({ method: 'post', url: 'https://as.example/token?x=1#frag', nowSeconds: T0 / 1000 });
    const checked = checkProof(proof, 'POST', 'https://as.example/token', clock);
    expect(checked.problem).to.equal(undefined);
    expect(checked.header.jwk).to.deep.equal(prover.publicJwk).and.not.have.property('d');
    expect(checked.claims.htu).to.equal('https://as.example/token');
    expect(checked.jkt).to.equal(prover.thumbprint).and.equal(thumbprint(prover.publicJwk as Record<string, unknown>));
    expect(dpopHtu('http://127.0.0.1:8080/mcp?session=1')).to.equal('http://127.0.0.1:8080/mcp');
    // A tampered payload no longer verifies: the check above is not vacuous.
    const [h, , s] = proof.split('.');
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...checked.claims, htm: 'GET' })).toString('base64url')}.${s}`;
    expect(checkProof(forged, 'GET', 'https://as.example/token', clock).problem).to.equal('signature does not verify');
  });

  it('auto: the authorization server lists ES256, so the code is redeemed with a proof, and every MCP request carries Authorization: DPoP and a fresh proof (ath, htm, htu) of the same key', async () => {
    await setUp();
    const { c } = await connect();
    expect((await c.listTools()).map((t) => t.name)).to.deep.equal(['whoami']);
    await c.callTool('whoami', {});
    const [code] = as.tokenRequests;
    expect(code!.form.get('grant_type')).to.equal('authorization_code');
    expect(code!.proof?.problem).to.equal(undefined);
    expect(code!.status).to.equal(200);
    const token = [...as.tokens.keys()][0]!;
    expect(as.tokens.get(token)).to.equal(code!.proof!.jkt);
    const authed = rs.requests.filter((r) => r.authorization !== undefined);
    expect(authed.length).to.be.greaterThan(2);
    for (const r of authed) {
      expect(r.authorization).to.equal(`DPoP ${token}`);
      expect(r.proof?.problem, `${r.method} ${r.url}`).to.equal(undefined);
      expect(r.proof!.jkt).to.equal(code!.proof!.jkt);
      expect(r.status).to.be.lessThan(400);
    }
    expectFreshJtis();
  });

  it('refreshes an expired DPoP-bound token with a proof of the same key, then presents the new token as DPoP', async () => {
    await setUp();
    const { c } = await connect();
    await c.listTools();
    clock.advance(3_600_000);
    await c.callTool('whoami', {});
    expect(as.tokenRequests.map((r) => `${r.form.get('grant_type')} ${r.status}`)).to.deep.equal(['authorization_code 200', 'refresh_token 200']);
    const [first, refresh] = as.tokenRequests;
    expect(refresh!.proof?.problem).to.equal(undefined);
    expect(refresh!.proof!.jkt).to.equal(first!.proof!.jkt);
    expect(rs.requests.at(-1)!.authorization).to.equal('DPoP at-2');
    expectFreshJtis();
  });

  it('nonces: a use_dpop_nonce from the token endpoint (400) and from the MCP server (401) is answered once each with the nonce, which is then remembered per server, the newest winning', async () => {
    await setUp({ nonce: 'as-nonce-1' }, { nonces: ['rs-nonce-1', 'rs-nonce-2'], rotateAfter: 2 });
    const { c } = await connect();
    await c.listTools();
    await c.callTool('whoami', {});
    await c.callTool('whoami', {});
    expect(as.tokenRequests.map((r) => [r.status, r.proof?.claims.nonce ?? null])).to.deep.equal([
      [400, null],
      [200, 'as-nonce-1'],
    ]);
    const authed = rs.requests.filter((r) => r.authorization !== undefined);
    // One challenge only: the first DPoP request; after that each proof carries the newest nonce
    // (the server handed out rs-nonce-2 on its second success).
    expect(authed.map((r) => [r.status < 400 ? 'ok' : r.status, r.proof?.claims.nonce ?? null])).to.deep.equal([
      [401, null],
      ['ok', 'rs-nonce-1'],
      ...authed.slice(2).map((r, i) => ['ok', i === 0 ? 'rs-nonce-1' : 'rs-nonce-2']),
    ]);
    expect(authed.at(-1)!.proof!.claims.nonce).to.equal('rs-nonce-2');
    expectFreshJtis();
  });

  it('a token endpoint that asks for a new nonce every time gets one retry, then a TokenEndpointError use_dpop_nonce', async () => {
    let n = 0;
    await setUp({ nonce: () => `nonce-${++n}` });
    const oauth = new OAuthClient({ serverUrl: rs.url, provider: userProvider(), clock });
    const e = (await oauth.handleChallenge('unauthorized', null, undefined).catch((x: unknown) => x)) as TokenEndpointError;
    expect(e).to.be.instanceOf(TokenEndpointError);
    expect([e.error, e.grantType]).to.deep.equal(['use_dpop_nonce', 'authorization_code']);
    expect(as.tokenRequests.map((r) => [r.status, r.proof?.claims.nonce ?? null])).to.deep.equal([
      [400, null],
      [400, 'nonce-1'],
    ]);
  });

  it('client credentials: the grant request carries a proof too, and the token is presented as DPoP', async () => {
    await setUp();
    const provider = createClientCredentialsProvider({ clientId: 'm2m', clientSecret: 'the secret', authMethod: 'client_secret_post' });
    client = new Client({ info: { name: 'dpop-m2m', version: '1.0.0' } });
    await client.connect(createStreamableHttpClientTransport(rs.url, { auth: new OAuthClient({ serverUrl: rs.url, provider, clock }), clock }));
    await client.callTool('whoami', {});
    expect(as.tokenRequests.map((r) => [r.form.get('grant_type'), r.proof?.problem ?? 'valid'])).to.deep.equal([['client_credentials', 'valid']]);
    expect(rs.requests.at(-1)!.authorization).to.equal('DPoP at-1');
  });

  it('auto with an authorization server that does not advertise DPoP: no proof, a Bearer token; the DPoP-only MCP server refusing it is AuthorizationError dpop_unsupported, not another authorization', async () => {
    await setUp({ algs: undefined, bearerOnly: true });
    const err = (await connect().then(
      () => undefined,
      (e: unknown) => e,
    )) as (Error & { data?: Record<string, unknown> }) | undefined;
    expect(err?.data?.authorization, String(err)).to.equal('dpop_unsupported');
    expect(err?.message).to.match(/issued a Bearer token/);
    expect(as.tokenRequests.map((r) => [r.form.get('grant_type'), r.proof])).to.deep.equal([['authorization_code', undefined]]);
    expect(rs.requests.filter((r) => r.authorization !== undefined).map((r) => r.authorization)).to.deep.equal(['Bearer at-1']);
  });

  it("dpop 'off' against an MCP server that challenges with DPoP only: AuthorizationError dpop_unsupported, no token requested", async () => {
    await setUp();
    const err = (await connect({ dpop: 'off' }).then(
      () => undefined,
      (e: unknown) => e,
    )) as (Error & { data?: Record<string, unknown> }) | undefined;
    expect(err?.data?.authorization, String(err)).to.equal('dpop_unsupported');
    expect(err?.message).to.match(/accepts DPoP-bound tokens only, and DPoP is off/);
    expect(as.tokenRequests).to.deep.equal([]);
  });

  it("dpop 'always' with an authorization server that lists other algorithms only: AuthorizationError dpop_unsupported before any token request", async () => {
    await setUp({ algs: ['RS256'] });
    const oauth = new OAuthClient({ serverUrl: rs.url, provider: userProvider(), clock, dpop: 'always' });
    const e = (await oauth.handleChallenge('unauthorized', null, undefined).catch((x: unknown) => x)) as AuthorizationError;
    expect(e).to.be.instanceOf(AuthorizationError);
    expect(e.code).to.equal('dpop_unsupported');
    expect(e.message).to.match(/signs DPoP proofs with RS256 only/);
    expect(as.tokenRequests).to.deep.equal([]);
  });
});
