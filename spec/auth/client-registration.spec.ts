import { expect } from 'chai';
import type { AuthorizationServerMetadata } from '../../lib/auth/authorization-server-metadata.js';
import { applicationTypeFor, registrationAuthMethod, resolveClient } from '../../lib/auth/client-registration.js';
import { AuthorizationError } from '../../lib/auth/errors.js';
import { InMemoryOAuthClientProvider } from '../../lib/auth/provider.js';
import type { FetchLike } from '../../streams/http-fetch.js';

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
  it('[AUTH-015] [AUTH-046] registers by DCR with its redirect URI, authorization_code + refresh_token, and a supported auth method; saves the result', async () => {
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

  it('application_type: native for loopback and custom-scheme redirects, web for a remote https one', () => {
    expect(applicationTypeFor('http://127.0.0.1:8080/cb')).to.equal('native');
    expect(applicationTypeFor('com.example.app:/cb')).to.equal('native');
    expect(applicationTypeFor('https://app.example.com/cb')).to.equal('web');
  });

  it('prefers a public client (none) when the server allows it', () => {
    expect(registrationAuthMethod(as({ token_endpoint_auth_methods_supported: ['client_secret_basic', 'none'] }))).to.equal('none');
    expect(registrationAuthMethod(as({ token_endpoint_auth_methods_supported: ['client_secret_basic'] }))).to.equal('client_secret_basic');
    expect(registrationAuthMethod(as())).to.equal(undefined);
  });

  it('uses stored or pre-registered credentials before anything else', async () => {
    const { fetch, bodies } = registrar();
    const p = provider({ clientInformation: { client_id: 'pre', client_secret: 'x' }, clientMetadataUrl: 'https://client.example.com/cimd.json' });
    const { client, source } = await resolveClient({ provider: p, issuer: 'https://as.example.com', metadata: as({ client_id_metadata_document_supported: true }), fetch });
    expect(source).to.equal('stored');
    expect(client.client_id).to.equal('pre');
    expect(bodies).to.have.length(0);
  });

  it('uses the client ID metadata document URL when the server supports CIMD, and registers otherwise', async () => {
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
