// The RFC 7662 introspection verifier against an in-test introspection endpoint on 127.0.0.1.
import { expect } from 'chai';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InvalidTokenError } from '../../../lib/auth/server/auth-info.js';
import { introspectionVerifier } from '../../../lib/auth/server/introspection.js';
import { initializeRequest, post } from '../../fixtures/http-server/raw.js';
import { startProtected, T0, type Protected } from './helpers.js';

interface Seen {
  authorization: string | undefined;
  body: URLSearchParams;
}

async function introspectionEndpoint(answers: Record<string, { status?: number; body: unknown }>): Promise<{ url: string; seen: Seen[]; server: HttpServer }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (text += c));
    req.on('end', () => {
      const body = new URLSearchParams(text);
      seen.push({ authorization: req.headers.authorization, body });
      const answer = answers[body.get('token') ?? ''] ?? { body: { active: false } };
      res.writeHead(answer.status ?? 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/introspect`, seen, server };
}

describe('introspectionVerifier', () => {
  const RESOURCE = 'https://mcp.example.com/mcp';
  let endpoint: Awaited<ReturnType<typeof introspectionEndpoint>> | undefined;
  let p: Protected | undefined;
  afterEach(async () => {
    endpoint?.server.close();
    endpoint?.server.closeAllConnections();
    await p?.close();
    endpoint = undefined;
    p = undefined;
  });

  it('maps an active token for this resource, authenticating with client_secret_basic', async () => {
    endpoint = await introspectionEndpoint({
      'opaque-1': { body: { active: true, sub: 'alice', client_id: 'app', scope: 'mcp:read mcp:write', exp: 1_900_000_000, aud: [RESOURCE], iss: 'https://auth.example.com' } },
    });
    const verify = introspectionVerifier({ endpoint: endpoint.url, clientId: 'rs id', clientSecret: 's:cret' });
    const v = await verify('opaque-1', { resource: RESOURCE });
    expect(v).to.deep.equal({
      subject: 'alice',
      clientId: 'app',
      scopes: ['mcp:read', 'mcp:write'],
      expiresAt: 1_900_000_000,
      audience: [RESOURCE],
      extra: { iss: 'https://auth.example.com' },
    });
    expect(endpoint.seen[0].body.get('token_type_hint')).to.equal('access_token');
    expect(Buffer.from(endpoint.seen[0].authorization!.slice(6), 'base64').toString()).to.equal('rs+id:s%3Acret'); // RFC 6749 §2.3.1: form-urlencoded (Appendix B: space as +)
  });

  it('[AUTH-029] refuses inactive tokens and tokens for another audience; fails (not refuses) when the endpoint fails', async () => {
    endpoint = await introspectionEndpoint({
      other: { body: { active: true, client_id: 'app', aud: 'https://other.example.com', exp: 1_900_000_000 } },
      viaResource: { body: { active: true, client_id: 'app', resource: RESOURCE, exp: 1_900_000_000 } },
      broken: { status: 503, body: { error: 'down' } },
    });
    const verify = introspectionVerifier({ endpoint: endpoint.url });
    const refusal = async (token: string) => {
      try {
        await verify(token, { resource: RESOURCE });
      } catch (e) {
        return e;
      }
      return undefined;
    };
    const inactive = await refusal('unknown');
    expect(inactive).to.be.instanceOf(InvalidTokenError);
    expect((inactive as Error).message).to.equal('The access token is not active');
    expect(await refusal('other')).to.be.instanceOf(InvalidTokenError);
    expect((await verify('viaResource', { resource: RESOURCE }))?.resource).to.equal(RESOURCE);
    const broken = await refusal('broken');
    expect(broken).to.be.instanceOf(Error).and.not.instanceOf(InvalidTokenError);
    expect((broken as Error).message).to.match(/HTTP 503/);
    expect(endpoint.seen[0].authorization).to.equal(undefined);
  });

  it('[AUTH-031] protects a server end to end: expiry from introspection is judged on the server clock', async () => {
    endpoint = await introspectionEndpoint({});
    const ep = endpoint;
    p = await startProtected({ verify: (t, c) => introspectionVerifier({ endpoint: ep.url })(t, c) });
    const url = p.url;
    ep.server.removeAllListeners('request');
    ep.server.on('request', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ active: true, sub: 'zed', client_id: 'app', aud: url, exp: T0 / 1000 + 10 }));
    });
    expect((await post(url, initializeRequest(), { authorization: 'Bearer opaque-2' })).status).to.equal(200);
    p.clock.advance(10_000);
    expect((await post(url, initializeRequest(), { authorization: 'Bearer opaque-2' })).status).to.equal(401);
  });
});
