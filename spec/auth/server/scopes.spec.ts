// How requireBearerAuth decides a token's scopes are enough, and what its challenges ask for:
// one challenge naming every scope the operation needs, the same whichever token asked, broader
// scopes counting for the narrower ones they imply, and never offline_access.
import { expect } from 'chai';
import { requireBearerAuth } from '../../../lib/auth/server/bearer-auth.js';
import { protectedResourceMetadata } from '../../../lib/auth/server/protected-resource-handler.js';
import { callTool, initializeRequest, openSession, post } from '../../fixtures/http-server/raw.js';
import { ISSUER, challengeParams, startProtected, tokenFor, type Protected } from './helpers.js';

const bearer = (t: string) => ({ authorization: `Bearer ${t}` });
const h = (sid: string, version = '2025-11-25') => ({ 'mcp-session-id': sid, 'mcp-protocol-version': version });
const listTools = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list' });

describe('requireBearerAuth scope decisions', () => {
  let p: Protected;
  afterEach(async () => {
    await p?.close();
  });

  it('[AUTH-169] [AUTH-171] names every scope a batch needs in one 403 challenge, so one step-up is enough', async () => {
    p = await startProtected({
      auth: { requiredScopes: ['mcp:read'], scopesForMethod: (m) => (m === 'tools/call' ? ['mcp:write'] : m === 'tools/list' ? ['mcp:list'] : undefined) },
    });
    p.tokens.set('reader', tokenFor(p.url, 'alice', ['mcp:read']));
    p.tokens.set('stepped-up', tokenFor(p.url, 'alice', ['mcp:read', 'mcp:list', 'mcp:write']));
    const sid = await openSession(p.url, '2025-03-26', bearer('reader'));
    const batch = [listTools(1), callTool(2, 'write')];
    const denied = await post(p.url, batch, { ...h(sid, '2025-03-26'), ...bearer('reader') });
    expect(denied.status).to.equal(403);
    expect(challengeParams(denied.headers['www-authenticate'] as string)).to.deep.include({ error: 'insufficient_scope', scope: 'mcp:read mcp:list mcp:write' });
    expect(p.calls).to.deep.equal([]);
    // A token with exactly the challenged scopes gets the whole batch through.
    const allowed = await post(p.url, batch, { ...h(sid, '2025-03-26'), ...bearer('stepped-up') });
    expect(allowed.status).to.equal(200);
    expect(p.calls).to.deep.equal(['write']);
  });

  it('[AUTH-168] [AUTH-169] decides scopes from the request itself: per tool, all of a batch\'s in one challenge', async () => {
    const perTool: Record<string, string[]> = { write: ['files:write'], whoami: ['profile'] };
    p = await startProtected({ auth: { scopesForMethod: (m, params) => (m === 'tools/call' ? perTool[String(params?.name)] : undefined) } });
    p.tokens.set('profile', tokenFor(p.url, 'alice', ['profile']));
    p.tokens.set('both', tokenFor(p.url, 'alice', ['profile', 'files:write']));
    const sid = await openSession(p.url, '2025-03-26', bearer('profile'));
    const hh = { ...h(sid, '2025-03-26'), ...bearer('profile') };
    expect((await post(p.url, callTool(1, 'whoami'), hh)).status).to.equal(200);
    const denied = await post(p.url, callTool(2, 'write'), hh);
    expect(denied.status).to.equal(403);
    expect(challengeParams(denied.headers['www-authenticate'] as string).scope).to.equal('files:write');
    p.tokens.set('nothing', tokenFor(p.url, 'alice', []));
    const batchDenied = await post(p.url, [callTool(3, 'whoami'), callTool(4, 'write')], { ...h(sid, '2025-03-26'), ...bearer('nothing') });
    expect(challengeParams(batchDenied.headers['www-authenticate'] as string).scope).to.equal('profile files:write');
    expect((await post(p.url, [callTool(5, 'whoami'), callTool(6, 'write')], { ...h(sid, '2025-03-26'), ...bearer('both') })).status).to.equal(200);
    expect(p.calls).to.deep.equal(['whoami', 'whoami', 'write']);
  });

  it('refuses (400), never lets through, a message its scope function fails on, and stays up', async () => {
    p = await startProtected({ auth: { scopesForMethod: (m, params) => (m === 'tools/call' ? [(params as { name: { length: number } }).name.length > 3 ? 'long' : 'short'] : undefined) } });
    p.tokens.set('any', tokenFor(p.url, 'alice', ['long', 'short']));
    const sid = await openSession(p.url, '2025-11-25', bearer('any'));
    const res = await post(p.url, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: {} }, { ...h(sid), ...bearer('any') });
    expect(res.status).to.equal(400);
    expect(challengeParams(res.headers['www-authenticate'] as string)).to.include({ error: 'invalid_request' });
    expect(p.calls).to.deep.equal([]);
    expect((await post(p.url, callTool(2, 'whoami'), { ...h(sid), ...bearer('any') })).status).to.equal(200);
  });

  it('[AUTH-131] [AUTH-168] [AUTH-170] challenges the same operation with the same scope set, whichever scopes the token lacks', async () => {
    p = await startProtected({ auth: { scopesForMethod: { 'tools/call': ['files:read', 'files:write'] } } });
    p.tokens.set('none', tokenFor(p.url, 'alice', []));
    p.tokens.set('read-only', tokenFor(p.url, 'alice', ['files:read']));
    p.tokens.set('write-only', tokenFor(p.url, 'alice', ['files:write']));
    p.tokens.set('both', tokenFor(p.url, 'alice', ['files:read', 'files:write']));
    const sid = await openSession(p.url, '2025-11-25', bearer('none'));
    const challenged: string[] = [];
    for (const t of ['none', 'read-only', 'write-only']) {
      const res = await post(p.url, callTool(1, 'write'), { ...h(sid), ...bearer(t) });
      expect(res.status, t).to.equal(403);
      challenged.push(challengeParams(res.headers['www-authenticate'] as string).scope);
    }
    expect(challenged).to.deep.equal(['files:read files:write', 'files:read files:write', 'files:read files:write']);
    expect((await post(p.url, callTool(2, 'write'), { ...h(sid), ...bearer('both') })).status).to.equal(200);
  });

  it('[AUTH-175] counts a broader scope for the narrower ones it implies, transitively', async () => {
    p = await startProtected({
      auth: {
        requiredScopes: ['mcp:read'],
        scopesForMethod: { 'tools/call': ['mcp:write'] },
        scopeHierarchy: { 'mcp:admin': ['mcp:write'], 'mcp:write': ['mcp:read'], 'mcp:read': ['mcp:admin:never-a-cycle-problem'] },
      },
    });
    p.tokens.set('admin', tokenFor(p.url, 'alice', ['mcp:admin']));
    p.tokens.set('writer', tokenFor(p.url, 'alice', ['mcp:write']));
    p.tokens.set('reader', tokenFor(p.url, 'alice', ['mcp:read']));
    // mcp:admin -> mcp:write -> mcp:read: the admin token opens a session (needs mcp:read) and calls.
    const sid = await openSession(p.url, '2025-11-25', bearer('admin'));
    expect((await post(p.url, callTool(1, 'write'), { ...h(sid), ...bearer('admin') })).status).to.equal(200);
    expect((await post(p.url, callTool(2, 'write'), { ...h(sid), ...bearer('writer') })).status).to.equal(200);
    const denied = await post(p.url, callTool(3, 'write'), { ...h(sid), ...bearer('reader') });
    expect(denied.status).to.equal(403);
    // The challenge still names what the operation needs, not the broadest scope.
    expect(challengeParams(denied.headers['www-authenticate'] as string).scope).to.equal('mcp:read mcp:write');
    // What handlers see is what was granted, not the expansion.
    expect(JSON.parse((await post(p.url, callTool(4, 'whoami'), { ...h(sid), ...bearer('admin') })).json.result.content[0].text).authInfo.scopes).to.deep.equal(['mcp:admin']);
    expect(p.calls).to.deep.equal(['write', 'write', 'whoami']);
  });

  it('[AUTH-175] takes the hierarchy as a function too (files implies files:read and files:write)', async () => {
    p = await startProtected({
      auth: { scopesForMethod: { 'tools/call': ['files:write'] }, scopeHierarchy: (s) => (s === 'files' ? ['files:read', 'files:write'] : undefined) },
    });
    p.tokens.set('files', tokenFor(p.url, 'alice', ['files']));
    p.tokens.set('files-read', tokenFor(p.url, 'alice', ['files:read']));
    const sid = await openSession(p.url, '2025-11-25', bearer('files'));
    expect((await post(p.url, callTool(1, 'write'), { ...h(sid), ...bearer('files') })).status).to.equal(200);
    expect((await post(p.url, callTool(2, 'write'), { ...h(sid), ...bearer('files-read') })).status).to.equal(403);
  });

  it('[AUTH-164] never requires nor advertises offline_access: refused in configuration, dropped from computed scopes', async () => {
    const verifyAccessToken = () => undefined;
    const resource = 'https://mcp.example.com/mcp';
    expect(() => requireBearerAuth({ verifyAccessToken, resource, requiredScopes: ['mcp:read', 'offline_access'] })).to.throw(TypeError, /requiredScopes must not contain "offline_access"/);
    expect(() => requireBearerAuth({ verifyAccessToken, resource, scopesForMethod: { 'tools/call': ['offline_access'] } })).to.throw(TypeError, /scopesForMethod\['tools\/call'\]/);
    expect(() => protectedResourceMetadata({ resource, authorizationServers: [ISSUER], scopesSupported: ['mcp:read', 'offline_access'] })).to.throw(TypeError, /scopesSupported must not contain/);
    expect(() => protectedResourceMetadata({ resource, authorizationServers: [ISSUER], extra: { scopes_supported: ['offline_access'] } })).to.throw(TypeError, /extra.scopes_supported/);
    // A scopesForMethod function may answer it: it is neither challenged nor required.
    p = await startProtected({ auth: { scopesForMethod: (m) => (m === 'tools/call' ? ['mcp:write', 'offline_access'] : undefined) } });
    p.tokens.set('reader', tokenFor(p.url, 'alice', ['mcp:read']));
    p.tokens.set('writer', tokenFor(p.url, 'alice', ['mcp:write']));
    const sid = await openSession(p.url, '2025-11-25', bearer('reader'));
    const denied = await post(p.url, callTool(1, 'write'), { ...h(sid), ...bearer('reader') });
    expect(denied.status).to.equal(403);
    expect(challengeParams(denied.headers['www-authenticate'] as string).scope).to.equal('mcp:write');
    expect((await post(p.url, callTool(2, 'write'), { ...h(sid), ...bearer('writer') })).status).to.equal(200);
    expect((await post(p.url, initializeRequest(), bearer('writer'))).status).to.equal(200);
  });
});
