// Client ID metadata documents at our authorization server: an https URL as client_id, the
// document fetched and checked (its client_id the URL exactly, valid JSON, the redirect URI one
// it lists), and fetches to special-use addresses refused (SSRF). The documents are served by a
// loopback server standing in for https://client.example (the `fetch` option maps the host).
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import sinon from 'sinon';
import { createAuthorizationServer, type AuthorizationServer } from '../../../lib/auth/authorization-server/authorization-server.js';
import { memoryAccounts } from '../../../lib/auth/authorization-server/accounts.js';
import { loopback, type Loopback } from './helpers.js';

describe('authorization server: client ID metadata documents', function () {
  this.timeout(20_000);
  let docs: Loopback;
  let http: Loopback;
  let as: AuthorizationServer;
  const fetched: string[] = [];
  const logs: string[] = [];
  const resource = 'http://127.0.0.1:9/mcp';
  const redirect = 'http://127.0.0.1:7/callback';
  const documents: Record<string, string> = {};
  /** Per path: the cache-control header (default max-age=60), or a redirect to send instead. */
  const cacheControl: Record<string, string> = {};
  const redirects: Record<string, string> = {};
  const doc = (clientId: string, extra: Record<string, unknown> = {}) =>
    JSON.stringify({ client_id: clientId, client_name: 'CIMD app', redirect_uris: [redirect], grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'none', ...extra });

  before(async () => {
    docs = await loopback();
    docs.set((req, res) => {
      const moved = redirects[req.url ?? ''];
      if (moved !== undefined) return void res.writeHead(302, { location: moved }).end();
      const body = documents[req.url ?? ''];
      if (body === undefined) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': cacheControl[req.url ?? ''] ?? 'max-age=60' });
      res.end(body);
    });
    http = await loopback();
    as = await createAuthorizationServer({
      issuer: http.origin,
      resources: [resource],
      accounts: memoryAccounts({ alice: 'correct horse' }),
      log: (line) => logs.push(line),
      // https://client.example is the loopback document server; every other URL goes out as it would.
      fetch: (url, init) => {
        const u = new URL(String(url));
        fetched.push(u.href);
        if (u.host === 'client.example') {
          const { dispatcher: _guard, ...rest } = init as RequestInit & { dispatcher?: unknown };
          return fetch(`${docs.origin}${u.pathname}`, rest);
        }
        // guarded.client.example: the same document server, reached with oidc-provider's guard kept on.
        if (u.host === 'guarded.client.example') return fetch(`${docs.origin}${u.pathname}`, init);
        return fetch(url, init);
      },
    });
    http.set((req, res) => as.handler(req, res));
  });
  after(async () => {
    await http.close();
    await docs.close();
  });

  function authorize(clientId: string, redirectUri = redirect): Promise<Response> {
    const q = new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: redirectUri, code_challenge: createHash('sha256').update('v'.repeat(50)).digest('base64url'), code_challenge_method: 'S256', resource, state: 's' });
    return fetch(`${http.origin}/auth?${q}`, { redirect: 'manual' });
  }

  it('[AUTH-203] fetches the document of a URL client_id and starts the sign-in for that client', async () => {
    const id = 'https://client.example/good.json';
    documents['/good.json'] = doc(id);
    const res = await authorize(id);
    expect(res.status).to.equal(303);
    expect(res.headers.get('location')).to.match(/^\/interaction\//);
    expect(fetched).to.include(id);
    const metadata = (await (await fetch(`${http.origin}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(metadata['client_id_metadata_document_supported']).to.equal(true);
  });

  it('[AUTH-204] [AUTH-206] [AUTH-207] refuses a document naming another client_id, a redirect URI it does not list, and a document that is not JSON: an error page, no redirect', async () => {
    const cases: Array<[string, string, string]> = [
      ['https://client.example/mismatch.json', doc('https://client.example/other.json'), redirect],
      ['https://client.example/redirect.json', doc('https://client.example/redirect.json'), 'http://127.0.0.1:7/elsewhere'],
      ['https://client.example/broken.json', '{"client_id": "https://client.example/broken.json", ', redirect],
      ['https://client.example/no-redirects.json', JSON.stringify({ client_id: 'https://client.example/no-redirects.json', token_endpoint_auth_method: 'none' }), redirect],
    ];
    for (const [id, body, redirectUri] of cases) {
      documents[new URL(id).pathname] = body;
      const res = await authorize(id, redirectUri);
      expect(res.status, id).to.equal(400);
      expect(res.headers.get('location'), id).to.equal(null);
    }
    // Still up: the good client goes through.
    expect((await authorize('https://client.example/good.json')).status).to.equal(303);
  });

  it('[AUTH-240] refuses to fetch a document from a loopback or private address (SSRF)', async () => {
    // A good document, but on 127.0.0.1 behind the guard: refused (the same server unguarded served the good one).
    documents['/guarded.json'] = doc('https://guarded.client.example/guarded.json');
    const seen = logs.length;
    for (const id of ['https://guarded.client.example/guarded.json', `https://127.0.0.1:${new URL(docs.origin).port}/good.json`]) {
      const res = await authorize(id);
      expect(res.status, id).to.equal(400);
      expect(res.headers.get('location'), id).to.equal(null);
    }
    expect(fetched).to.include('https://guarded.client.example/guarded.json');
    expect(logs.slice(seen).filter((l) => l.includes('metadata document fetch failed'))).to.have.length(2);
  });

  // oidc-provider keeps fetched documents in its own cache, timed by Date.now(): only Date is
  // simulated (no timers), so the time can jump past a document's max-age without waiting.
  it('[AUTH-205] caches a document for as long as its Cache-Control max-age says: a change shows only after it expires', async () => {
    const clock = sinon.useFakeTimers({ now: Date.now(), toFake: ['Date'] });
    try {
      const shortId = 'https://client.example/short-lived.json';
      const longId = 'https://client.example/long-lived.json';
      documents['/short-lived.json'] = doc(shortId);
      documents['/long-lived.json'] = doc(longId);
      cacheControl['/short-lived.json'] = 'max-age=60';
      cacheControl['/long-lived.json'] = 'public, max-age=600';
      const count = (id: string) => fetched.filter((u) => u === id).length;
      expect((await authorize(shortId)).status).to.equal(303);
      expect((await authorize(longId)).status).to.equal(303);
      // The clients now list another redirect URI only: the cached documents still allow the old one.
      documents['/short-lived.json'] = doc(shortId, { redirect_uris: ['http://127.0.0.1:7/elsewhere'] });
      documents['/long-lived.json'] = doc(longId, { redirect_uris: ['http://127.0.0.1:7/elsewhere'] });
      clock.tick(59_000);
      expect((await authorize(shortId)).status).to.equal(303);
      expect(count(shortId)).to.equal(1);
      // Past the short document's max-age: fetched again, and the old redirect URI refused.
      clock.tick(2_000);
      expect((await authorize(shortId)).status).to.equal(400);
      expect(count(shortId)).to.equal(2);
      // The long-lived one is still served from the cache.
      expect((await authorize(longId)).status).to.equal(303);
      expect(count(longId)).to.equal(1);
      clock.tick(540_000);
      expect((await authorize(longId)).status).to.equal(400);
      expect(count(longId)).to.equal(2);
    } finally {
      clock.restore();
    }
  });

  it('[AUTH-208] [AUTH-239] follows the document draft\'s security considerations: no shared-secret client, no secret in a document, no redirect followed, no document over 5 KiB', async () => {
    const cases: Array<[string, string]> = [
      ['https://client.example/basic-auth.json', doc('https://client.example/basic-auth.json', { token_endpoint_auth_method: 'client_secret_basic' })],
      ['https://client.example/with-secret.json', doc('https://client.example/with-secret.json', { client_secret: 'hunter2-hunter2-hunter2' })],
      ['https://client.example/huge.json', doc('https://client.example/huge.json', { client_uri: 'https://client.example/' + 'a'.repeat(6 * 1024) })],
    ];
    for (const [id, body] of cases) documents[new URL(id).pathname] = body;
    // A redirect to a document that would be good where it lands: not followed.
    documents['/landing.json'] = doc('https://client.example/moved.json');
    redirects['/moved.json'] = '/landing.json';
    const seen = logs.length;
    for (const id of [...cases.map(([i]) => i), 'https://client.example/moved.json']) {
      const res = await authorize(id);
      expect(res.status, id).to.equal(400);
      expect(res.headers.get('location'), id).to.equal(null);
    }
    expect(fetched).to.include('https://client.example/moved.json');
    expect(fetched).to.not.include('https://client.example/landing.json');
    expect(logs.slice(seen).join('\n')).to.not.include('hunter2');
    // Still up: the good client goes through.
    expect((await authorize('https://client.example/good.json')).status).to.equal(303);
  });
});
