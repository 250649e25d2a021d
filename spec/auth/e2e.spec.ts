// Our client, through the Streamable HTTP transport's `auth` option, against an in-test
// authorization server and a protected MCP server on 127.0.0.1.
import { expect } from 'chai';
import { AuthorizationError } from '../../lib/auth/authorization-errors.js';
import { OAuthClient } from '../../lib/auth/oauth-client.js';
import { headlessAuthorize, InMemoryOAuthClientProvider, type StoredTokens } from '../../lib/auth/provider.js';
import { Client } from '../../lib/entries/client.js';
import { ManualClock } from '../../lib/clock.js';
import { createLegacySseClientTransport } from '../../streams/legacy-sse-client.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';
import { startAuthorizationServer, startProtectedServer, T0, type AuthorizationServerOptions, type ProtectedServerOptions, type TestAuthorizationServer, type TestProtectedServer } from './helpers.js';

const REDIRECT = 'http://127.0.0.1:1/callback';

describe('OAuth client end to end (Streamable HTTP transport with `auth`)', () => {
  let as: TestAuthorizationServer;
  let rs: TestProtectedServer;
  let client: Client | undefined;

  async function setUp(asOptions: AuthorizationServerOptions = {}, rsOptions: Partial<ProtectedServerOptions> = {}) {
    as = await startAuthorizationServer(asOptions);
    rs = await startProtectedServer({ as, ...rsOptions });
  }

  function provider(extra: Partial<ConstructorParameters<typeof InMemoryOAuthClientProvider>[0]> = {}) {
    return new InMemoryOAuthClientProvider({ redirectUrl: REDIRECT, clientMetadata: { client_name: 'e2e' }, authorize: headlessAuthorize(), ...extra });
  }

  async function connect(auth: InMemoryOAuthClientProvider | OAuthClient, clock?: ManualClock, era?: 'legacy'): Promise<Client> {
    client = new Client({ info: { name: 'e2e-client', version: '1.0.0' }, ...(era && { era }) });
    await client.connect(createStreamableHttpClientTransport(rs.url, { auth, ...(clock && { clock }) }));
    return client;
  }

  afterEach(async () => {
    await client?.close().catch(() => {});
    client = undefined;
    await rs?.close();
    await as?.close();
  });

  it('[AUTH-007] [AUTH-009] [AUTH-013] [AUTH-014] [AUTH-126] [AUTH-188] runs the flow on the first 401: PRM from the challenge, AS metadata, registration, code, token, then the request again', async () => {
    await setUp();
    const c = await connect(provider());
    const tools = await c.listTools();
    expect(tools.map((t) => t.name)).to.deep.equal(['echo']);
    const first = rs.requests[0]!;
    expect(first.authorization).to.equal(undefined);
    const asPaths = as.requests.map((r) => `${r.method} ${new URL(r.url, as.origin).pathname}`);
    expect(asPaths).to.deep.equal(['GET /.well-known/oauth-authorization-server', 'POST /register', 'GET /authorize', 'POST /token']);
    expect(rs.requests.some((r) => r.url === '/.well-known/oauth-protected-resource/mcp')).to.equal(true);
    // The root PRM was not needed: the challenge named the path-based one.
    expect(rs.requests.some((r) => r.url === '/.well-known/oauth-protected-resource')).to.equal(false);
  });

  it('[AUTH-025] [AUTH-026] [AUTH-027] [AUTH-152] sends the Bearer token on every later request (POSTs, the GET stream, the DELETE) and never in a URL', async () => {
    await setUp();
    // The legacy era: a session has a GET stream and a DELETE.
    const c = await connect(provider(), undefined, 'legacy');
    await c.listTools();
    await c.callTool('echo', {});
    await c.close();
    client = undefined;
    const token = [...as.tokens.keys()][0]!;
    const mcp = rs.requests.filter((r) => new URL(r.url, rs.origin).pathname === '/mcp');
    const afterAuth = mcp.slice(1); // the first POST went without a token and got the 401
    expect(afterAuth.map((r) => r.method)).to.include.members(['POST', 'GET', 'DELETE']);
    for (const r of afterAuth) expect(r.authorization, `${r.method} ${r.url}`).to.equal(`Bearer ${token}`);
    for (const r of [...rs.requests, ...as.requests]) expect(r.url).not.to.include(token);
  });

  it('[AUTH-016] [AUTH-017] [AUTH-018] [AUTH-019] [AUTH-023] [AUTH-037] [AUTH-045] [AUTH-056] [AUTH-230] sends PKCE S256 and the same canonical resource in the authorization and token requests', async () => {
    await setUp();
    const c = await connect(provider());
    await c.listTools();
    const authz = as.authorizations[0]!;
    expect(authz.get('response_type')).to.equal('code');
    expect(authz.get('code_challenge_method')).to.equal('S256');
    expect(authz.get('code_challenge')).to.match(/^[A-Za-z0-9_-]{43}$/);
    expect(authz.get('resource')).to.equal(rs.url);
    const token = as.tokenRequests[0]!.form;
    expect(token.get('grant_type')).to.equal('authorization_code');
    expect(token.get('resource')).to.equal(authz.get('resource'));
    // The AS issued the token only because BASE64URL(SHA256(code_verifier)) matched the challenge.
    expect(token.get('code_verifier')).to.match(/^[A-Za-z0-9_-]{43,128}$/);
    expect(as.tokens.size).to.equal(1);
  });

  it('[AUTH-005] [AUTH-046] [AUTH-162] [AUTH-195] registers its redirect URI (and refresh_token) by DCR and authorizes with exactly that URI', async () => {
    await setUp();
    const p = provider();
    const c = await connect(p);
    await c.listTools();
    const registration = as.registrations[0]!;
    expect(registration.redirect_uris).to.deep.equal([REDIRECT]);
    expect(registration.grant_types).to.deep.equal(['authorization_code', 'refresh_token']);
    expect(as.authorizations[0]!.get('redirect_uri')).to.equal(REDIRECT);
    // The client id the registration answered is saved and is the one the flow used (the server
    // knows no client but the registered one).
    const registered = p.clientInformation(as.issuer)!;
    expect(registered.client_id).to.match(/^client-\d+$/);
    expect(as.authorizations[0]!.get('client_id')).to.equal(registered.client_id);
    expect([...as.tokens.values()].map((t) => t.clientId)).to.deep.equal([registered.client_id]);
  });

  it('[AUTH-048] discards an authorization response whose state differs: no token request, a typed error', async () => {
    await setUp({ stateOverride: 'forged-state' });
    let error: unknown;
    try {
      await connect(provider());
    } catch (e) {
      error = e;
    }
    expect(String((error as Error)?.message)).to.match(/authorization failed: The authorization response carries another state/);
    expect(as.tokenRequests).to.have.length(0);
  });

  it('[AUTH-140] RFC 9207 (2026-07-28): an iss differing from the issuer by a trailing slash is discarded before the code is redeemed', async () => {
    await setUp({ issInResponse: (issuer) => `${issuer}/` });
    const error = await connect(provider()).then(() => undefined, (e: unknown) => e);
    expect(String((error as Error)?.message)).to.match(/comes from issuer/);
    expect(as.tokenRequests).to.have.length(0);
  });

  it('[AUTH-138] RFC 9207 (2026-07-28): no iss while the server advertises it is discarded; the exact issuer is accepted', async () => {
    await setUp({ metadata: { authorization_response_iss_parameter_supported: true } as never });
    const error = await connect(provider()).then(() => undefined, (e: unknown) => e);
    expect(String((error as Error)?.message)).to.match(/advertises the iss parameter/);
    expect(as.tokenRequests).to.have.length(0);
    await rs.close();
    await as.close();
    await setUp({ metadata: { authorization_response_iss_parameter_supported: true } as never, issInResponse: (issuer) => issuer });
    const c = await connect(provider());
    await c.listTools();
  });

  for (const method of ['client_secret_basic', 'client_secret_post', 'none'] as const) {
    it(`authenticates at the token endpoint with ${method} when that is what the server supports`, async () => {
      await setUp({ metadata: { token_endpoint_auth_methods_supported: [method] } });
      const c = await connect(provider());
      await c.listTools();
      expect(as.registrations[0]!.token_endpoint_auth_method).to.equal(method);
      const request = as.tokenRequests[0]!;
      expect(request.authMethod).to.equal(method);
      if (method === 'client_secret_basic') {
        // id and secret are form-urlencoded before base64 (the secret has "+", "/" and ":").
        const decoded = Buffer.from(request.authorization!.slice(6), 'base64').toString();
        expect(decoded).to.match(/^client-\d+:secret%2B%2F\d+%3Ax$/);
        expect(request.form.has('client_secret')).to.equal(false);
      } else {
        expect(request.authorization).to.equal(undefined);
      }
      if (method === 'none') expect(request.form.has('client_secret')).to.equal(false);
    });
  }

  it('[AUTH-193] [AUTH-210] uses pre-registered credentials when the server has no registration endpoint', async () => {
    await setUp({
      metadata: { registration_endpoint: undefined, token_endpoint_auth_methods_supported: ['client_secret_basic'] },
      clients: [{ client_id: 'pre', client_secret: 'pre-secret', token_endpoint_auth_method: 'client_secret_basic', redirect_uris: [REDIRECT] }],
    });
    const c = await connect(provider({ clientInformation: { client_id: 'pre', client_secret: 'pre-secret' } }));
    await c.listTools();
    expect(as.registrations).to.have.length(0);
    expect(as.authorizations[0]!.get('client_id')).to.equal('pre');
    expect(as.tokenRequests[0]!.authMethod).to.equal('client_secret_basic');
  });

  it('[AUTH-121] [AUTH-194] [AUTH-197] [AUTH-209] uses its client ID metadata document URL as client_id when the server supports CIMD', async () => {
    await setUp({ metadata: { client_id_metadata_document_supported: true } });
    const c = await connect(provider({ clientMetadataUrl: 'https://client.example.com/metadata.json' }));
    await c.listTools();
    expect(as.registrations).to.have.length(0);
    expect(as.authorizations[0]!.get('client_id')).to.equal('https://client.example.com/metadata.json');
  });

  it('[AUTH-132] [AUTH-133] [AUTH-134] asks for the scope of the challenge, else for the PRM scopes_supported, else for none', async () => {
    await setUp({}, { requiredScopes: ['mcp:basic'], scopesSupported: ['mcp:basic', 'mcp:read'] });
    await (await connect(provider())).listTools();
    expect(as.authorizations[0]!.get('scope')).to.equal('mcp:basic');
    await client!.close();
    await rs.close();
    await as.close();

    await setUp({}, { scopesSupported: ['mcp:basic', 'mcp:read'] });
    await (await connect(provider())).listTools();
    expect(as.authorizations[0]!.get('scope')).to.equal('mcp:basic mcp:read');
    await client!.close();
    await rs.close();
    await as.close();

    await setUp();
    await (await connect(provider())).listTools();
    expect(as.authorizations[0]!.has('scope')).to.equal(false);
  });

  it('[AUTH-172] [AUTH-173] steps up on 403 insufficient_scope: authorizes again with the scopes it had plus the new ones, then the call succeeds', async () => {
    await setUp({}, { requiredScopes: ['mcp:basic'], methodScopes: { 'tools/call': ['mcp:write'] } });
    const c = await connect(provider());
    await c.listTools();
    const result = await c.callTool('echo', {});
    expect(result.content).to.deep.equal([{ type: 'text', text: 'ok' }]);
    expect(as.authorizations.map((q) => q.get('scope'))).to.deep.equal(['mcp:basic', 'mcp:basic mcp:write']);
  });

  it('[AUTH-174] gives up with a retry_limit error after 3 authorizations when the server keeps refusing', async () => {
    await setUp({ withheldScopes: ['mcp:admin'] }, { methodScopes: { 'tools/list': ['mcp:admin'] } });
    const c = await connect(provider());
    let error: unknown;
    try {
      await c.listTools();
    } catch (e) {
      error = e;
    }
    expect(String((error as Error)?.message)).to.match(/after 3 authorization attempt\(s\)/);
    // One authorization for the connection (it succeeded), then three for tools/list.
    expect(as.authorizations).to.have.length(4);
    // The session still works for what the token allows.
    expect((await c.callTool('echo', {})).content).to.have.length(1);
  });

  it('refreshes an expired token with the refresh token (and the same resource) instead of authorizing again', async () => {
    const clock = new ManualClock(T0);
    await setUp({ issueRefreshTokens: true, expiresIn: 60, clock });
    const c = await connect(provider(), clock);
    await c.listTools();
    clock.advance(61_000);
    await c.listTools();
    expect(as.authorizations).to.have.length(1);
    expect(as.tokenRequests.map((r) => r.form.get('grant_type'))).to.deep.equal(['authorization_code', 'refresh_token']);
    expect(as.tokenRequests[1]!.form.get('resource')).to.equal(rs.url);
  });

  it('answers a 401 for a revoked token with a refresh first, and with the whole flow when the refresh is refused', async () => {
    await setUp({ issueRefreshTokens: true });
    const c = await connect(provider());
    await c.listTools();
    as.tokens.clear(); // revoke the access token
    await c.listTools();
    expect(as.tokenRequests.map((r) => r.form.get('grant_type'))).to.deep.equal(['authorization_code', 'refresh_token']);
    expect(as.authorizations).to.have.length(1);
    as.tokens.clear();
    as.refreshTokens.clear(); // and the refresh token: the refresh is refused
    await c.listTools();
    expect(as.tokenRequests.map((r) => r.form.get('grant_type'))).to.deep.equal(['authorization_code', 'refresh_token', 'refresh_token', 'authorization_code']);
    expect(as.authorizations).to.have.length(2);
  });

  it('aborts before any authorization request when the PRM is for another resource', async () => {
    await setUp({}, { prmResource: 'https://evil.example.com/mcp' });
    let error: unknown;
    try {
      await connect(provider());
    } catch (e) {
      error = e;
    }
    expect(String((error as Error)?.message)).to.match(/is for "https:\/\/evil.example.com\/mcp", not for the MCP server/);
    expect(as.requests).to.have.length(0);
  });

  it('[AUTH-032] does not send a stored token that was issued for another resource', async () => {
    await setUp();
    const foreign: StoredTokens = { access_token: 'token-for-elsewhere', token_type: 'Bearer', resource: 'https://other.example.com/mcp' };
    const c = await connect(provider({ tokens: foreign }));
    await c.listTools();
    expect(rs.requests.some((r) => r.authorization?.includes('token-for-elsewhere'))).to.equal(false);
  });

  it('reports a refused token request with the OAuth error and without the secret, code or verifier', async () => {
    await setUp({
      metadata: { registration_endpoint: undefined },
      clients: [{ client_id: 'pre', client_secret: 'right-secret', token_endpoint_auth_method: 'client_secret_post', redirect_uris: [REDIRECT] }],
    });
    let error: unknown;
    try {
      await connect(provider({ clientInformation: { client_id: 'pre', client_secret: 'wrong-secret', token_endpoint_auth_method: 'client_secret_post' } }));
    } catch (e) {
      error = e;
    }
    const message = String((error as Error)?.message);
    expect(message).to.match(/refused the authorization_code grant \(HTTP 401, invalid_client/);
    const form = as.tokenRequests[0]!.form;
    for (const secret of ['wrong-secret', form.get('code')!, form.get('code_verifier')!]) expect(message).not.to.include(secret);
  });

  it('OAuthClient.handleChallenge throws a typed AuthorizationError when discovery fails', async () => {
    await setUp();
    const oauth = new OAuthClient({ serverUrl: 'http://127.0.0.1:1/mcp', provider: provider() });
    let error: unknown;
    try {
      await oauth.handleChallenge('unauthorized', null, undefined);
    } catch (e) {
      error = e;
    }
    expect(error).to.be.instanceOf(AuthorizationError);
    expect((error as AuthorizationError).code).to.equal('discovery_failed');
    expect(oauth.snapshot?.value).to.equal('failed');
  });

  it('[AUTH-026] authorizes the HTTP+SSE transport too: the event stream GET and every POST carry the token', async () => {
    as = await startAuthorizationServer();
    // A PRM for the whole origin covers the /sse endpoint.
    rs = await startProtectedServer({ as, legacySse: true, prmResource: (origin) => origin });
    client = new Client({ info: { name: 'e2e-client', version: '1.0.0' } });
    await client.connect(createLegacySseClientTransport(`${rs.origin}/sse`, { auth: provider() }));
    expect((await client.listTools()).map((t) => t.name)).to.deep.equal(['echo']);
    const token = [...as.tokens.keys()][0]!;
    expect(as.authorizations[0]!.get('resource')).to.equal(rs.origin);
    const legacy = rs.requests.filter((r) => /^\/(sse|messages)/.test(r.url));
    expect(legacy[0]).to.include({ method: 'GET', authorization: undefined });
    const authorized = legacy.slice(1);
    expect(authorized.map((r) => r.method)).to.include.members(['GET', 'POST']);
    for (const r of authorized) expect(r.authorization).to.equal(`Bearer ${token}`);
  });

  it('runs one flow for requests that get their 401 at the same time; a 401 to a DELETE starts none', async () => {
    await setUp();
    const oauth = new OAuthClient({ serverUrl: rs.url, provider: provider() });
    const fetch = oauth.wrapFetch();
    const init = (id: number) => ({
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }),
    });
    const answers = await Promise.all([1, 2, 3].map((id) => fetch(rs.url, init(id))));
    expect(answers.map((r) => r.status)).to.deep.equal([200, 200, 200]);
    await Promise.all(answers.map((r) => r.body?.cancel()));
    expect(as.authorizations).to.have.length(1);
    as.tokens.clear();
    const deleted = await fetch(rs.url, { method: 'DELETE' });
    expect(deleted.status).to.equal(401);
    expect(as.authorizations).to.have.length(1);
  });
});
