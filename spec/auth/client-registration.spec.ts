import { expect } from 'chai';
import type { AuthorizationServerMetadata } from '../../lib/auth/authorization-server-metadata.js';
import { applicationTypeFor, registrationAuthMethod, resolveClient } from '../../lib/auth/client-registration.js';
import { AuthorizationError } from '../../lib/auth/errors.js';
import { headlessAuthorize, InMemoryOAuthClientProvider } from '../../lib/auth/provider.js';
import { OAuthClient } from '../../lib/auth/oauth-client.js';
import { Client } from '../../lib/client.js';
import type { FetchLike } from '../../streams/http-fetch.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';
import { startAuthorizationServer, startProtectedServer, type TestAuthorizationServer, type TestProtectedServer } from './helpers.js';

const as = (extra: Partial<AuthorizationServerMetadata> = {}): AuthorizationServerMetadata => ({
  issuer: 'https://as.example.com',
  authorization_endpoint: 'https://as.example.com/authorize',
  token_endpoint: 'https://as.example.com/token',
  registration_endpoint: 'https://as.example.com/register',
  ...extra,
});

function registrar(answer: Record<string, unknown> = { client_id: 'new-client', client_secret: 's' }, status = 201) {
  const bodies: Record<string, unknown>[] = [];
  const fetch: FetchLike = async (_input, init = {}) => {
    bodies.push(JSON.parse(String(init.body)) as Record<string, unknown>);
    return new Response(JSON.stringify(answer), { status, headers: { 'content-type': 'application/json' } });
  };
  return { fetch, bodies };
}

const provider = (extra: Partial<ConstructorParameters<typeof InMemoryOAuthClientProvider>[0]> = {}) =>
  new InMemoryOAuthClientProvider({ redirectUrl: 'http://localhost:3000/callback', authorize: () => Promise.reject(new Error('unused')), ...extra });

describe('client registration', () => {
  it('[AUTH-015] [AUTH-046] [AUTH-162] [AUTH-211] [AUTH-212] registers by DCR with its redirect URI, authorization_code + refresh_token, and a supported auth method; saves the result', async () => {
    const { fetch, bodies } = registrar();
    const p = provider();
    const { client, source } = await resolveClient({ provider: p, issuer: 'https://as.example.com', metadata: as({ token_endpoint_auth_methods_supported: ['client_secret_post'] }), fetch });
    expect(source).to.equal('dynamic-registration');
    expect(bodies[0]).to.include({ token_endpoint_auth_method: 'client_secret_post', client_name: 'mcp-actors client' });
    expect(bodies[0]!.redirect_uris).to.deep.equal(['http://localhost:3000/callback']);
    expect(bodies[0]!.grant_types).to.deep.equal(['authorization_code', 'refresh_token']);
    expect(bodies[0]!.response_types).to.deep.equal(['code']);
    // 2026-07-28: an application_type fitting the redirect (loopback: a native app).
    expect(bodies[0]!.application_type).to.equal('native');
    // The server did not echo the method: the requested one stands.
    expect(client).to.deep.equal({ client_id: 'new-client', client_secret: 's', token_endpoint_auth_method: 'client_secret_post' });
    expect(p.clientInformation('https://as.example.com')).to.deep.equal(client);
  });

  it('[AUTH-211] [AUTH-212] [AUTH-213] application_type: native for loopback and custom-scheme redirects, web for a remote https one; registered as such', async () => {
    expect(applicationTypeFor('http://127.0.0.1:8080/cb')).to.equal('native');
    expect(applicationTypeFor('http://localhost:8080/cb')).to.equal('native');
    expect(applicationTypeFor('com.example.app:/cb')).to.equal('native');
    expect(applicationTypeFor('https://app.example.com/cb')).to.equal('web');
    const { fetch, bodies } = registrar();
    await resolveClient({ provider: provider({ redirectUrl: 'https://app.example.com/oauth/callback' }), issuer: 'https://as.example.com', metadata: as(), fetch });
    expect(bodies[0]!.application_type).to.equal('web');
    // An application that knows better says so in its metadata.
    await resolveClient({ provider: provider({ clientMetadata: { application_type: 'web' } }), issuer: 'https://as.example.com', metadata: as(), fetch });
    expect(bodies[1]!.application_type).to.equal('web');
  });

  it('prefers a public client (none) when the server allows it', () => {
    expect(registrationAuthMethod(as({ token_endpoint_auth_methods_supported: ['client_secret_basic', 'none'] }))).to.equal('none');
    expect(registrationAuthMethod(as({ token_endpoint_auth_methods_supported: ['client_secret_basic'] }))).to.equal('client_secret_basic');
    expect(registrationAuthMethod(as())).to.equal(undefined);
  });

  it('[AUTH-193] uses stored or pre-registered credentials before anything else', async () => {
    const { fetch, bodies } = registrar();
    const p = provider({ clientInformation: { client_id: 'pre', client_secret: 'x' }, clientMetadataUrl: 'https://client.example.com/cimd.json' });
    const { client, source } = await resolveClient({ provider: p, issuer: 'https://as.example.com', metadata: as({ client_id_metadata_document_supported: true }), fetch });
    expect(source).to.equal('stored');
    expect(client.client_id).to.equal('pre');
    expect(bodies).to.have.length(0);
  });

  it('[AUTH-194] [AUTH-195] [AUTH-209] uses the client ID metadata document URL when the server supports CIMD, and registers otherwise', async () => {
    const { fetch, bodies } = registrar();
    const p = provider({ clientMetadataUrl: 'https://client.example.com/cimd.json' });
    const cimd = await resolveClient({ provider: p, issuer: 'https://as.example.com', metadata: as({ client_id_metadata_document_supported: true }), fetch });
    expect(cimd).to.deep.equal({ client: { client_id: 'https://client.example.com/cimd.json', token_endpoint_auth_method: 'none' }, source: 'client-id-metadata-document' });
    expect(bodies).to.have.length(0);
    const dcr = await resolveClient({ provider: p, issuer: 'https://as.example.com', metadata: as(), fetch });
    expect(dcr.source).to.equal('dynamic-registration');
  });

  it('fails with a typed error when there is no way to get a client id, or registration is refused', async () => {
    const { fetch } = registrar({ error: 'invalid_redirect_uri', error_description: 'no' }, 400);
    const none = await resolveClient({ provider: provider(), issuer: 'i', metadata: as({ registration_endpoint: undefined }), fetch }).catch((e: unknown) => e);
    expect(none).to.be.instanceOf(AuthorizationError);
    expect((none as AuthorizationError).code).to.equal('registration_unavailable');
    const refused = await resolveClient({ provider: provider(), issuer: 'i', metadata: as(), fetch }).catch((e: unknown) => e);
    expect((refused as AuthorizationError).code).to.equal('registration_failed');
    expect((refused as AuthorizationError).message).to.include('invalid_redirect_uri');
  });
});

describe('client registration refused, end to end', () => {
  let server: TestAuthorizationServer | undefined;
  let rs: TestProtectedServer | undefined;
  let client: Client | undefined;

  afterEach(async () => {
    await client?.close().catch(() => {});
    client = undefined;
    await rs?.close();
    await server?.close();
  });

  it('[AUTH-214] [AUTH-215] an OIDC server refusing the redirect URI for the application type: a registration_failed error that gives its reason and what was sent, and no authorization request', async () => {
    const refusal = { error: 'invalid_redirect_uri', error_description: 'web clients must use https redirect URIs' };
    server = await startAuthorizationServer({ registrationError: { status: 400, body: refusal } });
    rs = await startProtectedServer({ as: server });
    const p = new InMemoryOAuthClientProvider({ redirectUrl: 'http://127.0.0.1:1/callback', clientMetadata: { application_type: 'web' }, authorize: headlessAuthorize() });
    const oauth = new OAuthClient({ serverUrl: rs.url, provider: p });
    client = new Client({ info: { name: 'registration', version: '1.0.0' } });
    const failure = await client.connect(createStreamableHttpClientTransport(rs.url, { auth: oauth })).then(() => undefined, (e: unknown) => e);
    // What the caller of connect sees names the server's reason.
    expect(String((failure as Error)?.message)).to.include('invalid_redirect_uri: web clients must use https redirect URIs');
    const error = oauth.snapshot?.context.error;
    expect(error?.code).to.equal('registration_failed');
    expect(error?.message).to.include('application_type "web" with redirect URIs ["http://127.0.0.1:1/callback"]');
    expect(error?.details).to.include({ oauthError: 'invalid_redirect_uri', applicationType: 'web', status: 400 });
    expect(server.registrations).to.have.length(1);
    expect(server.authorizations).to.have.length(0);
    expect(p.clientInformation(server.issuer)).to.equal(undefined);
  });
});
