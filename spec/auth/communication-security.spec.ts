// Communication security of the client's OAuth flow (OAuth 2.1 §1.5): authorization server
// endpoints, redirect URLs and the MCP server a token goes to must be https, except on loopback
// hosts. A fetch stub plays the MCP server and the authorization server, so no network is used.
import { expect } from 'chai';
import { AuthorizationError } from '../../lib/auth/authorization-errors.js';
import { OAuthClient } from '../../lib/auth/oauth-client.js';
import { createHeadlessOAuthProvider, InMemoryOAuthClientProvider, type OAuthClientProvider } from '../../lib/auth/provider.js';
import { requestToken } from '../../lib/auth/token-endpoint.js';
import type { FetchLike } from '../../streams/http-fetch.js';

const REDIRECT = 'http://127.0.0.1:1/callback';
const TOKEN = 'stub-access-token';

interface StubOptions {
  /** The MCP endpoint, e.g. https://mcp.example.com/mcp. */
  mcp: string;
  /** The authorization server's issuer (named by the PRM). */
  issuer: string;
  /** Overrides of the AS metadata's endpoints. */
  endpoints?: { authorization_endpoint?: string; token_endpoint?: string; registration_endpoint?: string };
}

/**
 * One fetch for an MCP server (401 without our token, JSON-RPC answer with it, PRM at the
 * path-based location) and an authorization server (metadata, registration, token). Records
 * every request, with its body.
 */
function stub(options: StubOptions) {
  const mcp = new URL(options.mcp);
  const issuer = options.issuer.replace(/\/$/, '');
  const prmUrl = `${mcp.origin}/.well-known/oauth-protected-resource${mcp.pathname}`;
  const metadata = {
    issuer,
    authorization_endpoint: `${issuer}/authorize`,
    token_endpoint: `${issuer}/token`,
    registration_endpoint: `${issuer}/register`,
    response_types_supported: ['code'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    ...options.endpoints,
  };
  const requests: { method: string; url: string; authorization: string | null; body: string }[] = [];
  const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
  const fetch: FetchLike = async (input, init = {}) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const headers = new Headers(init.headers);
    requests.push({ method: init.method ?? 'GET', url: url.href, authorization: headers.get('authorization'), body: typeof init.body === 'string' ? init.body : '' });
    if (url.href === prmUrl) return json(200, { resource: mcp.href, authorization_servers: [issuer] });
    if (url.href === `${new URL(issuer).origin}/.well-known/oauth-authorization-server`) return json(200, metadata);
    if (url.href === metadata.registration_endpoint) return json(201, { client_id: 'registered', token_endpoint_auth_method: 'none' });
    if (url.href === metadata.token_endpoint) return json(200, { access_token: TOKEN, token_type: 'Bearer', expires_in: 3600 });
    if (url.href === mcp.href) {
      if (headers.get('authorization') !== `Bearer ${TOKEN}`) {
        return json(401, { error: 'invalid_token' }, { 'www-authenticate': `Bearer error="invalid_token", resource_metadata="${prmUrl}"` });
      }
      return json(200, { jsonrpc: '2.0', id: 1, result: {} });
    }
    return json(404, { error: 'not_found' });
  };
  return { fetch, requests, metadata };
}

/** A provider whose authorization step answers at once with a code and the request's state, recording the URLs it was given. */
function provider(redirectUrl = REDIRECT) {
  const authorizationUrls: URL[] = [];
  const p = new InMemoryOAuthClientProvider({
    redirectUrl,
    authorize: async (url) => {
      authorizationUrls.push(url);
      return new URL(`${redirectUrl}?code=the-code&state=${url.searchParams.get('state')}`);
    },
  });
  return { provider: p, authorizationUrls };
}

const post = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' };

async function rejection(promise: Promise<unknown>): Promise<AuthorizationError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).to.be.instanceOf(AuthorizationError);
  return error as AuthorizationError;
}

describe('OAuth client communication security', () => {
  describe('authorization server endpoints', () => {
    const cases: { endpoint: string; options: Pick<StubOptions, 'issuer' | 'endpoints'>; url: string; sentBefore: string[] }[] = [
      { endpoint: 'metadata (issuer)', options: { issuer: 'http://auth.example.com' }, url: 'http://auth.example.com/', sentBefore: [] },
      { endpoint: 'token', options: { issuer: 'https://auth.example.com', endpoints: { token_endpoint: 'http://auth.example.com/token' } }, url: 'http://auth.example.com/token', sentBefore: ['GET https://auth.example.com/.well-known/oauth-authorization-server'] },
      { endpoint: 'authorization', options: { issuer: 'https://auth.example.com', endpoints: { authorization_endpoint: 'http://auth.example.com/authorize' } }, url: 'http://auth.example.com/authorize', sentBefore: ['GET https://auth.example.com/.well-known/oauth-authorization-server'] },
      { endpoint: 'registration', options: { issuer: 'https://auth.example.com', endpoints: { registration_endpoint: 'http://auth.example.com/register' } }, url: 'http://auth.example.com/register', sentBefore: ['GET https://auth.example.com/.well-known/oauth-authorization-server'] },
    ];
    for (const c of cases) {
      it(`[AUTH-042] [AUTH-043] refuses a plain-http ${c.endpoint} endpoint on a remote host with a typed error, before sending anything to the authorization server`, async () => {
        const s = stub({ mcp: 'https://mcp.example.com/mcp', ...c.options });
        const { provider: p, authorizationUrls } = provider();
        const oauth = new OAuthClient({ serverUrl: 'https://mcp.example.com/mcp', provider: p, fetch: s.fetch });
        const error = await rejection(oauth.wrapFetch()('https://mcp.example.com/mcp', post));
        expect(error.code).to.equal('insecure_endpoint');
        expect(error.message).to.include(c.url).and.to.include('not an https URL').and.to.match(/localhost, 127\.0\.0\.1 and \[::1\]/);
        // The MCP request, the PRM, and at most the (https) metadata: no registration, no authorization, no token request.
        expect(s.requests.map((r) => `${r.method} ${r.url}`)).to.deep.equal([
          'POST https://mcp.example.com/mcp',
          'GET https://mcp.example.com/.well-known/oauth-protected-resource/mcp',
          ...c.sentBefore,
        ]);
        expect(authorizationUrls).to.have.length(0);
        expect(p.tokens()).to.equal(undefined);
      });
    }

    it('[AUTH-042] [AUTH-043] refuses a plain-http token endpoint given directly (an IdP\'s, say): no secret or grant is sent', async () => {
      let sent = 0;
      const fetch: FetchLike = async () => {
        sent++;
        return new Response('{}');
      };
      const error = await rejection(
        requestToken('http://idp.example.com/token', { grant_type: 'client_credentials' }, 'client', { method: 'client_secret_post', clientSecret: 'the-secret' }, { fetch }),
      );
      expect(error.code).to.equal('insecure_endpoint');
      expect(error.message).not.to.include('the-secret');
      expect(sent).to.equal(0);
    });

    for (const host of ['localhost', '127.0.0.1', '[::1]']) {
      it(`[AUTH-043] allows plain http on the loopback host ${host}: the whole flow runs and the request is sent again with the token`, async () => {
        const s = stub({ mcp: `http://${host}:8123/mcp`, issuer: `http://${host}:9123` });
        const { provider: p, authorizationUrls } = provider();
        const oauth = new OAuthClient({ serverUrl: `http://${host}:8123/mcp`, provider: p, fetch: s.fetch });
        const res = await oauth.wrapFetch()(`http://${host}:8123/mcp`, post);
        expect(res.status).to.equal(200);
        expect(authorizationUrls[0]!.href).to.match(new RegExp(`^http://${host.replace(/[[\]]/g, '\\$&')}:9123/authorize\\?`));
        expect(s.requests.map((r) => `${r.method} ${new URL(r.url).pathname}`)).to.deep.equal([
          'POST /mcp',
          'GET /.well-known/oauth-protected-resource/mcp',
          'GET /.well-known/oauth-authorization-server',
          'POST /register',
          'POST /token',
          'POST /mcp',
        ]);
        expect(s.requests.at(-1)!.authorization).to.equal(`Bearer ${TOKEN}`);
      });
    }
  });

  describe('the MCP server a token goes to', () => {
    it('[AUTH-024] [AUTH-042] sends no token (stored or new) to a plain-http MCP server on a remote host, and asks for none', async () => {
      const s = stub({ mcp: 'http://mcp.example.com/mcp', issuer: 'https://auth.example.com' });
      const { provider: p, authorizationUrls } = provider();
      p.saveTokens({ access_token: TOKEN, token_type: 'Bearer', resource: 'http://mcp.example.com/mcp' });
      const oauth = new OAuthClient({ serverUrl: 'http://mcp.example.com/mcp', provider: p, fetch: s.fetch });
      const error = await rejection(oauth.wrapFetch()('http://mcp.example.com/mcp', post));
      expect(error.code).to.equal('insecure_endpoint');
      expect(error.message).to.include('http://mcp.example.com/mcp').and.not.to.include(TOKEN);
      expect(s.requests).to.have.length(0);
      expect(authorizationUrls).to.have.length(0);
      const challenge = await rejection(oauth.handleChallenge('unauthorized', null, undefined));
      expect(challenge.code).to.equal('insecure_endpoint');
      expect(s.requests).to.have.length(0);
    });

    it('[AUTH-024] [AUTH-025] [AUTH-027] over https sends the token only in the Authorization header, never in the URL or the body', async () => {
      const s = stub({ mcp: 'https://mcp.example.com/mcp', issuer: 'https://auth.example.com' });
      const oauth = new OAuthClient({ serverUrl: 'https://mcp.example.com/mcp', provider: provider().provider, fetch: s.fetch });
      const res = await oauth.wrapFetch()('https://mcp.example.com/mcp', post);
      expect(res.status).to.equal(200);
      const toMcp = s.requests.filter((r) => r.url === 'https://mcp.example.com/mcp');
      expect(toMcp.map((r) => r.authorization)).to.deep.equal([null, `Bearer ${TOKEN}`]);
      for (const r of s.requests) {
        expect(r.url).not.to.include(TOKEN);
        expect(r.body).not.to.include(TOKEN);
      }
    });
  });

  describe('redirect URLs', () => {
    it('[AUTH-044] the provider refuses a redirect URL that is neither https nor loopback, with a TypeError that says what to use', () => {
      for (const redirectUrl of ['http://app.example.com/callback', 'http://192.168.1.20:3000/callback', 'ftp://localhost/callback', 'myapp:/callback', 'not a url']) {
        expect(() => new InMemoryOAuthClientProvider({ redirectUrl, authorize: () => Promise.reject(new Error('unused')) }), redirectUrl).to.throw(TypeError, /redirect URL/);
        expect(() => createHeadlessOAuthProvider({ redirectUrl }), redirectUrl).to.throw(TypeError);
      }
      expect(() => new InMemoryOAuthClientProvider({ redirectUrl: 'http://app.example.com/cb', authorize: () => Promise.reject(new Error('unused')) })).to.throw(
        /must use https, or http on localhost, 127\.0\.0\.1 or \[::1\]/,
      );
      // A registered redirect URI is checked too.
      expect(() => createHeadlessOAuthProvider({ redirectUrl: REDIRECT, clientMetadata: { redirect_uris: [REDIRECT, 'http://app.example.com/cb'] } })).to.throw(TypeError);
      for (const redirectUrl of ['https://app.example.com/callback', 'http://localhost:3000/callback', 'http://127.0.0.1:1/callback', 'http://[::1]:8080/callback']) {
        expect(createHeadlessOAuthProvider({ redirectUrl }).redirectUrl).to.equal(redirectUrl);
      }
    });

    it('[AUTH-044] refuses, before registering, a provider of its own whose redirect URL is plain http on a remote host', async () => {
      const s = stub({ mcp: 'https://mcp.example.com/mcp', issuer: 'https://auth.example.com' });
      const inner = provider().provider;
      const custom: OAuthClientProvider = {
        redirectUrl: 'http://app.example.com/callback',
        clientMetadata: { redirect_uris: ['http://app.example.com/callback'] },
        clientInformation: (issuer) => inner.clientInformation(issuer),
        saveClientInformation: (issuer, info) => inner.saveClientInformation(issuer, info),
        tokens: () => inner.tokens(),
        saveTokens: (t) => inner.saveTokens(t),
        invalidate: (what, issuer) => inner.invalidate(what, issuer),
        authorize: () => Promise.reject(new Error('must not be called')),
      };
      const oauth = new OAuthClient({ serverUrl: 'https://mcp.example.com/mcp', provider: custom, fetch: s.fetch });
      const error = await rejection(oauth.wrapFetch()('https://mcp.example.com/mcp', post));
      expect(error.code).to.equal('insecure_endpoint');
      expect(error.message).to.include('http://app.example.com/callback');
      expect(s.requests.filter((r) => r.url.startsWith('https://auth.example.com/') && r.method === 'POST')).to.have.length(0);
    });
  });
});
