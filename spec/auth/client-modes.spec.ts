// The client's modes without a user (client credentials with a secret or a private key, and
// cross-app access), through the Streamable HTTP transport's `auth` option, end to end against an
// in-test authorization server and identity provider and our protected `Server`
// (requireBearerAuth), all on 127.0.0.1 with one simulated clock.
import { expect } from 'chai';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { createClientCredentialsProvider } from '../../lib/auth/client-credentials-provider.js';
import { createCrossAppAccessProvider } from '../../lib/auth/cross-app-access-provider.js';
import { createWorkloadIdentityProvider } from '../../lib/auth/workload-identity-provider.js';
import { AuthorizationError, TokenEndpointError } from '../../lib/auth/authorization-errors.js';
import type { OAuthGrantProvider } from '../../lib/auth/grant-provider.js';
import { OAuthClient } from '../../lib/auth/oauth-client.js';
import { Client } from '../../lib/entries/client.js';
import { ManualClock } from '../../lib/clock.js';
import { createLegacySseClientTransport } from '../../streams/legacy-sse-client.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';
import { JWT_BEARER, startGrantServer, startProtectedMcp, type GrantServer, type GrantServerOptions, type ProtectedMcp } from './grant-servers.js';

const T0 = 1_700_000_000_000;
const SECRET = 'TOP-SECRET s3cr&t:x';
const ID_TOKEN = 'eyJhbGciOiJFUzI1NiJ9.the-users-id-token.sig';
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const pem = (k: KeyObject) => k.export({ format: 'pem', type: 'pkcs8' }).toString();

describe('client auth modes without a user (end to end)', () => {
  let clock: ManualClock;
  let as: GrantServer;
  let rs: ProtectedMcp;
  let client: Client | undefined;

  async function setUp(asOptions: Partial<GrantServerOptions> = {}, rsOptions: Parameters<typeof startProtectedMcp>[2] = {}) {
    clock = new ManualClock(T0);
    workloadAssertions = asOptions.workloadAssertions ?? {};
    as = await startGrantServer({
      clock,
      clients: { 'm2m client': { secret: SECRET }, 'jwt-client': { publicKey: ec.publicKey }, 'xaa-client': { secret: SECRET } },
      idTokens: [ID_TOKEN],
      ...asOptions,
      ...(asOptions.workloadAssertions !== undefined && { workloadAssertions }),
    });
    rs = await startProtectedMcp(as, clock, rsOptions);
  }

  async function connect(auth: OAuthGrantProvider | OAuthClient, era?: 'legacy'): Promise<Client> {
    client = new Client({ info: { name: 'm2m', version: '1.0.0' }, ...(era && { era }) });
    await client.connect(createStreamableHttpClientTransport(rs.url, { auth, clock }));
    return client;
  }

  /** The authorization server accepts `jwt` as a workload assertion aimed at it. */
  function acceptWorkload(jwt: string): void {
    workloadAssertions[jwt] = { audience: as.issuer };
  }
  let workloadAssertions: Record<string, { audience: string }> = {};

  /** The MCP endpoint's requests (not the metadata). */
  const mcpRequests = () => rs.requests.filter((r) => r.path === '/mcp');
  const secretsIn = (text: string) => [SECRET, 'TOP-SECRET', ID_TOKEN, pem(ec.privateKey).split('\n')[1]!, ...as.tokens.keys()].filter((s) => text.includes(s));

  afterEach(async () => {
    await client?.close().catch(() => {});
    client = undefined;
    await rs?.close();
    await as?.close();
  });

  it('[AUTH-007] [AUTH-009] [AUTH-013] [AUTH-014] client credentials: discovers from the 401 (PRM, then the metadata of an AS without authorization endpoint) and asks for a token with resource and scope, client_secret_basic form-encoded', async () => {
    await setUp({}, { scopesSupported: ['mcp:tools'] });
    const c = await connect(createClientCredentialsProvider({ clientId: 'm2m client', clientSecret: SECRET }));
    expect((await c.listTools()).map((t) => t.name)).to.deep.equal(['whoami']);
    expect(rs.requests.slice(0, 2).map((r) => `${r.method} ${r.path} ${r.status}`)).to.deep.equal([
      'POST /mcp 401',
      'GET /.well-known/oauth-protected-resource/mcp 200',
    ]);
    expect(as.requests).to.deep.equal(['GET /.well-known/oauth-authorization-server', 'POST /token']);
    const [token] = as.tokenRequests;
    expect(Object.fromEntries(token!.form)).to.deep.equal({ grant_type: 'client_credentials', resource: rs.url, scope: 'mcp:tools' });
    expect(token!.authorization).to.equal(`Basic ${Buffer.from('m2m+client:TOP-SECRET+s3cr%26t%3Ax').toString('base64')}`);
  });

  it('[AUTH-016] [AUTH-018] [AUTH-025] [AUTH-026] [AUTH-027] sends the granted token as Bearer on every request (POST, GET, DELETE) and never in a URL', async () => {
    await setUp();
    // The legacy era: a session has a GET stream and a DELETE.
    const c = await connect(createClientCredentialsProvider({ clientId: 'm2m client', clientSecret: SECRET }), 'legacy');
    await c.callTool('whoami', {});
    await c.close();
    client = undefined;
    expect(as.tokens.get('access-1')?.resource).to.equal(rs.url);
    const after = mcpRequests().slice(1); // the first POST went without a token and got the 401
    expect(after.map((r) => r.method)).to.include.members(['POST', 'GET', 'DELETE']);
    for (const r of after) expect(r.authorization, `${r.method} ${r.path}`).to.equal('Bearer access-1');
    for (const r of rs.requests) expect(r.url).not.to.include('access-1');
    expect(rs.callers).to.deep.equal(['m2m client']);
  });

  it('client credentials with client_secret_post when the server supports only that', async () => {
    await setUp({ authMethods: ['client_secret_post'] });
    await (await connect(createClientCredentialsProvider({ clientId: 'm2m client', clientSecret: SECRET }))).listTools();
    const [token] = as.tokenRequests;
    expect(token!.authorization).to.equal(undefined);
    expect(Object.fromEntries(token!.form)).to.deep.equal({ grant_type: 'client_credentials', resource: rs.url, client_id: 'm2m client', client_secret: SECRET });
  });

  it('client credentials with private_key_jwt: an ES256 assertion for the issuer, signed at the clock time, no secret', async () => {
    await setUp();
    await (await connect(createClientCredentialsProvider({ clientId: 'jwt-client', privateKeyPem: pem(ec.privateKey), algorithm: 'ES256', keyId: 'k1' }))).listTools();
    const [token] = as.tokenRequests;
    expect(token!.authorization).to.equal(undefined);
    expect([...token!.form.keys()].sort()).to.deep.equal(['client_assertion', 'client_assertion_type', 'client_id', 'grant_type', 'resource']);
    expect(token!.form.get('client_assertion_type')).to.equal('urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
    const [{ header, claims }] = as.assertions;
    expect(header).to.deep.equal({ alg: 'ES256', typ: 'JWT', kid: 'k1' });
    expect(claims).to.include({ iss: 'jwt-client', sub: 'jwt-client', aud: as.issuer, iat: T0 / 1000, exp: T0 / 1000 + 60 });
    expect(claims.jti).to.be.a('string');
  });

  it('cross-app access: exchanges the ID token at the IdP for an ID-JAG (audience, resource), then the jwt-bearer grant with client_secret_basic', async () => {
    await setUp();
    let asked = 0;
    const auth = createCrossAppAccessProvider({
      clientId: 'xaa-client',
      clientSecret: SECRET,
      getIdToken: () => (asked++, ID_TOKEN),
      idpTokenEndpoint: as.idpTokenEndpoint,
      idpClientId: 'idp-client',
    });
    const c = await connect(auth);
    await c.callTool('whoami', {});
    expect(as.requests).to.deep.equal(['GET /.well-known/oauth-authorization-server', 'POST /idp/token', 'POST /token']);
    expect(Object.fromEntries(as.idpRequests[0]!.form)).to.deep.equal({
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      requested_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
      subject_token: ID_TOKEN,
      subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
      audience: as.issuer,
      resource: rs.url,
      client_id: 'idp-client',
    });
    const [token] = as.tokenRequests;
    expect(Object.fromEntries(token!.form)).to.deep.equal({ grant_type: JWT_BEARER, assertion: 'idjag-1', resource: rs.url });
    expect(token!.authorization).to.equal(`Basic ${Buffer.from('xaa-client:TOP-SECRET+s3cr%26t%3Ax').toString('base64')}`);
    expect(asked).to.equal(1);
    expect(rs.callers).to.deep.equal(['xaa-client']);
    for (const r of mcpRequests().slice(1)) expect(r.authorization).to.equal('Bearer access-2');
  });

  it('workload identity: the workload JWT (asked for with the issuer as audience) in the jwt-bearer grant, client_id in the body, no Authorization header', async () => {
    const WORKLOAD_JWT = 'eyJhbGciOiJSUzI1NiJ9.the-workload.sig';
    await setUp({ clients: { 'ci-deployer': { public: true } }, workloadAssertions: {} });
    const audiences: string[] = [];
    const auth = createWorkloadIdentityProvider({
      clientId: 'ci-deployer',
      getAssertion: ({ audience }) => (audiences.push(audience), WORKLOAD_JWT),
    });
    acceptWorkload(WORKLOAD_JWT);
    const c = await connect(auth);
    await c.callTool('whoami', {});
    expect(audiences).to.deep.equal([as.issuer]);
    expect(as.requests).to.deep.equal(['GET /.well-known/oauth-authorization-server', 'POST /token']);
    const [token] = as.tokenRequests;
    expect(Object.fromEntries(token!.form)).to.deep.equal({ grant_type: JWT_BEARER, assertion: WORKLOAD_JWT, resource: rs.url, client_id: 'ci-deployer' });
    expect(token!.authorization).to.equal(undefined);
    expect(rs.callers).to.deep.equal(['ci-deployer']);
  });

  it('workload identity: a refused assertion is a TokenEndpointError (invalid_grant) without the JWT; sent once, no other grant tried', async () => {
    const WORKLOAD_JWT = 'eyJhbGciOiJSUzI1NiJ9.a-stale-workload.sig';
    await setUp({ clients: { 'ci-deployer': { public: true } }, workloadAssertions: {} });
    const oauth = new OAuthClient({ serverUrl: rs.url, provider: createWorkloadIdentityProvider({ clientId: 'ci-deployer', assertion: WORKLOAD_JWT }) });
    const e = (await oauth.handleChallenge('unauthorized', null, undefined).catch((x: unknown) => x)) as TokenEndpointError;
    expect(e).to.be.instanceOf(TokenEndpointError);
    expect([e.error, e.status, e.grantType]).to.deep.equal(['invalid_grant', 400, JWT_BEARER]);
    expect(`${e.message} ${JSON.stringify(e.details)}`).to.not.include(WORKLOAD_JWT);
    expect(as.tokenRequests).to.have.length(1);
  });

  it('gets a new token before sending when the clock says the token expired (no 401 needed)', async () => {
    await setUp({ expiresIn: 60 });
    const c = await connect(createClientCredentialsProvider({ clientId: 'm2m client', clientSecret: SECRET }));
    await c.listTools();
    expect(as.tokenRequests).to.have.length(1);
    clock.advance(61_000);
    await c.callTool('whoami', {});
    expect(as.tokenRequests).to.have.length(2);
    const last = mcpRequests().at(-1)!;
    expect([last.authorization, last.status]).to.deep.equal(['Bearer access-2', 200]);
    // Only the very first request was refused.
    expect(mcpRequests().filter((r) => r.status === 401)).to.have.length(1);
  });

  it('[AUTH-013] gets a new token when the server answers 401 to the one it holds (revoked), then sends the request again', async () => {
    await setUp();
    const c = await connect(createClientCredentialsProvider({ clientId: 'm2m client', clientSecret: SECRET }));
    await c.listTools();
    as.tokens.delete('access-1'); // revoked at the authorization server: requireBearerAuth now refuses it
    expect((await c.callTool('whoami', {})).content).to.have.length(1);
    const refused = mcpRequests().filter((r) => r.status === 401);
    expect(refused.map((r) => r.authorization)).to.deep.equal([undefined, 'Bearer access-1']);
    expect(as.tokenRequests).to.have.length(2);
    expect(mcpRequests().at(-1)!.authorization).to.equal('Bearer access-2');
  });

  it('stops after 3 grants when the server keeps refusing the tokens it gets (bounded retries)', async () => {
    await setUp();
    const c = await connect(createClientCredentialsProvider({ clientId: 'm2m client', clientSecret: SECRET }));
    await c.listTools();
    // From now on every token the authorization server issues is forgotten at once: the server refuses them all.
    const set = as.tokens.set.bind(as.tokens);
    as.tokens.set = (k, v) => (set(k, v), as.tokens.delete(k), as.tokens);
    as.tokens.clear();
    const error = await c.callTool('whoami', {}).then(
      () => undefined,
      (e: unknown) => e as Error & { data?: Record<string, unknown> },
    );
    expect(error?.message).to.match(/after 3 authorization attempt\(s\)/);
    expect(error?.data?.authorization).to.equal('retry_limit');
    expect(as.tokenRequests).to.have.length(4); // 1 for the connection, then 3
    // Once the token held expires, the client gets a new one again (the limit was about the refusals).
    as.tokens.set = set;
    clock.advance(3_601_000);
    expect((await c.callTool('whoami', {})).content).to.have.length(1);
    expect(as.tokenRequests).to.have.length(5);
  });

  it('a refused grant is a typed TokenEndpointError without the secret; through the transport the request fails with its code', async () => {
    await setUp({ clients: { 'm2m client': { secret: 'another secret' } } });
    const auth = createClientCredentialsProvider({ clientId: 'm2m client', clientSecret: SECRET });
    const oauth = new OAuthClient({ serverUrl: rs.url, provider: auth });
    const direct = await oauth.handleChallenge('unauthorized', null, undefined).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(direct).to.be.instanceOf(TokenEndpointError).and.instanceOf(AuthorizationError);
    const e = direct as TokenEndpointError;
    expect([e.code, e.error, e.status, e.grantType]).to.deep.equal(['token_request_failed', 'invalid_client', 401, 'client_credentials']);
    expect(e.message).to.include('check the client id and credentials');
    expect(secretsIn(`${e.message} ${JSON.stringify(e.details)} ${JSON.stringify({ ...e })}`)).to.deep.equal([]);

    const viaTransport = await connect(auth).then(
      () => undefined,
      (x: unknown) => x as Error & { data?: Record<string, unknown> },
    );
    expect(viaTransport?.message).to.match(/authorization failed: The token endpoint .* refused the client_credentials grant \(HTTP 401, invalid_client/);
    expect(viaTransport?.data?.authorization).to.equal('token_request_failed');
    expect(secretsIn(`${viaTransport?.message} ${JSON.stringify(viaTransport?.data)}`)).to.deep.equal([]);
  });

  it('a refused token exchange at the IdP is a typed error without the ID token; no grant is attempted at the authorization server', async () => {
    await setUp({ idTokens: [] });
    const oauth = new OAuthClient({
      serverUrl: rs.url,
      provider: createCrossAppAccessProvider({ clientId: 'xaa-client', clientSecret: SECRET, idToken: ID_TOKEN, idpTokenEndpoint: as.idpTokenEndpoint }),
    });
    const e = (await oauth.handleChallenge('unauthorized', null, undefined).catch((x: unknown) => x)) as TokenEndpointError;
    expect(e).to.be.instanceOf(TokenEndpointError);
    expect([e.error, e.grantType]).to.deep.equal(['invalid_grant', 'urn:ietf:params:oauth:grant-type:token-exchange']);
    expect(secretsIn(`${e.message} ${JSON.stringify(e.details)}`)).to.deep.equal([]);
    expect(as.tokenRequests).to.have.length(0);
  });

  it('refuses before any token request when the AS does not offer the grant, or the PRM is for another resource', async () => {
    await setUp({ grantTypes: ['authorization_code'] });
    const unsupported = (await new OAuthClient({ serverUrl: rs.url, provider: createClientCredentialsProvider({ clientId: 'm2m client', clientSecret: SECRET }) })
      .handleChallenge('unauthorized', null, undefined)
      .catch((x: unknown) => x)) as AuthorizationError;
    expect(unsupported.code).to.equal('grant_unsupported');
    await rs.close();
    await as.close();

    await setUp({}, { prmResource: 'https://evil.example.com/mcp' });
    const mismatch = (await new OAuthClient({ serverUrl: rs.url, provider: createClientCredentialsProvider({ clientId: 'm2m client', clientSecret: SECRET }) })
      .handleChallenge('unauthorized', null, undefined)
      .catch((x: unknown) => x)) as AuthorizationError;
    expect(mismatch.code).to.equal('resource_mismatch');
    expect(as.requests).to.deep.equal([]);
  });

  it("the legacy HTTP+SSE transport's auth option runs the same grant and sends its token", async () => {
    await setUp();
    client = new Client({ info: { name: 'm2m', version: '1.0.0' } });
    const auth = createClientCredentialsProvider({ clientId: 'm2m client', clientSecret: SECRET });
    // This server has no HTTP+SSE endpoint, so the connection fails after that; the GET's 401 is enough to run the grant.
    const transport = createLegacySseClientTransport(rs.url, { auth });
    await client.connect(transport).catch(() => {});
    expect(as.tokenRequests).to.have.length(1);
    expect(rs.requests.filter((r) => r.path === '/mcp' && r.authorization === 'Bearer access-1').length).to.be.greaterThan(0);
  });
});
