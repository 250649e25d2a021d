// RFC 9728 Protected Resource Metadata beside the MCP endpoint on one listen().
import { expect } from 'chai';
import { listen } from '../../../lib/http/listen-port.js';
import { protectedResourceMetadataUrl } from '../../../lib/auth/protected-resource-metadata.js';
import { createProtectedResourceMetadataHandler, protectedResourceMetadata } from '../../../lib/auth/server/protected-resource-handler.js';
import { initializeRequest, post, raw } from '../../fixtures/http-server/raw.js';
import { ISSUER, challengeParams, startProtected, tokenFor, type Protected } from './helpers.js';

describe('Protected Resource Metadata', () => {
  let p: Protected;
  afterEach(async () => {
    await p?.close();
  });

  it('[AUTH-006] [AUTH-010] [AUTH-011] [AUTH-181] serves the document at the path-based and the root well-known URLs, to any origin', async () => {
    p = await startProtected({ scopesSupported: ['mcp:read', 'mcp:write'] });
    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
      const res = await raw(`${p.origin}${path}`, { headers: { origin: 'https://app.example.com' } });
      expect(res.status, path).to.equal(200);
      expect(res.headers['content-type']).to.equal('application/json');
      expect(res.headers['access-control-allow-origin']).to.equal('*');
      expect(res.json).to.deep.equal({
        resource: p.url,
        authorization_servers: [ISSUER],
        bearer_methods_supported: ['header'],
        scopes_supported: ['mcp:read', 'mcp:write'],
      });
    }
    const preflight = await raw(`${p.origin}/.well-known/oauth-protected-resource/mcp`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example.com', 'access-control-request-method': 'GET' },
    });
    expect(preflight.status).to.equal(204);
    expect(preflight.headers['access-control-allow-methods']).to.match(/GET/);
    expect((await raw(`${p.origin}/.well-known/oauth-protected-resource/mcp`, { method: 'POST' })).status).to.equal(405);
  });

  it('[AUTH-012] [AUTH-180] points the 401 challenge at the document it serves, which names this server', async () => {
    p = await startProtected();
    const denied = await post(p.url, initializeRequest());
    const url = challengeParams(denied.headers['www-authenticate'] as string).resource_metadata;
    const doc = await raw(url);
    expect(doc.status).to.equal(200);
    expect(doc.json.resource).to.equal(p.url);
    expect(doc.json.authorization_servers).to.have.length.greaterThan(0);
  });

  it('passes other requests to the MCP handler it wraps, and listen() reports the MCP endpoint', async () => {
    p = await startProtected();
    p.tokens.set('t', tokenFor(p.url, 'alice', []));
    expect(p.listening.url.endsWith('/mcp')).to.equal(true);
    expect((await post(p.url, initializeRequest(), { authorization: 'Bearer t' })).status).to.equal(200);
    expect((await raw(`${p.origin}/elsewhere`)).status).to.equal(404);
  });

  it('works as Express-style middleware: calls next() for other paths', async () => {
    const prm = createProtectedResourceMetadataHandler({ resource: 'http://127.0.0.1/mcp', authorizationServers: [ISSUER] });
    let nexts = 0;
    const l = await listen(
      Object.assign((req: any, res: any) => prm(req, res, () => {
        nexts++;
        res.writeHead(418);
        res.end();
      }), { path: '/mcp' }),
      { logger: false },
    );
    try {
      expect((await raw(`${l.url.replace('/mcp', '')}/.well-known/oauth-protected-resource/mcp`)).status).to.equal(200);
      expect((await raw(l.url)).status).to.equal(418);
      expect(nexts).to.equal(1);
    } finally {
      await l.close();
    }
  });

  it('[AUTH-011] refuses to be built without an authorization server, or with a resource it cannot serve', () => {
    expect(() => protectedResourceMetadata({ resource: 'https://mcp.example.com/mcp', authorizationServers: [] })).to.throw(TypeError, /at least one authorization server/);
    expect(() => protectedResourceMetadata({ resource: 'https://mcp.example.com/mcp', authorizationServers: ['auth.example.com'] })).to.throw(TypeError, /not an absolute URL/);
    expect(() => protectedResourceMetadata({ resource: '/mcp', authorizationServers: [ISSUER] })).to.throw(TypeError, /absolute URI/);
    expect(() => createProtectedResourceMetadataHandler({ resource: 'https://mcp.example.com/mcp#f', authorizationServers: [ISSUER] })).to.throw(TypeError, /fragment/);
  });

  it('derives the well-known URL by inserting the path after the host (RFC 9728 §3.1)', () => {
    expect(protectedResourceMetadataUrl('https://MCP.example.com/mcp')).to.equal('https://mcp.example.com/.well-known/oauth-protected-resource/mcp');
    expect(protectedResourceMetadataUrl('https://mcp.example.com/')).to.equal('https://mcp.example.com/.well-known/oauth-protected-resource');
    expect(protectedResourceMetadataUrl('https://mcp.example.com:8443/a/b/')).to.equal('https://mcp.example.com:8443/.well-known/oauth-protected-resource/a/b');
    const root = createProtectedResourceMetadataHandler({ resource: 'https://mcp.example.com', authorizationServers: [ISSUER] });
    expect(root.paths).to.deep.equal(['/.well-known/oauth-protected-resource']);
    expect(root.metadata.resource).to.equal('https://mcp.example.com');
  });
});
