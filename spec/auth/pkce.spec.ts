import { expect } from 'chai';
import { AuthorizationError } from '../../lib/auth/errors.js';
import { createPkce, requireS256, s256Challenge } from '../../lib/auth/pkce.js';

describe('PKCE', () => {
  it('[AUTH-045] computes the S256 challenge of RFC 7636 Appendix B', () => {
    expect(s256Challenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).to.equal('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });

  it('[AUTH-045] makes a fresh 43-character base64url verifier each time, with its challenge', () => {
    const a = createPkce();
    const b = createPkce();
    expect(a.verifier).to.match(/^[A-Za-z0-9_-]{43}$/);
    expect(a.verifier).not.to.equal(b.verifier);
    expect(a.challenge).to.equal(s256Challenge(a.verifier));
    expect(a.method).to.equal('S256');
  });

  it('refuses an authorization server that does not list S256, or lists no methods at all', () => {
    expect(() => requireS256({ issuer: 'https://as', code_challenge_methods_supported: ['S256', 'plain'] })).not.to.throw();
    for (const methods of [undefined, ['plain'], 'S256']) {
      let error: unknown;
      try {
        requireS256({ issuer: 'https://as', code_challenge_methods_supported: methods });
      } catch (e) {
        error = e;
      }
      expect(error).to.be.instanceOf(AuthorizationError);
      expect((error as AuthorizationError).code).to.equal('pkce_unsupported');
    }
  });
});
