// The identity-provider front (OAuth proxy) end to end: our authorization server delegates sign-in
// to an upstream OpenID provider that offers no dynamic registration (a second oidc-provider
// instance, registration off, one client pre-registered for the front). MCP clients register with
// the front; the person signs in upstream in chromium; the front mints its own audience-bound
// tokens. Our client and the SDK 1.32.2 and v2 clients, each over real HTTP on 127.0.0.1.
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as SdkTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { createAuthorizationServer, type AuthorizationServer } from '../../../lib/auth/authorization-server/authorization-server.js';
import { DpopProver } from '../../../lib/auth/dpop.js';
import { OAuthClient } from '../../../lib/auth/oauth-client.js';
import { InMemoryOAuthClientProvider } from '../../../lib/auth/provider.js';
import { Client } from '../../../lib/client.js';
import { ManualClock } from '../../../lib/clock.js';
import { createStreamableHttpClientTransport } from '../../../streams/streamable-http-client.js';
import { freePort } from '../../../scripts/real-parts/free-port.js';
import { browserAuthorize, launchChromium, loopback, reserveMcp, startAuthorizationServer, startProtectedMcp, USER, type ProtectedMcp } from './helpers.js';

const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;

describe('authorization server end to end: a front for an upstream identity provider', function () {
  this.timeout(60_000);
  let browser: Browser;
  let front: AuthorizationServer;
  let upstreamIssuer: string;
  let frontLogs: string[];
  let rsA: ProtectedMcp;
  let rsB: ProtectedMcp;
  const upstreamSecret = 'front-secret-at-upstream-0123456789';
  const closers: Array<() => Promise<unknown>> = [];

  before(async () => {
    browser = await launchChromium();
    const frontHttp = await loopback();
    closers.push(frontHttp.close);
    // The upstream: no registration; the front is its one client.
    const upstream = await startAuthorizationServer({
      resources: ['http://127.0.0.1:1/upstream-api'],
      registration: false,
      clientIdMetadataDocuments: false,
      clients: [{ client_id: 'mcp-front', client_secret: upstreamSecret, token_endpoint_auth_method: 'client_secret_basic', redirect_uris: [`${frontHttp.origin}/upstream/callback`], grant_types: ['authorization_code'], response_types: ['code'] }],
    });
    closers.push(upstream.http.close);
    upstreamIssuer = upstream.as.issuer;
    const [a, b] = [await reserveMcp(), await reserveMcp()];
    frontLogs = [];
    front = await createAuthorizationServer({
      issuer: frontHttp.origin,
      resources: [a.url, b.url],
      upstream: { issuer: upstreamIssuer, clientId: 'mcp-front', clientSecret: upstreamSecret },
      accessTokenTtl: 60,
      log: (line) => frontLogs.push(line),
    });
    frontHttp.set((req, res) => front.handler(req, res));
    rsA = await startProtectedMcp(a, front, { dpop: true });
    rsB = await startProtectedMcp(b, front, { dpop: true });
    closers.push(rsA.close, rsB.close);
  });
  after(async () => {
    for (const close of closers.splice(0).reverse()) await close().catch(() => {});
    await browser?.close();
  });

  it('the upstream offers no registration: MCP clients could not register there', async () => {
    const metadata = (await (await fetch(`${upstreamIssuer}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(metadata['registration_endpoint']).to.equal(undefined);
    const frontMetadata = (await (await fetch(`${front.issuer}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(frontMetadata['registration_endpoint']).to.be.a('string');
  });

  it('[AUTH-051] [SEC-001] our client: registers with the front, allows it before being sent upstream, the person signs in upstream, the front\'s own token calls the tool, refreshes, and is refused elsewhere', async () => {
    const redirect = `http://127.0.0.1:${await freePort()}/callback`;
    const pages: string[] = [];
    const provider = new InMemoryOAuthClientProvider({ redirectUrl: redirect, clientMetadata: { client_name: 'Our client via the front' }, authorize: browserAuthorize(browser, redirect, (t) => pages.push(t), 'consent first') });
    const clock = new ManualClock(Date.now());
    const prover = new DpopProver();
    const client = new Client({ info: { name: 'ours', version: '1.0.0' } });
    closers.push(() => client.close());
    await client.connect(createStreamableHttpClientTransport(rsA.url, { auth: new OAuthClient({ serverUrl: rsA.url, provider, clock, dpopProver: prover }) }));
    const said = JSON.parse(((await client.callTool('whoami', {})).content[0] as { text: string }).text) as Record<string, unknown>;
    const registered = provider.clientInformation(front.issuer)!;
    expect(said).to.deep.include({ subject: USER.name, clientId: registered.client_id, resource: rsA.url });
    // Two consent pages: the front's first, for our client, server A and where it sends the browser back,
    // before anything is forwarded upstream (a proxy asks for each registered client); then the upstream's, for the front.
    expect(pages[0]).to.include('Our client via the front').and.include(rsA.url).and.include(`sent back to ${new URL(redirect).host}`);
    expect(pages[1]).to.include('mcp-front');
    // The token is the front's, for server A, bound to our client's key; the upstream's tokens stayed at the front.
    const first = provider.tokens()!;
    expect(claimsOf(first.access_token)).to.deep.include({ iss: front.issuer, aud: rsA.url, sub: USER.name });
    expect((claimsOf(first.access_token)['cnf'] as { jkt: string }).jkt).to.equal(prover.thumbprint);

    clock.advance(55_000);
    await client.callTool('whoami', {});
    const second = provider.tokens()!;
    expect(second.refresh_token).to.be.a('string').and.not.equal(first.refresh_token);
    const tokenUrl = `${front.issuer}/token`;
    const reuse = await fetch(tokenUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', dpop: prover.proof({ method: 'POST', url: tokenUrl }) }, body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: first.refresh_token!, client_id: registered.client_id }) });
    expect(((await reuse.json()) as { error: string }).error).to.equal('invalid_grant');

    const other = await fetch(rsB.url, {
      method: 'POST',
      headers: { authorization: `DPoP ${second.access_token}`, dpop: prover.proof({ method: 'POST', url: rsB.url, accessToken: second.access_token }), 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(other.status).to.equal(401);
    expect(other.headers.get('www-authenticate')).to.match(/error="invalid_token"/);
    expect(frontLogs.some((l) => l.startsWith(`sign-in upstream account=${USER.name}`)), frontLogs.join('\n')).to.equal(true);
    for (const secret of [first.access_token, first.refresh_token!, upstreamSecret, USER.password]) expect(frontLogs.join('\n')).to.not.include(secret);
  });

  for (const sdk of ['SDK 1.32.2', 'SDK v2'] as const) {
    it(`the ${sdk} client through the front`, async () => {
      const redirect = `http://127.0.0.1:${await freePort()}/callback`;
      const state: { info?: { client_id: string }; tokens?: { access_token: string }; verifier: string; url?: URL; discovery?: unknown } = { verifier: '' };
      const provider = {
        redirectUrl: redirect,
        clientMetadata: { client_name: `${sdk} via the front`, redirect_uris: [redirect], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' },
        clientInformation: () => state.info,
        saveClientInformation: (i: { client_id: string }) => void (state.info = i),
        tokens: () => state.tokens,
        saveTokens: (t: { access_token: string }) => void (state.tokens = t),
        redirectToAuthorization: (u: URL) => void (state.url = u),
        saveCodeVerifier: (v: string) => void (state.verifier = v),
        codeVerifier: () => state.verifier,
        saveDiscoveryState: (d: unknown) => void (state.discovery = d),
        discoveryState: () => state.discovery,
      };
      const v1 = sdk === 'SDK 1.32.2';
      const transport = v1 ? new SdkTransport(new URL(rsA.url), { authProvider: provider as never }) : new TransportV2(new URL(rsA.url), { authProvider: provider as never });
      await (v1 ? new SdkClient({ name: 'sdk', version: '1.0.0' }).connect(transport as SdkTransport) : new ClientV2({ name: 'sdk', version: '1.0.0' }).connect(transport as TransportV2)).catch(() => {});
      const back = await browserAuthorize(browser, redirect, undefined, 'consent first')(state.url!);
      // The v2 SDK checks the front's iss (RFC 9207) before it redeems the code.
      if (v1) await (transport as SdkTransport).finishAuth(back.searchParams.get('code')!);
      else await (transport as TransportV2).finishAuth(back.searchParams);
      const client = v1 ? new SdkClient({ name: 'sdk', version: '1.0.0' }) : new ClientV2({ name: 'sdk', version: '1.0.0' });
      closers.push(() => client.close());
      await (client as SdkClient).connect((v1 ? new SdkTransport(new URL(rsA.url), { authProvider: provider as never }) : new TransportV2(new URL(rsA.url), { authProvider: provider as never })) as never);
      const said = JSON.parse(((await (client as SdkClient).callTool({ name: 'whoami', arguments: {} })) as { content: Array<{ text: string }> }).content[0]!.text) as Record<string, unknown>;
      expect(said).to.deep.include({ subject: USER.name, clientId: state.info!.client_id, resource: rsA.url });
      expect(claimsOf(state.tokens!.access_token)).to.deep.include({ iss: front.issuer, aud: rsA.url });
    });
  }

  it('a forged or replayed callback from upstream is refused, and the front stays up', async () => {
    const forged = await fetch(`${front.issuer}/upstream/callback?code=abc&state=never-issued`);
    expect(forged.status).to.equal(400);
    expect(await forged.text()).to.include('unknown or was already used');
    expect(frontLogs.join('\n')).to.not.include('abc&');
    const upstreamError = await fetch(`${front.issuer}/upstream/callback?error=access_denied&state=x`);
    expect(upstreamError.status).to.equal(400);
    expect((await fetch(`${front.issuer}/.well-known/oauth-authorization-server`)).status).to.equal(200);
  });
});
