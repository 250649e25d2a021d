// Bad input to our authorization server, refused as the RFCs say and without crashing it.
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { DpopProver } from '../../../lib/auth/dpop.js';
import type { AuthorizationServer } from '../../../lib/auth/authorization-server/authorization-server.js';
import { DpopReplayCache } from '../../../lib/auth/server/dpop-proof.js';
import { reserveMcp, startAuthorizationServer, startProtectedMcp, USER, type Loopback, type ProtectedMcp } from './helpers.js';

describe('authorization server: bad input', () => {
  let http: Loopback;
  let as: AuthorizationServer;
  let rs: ProtectedMcp;
  let logs: string[];
  let issuer: string;
  let resource: string;
  const redirect = 'http://127.0.0.1:7/callback';
  const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
  /** Every secret the specs handle: none may appear in what the server logs. */
  const secrets: string[] = [USER.password];
  let skew = 0;

  before(async () => {
    const reserved = await reserveMcp();
    resource = reserved.url;
    ({ as, http, logs } = await startAuthorizationServer({
      resources: [resource],
      now: () => Date.now() + skew,
      clients: [{ client_id: 'app', token_endpoint_auth_method: 'none', redirect_uris: [redirect], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] }],
    }));
    issuer = as.issuer;
    rs = await startProtectedMcp(reserved, as, { dpop: true });
  });
  after(async () => {
    await rs.close();
    await http.close();
  });

  function authorize(redirectUri: string): Promise<Response> {
    const q = new URLSearchParams({ response_type: 'code', client_id: 'app', redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: 'S256', resource, state: 's' });
    return fetch(`${issuer}/auth?${q}`, { redirect: 'manual' });
  }

  it('[AUTH-008] [AUTH-125] [AUTH-137] [AUTH-233] metadata at both well-known URLs: S256 only, iss in responses, registration, DPoP ES256', async () => {
    for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
      const res = await fetch(`${issuer}${path}`);
      expect(res.status, path).to.equal(200);
      const m = (await res.json()) as Record<string, unknown>;
      expect(m, path).to.deep.include({ issuer, code_challenge_methods_supported: ['S256'], authorization_response_iss_parameter_supported: true });
      expect(m['registration_endpoint']).to.equal(`${issuer}/reg`);
      expect(m['dpop_signing_alg_values_supported']).to.include('ES256');
      expect(m['response_types_supported']).to.deep.equal(['code']);
    }
  });

  it('[AUTH-004] PKCE is required and plain refused (OAuth 2.1 §4.1.1): the error goes back to the client with iss', async () => {
    for (const q of [{ code_challenge_method: 'plain', code_challenge: 'x'.repeat(43) }, {}] as Array<Record<string, string>>) {
      const params = new URLSearchParams({ response_type: 'code', client_id: 'app', redirect_uri: redirect, resource, state: 's', ...q });
      const res = await fetch(`${issuer}/auth?${params}`, { redirect: 'manual' });
      expect(res.status).to.equal(303);
      const to = new URL(res.headers.get('location')!);
      expect(to.searchParams.get('error')).to.equal('invalid_request');
      expect(to.searchParams.get('iss')).to.equal(issuer);
    }
  });

  it('[AUTH-136] [AUTH-139] a person who denies: access_denied back to the client, with iss (RFC 9207 §2, error responses too)', async () => {
    const to = await authorizeAndAnswer(verifier, 'abort');
    expect(to.searchParams.get('error')).to.equal('access_denied');
    expect(to.searchParams.get('iss')).to.equal(issuer);
    expect(to.searchParams.get('state')).to.equal('s');
    expect(to.searchParams.has('code')).to.equal(false);
  });

  it('[AUTH-047] [AUTH-049] [AUTH-050] a redirect URI not registered: an error page, never a redirect to it (RFC 6749 4.1.2.1)', async () => {
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
  async function code(verifier: string, step: 'confirm' | 'abort' = 'confirm'): Promise<string> {
    const to = await authorizeAndAnswer(verifier, step);
    secrets.push(to.searchParams.get('code')!, verifier);
    return to.searchParams.get('code')!;
  }

  /** Sign in, then allow (or deny) on the consent page: the URL the browser is sent back to. */
  async function authorizeAndAnswer(verifier: string, step: 'confirm' | 'abort'): Promise<URL> {
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
    res = await go(`${res.headers.get('location')!}/login`, { ...form, body: new URLSearchParams({ username: USER.name, password: USER.password }).toString() });
    res = await go(res.headers.get('location')!);
    res = await go(`${res.headers.get('location')!}/${step}`, { ...form, body: '' });
    res = await go(res.headers.get('location')!);
    const to = new URL(res.headers.get('location')!);
    expect(to.origin + to.pathname).to.equal(redirect);
    return to;
  }

  function token(params: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
    return fetch(`${issuer}/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams({ client_id: 'app', ...params }) });
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
    secrets.push(access_token);
    const again = await token({ grant_type: 'authorization_code', code: once, redirect_uri: redirect, code_verifier: verifier });
    expect(again.status).to.equal(400);
    expect(((await again.json()) as { error: string }).error).to.equal('invalid_grant');
    // Its token is good for this resource and refused for another (RFC 8707 audience).
    expect((await as.verifier(resource)(access_token, { resource }))?.audience).to.deep.equal([resource]);
    const other = 'http://127.0.0.1:8/other';
    expect(() => as.verifier(other)(access_token, { resource: other })).to.throw(/another resource/);
  });

  /** A DPoP-bound token for `prover`'s key. */
  async function boundToken(prover: DpopProver): Promise<string> {
    const res = await token({ grant_type: 'authorization_code', code: await code(verifier), redirect_uri: redirect, code_verifier: verifier }, { dpop: prover.proof({ method: 'POST', url: `${issuer}/token` }) });
    const body = (await res.json()) as { access_token: string; token_type: string };
    expect(res.status, JSON.stringify(body)).to.equal(200);
    expect(body.token_type).to.equal('DPoP');
    secrets.push(body.access_token);
    return body.access_token;
  }

  function mcp(headers: Record<string, string>): Promise<Response> {
    return fetch(resource, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }) });
  }

  it('a replayed DPoP proof: refused at the token endpoint and at the MCP server (RFC 9449 §11.1)', async () => {
    const prover = new DpopProver();
    const proof = prover.proof({ method: 'POST', url: `${issuer}/token` });
    const once = await token({ grant_type: 'authorization_code', code: await code(verifier), redirect_uri: redirect, code_verifier: verifier }, { dpop: proof });
    expect(once.status).to.equal(200);
    const again = await token({ grant_type: 'authorization_code', code: await code(verifier), redirect_uri: redirect, code_verifier: verifier }, { dpop: proof });
    const againBody = (await again.json()) as { error: string };
    expect(again.status).to.equal(400);
    // RFC 9449 §5 names invalid_dpop_proof; oidc-provider answers invalid_grant ("DPoP proof JWT Replay detected").
    expect(againBody.error).to.be.oneOf(['invalid_dpop_proof', 'invalid_grant']);
    expect(logs.at(-1)).to.match(/Replay detected/);

    const access = await boundToken(prover);
    const resourceProof = prover.proof({ method: 'POST', url: resource, accessToken: access });
    const ok = await mcp({ authorization: `DPoP ${access}`, dpop: resourceProof });
    expect(ok.status).to.equal(200);
    const replay = await mcp({ authorization: `DPoP ${access}`, dpop: resourceProof });
    expect(replay.status).to.equal(401);
    expect(replay.headers.get('www-authenticate')).to.match(/^DPoP error="invalid_dpop_proof"/);
    expect(((await replay.json()) as { error_description: string }).error_description).to.match(/already used/);
  });

  it('a DPoP-bound token without its key: as Bearer, with a proof by another key, or with a proof for another URL, or made long ago, each 401 (RFC 9449 §7)', async () => {
    const prover = new DpopProver();
    const access = await boundToken(prover);
    const asBearer = await mcp({ authorization: `Bearer ${access}` });
    expect(asBearer.status).to.equal(401);
    expect(asBearer.headers.get('www-authenticate')).to.match(/error="invalid_token"/).and.include('DPoP algs="ES256"');
    const stranger = new DpopProver();
    const otherKey = await mcp({ authorization: `DPoP ${access}`, dpop: stranger.proof({ method: 'POST', url: resource, accessToken: access }) });
    expect(otherKey.status).to.equal(401);
    expect(((await otherKey.json()) as { error_description: string }).error_description).to.match(/another key/);
    const elsewhere = await mcp({ authorization: `DPoP ${access}`, dpop: prover.proof({ method: 'POST', url: `${new URL(resource).origin}/other`, accessToken: access }) });
    expect(elsewhere.status).to.equal(401);
    expect(elsewhere.headers.get('www-authenticate')).to.match(/invalid_dpop_proof/);
    const noProof = await mcp({ authorization: `DPoP ${access}` });
    expect(noProof.status).to.equal(401);
    // A proof made ten minutes ago (iat outside the five-minute window).
    const stale = await mcp({ authorization: `DPoP ${access}`, dpop: prover.proof({ method: 'POST', url: resource, accessToken: access, nowSeconds: Math.floor(Date.now() / 1000) - 600 }) });
    expect(stale.status).to.equal(401);
    expect(((await stale.json()) as { error_description: string }).error_description).to.match(/iat/);
    // The server is still up: the right key goes through.
    expect((await mcp({ authorization: `DPoP ${access}`, dpop: prover.proof({ method: 'POST', url: resource, accessToken: access }) })).status).to.equal(200);
  });

  it('an expired token: the verifier refuses it on its own (exp)', async () => {
    const access = await boundToken(new DpopProver());
    const verify = as.verifier(resource);
    expect(verify(access, { resource })).to.have.property('cnf');
    // Two hours on (the token lived one), on the verifier's clock.
    skew = 7_200_000;
    try {
      expect(() => verify(access, { resource })).to.throw(/expired/);
    } finally {
      skew = 0;
    }
  });

  it('the replay cache forgets proofs once they could no longer be accepted, and refuses when full', () => {
    const cache = new DpopReplayCache(2);
    expect(cache.accept('a', 1000, 1300)).to.equal(true);
    expect(cache.accept('a', 1000, 1300)).to.equal(false);
    expect(cache.accept('b', 1000, 1300)).to.equal(true);
    expect(cache.accept('c', 1000, 1300), 'full').to.equal(false);
    expect(cache.accept('c', 1301, 1600), 'a and b expired').to.equal(true);
  });

  it('logs what happened and nothing secret (codes, verifiers, tokens, passwords)', () => {
    expect(logs.some((l) => l.startsWith('grant.error')), logs.join('\n')).to.equal(true);
    expect(logs.some((l) => l.startsWith('grant.success')), logs.join('\n')).to.equal(true);
    const all = logs.join('\n');
    expect(secrets.length).to.be.greaterThan(5);
    for (const secret of secrets) expect(all).to.not.include(secret);
  });
});
