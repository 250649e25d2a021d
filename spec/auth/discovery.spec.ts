// Discovery against a local server that serves JSON documents by path and records what was asked.
import { expect } from 'chai';
import { authorizationServerMetadataUrls } from '../../lib/auth/authorization-server-metadata.js';
import { discoverAuthorization } from '../../lib/auth/discovery.js';
import { AuthorizationError } from '../../lib/auth/authorization-errors.js';
import { startStaticServer, type StaticServer } from './helpers.js';

const asMetadata = (issuer: string) => ({
  issuer,
  authorization_endpoint: `${issuer}/authorize`,
  token_endpoint: `${issuer}/token`,
  response_types_supported: ['code'],
  code_challenge_methods_supported: ['S256'],
});

describe('authorization discovery', () => {
  let server: StaticServer;
  afterEach(() => server?.close());

  it('[AUTH-007] [AUTH-013] [AUTH-182] fetches the PRM named by the 401 challenge first, then the AS metadata it names', async () => {
    server = await startStaticServer((o) => ({
      '/custom/metadata/location.json': { resource: `${o}/mcp`, authorization_servers: [o], scopes_supported: ['a'] },
      '/.well-known/oauth-authorization-server': asMetadata(o),
    }));
    const o = server.origin;
    const d = await discoverAuthorization(`${o}/mcp`, { wwwAuthenticate: `Bearer error="invalid_token", resource_metadata="${o}/custom/metadata/location.json"` });
    expect(server.paths).to.deep.equal(['/custom/metadata/location.json', '/.well-known/oauth-authorization-server']);
    expect(d.source).to.equal('protected-resource-metadata');
    expect(d.resource).to.equal(`${o}/mcp`);
    expect(d.protectedResource?.scopes_supported).to.deep.equal(['a']);
    expect(d.authorizationServer.token_endpoint).to.equal(`${o}/token`);
  });

  it('[AUTH-007] [AUTH-182] without a challenge URL tries the path-based PRM, and the root one only when that is missing', async () => {
    server = await startStaticServer((o) => ({
      '/.well-known/oauth-protected-resource/mcp': { resource: `${o}/mcp`, authorization_servers: [o] },
      '/.well-known/oauth-protected-resource': { resource: o, authorization_servers: ['https://wrong.example.com'] },
      '/.well-known/oauth-authorization-server': asMetadata(o),
    }));
    await discoverAuthorization(`${server.origin}/mcp`);
    expect(server.paths[0]).to.equal('/.well-known/oauth-protected-resource/mcp');
    expect(server.paths).not.to.include('/.well-known/oauth-protected-resource');
    await server.close();

    server = await startStaticServer((o) => ({
      '/.well-known/oauth-protected-resource': { resource: o, authorization_servers: [o] },
      '/.well-known/oauth-authorization-server': asMetadata(o),
    }));
    const d = await discoverAuthorization(`${server.origin}/mcp`);
    expect(server.paths.slice(0, 2)).to.deep.equal(['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']);
    // The PRM's resource (the origin) covers /mcp and is what tokens are requested for.
    expect(d.resource).to.equal(server.origin);
  });

  it('[AUTH-009] [AUTH-014] [AUTH-124] [AUTH-184] [AUTH-188] [AUTH-189] falls back from RFC 8414 to OpenID Connect discovery for an issuer without a path', async () => {
    server = await startStaticServer((o) => ({
      '/.well-known/oauth-protected-resource/mcp': { resource: `${o}/mcp`, authorization_servers: [o] },
      '/.well-known/openid-configuration': asMetadata(o),
    }));
    const d = await discoverAuthorization(`${server.origin}/mcp`);
    expect(server.paths.slice(1)).to.deep.equal(['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']);
    expect(d.authorizationServerMetadataUrl).to.equal(`${server.origin}/.well-known/openid-configuration`);
  });

  it('[AUTH-014] [AUTH-184] [AUTH-185] [AUTH-186] [AUTH-187] for an issuer with a path tries RFC 8414 insertion, OIDC insertion, then OIDC appending, never the root', async () => {
    server = await startStaticServer((o) => ({
      '/.well-known/oauth-protected-resource/mcp': { resource: `${o}/mcp`, authorization_servers: [`${o}/tenant1`] },
      '/.well-known/oauth-authorization-server': asMetadata(o),
      '/tenant1/.well-known/openid-configuration': asMetadata(`${o}/tenant1`),
    }));
    const d = await discoverAuthorization(`${server.origin}/mcp`);
    expect(server.paths.slice(1)).to.deep.equal([
      '/.well-known/oauth-authorization-server/tenant1',
      '/.well-known/openid-configuration/tenant1',
      '/tenant1/.well-known/openid-configuration',
    ]);
    expect(d.authorizationServer.issuer).to.equal(`${server.origin}/tenant1`);
    expect(authorizationServerMetadataUrls('https://as.example.com/').map((u) => u.pathname)).to.deep.equal([
      '/.well-known/oauth-authorization-server',
      '/.well-known/openid-configuration',
    ]);
  });

  it('[AUTH-190] [AUTH-191] [AUTH-192] rejects AS metadata that names another issuer than the one its URL was built from (mix-up defence), and does not go on to use it', async () => {
    // The server here plays the attacker: its document claims to be an honest issuer's.
    server = await startStaticServer((o) => ({
      '/.well-known/oauth-protected-resource/mcp': { resource: `${o}/mcp`, authorization_servers: [o] },
      '/.well-known/oauth-authorization-server': asMetadata('https://honest.example'),
      '/.well-known/openid-configuration': asMetadata(o),
    }));
    const e = await discoverAuthorization(`${server.origin}/mcp`).catch((x: unknown) => x);
    expect(e).to.be.instanceOf(AuthorizationError);
    expect((e as AuthorizationError).code).to.equal('issuer_mismatch');
    expect((e as AuthorizationError).message).to.include('https://honest.example');
    // Discovery stopped at the bad document: no other location was tried instead.
    expect(server.paths).to.deep.equal(['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-authorization-server']);
  });

  it('aborts with resource_mismatch when the PRM is for another resource, before asking any authorization server', async () => {
    server = await startStaticServer((o) => ({
      '/.well-known/oauth-protected-resource/mcp': { resource: 'https://evil.example.com/mcp', authorization_servers: [o] },
      '/.well-known/oauth-authorization-server': asMetadata(o),
    }));
    const e = await discoverAuthorization(`${server.origin}/mcp`).catch((x: unknown) => x);
    expect((e as AuthorizationError).code).to.equal('resource_mismatch');
    expect(server.paths).to.deep.equal(['/.well-known/oauth-protected-resource/mcp']);
  });

  it('without PRM (2025-03-26) uses the metadata on the MCP server origin, whatever issuer it names', async () => {
    server = await startStaticServer((o) => ({ '/.well-known/oauth-authorization-server': asMetadata(`${o}/oauth`) }));
    const d = await discoverAuthorization(`${server.origin}/mcp`);
    expect(d.source).to.equal('server-origin-metadata');
    expect(d.authorizationServer.authorization_endpoint).to.equal(`${server.origin}/oauth/authorize`);
    expect(d.resource).to.equal(`${server.origin}/mcp`);
  });

  it('without PRM or metadata (2025-03-26) falls back to /authorize, /token and /register on the origin', async () => {
    server = await startStaticServer(() => ({}));
    const d = await discoverAuthorization(`${server.origin}/mcp`);
    expect(d.source).to.equal('default-endpoints');
    expect(d.authorizationServer).to.include({
      authorization_endpoint: `${server.origin}/authorize`,
      token_endpoint: `${server.origin}/token`,
      registration_endpoint: `${server.origin}/register`,
    });
    expect(d.authorizationServer.code_challenge_methods_supported).to.deep.equal(['S256']);
  });

  it('fails when the PRM names no authorization server, or the AS metadata is not usable', async () => {
    server = await startStaticServer((o) => ({ '/.well-known/oauth-protected-resource/mcp': { resource: `${o}/mcp`, authorization_servers: [] } }));
    expect(((await discoverAuthorization(`${server.origin}/mcp`).catch((x: unknown) => x)) as AuthorizationError).code).to.equal('discovery_failed');
    await server.close();
    server = await startStaticServer((o) => ({
      '/.well-known/oauth-protected-resource/mcp': { resource: `${o}/mcp`, authorization_servers: [o] },
      '/.well-known/oauth-authorization-server': { issuer: o, authorization_endpoint: 'not a url', token_endpoint: `${o}/token` },
    }));
    const e = (await discoverAuthorization(`${server.origin}/mcp`).catch((x: unknown) => x)) as AuthorizationError;
    expect(e.code).to.equal('discovery_failed');
    expect(e.message).to.include('authorization_endpoint');
  });
});
