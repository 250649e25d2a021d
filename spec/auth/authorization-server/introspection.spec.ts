// A resource server checking our authorization server's opaque tokens by introspection (RFC 7662):
// a DPoP-bound token's key (cnf.jkt) comes back in the answer and introspectionVerifier passes it
// on, so the MCP server wants a proof by that key, as it does for a bound JWT.
import { expect } from 'chai';
import { DpopProver } from '../../../lib/auth/dpop.js';
import type { AuthorizationServer } from '../../../lib/auth/authorization-server/authorization-server.js';
import { introspectionVerifier } from '../../../lib/auth/server/introspection.js';
import { reserveMcp, signInCode, startAuthorizationServer, startProtectedMcp, USER, type Loopback, type ProtectedMcp } from './helpers.js';

describe('authorization server: opaque tokens checked by introspection', function () {
  this.timeout(20_000);
  let http: Loopback;
  let as: AuthorizationServer;
  let rs: ProtectedMcp;
  let resource: string;
  let logs: string[];
  const redirect = 'http://127.0.0.1:7/callback';
  const rsSecret = 'resource-server-secret-'.padEnd(48, 'x');

  before(async () => {
    const reserved = await reserveMcp();
    resource = reserved.url;
    ({ as, http, logs } = await startAuthorizationServer({
      resources: [{ uri: resource, tokenFormat: 'opaque' }],
      clients: [
        { client_id: 'app', token_endpoint_auth_method: 'none', redirect_uris: [redirect], grant_types: ['authorization_code'], response_types: ['code'] },
        { client_id: 'other-app', token_endpoint_auth_method: 'none', redirect_uris: [redirect], grant_types: ['authorization_code'], response_types: ['code'] },
        // The MCP server's own client, only to call the introspection endpoint.
        { client_id: 'mcp-server', client_secret: rsSecret, token_endpoint_auth_method: 'client_secret_basic', redirect_uris: [], grant_types: [], response_types: [] },
      ],
    }));
    rs = await startProtectedMcp(reserved, as, {
      dpop: true,
      verifyAccessToken: introspectionVerifier({ endpoint: `${as.issuer}/token/introspection`, clientId: 'mcp-server', clientSecret: rsSecret }),
    });
  });
  after(async () => {
    await rs.close();
    await http.close();
  });

  const code = (verifier: string): Promise<string> => signInCode(as.issuer, { clientId: 'app', redirect, resource, verifier });

  async function boundToken(prover: DpopProver): Promise<string> {
    const verifier = 'v'.repeat(50);
    const res = await fetch(`${as.issuer}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', dpop: prover.proof({ method: 'POST', url: `${as.issuer}/token` }) },
      body: new URLSearchParams({ client_id: 'app', grant_type: 'authorization_code', code: await code(verifier), redirect_uri: redirect, code_verifier: verifier }),
    });
    const body = (await res.json()) as { access_token: string; token_type: string };
    expect(res.status, JSON.stringify(body)).to.equal(200);
    expect(body.token_type).to.equal('DPoP');
    return body.access_token;
  }

  function call(headers: Record<string, string>): Promise<Response> {
    return fetch(resource, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }) });
  }

  it('issues an opaque DPoP-bound token; introspection reports its key, and the MCP server wants a proof by that key', async () => {
    const prover = new DpopProver();
    const access = await boundToken(prover);
    expect(access.split('.')).to.have.length(1); // not a JWT
    const verified = await introspectionVerifier({ endpoint: `${as.issuer}/token/introspection`, clientId: 'mcp-server', clientSecret: rsSecret })(access, { resource });
    expect(verified).to.deep.include({ clientId: 'app', subject: USER.name, cnf: { jkt: prover.thumbprint } });

    const ok = await call({ authorization: `DPoP ${access}`, dpop: prover.proof({ method: 'POST', url: resource, accessToken: access }) });
    expect(ok.status).to.equal(200);
    // Bound: as a Bearer token, or with a proof by another key, refused.
    const asBearer = await call({ authorization: `Bearer ${access}` });
    expect(asBearer.status).to.equal(401);
    expect(asBearer.headers.get('www-authenticate')).to.match(/error="invalid_token"/);
    const stranger = new DpopProver();
    const otherKey = await call({ authorization: `DPoP ${access}`, dpop: stranger.proof({ method: 'POST', url: resource, accessToken: access }) });
    expect(otherKey.status).to.equal(401);
    expect(((await otherKey.json()) as { error_description: string }).error_description).to.match(/another key/);
    expect(logs.join('\n')).to.not.include(access).and.not.include(rsSecret);
  });

  it('refuses a revoked token at once (introspection answers inactive)', async () => {
    const prover = new DpopProver();
    const access = await boundToken(prover);
    const revoke = await fetch(`${as.issuer}/token/revocation`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ client_id: 'app', token: access }) });
    expect(revoke.status).to.equal(200);
    const res = await call({ authorization: `DPoP ${access}`, dpop: prover.proof({ method: 'POST', url: resource, accessToken: access }) });
    expect(res.status).to.equal(401);
    expect(res.headers.get('www-authenticate')).to.match(/error="invalid_token"/);
  });

  it('another public client can neither read nor revoke the token; a wrong resource-server secret is refused', async () => {
    const prover = new DpopProver();
    const access = await boundToken(prover);
    const form = (body: Record<string, string>, headers: Record<string, string> = {}) => ({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(body) });
    const peek = await fetch(`${as.issuer}/token/introspection`, form({ client_id: 'other-app', token: access }));
    expect(await peek.json()).to.deep.equal({ active: false });
    await fetch(`${as.issuer}/token/revocation`, form({ client_id: 'other-app', token: access }));
    const wrongSecret = introspectionVerifier({ endpoint: `${as.issuer}/token/introspection`, clientId: 'mcp-server', clientSecret: 'not-the-secret' });
    let failure: unknown;
    await Promise.resolve(wrongSecret(access, { resource })).catch((e: unknown) => (failure = e));
    expect(String(failure)).to.match(/HTTP 401/);
    // Still good at the MCP server: not revoked by the other client.
    const res = await call({ authorization: `DPoP ${access}`, dpop: prover.proof({ method: 'POST', url: resource, accessToken: access }) });
    expect(res.status).to.equal(200);
  });
});
