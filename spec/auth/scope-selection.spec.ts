import { expect } from 'chai';
import { hasScopes, selectScopes } from '../../lib/auth/scope-selection.js';

describe('scope selection', () => {
  it('prefers the challenge scope over scopes_supported', () => {
    expect(selectScopes({ challenged: ['mcp:basic'], protectedResourceScopes: ['mcp:basic', 'mcp:read'] })).to.deep.equal(['mcp:basic']);
  });

  it('asks for every PRM scope when the challenge has none', () => {
    expect(selectScopes({ protectedResourceScopes: ['mcp:basic', 'mcp:read', 'mcp:write'] })).to.deep.equal(['mcp:basic', 'mcp:read', 'mcp:write']);
  });

  it('omits the scope when neither says anything', () => {
    expect(selectScopes({})).to.equal(undefined);
    expect(selectScopes({ challenged: [], protectedResourceScopes: [] })).to.equal(undefined);
  });

  it('on a step-up keeps the previous scopes and adds the challenged ones, without duplicates', () => {
    expect(selectScopes({ previous: ['mcp:basic'], challenged: ['mcp:basic', 'mcp:write'] })).to.deep.equal(['mcp:basic', 'mcp:write']);
  });

  it('adds offline_access only when the authorization server lists it and does refresh tokens', () => {
    const base = { protectedResourceScopes: ['mcp:basic'], offlineAccess: true };
    expect(selectScopes({ ...base, authorizationServerScopes: ['mcp:basic', 'offline_access'] })).to.deep.equal(['mcp:basic', 'offline_access']);
    expect(selectScopes({ ...base, authorizationServerScopes: ['mcp:basic', 'mcp:read'] })).to.deep.equal(['mcp:basic']);
    expect(selectScopes({ ...base, authorizationServerScopes: ['offline_access'], authorizationServerGrantTypes: ['authorization_code'] })).to.deep.equal(['mcp:basic']);
    expect(selectScopes({ ...base, offlineAccess: false, authorizationServerScopes: ['offline_access'] })).to.deep.equal(['mcp:basic']);
    // Not on its own: no scope known means the parameter stays omitted.
    expect(selectScopes({ offlineAccess: true, authorizationServerScopes: ['offline_access'] })).to.equal(undefined);
  });

  it('hasScopes tells whether held scopes cover the required ones', () => {
    expect(hasScopes(['a', 'b'], ['a'])).to.equal(true);
    expect(hasScopes(['a'], ['a', 'b'])).to.equal(false);
    expect(hasScopes(undefined, [])).to.equal(true);
  });
});
