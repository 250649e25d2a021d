import { expect } from 'chai';
import { AuthorizationError } from '../../lib/auth/authorization-errors.js';
import { OAuthClient } from '../../lib/auth/oauth-client.js';
import { createPkce, requireS256, s256Challenge } from '../../lib/auth/pkce.js';
import { headlessAuthorize, InMemoryOAuthClientProvider } from '../../lib/auth/provider.js';
import { Client } from '../../lib/entries/client.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';
import { startAuthorizationServer, startProtectedServer, type AuthorizationServerOptions, type TestAuthorizationServer, type TestProtectedServer } from './helpers.js';

describe('PKCE', () => {
  it('[AUTH-045] computes the S256 challenge of RFC 7636 Appendix B', () => {
    expect(s256Challenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).to.equal('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });

  it('[AUTH-045] makes a fresh 43-character base64url verifier each time, with its challenge', () => {
    const a = createPkce();
    const b = createPkce();
    expect(a.verifier).to.match(/^[A-Za-z0-9_-]{43}$/);
    expect(a.verifier).not.to.equal(b.verifier);
    expect(a.challenge).to.equal(s256Challenge(a.verifier));
    expect(a.method).to.equal('S256');
  });

  it('refuses an authorization server that does not list S256, or lists no methods at all', () => {
    expect(() => requireS256({ issuer: 'https://as', code_challenge_methods_supported: ['S256', 'plain'] })).not.to.throw();
    for (const methods of [undefined, ['plain'], 'S256']) {
      let error: unknown;
      try {
        requireS256({ issuer: 'https://as', code_challenge_methods_supported: methods });
      } catch (e) {
        error = e;
      }
      expect(error).to.be.instanceOf(AuthorizationError);
      expect((error as AuthorizationError).code).to.equal('pkce_unsupported');
    }
  });
});

describe('PKCE support checked in the authorization server metadata, end to end', () => {
  let as: TestAuthorizationServer | undefined;
  let rs: TestProtectedServer | undefined;
  let client: Client | undefined;

  afterEach(async () => {
    await client?.close().catch(() => {});
    client = undefined;
    await rs?.close();
    await as?.close();
  });

  /** Connects through a fresh provider; the client's typed error when the flow failed. */
  async function connectError(options: AuthorizationServerOptions): Promise<AuthorizationError | undefined> {
    as = await startAuthorizationServer(options);
    rs = await startProtectedServer({ as });
    const oauth = new OAuthClient({ serverUrl: rs.url, provider: new InMemoryOAuthClientProvider({ redirectUrl: 'http://127.0.0.1:1/callback', authorize: headlessAuthorize() }) });
    client = new Client({ info: { name: 'pkce', version: '1.0.0' } });
    try {
      await client.connect(createStreamableHttpClientTransport(rs.url, { auth: oauth }));
      return undefined;
    } catch {
      return oauth.snapshot?.context.error;
    }
  }

  const sentNothing = () => {
    expect(as!.registrations, 'registrations').to.have.length(0);
    expect(as!.authorizations, 'authorization requests').to.have.length(0);
    expect(as!.tokenRequests, 'token requests').to.have.length(0);
  };

  it('[AUTH-229] [AUTH-231] refuses, before registering or redirecting, an RFC 8414 server whose metadata has no code_challenge_methods_supported', async () => {
    const error = await connectError({ metadata: { code_challenge_methods_supported: undefined } });
    expect(error?.code).to.equal('pkce_unsupported');
    expect(error?.message).to.match(/the field is absent/);
    sentNothing();
  });

  it('[AUTH-229] [AUTH-230] refuses a server that offers only the plain method', async () => {
    const error = await connectError({ metadata: { code_challenge_methods_supported: ['plain'] } });
    expect(error?.code).to.equal('pkce_unsupported');
    sentNothing();
  });

  it('[AUTH-232] checks OpenID Connect discovery metadata the same way: refused without the field, used with S256 listed', async () => {
    const oidcOnly = { metadataPaths: ['/.well-known/openid-configuration'] };
    const error = await connectError({ ...oidcOnly, metadata: { code_challenge_methods_supported: undefined } });
    expect(error?.code).to.equal('pkce_unsupported');
    expect(as!.requests.map((r) => r.url)).to.deep.equal(['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']);
    sentNothing();
    await rs!.close();
    await as!.close();

    expect(await connectError({ ...oidcOnly, metadata: { code_challenge_methods_supported: ['plain', 'S256'] } })).to.equal(undefined);
    expect(as!.authorizations[0]!.get('code_challenge_method')).to.equal('S256');
    expect(as!.tokenRequests).to.have.length(1);
  });
});
