import { expect } from 'chai';
import type { AuthorizationServerMetadata } from '../../lib/auth/authorization-server-metadata.js';
import { clientIdMetadataDocument, clientIdMetadataUrlProblem } from '../../lib/auth/client-id-metadata-document.js';
import { applicationTypeFor, registrationAuthMethod, resolveClient } from '../../lib/auth/client-registration.js';
import { AuthorizationError } from '../../lib/auth/authorization-errors.js';
import { headlessAuthorize, InMemoryOAuthClientProvider, type OAuthClientProvider } from '../../lib/auth/provider.js';
import { OAuthClient } from '../../lib/auth/oauth-client.js';
import { Client } from '../../lib/entries/client.js';
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

  it('[AUTH-200] a client id metadata document URL must be https with a path, without fragment, dot segments or credentials: the provider refuses others, and a provider of its own with one gets no client id', async () => {
    const bad = ['http://client.example.com/cimd.json', 'https://client.example.com', 'https://client.example.com/', 'https://client.example.com/cimd.json#x', 'https://client.example.com/a/../cimd.json', 'https://user:pw@client.example.com/cimd.json'];
    for (const url of bad) {
      expect(clientIdMetadataUrlProblem(url), url).to.be.a('string');
      expect(() => provider({ clientMetadataUrl: url }), url).to.throw(TypeError, /cannot be a client id/);
    }
    expect(clientIdMetadataUrlProblem('https://client.example.com/oauth/cimd.json?v=2')).to.equal(undefined);
    const { fetch, bodies } = registrar();
    const base = provider();
    const own: OAuthClientProvider = {
      redirectUrl: base.redirectUrl,
      clientMetadata: base.clientMetadata,
      clientMetadataUrl: 'http://client.example.com/cimd.json',
      clientInformation: () => undefined,
      saveClientInformation: () => {},
      tokens: () => undefined,
      saveTokens: () => {},
      invalidate: () => {},
      authorize: () => Promise.reject(new Error('unused')),
    };
    const error = await resolveClient({ provider: own, issuer: 'https://as.example.com', metadata: as({ client_id_metadata_document_supported: true }), fetch }).catch((e: unknown) => e);
    expect((error as AuthorizationError).code).to.equal('registration_failed');
    expect((error as AuthorizationError).message).to.include('https scheme');
    expect(bodies).to.have.length(0);
  });

  it('[AUTH-201] [AUTH-202] the client id metadata document: client_id is the URL exactly as given, with client_name and redirect_uris, and never a secret', () => {
    const url = 'https://Client.Example.com/oauth/cimd.json?v=2';
    const doc = clientIdMetadataDocument({
      clientMetadataUrl: url,
      clientMetadata: { client_name: 'Example', redirect_uris: ['http://127.0.0.1:3000/callback'], client_secret: 'must-not-leak' },
      redirectUrl: 'http://localhost:3000/callback',
    });
    expect(doc.client_id).to.equal(url);
    expect(doc).to.include({ client_name: 'Example', token_endpoint_auth_method: 'none' });
    expect(doc.redirect_uris).to.deep.equal(['http://127.0.0.1:3000/callback', 'http://localhost:3000/callback']);
    expect(JSON.stringify(doc)).not.to.include('must-not-leak');
    expect(() => clientIdMetadataDocument({ clientMetadataUrl: url, clientMetadata: { redirect_uris: ['http://127.0.0.1/cb'] } })).to.throw(TypeError, /client_name/);
    expect(() => clientIdMetadataDocument({ clientMetadataUrl: url, clientMetadata: { client_name: 'x', redirect_uris: [] } })).to.throw(TypeError, /redirect URI/);
    expect(() => clientIdMetadataDocument({ clientMetadataUrl: url, clientMetadata: { client_name: 'x', redirect_uris: ['http://127.0.0.1/cb'], token_endpoint_auth_method: 'client_secret_basic' } })).to.throw(TypeError, /no shared secret/);
    // The id the flow presents is the document's.
    const p = provider({ clientMetadataUrl: url });
    expect(clientIdMetadataDocument({ clientMetadataUrl: p.clientMetadataUrl!, clientMetadata: p.clientMetadata, redirectUrl: p.redirectUrl }).client_id).to.equal(p.clientMetadataUrl);
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

  it('[AUTH-196] [AUTH-210] asks the user for client credentials when the server has neither CIMD nor registration, uses and keeps what they enter', async () => {
    server = await startAuthorizationServer({
      metadata: { registration_endpoint: undefined },
      clients: [{ client_id: 'typed-in', token_endpoint_auth_method: 'none', redirect_uris: ['http://127.0.0.1:1/callback'] }],
    });
    rs = await startProtectedServer({ as: server });
    const asked: [string, string][] = [];
    const p = new InMemoryOAuthClientProvider({
      redirectUrl: 'http://127.0.0.1:1/callback',
      authorize: headlessAuthorize(),
      promptClientInformation: async (issuer, reason) => {
        asked.push([issuer, reason]);
        return { client_id: 'typed-in' };
      },
    });
    client = new Client({ info: { name: 'prompt', version: '1.0.0' } });
    await client.connect(createStreamableHttpClientTransport(rs.url, { auth: p }));
    expect(asked).to.have.length(1);
    expect(asked[0]![0]).to.equal(server.issuer);
    expect(asked[0]![1]).to.match(/offers no dynamic client registration and no client ID metadata documents/);
    expect(server.authorizations[0]!.get('client_id')).to.equal('typed-in');
    expect(p.clientInformation(server.issuer)).to.deep.equal({ client_id: 'typed-in' });
    // Another connection with the same provider does not ask again.
    await client.close();
    client = new Client({ info: { name: 'prompt', version: '1.0.0' } });
    p.invalidate('tokens');
    await client.connect(createStreamableHttpClientTransport(rs.url, { auth: p }));
    expect(asked).to.have.length(1);
    expect(server.authorizations).to.have.length(2);
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
