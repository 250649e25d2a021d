// requireBearerAuth on our Streamable HTTP server, over real sockets: every refusal's status and
// challenge, the checks the server makes whatever the verifier says, and what handlers see.
import { expect } from 'chai';
import { InvalidTokenError } from '../../../lib/auth/server/auth-info.js';
import { formatBearerChallenge } from '../../../lib/auth/www-authenticate.js';
import { requireBearerAuth } from '../../../lib/auth/server/bearer-auth.js';
import { callTool, initializeRequest, openSession, post, raw } from '../../fixtures/http-server/raw.js';
import { challengeParams, startProtected, tokenFor, type Protected } from './helpers.js';

const bearer = (t: string) => ({ authorization: `Bearer ${t}` });
const h = (sid: string) => ({ 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' });
const resultOf = (res: { json: any }) => JSON.parse(res.json.result.content[0].text);

describe('requireBearerAuth on the Streamable HTTP server', () => {
  let p: Protected;
  afterEach(async () => {
    await p?.close();
  });

  it('[AUTH-012] [AUTH-035] [AUTH-052] [AUTH-127] [SEC-003] answers 401 with resource_metadata (and the needed scope) on every method without credentials', async () => {
    p = await startProtected({ auth: { requiredScopes: ['mcp:read'] } });
    p.tokens.set('good-token', tokenFor(p.url, 'alice', ['mcp:read']));
    const sid = await openSession(p.url, '2025-11-25', bearer('good-token'));
    for (const res of [
      await post(p.url, initializeRequest()),
      await post(p.url, callTool(1, 'whoami'), h(sid)),
      await raw(p.url, { method: 'GET', headers: { accept: 'text/event-stream', ...h(sid) } }),
      await raw(p.url, { method: 'DELETE', headers: h(sid) }),
      // Another scheme is no Bearer credentials at all.
      await post(p.url, callTool(2, 'whoami'), { ...h(sid), authorization: 'Basic YWxpY2U6c2VjcmV0' }),
    ]) {
      expect(res.status).to.equal(401);
      const params = challengeParams(res.headers['www-authenticate'] as string);
      expect(params).to.deep.equal({ scope: 'mcp:read', resource_metadata: `${p.origin}/.well-known/oauth-protected-resource/mcp` });
      expect(res.json.error.message).to.match(/Unauthorized/);
    }
    expect(p.calls).to.deep.equal([]);
  });

  it('[AUTH-028] [AUTH-030] [AUTH-031] [AUTH-053] answers 401 invalid_token for a token the verifier refuses, without echoing it', async () => {
    p = await startProtected({
      verify: (token) => {
        if (token === 'revoked-token-123') throw new InvalidTokenError(`token ${token} was revoked`);
        return undefined;
      },
    });
    const unknown = await post(p.url, initializeRequest(), bearer('made-up-token-456'));
    expect(unknown.status).to.equal(401);
    expect(challengeParams(unknown.headers['www-authenticate'] as string)).to.deep.equal({
      error: 'invalid_token',
      error_description: 'The access token is not valid',
      resource_metadata: `${p.origin}/.well-known/oauth-protected-resource/mcp`,
    });
    expect(unknown.json).to.deep.equal({ error: 'invalid_token', error_description: 'The access token is not valid' });
    const revoked = await post(p.url, initializeRequest(), bearer('revoked-token-123'));
    expect(revoked.status).to.equal(401);
    expect(challengeParams(revoked.headers['www-authenticate'] as string).error_description).to.equal('token [redacted] was revoked');
    expect(revoked.body + JSON.stringify(revoked.headers)).not.to.include('revoked-token-123');
  });

  it('[AUTH-029] [AUTH-033] [AUTH-034] [AUTH-038] [AUTH-054] [SEC-002] refuses a valid token issued for another resource, whatever the verifier says', async () => {
    p = await startProtected();
    p.tokens.set('for-other', tokenFor('https://other.example.com/mcp', 'alice', []));
    p.tokens.set('for-origin', tokenFor(p.origin, 'alice', []));
    p.tokens.set('no-audience', tokenFor(p.url, 'alice', [], { resource: undefined }));
    p.tokens.set('aud-list', tokenFor(p.url, 'alice', [], { resource: undefined, audience: ['https://other.example.com', p.url] }));
    for (const t of ['for-other', 'for-origin', 'no-audience']) {
      const res = await post(p.url, initializeRequest(), bearer(t));
      expect(res.status, t).to.equal(401);
      const params = challengeParams(res.headers['www-authenticate'] as string);
      expect(params.error, t).to.equal('invalid_token');
      expect(params.error_description, t).to.equal('The access token was not issued for this resource');
    }
    expect(p.mcp.sessionCount).to.equal(0);
    expect((await post(p.url, initializeRequest(), bearer('aud-list'))).status).to.equal(200);
  });

  it('[AUTH-021] accepts an audience written with an uppercase scheme and host or a trailing slash', async () => {
    p = await startProtected();
    const shouty = p.url.replace('http://127.0.0.1', 'HTTP://127.0.0.1') + '/';
    p.tokens.set('shouty', tokenFor(shouty, 'alice', []));
    expect((await post(p.url, initializeRequest(), bearer('shouty'))).status).to.equal(200);
  });

  it('[AUTH-031] refuses a token once it expires on the server clock, mid-session, and one without expiry', async () => {
    p = await startProtected();
    const t = tokenFor(p.url, 'alice', []);
    p.tokens.set('short-lived', { ...t, expiresAt: t.expiresAt! - 3600 + 60 });
    p.tokens.set('forever', { ...t, expiresAt: undefined });
    const sid = await openSession(p.url, '2025-11-25', bearer('short-lived'));
    expect((await post(p.url, callTool(1, 'whoami'), { ...h(sid), ...bearer('short-lived') })).status).to.equal(200);
    p.clock.advance(59_999);
    expect((await post(p.url, callTool(2, 'whoami'), { ...h(sid), ...bearer('short-lived') })).status).to.equal(200);
    p.clock.advance(1);
    const expired = await post(p.url, callTool(3, 'whoami'), { ...h(sid), ...bearer('short-lived') });
    expect(expired.status).to.equal(401);
    expect(challengeParams(expired.headers['www-authenticate'] as string)).to.include({ error: 'invalid_token', error_description: 'The access token has expired' });
    const forever = await post(p.url, initializeRequest(), bearer('forever'));
    expect(forever.status).to.equal(401);
    expect(challengeParams(forever.headers['www-authenticate'] as string).error_description).to.equal('The access token has no expiry');
    expect(p.calls).to.deep.equal(['whoami', 'whoami']);
  });

  it('refuses a token in the query string (400 invalid_request) and never verifies it', async () => {
    p = await startProtected();
    p.tokens.set('good-token', tokenFor(p.url, 'alice', []));
    const inQuery = await post(`${p.url}?access_token=good-token`, initializeRequest());
    expect(inQuery.status).to.equal(400);
    expect(challengeParams(inQuery.headers['www-authenticate'] as string)).to.include({ error: 'invalid_request' });
    expect(inQuery.json.error).to.equal('invalid_request');
    // Not even beside a good header.
    expect((await post(`${p.url}?access_token=good-token`, initializeRequest(), bearer('good-token'))).status).to.equal(400);
    expect(p.verified).to.deep.equal([]);
    expect(p.mcp.sessionCount).to.equal(0);
  });

  it('[AUTH-035] answers 400 invalid_request for malformed Bearer credentials', async () => {
    p = await startProtected();
    for (const authorization of ['Bearer', 'Bearer two tokens', 'Bearer bad"quote']) {
      const res = await post(p.url, initializeRequest(), { authorization });
      expect(res.status, authorization).to.equal(400);
      expect(challengeParams(res.headers['www-authenticate'] as string).error).to.equal('invalid_request');
    }
    expect(p.verified).to.deep.equal([]);
  });

  it('[AUTH-035] [AUTH-166] [AUTH-167] answers 403 insufficient_scope with the needed scope when a required scope is missing', async () => {
    p = await startProtected({ auth: { requiredScopes: ['mcp:read'] } });
    p.tokens.set('no-scope', tokenFor(p.url, 'alice', ['other']));
    const res = await post(p.url, initializeRequest(), bearer('no-scope'));
    expect(res.status).to.equal(403);
    expect(challengeParams(res.headers['www-authenticate'] as string)).to.deep.equal({
      error: 'insufficient_scope',
      error_description: 'The access token lacks a required scope',
      scope: 'mcp:read',
      resource_metadata: `${p.origin}/.well-known/oauth-protected-resource/mcp`,
    });
  });

  it('[AUTH-035] checks per-method scopes on the POST body: 403 for tools/call without mcp:write, then success with a token that has it', async () => {
    p = await startProtected({ auth: { requiredScopes: ['mcp:read'], scopesForMethod: { 'tools/call': ['mcp:write'] } } });
    p.tokens.set('reader', tokenFor(p.url, 'alice', ['mcp:read']));
    p.tokens.set('writer', tokenFor(p.url, 'alice', ['mcp:read', 'mcp:write']));
    const sid = await openSession(p.url, '2025-11-25', bearer('reader'));
    const list = await post(p.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { ...h(sid), ...bearer('reader') });
    expect(list.status).to.equal(200);
    const denied = await post(p.url, callTool(2, 'write'), { ...h(sid), ...bearer('reader') });
    expect(denied.status).to.equal(403);
    expect(challengeParams(denied.headers['www-authenticate'] as string)).to.include({ error: 'insufficient_scope', scope: 'mcp:read mcp:write' });
    expect(p.calls).to.deep.equal([]);
    // Step up: a token of the same subject with the scope, same session.
    const allowed = await post(p.url, callTool(2, 'write'), { ...h(sid), ...bearer('writer') });
    expect(allowed.status).to.equal(200);
    expect(resultOf(allowed).tool).to.equal('write');
    expect(p.calls).to.deep.equal(['write']);
  });

  it('[AUTH-055] hands handlers the verified identity as ctx.authInfo, never the token', async () => {
    p = await startProtected();
    const token = 'secret-token-value-789';
    p.tokens.set(token, tokenFor(p.url, 'alice', ['mcp:read'], { extra: { tenant: 't1' } }));
    const sid = await openSession(p.url, '2025-11-25', bearer(token));
    const res = await post(p.url, callTool(1, 'whoami'), { ...h(sid), ...bearer(token) });
    expect(resultOf(res).authInfo).to.deep.equal({
      subject: 'alice',
      clientId: 'client-of-alice',
      scopes: ['mcp:read'],
      expiresAt: 1_700_003_600,
      resource: p.url,
      extra: { tenant: 't1' },
    });
    expect(res.body).not.to.include(token);
  });

  it('[SEC-004] [SEC-007] keeps a session bound to its subject: another valid token gets 404', async () => {
    p = await startProtected();
    p.tokens.set('alice-token', tokenFor(p.url, 'alice', []));
    p.tokens.set('bob-token', tokenFor(p.url, 'bob', []));
    const sid = await openSession(p.url, '2025-11-25', bearer('alice-token'));
    expect((await post(p.url, callTool(1, 'whoami'), { ...h(sid), ...bearer('bob-token') })).status).to.equal(404);
    expect((await post(p.url, callTool(2, 'whoami'), { ...h(sid), ...bearer('alice-token') })).status).to.equal(200);
  });

  it('answers 500 when the verifier itself fails, reporting the failure without the token', async () => {
    p = await startProtected({
      verify: async (token) => {
        throw new Error(`backend down while checking ${token}`);
      },
    });
    const res = await post(p.url, initializeRequest(), bearer('some-opaque-token'));
    expect(res.status).to.equal(500);
    expect(p.errors.map((e) => e.message)).to.deep.equal(['Access token verification failed: backend down while checking [redacted]']);
  });

  it('refuses to be configured with a resource that is not an absolute URI without fragment', () => {
    const verifyAccessToken = () => undefined;
    expect(() => requireBearerAuth({ verifyAccessToken, resource: 'mcp.example.com' })).to.throw(TypeError, /not an absolute URI/);
    expect(() => requireBearerAuth({ verifyAccessToken, resource: 'https://mcp.example.com/mcp#x' })).to.throw(TypeError, /fragment/);
  });

  it('writes challenges RFC 6750 allows: quoted values, no quotes or control characters in error_description', () => {
    expect(formatBearerChallenge({ error: 'invalid_token', errorDescription: 'bad "token"\r\nX-Injected: 1', resourceMetadata: 'https://h/.well-known/oauth-protected-resource' })).to.equal(
      'Bearer error="invalid_token", error_description="bad  token   X-Injected: 1", resource_metadata="https://h/.well-known/oauth-protected-resource"',
    );
    expect(formatBearerChallenge({})).to.equal('Bearer');
  });
});
