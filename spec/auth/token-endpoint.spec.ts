import { expect } from 'chai';
import type { AuthorizationServerMetadata } from '../../lib/auth/authorization-server-metadata.js';
import { AuthorizationError } from '../../lib/auth/authorization-errors.js';
import { exchangeAuthorizationCode, refreshAccessToken, tokenEndpointAuthMethod } from '../../lib/auth/token-endpoint.js';
import type { FetchLike } from '../../streams/http-fetch.js';

const metadata = (methods?: string[]): AuthorizationServerMetadata => ({
  issuer: 'https://as.example.com',
  authorization_endpoint: 'https://as.example.com/authorize',
  token_endpoint: 'https://as.example.com/token',
  ...(methods && { token_endpoint_auth_methods_supported: methods }),
});

/** A token endpoint that records the request and answers `answer`. */
function endpoint(status = 200, answer: unknown = { access_token: 'at', token_type: 'bearer', expires_in: 60 }) {
  const seen: { headers: Headers; form: URLSearchParams; url: string }[] = [];
  const fetch: FetchLike = async (input, init = {}) => {
    seen.push({ url: String(input), headers: new Headers(init.headers), form: new URLSearchParams(String(init.body)) });
    return new Response(JSON.stringify(answer), { status, headers: { 'content-type': 'application/json' } });
  };
  return { fetch, seen };
}

describe('token endpoint', () => {
  it('chooses the registered method, else basic or post by what the server supports, and none without a secret', () => {
    expect(tokenEndpointAuthMethod({ client_id: 'c', client_secret: 's', token_endpoint_auth_method: 'client_secret_post' }, metadata())).to.equal('client_secret_post');
    expect(tokenEndpointAuthMethod({ client_id: 'c', client_secret: 's' }, metadata(['client_secret_post']))).to.equal('client_secret_post');
    expect(tokenEndpointAuthMethod({ client_id: 'c', client_secret: 's' }, metadata())).to.equal('client_secret_basic');
    expect(tokenEndpointAuthMethod({ client_id: 'c' }, metadata(['client_secret_basic']))).to.equal('none');
    expect(tokenEndpointAuthMethod({ client_id: 'c', client_secret: 's', token_endpoint_auth_method: 'none' }, metadata())).to.equal('none');
  });

  it('[AUTH-017] sends the code, the verifier, the redirect URI and the resource; basic credentials form-urlencoded', async () => {
    const { fetch, seen } = endpoint();
    const tokens = await exchangeAuthorizationCode({
      metadata: metadata(['client_secret_basic']),
      client: { client_id: 'my client', client_secret: 'a+b:c/d' },
      code: 'the-code',
      codeVerifier: 'the-verifier',
      redirectUri: 'http://localhost:3000/callback',
      resource: 'https://mcp.example.com/mcp',
      fetch,
    });
    expect(tokens.access_token).to.equal('at');
    const { form, headers, url } = seen[0]!;
    expect(url).to.equal('https://as.example.com/token');
    expect(headers.get('content-type')).to.equal('application/x-www-form-urlencoded');
    expect(Object.fromEntries(form)).to.deep.equal({
      grant_type: 'authorization_code',
      code: 'the-code',
      code_verifier: 'the-verifier',
      redirect_uri: 'http://localhost:3000/callback',
      resource: 'https://mcp.example.com/mcp',
    });
    expect(Buffer.from(headers.get('authorization')!.slice(6), 'base64').toString()).to.equal('my+client:a%2Bb%3Ac%2Fd');
  });

  it('puts id and secret in the body for client_secret_post, only the id for none', async () => {
    const post = endpoint();
    await refreshAccessToken({
      metadata: metadata(['client_secret_post']),
      client: { client_id: 'c', client_secret: 's' },
      refreshToken: 'rt',
      resource: 'https://mcp.example.com/mcp',
      fetch: post.fetch,
    });
    expect(post.seen[0]!.headers.has('authorization')).to.equal(false);
    expect(Object.fromEntries(post.seen[0]!.form)).to.deep.equal({
      grant_type: 'refresh_token',
      refresh_token: 'rt',
      resource: 'https://mcp.example.com/mcp',
      client_id: 'c',
      client_secret: 's',
    });
    const none = endpoint();
    await refreshAccessToken({ metadata: metadata(), client: { client_id: 'c' }, refreshToken: 'rt', resource: 'https://r', fetch: none.fetch });
    expect(none.seen[0]!.form.get('client_id')).to.equal('c');
    expect(none.seen[0]!.form.has('client_secret')).to.equal(false);
    expect(none.seen[0]!.headers.has('authorization')).to.equal(false);
  });

  it('reports a refusal with its OAuth error code, and rejects answers that are not Bearer tokens', async () => {
    const refused = endpoint(400, { error: 'invalid_grant', error_description: 'expired' });
    let error: AuthorizationError | undefined;
    await refreshAccessToken({ metadata: metadata(), client: { client_id: 'c' }, refreshToken: 'secret-rt', resource: 'https://r', fetch: refused.fetch }).catch((e) => (error = e));
    expect(error).to.be.instanceOf(AuthorizationError);
    expect(error!.code).to.equal('token_request_failed');
    expect(error!.details.oauthError).to.equal('invalid_grant');
    expect(error!.message).to.include('invalid_grant: expired').and.not.include('secret-rt');

    for (const answer of [{ token_type: 'Bearer' }, { access_token: 'x', token_type: 'mac' }]) {
      const odd = endpoint(200, answer);
      const e = await refreshAccessToken({ metadata: metadata(), client: { client_id: 'c' }, refreshToken: 'rt', resource: 'https://r', fetch: odd.fetch }).catch((x: unknown) => x);
      expect(e).to.be.instanceOf(AuthorizationError);
    }
  });
});
