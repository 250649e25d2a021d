// A client that asks for no scope gets the resource's default scopes only (least privilege): an
// extra scope (the demo's admin one, which unlocks hidden tools) only when the client asks for it.
import { expect } from 'chai';
import type { AuthorizationServer } from '../../../lib/auth/authorization-server/authorization-server.js';
import { createAuthorizationServer } from '../../../lib/auth/authorization-server/authorization-server.js';
import { signInCode, startAuthorizationServer, USER, type Loopback } from './helpers.js';

describe('authorization server: a client that names no scope', function () {
  this.timeout(20_000);
  const redirect = 'http://127.0.0.1:7/callback';
  const resource = 'http://127.0.0.1:9/mcp';
  let http: Loopback;
  let as: AuthorizationServer;

  before(async () => {
    ({ as, http } = await startAuthorizationServer({
      resources: [{ uri: resource, scopes: ['mcp', 'notebook:admin'] }],
      clients: [{ client_id: 'app', token_endpoint_auth_method: 'none', redirect_uris: [redirect], grant_types: ['authorization_code'], response_types: ['code'] }],
    }));
  });
  after(() => http.close());

  /** Sign in and allow without a browser, then the token's scopes. */
  async function grantedScopes(scope: string | undefined): Promise<string[]> {
    const verifier = 'v'.repeat(50);
    const code = await signInCode(as.issuer, { clientId: 'app', redirect, resource, verifier, ...(scope !== undefined ? { scope } : {}) });
    const token = await fetch(`${as.issuer}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: 'app', grant_type: 'authorization_code', code, redirect_uri: redirect, code_verifier: verifier }),
    });
    const body = (await token.json()) as { access_token: string; scope?: string };
    expect(token.status, JSON.stringify(body)).to.equal(200);
    const claims = JSON.parse(Buffer.from(body.access_token.split('.')[1]!, 'base64url').toString('utf8')) as { scope?: string };
    return (claims.scope ?? '').split(' ').filter(Boolean).sort();
  }

  it('gets the default scope (the first of the resource\'s scopes), not the admin one', async () => {
    expect(await grantedScopes(undefined)).to.deep.equal(['mcp']);
  });

  it('gets the admin scope when it asks for it', async () => {
    expect(await grantedScopes('mcp notebook:admin')).to.deep.equal(['mcp', 'notebook:admin']);
  });

  it('refuses default scopes that are not among the resource\'s scopes, at start', async () => {
    let failure: unknown;
    try {
      await createAuthorizationServer({ issuer: 'http://127.0.0.1:1', resources: [{ uri: resource, scopes: ['mcp'], defaultScopes: ['admin'] }], accounts: { [USER.name]: USER.password } as never });
    } catch (e) {
      failure = e;
    }
    expect(failure).to.be.instanceOf(TypeError);
    expect((failure as Error).message).to.match(/default scopes .* not: admin/);
  });
});
