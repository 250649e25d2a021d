// Bad input to our authorization server, refused as the RFCs say and without crashing it.
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash } from 'node:crypto';
import { createAuthorizationServer } from '../../lib/auth/authorization-server/authorization-server.js';
import { memoryAccounts } from '../../lib/auth/authorization-server/accounts.js';

describe('authorization server: bad input', () => {
  let http: Server;
  let as: Awaited<ReturnType<typeof createAuthorizationServer>>;
  let issuer: string;
  const resource = 'http://127.0.0.1:9/mcp';
  const redirect = 'http://127.0.0.1:7/callback';
  const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

  before(async () => {
    http = createServer();
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', () => r()));
    issuer = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    as = await createAuthorizationServer({
      issuer,
      resources: [resource],
      accounts: memoryAccounts({ alice: 'correct horse' }),
      clients: [{ client_id: 'app', token_endpoint_auth_method: 'none', redirect_uris: [redirect], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] }],
    });
    http.on('request', (req, res) => as.handler(req, res));
  });
  after(() => http.close());

  function authorize(redirectUri: string): Promise<Response> {
    const q = new URLSearchParams({ response_type: 'code', client_id: 'app', redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: 'S256', resource, state: 's' });
    return fetch(`${issuer}/auth?${q}`, { redirect: 'manual' });
  }

  it('a redirect URI not registered: an error page, never a redirect to it (RFC 6749 4.1.2.1)', async () => {
    const res = await authorize('http://127.0.0.1:7/evil');
    expect(res.status).to.equal(400);
    expect(res.headers.get('location')).to.equal(null);
    expect(await res.text()).to.include('redirect_uri');
    // The registered one still starts an interaction: the server is up.
    const ok = await authorize(redirect);
    expect(ok.status).to.equal(303);
    expect(ok.headers.get('location')).to.match(/^\/interaction\//);
  });

  it('an oversized registration: refused with a 4xx, the server stays up (RFC 7591)', async () => {
    const res = await fetch(`${issuer}/reg`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: [redirect], client_name: 'x'.repeat(2_000_000) }) });
    expect(res.status).to.be.within(400, 499);
    const small = await fetch(`${issuer}/reg`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: [redirect], token_endpoint_auth_method: 'none' }) });
    expect(small.status).to.equal(201);
  });
  /** Sign in and allow without a browser (cookies carried by hand), returning the code. */
  async function code(verifier: string): Promise<string> {
    const jar = new Map<string, string>();
    const go = async (url: string, init: RequestInit = {}): Promise<Response> => {
      const res = await fetch(new URL(url, issuer), { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string>), cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } });
      for (const c of res.headers.getSetCookie()) {
        const [kv] = c.split(';');
        const i = kv!.indexOf('=');
        jar.set(kv!.slice(0, i), kv!.slice(i + 1));
      }
      return res;
    };
    const c = createHash('sha256').update(verifier).digest('base64url');
    const q = new URLSearchParams({ response_type: 'code', client_id: 'app', redirect_uri: redirect, code_challenge: c, code_challenge_method: 'S256', resource, state: 's' });
    let res = await go(`/auth?${q}`);
    const form = { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' } };
    res = await go(`${res.headers.get('location')!}/login`, { ...form, body: 'username=alice&password=correct+horse' });
    res = await go(res.headers.get('location')!);
    res = await go(`${res.headers.get('location')!}/confirm`, { ...form, body: '' });
    res = await go(res.headers.get('location')!);
    const to = new URL(res.headers.get('location')!);
    expect(to.origin + to.pathname).to.equal(redirect);
    return to.searchParams.get('code')!;
  }

  function token(params: Record<string, string>): Promise<Response> {
    return fetch(`${issuer}/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ client_id: 'app', ...params }) });
  }

  const verifier = 'v'.repeat(50);

  it('a reused code and a wrong PKCE verifier: invalid_grant (RFC 6749 4.1.2, RFC 7636 4.6)', async () => {
    const wrong = await token({ grant_type: 'authorization_code', code: await code(verifier), redirect_uri: redirect, code_verifier: 'w'.repeat(50) });
    expect(wrong.status).to.equal(400);
    expect(((await wrong.json()) as { error: string }).error).to.equal('invalid_grant');
    const once = await code(verifier);
    const first = await token({ grant_type: 'authorization_code', code: once, redirect_uri: redirect, code_verifier: verifier });
    expect(first.status).to.equal(200);
    const { access_token } = (await first.json()) as { access_token: string };
    const again = await token({ grant_type: 'authorization_code', code: once, redirect_uri: redirect, code_verifier: verifier });
    expect(again.status).to.equal(400);
    expect(((await again.json()) as { error: string }).error).to.equal('invalid_grant');
    // Its token is good for this resource and refused for another (RFC 8707 audience).
    expect((await as.verifier(resource)(access_token, { resource }))?.audience).to.deep.equal([resource]);
    const other = 'http://127.0.0.1:8/other';
    expect(() => as.verifier(other)(access_token, { resource: other })).to.throw(/another resource/);
  });
});
