// Our client end to end against our authorization server: registration (DCR), a person signing in
// and allowing in chromium, a protected tool on our MCP server, refresh with rotation, and a token
// for another MCP server refused (RFC 8707 audience). Real HTTP on 127.0.0.1.
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { DpopProver } from '../../../lib/auth/dpop.js';
import { OAuthClient } from '../../../lib/auth/oauth-client.js';
import { InMemoryOAuthClientProvider } from '../../../lib/auth/provider.js';
import { Client } from '../../../lib/client.js';
import { ManualClock } from '../../../lib/clock.js';
import { createStreamableHttpClientTransport } from '../../../streams/streamable-http-client.js';
import { freePort } from '../../../scripts/real-parts/free-port.js';
import { browserAuthorize, launchChromium, reserveMcp, startAuthorizationServer, startProtectedMcp, USER, type ProtectedMcp } from './helpers.js';

describe('authorization server end to end: our client', function () {
  this.timeout(60_000);
  let browser: Browser;
  const closers: Array<() => Promise<unknown>> = [];
  before(async () => {
    browser = await launchChromium();
  });
  after(async () => {
    for (const close of closers.splice(0).reverse()) await close().catch(() => {});
    await browser?.close();
  });

  it('[AUTH-004] [AUTH-041] [AUTH-099] [AUTH-241] [AUTH-242] registers, signs in through our pages, calls a protected tool, refreshes (the old refresh token refused), and a token for another server is refused', async () => {
    const [a, b] = [await reserveMcp(), await reserveMcp()];
    const { as, http, logs } = await startAuthorizationServer({ resources: [a.url, b.url], accessTokenTtl: 60 });
    closers.push(() => http.close());
    const rsA: ProtectedMcp = await startProtectedMcp(a, as, { dpop: true });
    const rsB: ProtectedMcp = await startProtectedMcp(b, as, { dpop: true });
    closers.push(rsA.close, rsB.close);
    const redirect = `http://127.0.0.1:${await freePort()}/callback`;
    const consents: string[] = [];
    const provider = new InMemoryOAuthClientProvider({ redirectUrl: redirect, clientMetadata: { client_name: 'Our e2e client' }, authorize: browserAuthorize(browser, redirect, (t) => consents.push(t)) });
    const clock = new ManualClock(Date.now());
    const client = new Client({ info: { name: 'ours', version: '1.0.0' } });
    closers.push(() => client.close());
    const prover = new DpopProver();
    await client.connect(createStreamableHttpClientTransport(rsA.url, { auth: new OAuthClient({ serverUrl: rsA.url, provider, clock, dpopProver: prover }) }));

    const said = JSON.parse(((await client.callTool('whoami', {})).content[0] as { text: string }).text) as { subject: string; clientId: string; resource: string; scopes: string[] };
    const registered = provider.clientInformation(as.issuer);
    expect(registered?.client_id, 'registered by DCR').to.be.a('string');
    expect(said).to.deep.include({ subject: USER.name, clientId: registered!.client_id, resource: rsA.url });
    expect(said.scopes).to.include('mcp');
    // The consent page named the client and the MCP server the token is for.
    expect(consents[0]).to.include('Our e2e client').and.include(rsA.url);
    // ...and where the browser goes back to: its host, with a warning that it is this computer.
    expect(consents[0]).to.include(`sent back to ${new URL(redirect).host}`).and.include('That is this computer');
    const first = provider.tokens()!;
    expect(first.refresh_token, 'a refresh token').to.be.a('string');
    // DPoP-bound (RFC 9449): the server advertised ES256, our client sent proofs, the token names its key.
    expect(first.token_type).to.equal('DPoP');
    const claims = JSON.parse(Buffer.from(first.access_token.split('.')[1]!, 'base64url').toString()) as { cnf?: { jkt?: string } };
    expect(claims.cnf?.jkt).to.equal(prover.thumbprint);
    expect(rsA.seen.filter((r) => r.status === 200 && r.path === '/mcp').every((r) => r.scheme === 'DPoP')).to.equal(true);

    // A minute later, the token about to expire (on the client's clock) the client refreshes before calling again.
    clock.advance(55_000);
    await client.callTool('whoami', {});
    const second = provider.tokens()!;
    expect(second.access_token).to.not.equal(first.access_token);
    expect(second.refresh_token, 'rotated').to.be.a('string').and.not.equal(first.refresh_token);
    // The old refresh token is refused once used (OAuth 2.1 §4.3.1 rotation).
    // (With a good proof by the same key: it is refused for being used, nothing else.)
    const tokenUrl = `${as.issuer}/token`;
    const reuse = await fetch(tokenUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', dpop: prover.proof({ method: 'POST', url: tokenUrl }) }, body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: first.refresh_token!, client_id: registered!.client_id }) });
    expect(reuse.status).to.equal(400);
    expect(((await reuse.json()) as { error: string }).error).to.equal('invalid_grant');

    // The token names server A: server B refuses it with invalid_token and points at its own metadata.
    const other = await fetch(rsB.url, {
      method: 'POST',
      headers: { authorization: `DPoP ${second.access_token}`, dpop: prover.proof({ method: 'POST', url: rsB.url, accessToken: second.access_token }), 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(other.status).to.equal(401);
    expect(other.headers.get('www-authenticate')).to.match(/^Bearer /).and.include('DPoP algs="ES256"').and.match(/error="invalid_token"/).and.include(`resource_metadata="${new URL(rsB.url).origin}/.well-known/oauth-protected-resource/mcp"`);
    // Nothing secret in what the authorization server logged.
    expect(logs.some((l) => l.startsWith('grant.success')), logs.join('\n')).to.equal(true);
    for (const secret of [first.access_token, first.refresh_token!, second.refresh_token!, USER.password]) expect(logs.join('\n')).to.not.include(secret);
  });
});
