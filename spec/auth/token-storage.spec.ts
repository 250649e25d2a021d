// Where the client keeps tokens (OAuth 2.1 §7.1): only in the provider. An authorized session
// with a journal, every frame, diagnostic and machine snapshot observed, and a failure after the
// token was issued: no token, refresh token, code, verifier or client secret appears in any of them.
import { expect } from 'chai';
import type { Subscription } from 'rxjs';
import { OAuthClient, type OAuthClientSnapshot } from '../../lib/auth/oauth-client.js';
import { headlessAuthorize, InMemoryOAuthClientProvider } from '../../lib/auth/provider.js';
import { Client } from '../../lib/entries/client.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';
import { startAuthorizationServer, startProtectedServer, type TestAuthorizationServer, type TestProtectedServer } from './helpers.js';

const REDIRECT = 'http://127.0.0.1:1/callback';

/** JSON of anything, errors with their name, message and details. */
function serialize(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (v instanceof Error ? { name: v.name, message: v.message, details: (v as { details?: unknown }).details, cause: v.cause } : v));
}

describe('OAuth client token storage', () => {
  let as: TestAuthorizationServer;
  let rs: TestProtectedServer;
  let client: Client | undefined;
  const subscriptions: Subscription[] = [];

  afterEach(async () => {
    for (const s of subscriptions.splice(0)) s.unsubscribe();
    await client?.close().catch(() => {});
    client = undefined;
    await rs?.close();
    await as?.close();
  });

  it('[AUTH-039] keeps tokens only in the provider: none in the journal, frames, diagnostics, machine snapshots or errors; the stored token is bound to its resource', async () => {
    // tools/list needs a scope the server never grants: after a successful authorization, a
    // failure (retry limit) whose error is examined too. Refresh tokens are issued.
    as = await startAuthorizationServer({ issueRefreshTokens: true, withheldScopes: ['mcp:admin'] });
    rs = await startProtectedServer({ as, methodScopes: { 'tools/list': ['mcp:admin'] } });
    const provider = new InMemoryOAuthClientProvider({ redirectUrl: REDIRECT, clientMetadata: { client_name: 'storage' }, authorize: headlessAuthorize() });
    const oauth = new OAuthClient({ serverUrl: rs.url, provider });
    client = new Client({ info: { name: 'storage-client', version: '1.0.0' }, journal: true });
    const seen: string[] = [];
    subscriptions.push(client.frames$.subscribe((f) => seen.push(serialize(f))));
    subscriptions.push(client.diagnostics$.subscribe((d) => seen.push(serialize(d))));
    subscriptions.push(client.journal$.subscribe((e) => seen.push(serialize(e))));
    subscriptions.push(client.state$.subscribe((s) => seen.push(serialize(s))));

    await client.connect(createStreamableHttpClientTransport(rs.url, { auth: oauth }));
    const snapshots: OAuthClientSnapshot[] = [];
    const unsubscribe = await oauth.subscribe((s) => snapshots.push(s));
    expect((await client.callTool('echo', {})).content).to.deep.equal([{ type: 'text', text: 'ok' }]);
    const error = await client.listTools().then(
      () => undefined,
      (e: unknown) => e,
    );
    unsubscribe();
    expect(String((error as Error)?.message)).to.match(/after 3 authorization attempt\(s\)/);

    // The secrets of the run: every access and refresh token issued, the codes, the verifiers.
    const secrets = [
      ...as.tokens.keys(),
      ...as.refreshTokens.keys(),
      ...as.tokenRequests.flatMap((r) => [r.form.get('code'), r.form.get('code_verifier'), r.form.get('refresh_token')]),
    ].filter((s): s is string => typeof s === 'string' && s !== '');
    expect(as.tokens.size).to.be.greaterThan(1);
    expect(secrets.length).to.be.greaterThan(as.tokens.size);

    // They were used: the server saw the current token in the Authorization header.
    const current = provider.tokens()!;
    expect(rs.requests.some((r) => r.authorization === `Bearer ${current.access_token}`)).to.equal(true);

    const places: Record<string, string> = {
      journal: client.journal!.toJSONL(),
      'frames$, diagnostics$, journal$, state$': seen.join('\n'),
      error: serialize(error) + String((error as Error).stack),
    };
    expect(places.journal).to.include('tools/call'); // the journal did record the session
    for (const [where, text] of Object.entries(places)) {
      for (const secret of secrets) expect(text.includes(secret), `${where} contains a secret`).to.equal(false);
    }
    // The machine's context: no token, no verifier and no authorization code, in any snapshot.
    const machine = snapshots.map((s) => serialize({ value: s.value, context: s.context })).join('\n') + serialize(oauth.snapshot?.context);
    expect(snapshots.map((s) => s.value)).to.include.members(['authorizing', 'exchanging', 'authorized', 'failed']);
    const tokensAndVerifiers = [
      ...as.tokens.keys(),
      ...as.refreshTokens.keys(),
      ...as.tokenRequests.flatMap((r) => [r.form.get('code'), r.form.get('code_verifier'), r.form.get('refresh_token')]),
    ].filter((s): s is string => typeof s === 'string' && s !== '');
    for (const secret of tokensAndVerifiers) expect(machine.includes(secret), 'a machine snapshot contains a token, code or verifier').to.equal(false);

    // The provider holds the token with the resource it was issued for, and the client sends a
    // stored token only to a server that resource covers.
    expect(current.resource).to.equal(rs.url);
    expect(current.issuer).to.equal(as.issuer);
    const elsewhere = new OAuthClient({ serverUrl: `${rs.origin}/other-mcp`, provider });
    expect(await elsewhere.accessToken()).to.equal(undefined);
    expect(await new OAuthClient({ serverUrl: rs.url, provider }).accessToken()).to.equal(current.access_token);
  });
});
