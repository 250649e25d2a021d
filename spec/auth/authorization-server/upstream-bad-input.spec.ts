// The identity-provider front against a misbehaving upstream: an in-test OpenID provider on
// 127.0.0.1 whose token endpoint answers ID tokens that are wrong in one way each. The front must
// refuse every one (nothing signed in), say why without quoting them, and stay up.
import { expect } from 'chai';
import { createHash, generateKeyPairSync, randomUUID, sign, type KeyObject } from 'node:crypto';
import { createAuthorizationServer, type AuthorizationServer } from '../../../lib/auth/authorization-server/authorization-server.js';
import { loopback, type Loopback } from './helpers.js';

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

function jwt(key: KeyObject, kid: string, claims: Record<string, unknown>, alg = 'RS256'): string {
  const input = `${b64({ alg, kid, typ: 'JWT' })}.${b64(claims)}`;
  return `${input}.${alg === 'none' ? '' : sign('sha256', Buffer.from(input), key).toString('base64url')}`;
}

describe('authorization server: an upstream identity provider that misbehaves', function () {
  this.timeout(20_000);
  let upstream: Loopback;
  let frontHttp: Loopback;
  let front: AuthorizationServer;
  const logs: string[] = [];
  const key = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = randomUUID();
  /** What the upstream's token endpoint signs next, given the nonce it was asked for. */
  let idToken: (nonce: string) => string;
  let lastNonce = '';
  const resource = 'http://127.0.0.1:9/mcp';
  const redirect = 'http://127.0.0.1:7/callback';

  before(async () => {
    upstream = await loopback();
    upstream.set((req, res) => {
      const path = new URL(req.url ?? '/', upstream.origin).pathname;
      const json = (v: unknown) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(v));
      };
      if (path === '/.well-known/openid-configuration') return json({ issuer: upstream.origin, authorization_endpoint: `${upstream.origin}/authorize`, token_endpoint: `${upstream.origin}/token`, jwks_uri: `${upstream.origin}/jwks` });
      if (path === '/jwks') return json({ keys: [{ ...key.publicKey.export({ format: 'jwk' }), kid, use: 'sig', alg: 'RS256' }] });
      if (path === '/token') {
        // The front authenticates as its client (client_secret_basic).
        if (req.headers.authorization !== `Basic ${Buffer.from('mcp-front:s3cret').toString('base64')}`) {
          res.writeHead(401, { 'content-type': 'application/json' });
          return res.end('{"error":"invalid_client"}');
        }
        return json({ access_token: 'upstream-access-token', token_type: 'Bearer', id_token: idToken(lastNonce) });
      }
      res.writeHead(404).end();
    });
    frontHttp = await loopback();
    front = await createAuthorizationServer({
      issuer: frontHttp.origin,
      resources: [resource],
      upstream: { issuer: upstream.origin, clientId: 'mcp-front', clientSecret: 's3cret' },
      clients: [{ client_id: 'app', token_endpoint_auth_method: 'none', redirect_uris: [redirect], grant_types: ['authorization_code'], response_types: ['code'] }],
      log: (line) => logs.push(line),
    });
    frontHttp.set((req, res) => front.handler(req, res));
  });
  after(async () => {
    await frontHttp.close();
    await upstream.close();
  });

  /** An MCP client's authorization request at the front, allowed by the person: the upstream authorization URL it is sent to. */
  async function toUpstream(): Promise<{ url: URL; go: (path: string) => Promise<Response> }> {
    const jar = new Map<string, string>();
    const go = async (url: string, init: RequestInit = {}): Promise<Response> => {
      const res = await fetch(new URL(url, frontHttp.origin), { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string>), cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } });
      for (const c of res.headers.getSetCookie()) {
        const [kv] = c.split(';');
        const i = kv!.indexOf('=');
        jar.set(kv!.slice(0, i), kv!.slice(i + 1));
      }
      return res;
    };
    const challenge = createHash('sha256').update('v'.repeat(50)).digest('base64url');
    const q = new URLSearchParams({ response_type: 'code', client_id: 'app', redirect_uri: redirect, code_challenge: challenge, code_challenge_method: 'S256', resource, state: 's' });
    let res = await go(`/auth?${q}`);
    const interaction = res.headers.get('location')!;
    res = await go(interaction);
    expect(await res.text(), 'the front asks first').to.include('id="allow"');
    res = await go(`${interaction}/confirm`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
    expect(res.status).to.equal(303);
    const url = new URL(res.headers.get('location')!);
    expect(url.origin + url.pathname).to.equal(`${upstream.origin}/authorize`);
    lastNonce = url.searchParams.get('nonce')!;
    return { url, go };
  }

  const good = (nonce: string) => ({ iss: upstream.origin, aud: 'mcp-front', sub: 'bob', nonce, iat: Math.floor(Date.now() / 1000), exp: Math.floor(Date.now() / 1000) + 300 });

  it('sends the person upstream with PKCE S256, state and nonce, and signs in with a good ID token', async () => {
    const { url, go } = await toUpstream();
    expect(url.searchParams.get('code_challenge_method')).to.equal('S256');
    expect(url.searchParams.get('state')).to.have.length.greaterThan(30);
    expect(url.searchParams.get('redirect_uri')).to.equal(`${front.issuer}/upstream/callback`);
    idToken = (nonce) => jwt(key.privateKey, kid, good(nonce));
    const back = await go(`/upstream/callback?code=upstream-code-1&state=${url.searchParams.get('state')}&iss=${encodeURIComponent(upstream.origin)}`);
    expect(back.status).to.equal(303);
    expect(back.headers.get('location')).to.match(/^\/interaction\/[\w-]+\/upstream$/);
    // The same answer again: its state is spent.
    const again = await go(`/upstream/callback?code=upstream-code-1&state=${url.searchParams.get('state')}`);
    expect(again.status).to.equal(400);
  });

  const bad: Array<[string, (nonce: string) => string, RegExp]> = [
    ['another nonce', (n) => jwt(key.privateKey, kid, { ...good(n), nonce: 'other' }), /nonce/],
    ['another audience', (n) => jwt(key.privateKey, kid, { ...good(n), aud: 'someone-else' }), /another client/],
    ['another issuer', (n) => jwt(key.privateKey, kid, { ...good(n), iss: 'https://evil.example' }), /another issuer/],
    ['expired', (n) => jwt(key.privateKey, kid, { ...good(n), exp: Math.floor(Date.now() / 1000) - 10 }), /expired/],
    ['signed by another key', (n) => jwt(stranger.privateKey, kid, good(n)), /signature/],
    ['unsigned (alg none)', (n) => jwt(key.privateKey, kid, good(n), 'none'), /algorithm/],
    ['no subject', (n) => jwt(key.privateKey, kid, { ...good(n), sub: '' }), /subject/],
    ['not a JWT', () => 'garbage', /not a JWT/],
  ];
  for (const [what, make, why] of bad) {
    it(`refuses an ID token with ${what}: no sign-in, a 400 saying why`, async () => {
      const { url, go } = await toUpstream();
      idToken = make;
      const back = await go(`/upstream/callback?code=upstream-code-2&state=${url.searchParams.get('state')}`);
      expect(back.status).to.equal(400);
      expect(await back.text()).to.match(why);
      expect(logs.at(-1)).to.match(/^sign-in upstream refused/);
    });
  }

  it('refuses an answer from another issuer (RFC 9207 iss), an upstream error, and nothing secret is logged', async () => {
    const { url, go } = await toUpstream();
    idToken = (nonce) => jwt(key.privateKey, kid, good(nonce));
    const mixUp = await go(`/upstream/callback?code=upstream-code-3&state=${url.searchParams.get('state')}&iss=${encodeURIComponent('https://evil.example')}`);
    expect(mixUp.status).to.equal(400);
    expect(await mixUp.text()).to.match(/another issuer/);
    const second = await toUpstream();
    const denied = await second.go(`/upstream/callback?error=access_denied&state=${second.url.searchParams.get('state')}`);
    expect(denied.status).to.equal(400);
    expect(await denied.text()).to.match(/refused the sign-in \(access_denied\)/);
    const all = logs.join('\n');
    for (const secret of ['s3cret', 'upstream-access-token', 'upstream-code-1', 'upstream-code-2', 'upstream-code-3', lastNonce]) expect(all).to.not.include(secret);
  });
});
