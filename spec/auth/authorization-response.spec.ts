// RFC 9207 authorization response validation (2026-07-28): our client, through the Streamable
// HTTP transport's `auth` option, against an in-test authorization server on 127.0.0.1 whose
// redirect carries a chosen `iss` (and, for some tests, an error instead of a code).
import { expect } from 'chai';
import { AuthorizationError } from '../../lib/auth/authorization-errors.js';
import { OAuthClient } from '../../lib/auth/oauth-client.js';
import { headlessAuthorize, InMemoryOAuthClientProvider } from '../../lib/auth/provider.js';
import { Client } from '../../lib/entries/client.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';
import { startAuthorizationServer, startProtectedServer, type AuthorizationServerOptions, type TestAuthorizationServer, type TestProtectedServer } from './helpers.js';

const REDIRECT = 'http://127.0.0.1:1/callback';

describe('OAuth client: authorization response validation (RFC 9207)', () => {
  let as: TestAuthorizationServer | undefined;
  let rs: TestProtectedServer | undefined;
  let client: Client | undefined;

  async function setUp(asOptions: AuthorizationServerOptions = {}) {
    as = await startAuthorizationServer(asOptions);
    rs = await startProtectedServer({ as });
  }

  afterEach(async () => {
    await client?.close().catch(() => {});
    client = undefined;
    await rs?.close();
    await as?.close();
  });

  /** Connects with a fresh provider; resolves with the error the connection failed with, if any. */
  async function connectError(): Promise<AuthorizationError | undefined> {
    const provider = new InMemoryOAuthClientProvider({ redirectUrl: REDIRECT, authorize: headlessAuthorize() });
    const oauth = new OAuthClient({ serverUrl: rs!.url, provider });
    client = new Client({ info: { name: 'rfc9207', version: '1.0.0' } });
    try {
      await client.connect(createStreamableHttpClientTransport(rs!.url, { auth: oauth }));
      return undefined;
    } catch {
      // The transport wraps the failure; the client's own error is the typed one.
      return oauth.snapshot?.context.error;
    }
  }

  it('[AUTH-135] [AUTH-138] [AUTH-140] compares iss with the issuer of the validated metadata as a plain string: no case folding of the scheme, no percent-decoding, no trailing-slash trimming; nothing goes to the token endpoint', async () => {
    const variants: [string, (issuer: string) => string][] = [
      ['upper-case scheme', (issuer) => issuer.replace(/^http:/, 'HTTP:')],
      ['percent-encoded path', (issuer) => issuer.replace(/tenant1$/, 'tenant%31')],
      ['trailing slash', (issuer) => `${issuer}/`],
    ];
    for (const [what, iss] of variants) {
      await setUp({ issuerPath: '/tenant1', issInResponse: iss });
      const error = await connectError();
      expect(error?.code, what).to.equal('issuer_mismatch');
      expect(as!.authorizations, what).to.have.length(1);
      expect(as!.tokenRequests, what).to.have.length(0);
      await client?.close().catch(() => {});
      await rs!.close();
      await as!.close();
    }
    // The same server with the exact issuer: the code is redeemed and the session opens.
    await setUp({ issuerPath: '/tenant1', issInResponse: (issuer) => issuer });
    expect(await connectError()).to.equal(undefined);
    expect(as!.tokenRequests).to.have.length(1);
  });

  it('[AUTH-138] without the metadata flag a present iss is still compared; with the flag an absent iss is rejected; neither flag nor iss proceeds', async () => {
    await setUp({ issInResponse: () => 'https://other-as.example.com' });
    expect((await connectError())?.code).to.equal('issuer_mismatch');
    expect(as!.tokenRequests).to.have.length(0);
    await rs!.close();
    await as!.close();

    await setUp({ metadata: { authorization_response_iss_parameter_supported: true } });
    expect((await connectError())?.code).to.equal('issuer_mismatch');
    expect(as!.tokenRequests).to.have.length(0);
    await rs!.close();
    await as!.close();

    await setUp();
    expect(await connectError()).to.equal(undefined);
  });

  it('[AUTH-141] an error response whose iss does not match is not acted on: neither its error, its description nor its error_uri reaches the caller', async () => {
    const authorizationError = { error: 'access_denied', error_description: 'Session expired, sign in at evil.example', error_uri: 'https://evil.example/help' };
    await setUp({ authorizationError, issInResponse: () => 'https://attacker.example' });
    const error = await connectError();
    expect(error?.code).to.equal('issuer_mismatch');
    const shown = `${error?.message} ${JSON.stringify(error?.details)}`;
    for (const text of Object.values(authorizationError)) expect(shown).not.to.include(text);
    expect(shown).not.to.include('access_denied');
    await rs!.close();
    await as!.close();

    // The same error with the right iss is reported as the server's refusal.
    await setUp({ authorizationError, issInResponse: (issuer) => issuer });
    const denied = await connectError();
    expect(denied?.code).to.equal('authorization_denied');
    expect(denied?.details.oauthError).to.equal('access_denied');
    expect(as!.tokenRequests).to.have.length(0);
  });
});
