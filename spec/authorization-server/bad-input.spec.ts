// Bad input to our authorization server, refused as the RFCs say and without crashing it.
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAuthorizationServer } from '../../lib/auth/authorization-server/authorization-server.js';
import { memoryAccounts } from '../../lib/auth/authorization-server/accounts.js';

describe('authorization server: bad input', () => {
  let http: Server;
  let issuer: string;
  const resource = 'http://127.0.0.1:9/mcp';
  const redirect = 'http://127.0.0.1:7/callback';
  const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

  before(async () => {
    http = createServer();
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', () => r()));
    issuer = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    const as = await createAuthorizationServer({
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
});
