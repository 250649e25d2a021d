import { expect } from 'chai';
import { bearerChallenge, parseWwwAuthenticate } from '../../lib/auth/www-authenticate.js';

describe('WWW-Authenticate parsing', () => {
  it('[AUTH-013] reads the Bearer parameters MCP uses: error, scope (split), resource_metadata', () => {
    const c = bearerChallenge(
      'Bearer error="insufficient_scope", scope="mcp:basic mcp:write", resource_metadata="https://rs.example.com/.well-known/oauth-protected-resource/mcp", error_description="Token has insufficient scope"',
    );
    expect(c).to.deep.equal({
      error: 'insufficient_scope',
      errorDescription: 'Token has insufficient scope',
      scope: ['mcp:basic', 'mcp:write'],
      resourceMetadata: 'https://rs.example.com/.well-known/oauth-protected-resource/mcp',
    });
  });

  it('finds the Bearer challenge among several, with case-insensitive scheme and names, quoted commas and escapes', () => {
    const header = 'Basic realm="a, b", DPoP algs="ES256", BEARER Scope="x y", Error=invalid_token, error_description="say \\"hi\\", ok"';
    const all = parseWwwAuthenticate(header);
    expect(all.map((c) => c.scheme)).to.deep.equal(['basic', 'dpop', 'bearer']);
    expect(all[0]!.params.realm).to.equal('a, b');
    expect(bearerChallenge(header)).to.deep.equal({ error: 'invalid_token', errorDescription: 'say "hi", ok', scope: ['x', 'y'] });
  });

  it('accepts a token68 challenge and a bare scheme', () => {
    const all = parseWwwAuthenticate('Negotiate abc123==, Bearer');
    expect(all).to.deep.equal([
      { scheme: 'negotiate', params: {}, token68: 'abc123==' },
      { scheme: 'bearer', params: {} },
    ]);
    expect(bearerChallenge('Bearer')).to.deep.equal({});
  });

  it('has no Bearer challenge for a missing header or another scheme', () => {
    expect(bearerChallenge(null)).to.equal(undefined);
    expect(bearerChallenge('Basic realm="x"')).to.equal(undefined);
  });
});
