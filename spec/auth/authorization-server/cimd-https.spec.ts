// A client ID metadata document over real https: a TLS server on loopback with a certificate made
// here (openssl), the authorization server fetching through a TLS client that trusts only that
// certificate. oidc-provider's SSRF guard refuses every loopback address (its own check, covered
// in cimd.spec.ts), so this spec's fetch drops the guard's dispatcher for its trusting one: what
// is shown is the TLS part, a document fetched over a verified connection and an untrusted
// certificate refused.
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, fetch as undiciFetch } from 'undici';
import type { AuthorizationServer } from '../../../lib/auth/authorization-server/authorization-server.js';
import { startAuthorizationServer, type Loopback } from './helpers.js';

/** A self-signed certificate for localhost (and 127.0.0.1). */
function selfSigned(dir: string, name: string): { key: string; cert: string } {
  const key = join(dir, `${name}.key`);
  const cert = join(dir, `${name}.crt`);
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1', '-keyout', key, '-out', cert], { stdio: 'ignore' });
  return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') };
}

async function httpsServer(credentials: { key: string; cert: string }, documents: Record<string, (origin: string) => string>, seen: boolean[]): Promise<{ server: Server; origin: string }> {
  const server = createServer(credentials, (req, res) => {
    seen.push('encrypted' in req.socket && req.socket.encrypted === true);
    const body = documents[req.url ?? ''];
    if (body === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=60' });
    res.end(body(origin));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `https://localhost:${(server.address() as AddressInfo).port}`;
  return { server, origin };
}

describe('authorization server: a client ID metadata document over real https', function () {
  this.timeout(20_000);
  const dir = mkdtempSync(join(tmpdir(), 'cimd-https-'));
  const redirect = 'http://127.0.0.1:7/callback';
  const resource = 'http://127.0.0.1:9/mcp';
  const doc = (path: string) => (origin: string) => JSON.stringify({ client_id: `${origin}${path}`, client_name: 'CIMD over https', redirect_uris: [redirect], grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'none' });
  const trustedSeen: boolean[] = [];
  const untrustedSeen: boolean[] = [];
  let trusted: { server: Server; origin: string };
  let untrusted: { server: Server; origin: string };
  let http: Loopback;
  let as: AuthorizationServer;
  let logs: string[];
  let agent: Agent;

  before(async () => {
    const ours = selfSigned(dir, 'trusted');
    trusted = await httpsServer(ours, { '/client.json': doc('/client.json') }, trustedSeen);
    untrusted = await httpsServer(selfSigned(dir, 'untrusted'), { '/client.json': doc('/client.json') }, untrustedSeen);
    // A TLS client trusting only our certificate (not the system's authorities, not the other one).
    agent = new Agent({ connect: { ca: ours.cert } });
    ({ as, http, logs } = await startAuthorizationServer({
      resources: [resource],
      fetch: async (url, init) => {
        const { dispatcher: _guard, ...rest } = init as RequestInit & { dispatcher?: unknown };
        return (await undiciFetch(String(url), { ...(rest as Parameters<typeof undiciFetch>[1]), dispatcher: agent })) as unknown as Response;
      },
    }));
  });
  after(async () => {
    await http.close();
    await new Promise((r) => trusted.server.close(r));
    await new Promise((r) => untrusted.server.close(r));
    await agent.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function authorize(clientId: string): Promise<Response> {
    const q = new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: redirect, code_challenge: createHash('sha256').update('v'.repeat(50)).digest('base64url'), code_challenge_method: 'S256', resource, state: 's' });
    return fetch(`${as.issuer}/auth?${q}`, { redirect: 'manual' });
  }

  it('fetches the document over a verified TLS connection and starts the sign-in for that client', async () => {
    const res = await authorize(`${trusted.origin}/client.json`);
    expect(res.status).to.equal(303);
    expect(res.headers.get('location')).to.match(/^\/interaction\//);
    expect(trustedSeen).to.deep.equal([true]);
  });

  it('refuses a document from a server whose certificate is not trusted: an error page, no redirect, the server stays up', async () => {
    const seen = logs.length;
    const res = await authorize(`${untrusted.origin}/client.json`);
    expect(res.status).to.equal(400);
    expect(res.headers.get('location')).to.equal(null);
    // The handshake failed before any request reached that server.
    expect(untrustedSeen).to.deep.equal([]);
    expect(logs.slice(seen).some((l) => l.includes('metadata document fetch failed'))).to.equal(true);
    expect((await authorize(`${trusted.origin}/client.json`)).status).to.equal(303);
  });
});
