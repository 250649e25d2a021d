// The official SDK clients end to end against our authorization server and our protected MCP
// server: SDK 1.32.2 (`@modelcontextprotocol/sdk`) and SDK v2 (`@modelcontextprotocol/client`,
// here with DPoP on). Each registers (DCR), a person signs in and allows in chromium, the client
// calls a protected tool, refreshes when the server says its token expired (the old refresh token
// then refused), and a token for another MCP server is refused. Real HTTP on 127.0.0.1.
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError as SdkUnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport as SdkTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as ClientV2, DpopSession, StreamableHTTPClientTransport as TransportV2, UnauthorizedError as UnauthorizedErrorV2 } from '@modelcontextprotocol/client';
import { freePort } from '../../../scripts/real-parts/free-port.js';
import { browserAuthorize, launchChromium, reserveMcp, startAuthorizationServer, startProtectedMcp, USER, type ProtectedMcp } from './helpers.js';

interface Tokens {
  access_token: string;
  refresh_token?: string;
  token_type: string;
  expires_in?: number;
}

/** The SDKs' OAuthClientProvider (the same shape in both), kept in memory; the user's part is `authorizationUrl`. */
function sdkProvider(redirect: string, name: string, dpop?: DpopSession) {
  const state: { info?: { client_id: string; client_secret?: string }; tokens?: Tokens; verifier: string; authorizationUrl?: URL; discovery?: unknown } = { verifier: '' };
  return {
    state,
    provider: {
      get redirectUrl() {
        return redirect;
      },
      get clientMetadata() {
        return { client_name: name, redirect_uris: [redirect], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
      },
      clientInformation: () => state.info,
      saveClientInformation: (i: { client_id: string }) => void (state.info = i),
      tokens: () => state.tokens,
      saveTokens: (t: Tokens) => void (state.tokens = t),
      redirectToAuthorization: (url: URL) => void (state.authorizationUrl = url),
      saveCodeVerifier: (v: string) => void (state.verifier = v),
      codeVerifier: () => state.verifier,
      saveDiscoveryState: (d: unknown) => void (state.discovery = d),
      discoveryState: () => state.discovery,
      ...(dpop && { dpop: () => dpop }),
    },
  };
}

async function call(rs: string, token: string, scheme = 'Bearer'): Promise<Response> {
  return fetch(rs, {
    method: 'POST',
    headers: { authorization: `${scheme} ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
  });
}

describe('authorization server end to end: the official SDK clients', function () {
  this.timeout(60_000);
  let browser: Browser;
  const closers: Array<() => Promise<unknown>> = [];
  before(async () => {
    browser = await launchChromium();
  });
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close().catch(() => {});
  });
  after(async () => {
    await browser?.close();
  });

  /** Two MCP servers on one authorization server; `expireOnce()` makes server A see the next token as expired. */
  async function stack() {
    const [a, b] = [await reserveMcp(), await reserveMcp()];
    const { as, http, logs } = await startAuthorizationServer({ resources: [a.url, b.url] });
    closers.push(() => http.close());
    let skew = 0;
    // Server A's clock: one reading an hour ahead (the token looks expired once), then the real time.
    const clock = { now: () => Date.now() + ((s) => ((skew = 0), s))(skew) };
    const rsA: ProtectedMcp = await startProtectedMcp(a, as, { dpop: true, clock });
    const rsB: ProtectedMcp = await startProtectedMcp(b, as, { dpop: true });
    closers.push(rsA.close, rsB.close);
    const redirect = `http://127.0.0.1:${await freePort()}/callback`;
    return { as, logs, rsA, rsB, redirect, expireOnce: () => (skew = 3_600_000) };
  }

  async function refusedRefresh(issuer: string, clientId: string, refreshToken: string): Promise<string> {
    const res = await fetch(`${issuer}/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId }) });
    expect(res.status).to.equal(400);
    return ((await res.json()) as { error: string }).error;
  }

  it('[AUTH-040] [AUTH-041] [AUTH-136] SDK 1.32.2: registers, signs in through our pages, calls a protected tool, refreshes with rotation, and is refused with a token for another server', async () => {
    const { as, logs, rsA, rsB, redirect, expireOnce } = await stack();
    const { provider, state } = sdkProvider(redirect, 'SDK 1.x client');
    const first = new SdkClient({ name: 'sdk1', version: '1.0.0' });
    const transport = new SdkTransport(new URL(rsA.url), { authProvider: provider as never });
    const refused = await first.connect(transport).then(() => undefined, (e: unknown) => e);
    expect(refused, 'our 401 sends the SDK client to authorize').to.be.instanceOf(SdkUnauthorizedError);
    expect(state.authorizationUrl?.origin).to.equal(as.issuer);
    const back = await browserAuthorize(browser, redirect)(state.authorizationUrl!);
    expect(back.searchParams.get('iss'), 'RFC 9207 iss in the response').to.equal(as.issuer);
    await transport.finishAuth(back.searchParams.get('code')!);
    expect(state.info?.client_id, 'registered by DCR').to.be.a('string');

    const client = new SdkClient({ name: 'sdk1', version: '1.0.0' });
    closers.push(() => client.close());
    await client.connect(new SdkTransport(new URL(rsA.url), { authProvider: provider as never }));
    const said = JSON.parse(((await client.callTool({ name: 'whoami', arguments: {} })) as { content: Array<{ text: string }> }).content[0]!.text) as Record<string, unknown>;
    expect(said).to.deep.include({ subject: USER.name, clientId: state.info!.client_id, resource: rsA.url });
    const before = state.tokens!;
    expect(before.token_type.toLowerCase(), 'no proof sent: a Bearer token').to.equal('bearer');
    // Short-lived by default: an hour.
    expect(before.expires_in).to.be.a('number').and.within(1, 3600);

    // The server finds the token expired: the SDK refreshes and calls again.
    expireOnce();
    await client.callTool({ name: 'whoami', arguments: {} });
    expect(rsA.seen.some((r) => r.status === 401 && /error="invalid_token"/.test(r.challenge ?? ''))).to.equal(true);
    expect(state.tokens!.access_token).to.not.equal(before.access_token);
    expect(state.tokens!.refresh_token).to.be.a('string').and.not.equal(before.refresh_token);
    expect(await refusedRefresh(as.issuer, state.info!.client_id, before.refresh_token!)).to.equal('invalid_grant');

    const other = await call(rsB.url, state.tokens!.access_token);
    expect(other.status).to.equal(401);
    expect(other.headers.get('www-authenticate')).to.match(/^Bearer error="invalid_token"/).and.include(`resource_metadata="${new URL(rsB.url).origin}/.well-known/oauth-protected-resource/mcp"`);
    for (const secret of [before.access_token, before.refresh_token!, USER.password]) expect(logs.join('\n')).to.not.include(secret);
  });

  it('SDK v2 with DPoP: registers, signs in through our pages, calls a protected tool with DPoP-bound tokens, refreshes with rotation, and is refused with a token for another server', async () => {
    const { as, rsA, rsB, redirect, expireOnce } = await stack();
    const dpop = await DpopSession.create();
    const { provider, state } = sdkProvider(redirect, 'SDK v2 client', dpop);
    const first = new ClientV2({ name: 'sdk2', version: '1.0.0' });
    const transport = new TransportV2(new URL(rsA.url), { authProvider: provider as never });
    const refused = await first.connect(transport).then(() => undefined, (e: unknown) => e);
    expect(refused, 'our 401 sends the SDK client to authorize').to.be.instanceOf(UnauthorizedErrorV2);
    const back = await browserAuthorize(browser, redirect)(state.authorizationUrl!);
    // The v2 SDK checks iss (RFC 9207) before it redeems the code.
    await transport.finishAuth(back.searchParams);
    expect(state.info?.client_id, 'registered by DCR').to.be.a('string');

    const client = new ClientV2({ name: 'sdk2', version: '1.0.0' });
    closers.push(() => client.close());
    await client.connect(new TransportV2(new URL(rsA.url), { authProvider: provider as never }));
    const said = JSON.parse(((await client.callTool({ name: 'whoami', arguments: {} })) as { content: Array<{ text: string }> }).content[0]!.text) as Record<string, unknown>;
    expect(said).to.deep.include({ subject: USER.name, clientId: state.info!.client_id, resource: rsA.url });
    const before = state.tokens!;
    expect(before.token_type.toLowerCase(), 'DPoP-bound').to.equal('dpop');
    expect(rsA.seen.filter((r) => r.status === 200 && r.path === '/mcp').every((r) => r.scheme === 'DPoP')).to.equal(true);
    // Presented as a Bearer token, the bound token is refused (RFC 9449 §7.2).
    const asBearer = await call(rsA.url, before.access_token);
    expect(asBearer.status).to.equal(401);
    expect(((await asBearer.json()) as { error_description: string }).error_description).to.match(/DPoP-bound/);

    expireOnce();
    await client.callTool({ name: 'whoami', arguments: {} });
    expect(state.tokens!.access_token).to.not.equal(before.access_token);
    expect(state.tokens!.refresh_token).to.be.a('string').and.not.equal(before.refresh_token);
    // The rotated refresh token is bound to the client's key too: without a proof, or reused, it is refused.
    expect(await refusedRefresh(as.issuer, state.info!.client_id, before.refresh_token!)).to.equal('invalid_grant');

    const other = await call(rsB.url, state.tokens!.access_token);
    expect(other.status).to.equal(401);
    expect(other.headers.get('www-authenticate')).to.match(/error="invalid_token"/);
  });
});
