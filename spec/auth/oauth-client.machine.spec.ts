import { expect } from 'chai';
import { createActor, waitFor } from 'xstate';
import type { AuthorizationDiscovery } from '../../lib/auth/discovery.js';
import { AuthorizationError } from '../../lib/auth/authorization-errors.js';
import { oauthClientMachine, type OAuthClientContext, type OAuthClientEvent, type OAuthClientInput, type TokenGrantSummary } from '../../machines/oauth-client.machine.js';

const discovery = (scopes?: string[]): AuthorizationDiscovery => ({
  serverUrl: 'https://mcp.example.com/mcp',
  resource: 'https://mcp.example.com/mcp',
  protectedResource: { resource: 'https://mcp.example.com/mcp', authorization_servers: ['https://as.example.com'], ...(scopes && { scopes_supported: scopes }) },
  authorizationServerUrl: 'https://as.example.com',
  authorizationServer: { issuer: 'https://as.example.com', authorization_endpoint: 'https://as.example.com/a', token_endpoint: 'https://as.example.com/t' },
  source: 'protected-resource-metadata',
});

interface Script {
  discover?: () => Promise<AuthorizationDiscovery>;
  refresh?: () => Promise<TokenGrantSummary>;
  grant?: () => Promise<TokenGrantSummary>;
  grantedScopes?: (requested: string[] | undefined) => string[] | undefined;
  /** Whether the code exchange brings a refresh token (default true). */
  exchangeRefreshToken?: boolean;
}

function run(input: OAuthClientInput = {}, script: Script = {}) {
  const calls: string[] = [];
  const authorizeScopes: (string[] | undefined)[] = [];
  const grantScopes: (string[] | undefined)[] = [];
  const states: string[] = [];
  // Each effect answers on a later turn, as real I/O would.
  const answer = (work: (c: OAuthClientContext) => Promise<OAuthClientEvent>) => ({ context }: { context: OAuthClientContext }) => {
    void work(context).then(
      (e) => actor.send(e),
      (error: unknown) => actor.send({ type: 'STEP_FAILED', error }),
    );
  };
  const actor = createActor(
    oauthClientMachine.provide({
      actions: {
        discover: answer(async () => {
          calls.push('discover');
          return { type: 'DISCOVERED', discovery: await (script.discover ?? (async () => discovery()))() };
        }),
        register: answer(async () => {
          calls.push('register');
          return { type: 'REGISTERED', clientId: 'client-1' };
        }),
        authorize: answer(async (c) => {
          calls.push('authorize');
          authorizeScopes.push(c.requestedScopes);
          return { type: 'CODE_RECEIVED' };
        }),
        exchange: answer(async (c) => {
          calls.push('exchange');
          const scopes = script.grantedScopes ? script.grantedScopes(c.requestedScopes) : c.requestedScopes;
          return { type: 'GRANTED', grant: { scopes, hasRefreshToken: script.exchangeRefreshToken ?? true } };
        }),
        grant: answer(async (c) => {
          calls.push('grant');
          grantScopes.push(c.requestedScopes);
          return { type: 'GRANTED', grant: await (script.grant ?? (async () => ({ scopes: c.requestedScopes, hasRefreshToken: false })))() };
        }),
        refresh: answer(async () => {
          calls.push('refresh');
          return { type: 'GRANTED', grant: await (script.refresh ?? (async () => ({ scopes: undefined, hasRefreshToken: true })))() };
        }),
      },
    }),
    { input },
  );
  actor.subscribe((s) => {
    if (states.at(-1) !== s.value) states.push(s.value as string);
  });
  actor.start();
  const settle = () => waitFor(actor, (s) => ['idle', 'authorized', 'failed'].includes(s.value as string));
  return { actor, calls, authorizeScopes, grantScopes, states, settle };
}

describe('oauthClientMachine', () => {
  it('runs discovery, registration, authorization and exchange on a 401, asking for the challenged scope', async () => {
    const { actor, calls, authorizeScopes, states, settle } = run();
    expect(actor.getSnapshot().value).to.equal('idle');
    actor.send({ type: 'UNAUTHORIZED', wwwAuthenticate: 'Bearer scope="mcp:basic", resource_metadata="https://mcp.example.com/prm"' });
    const s = await settle();
    expect(states).to.deep.equal(['idle', 'discovering', 'registering', 'authorizing', 'exchanging', 'authorized']);
    expect(calls).to.deep.equal(['discover', 'register', 'authorize', 'exchange']);
    expect(authorizeScopes[0]).to.deep.equal(['mcp:basic']);
    expect(s.context.challenge?.resourceMetadata).to.equal('https://mcp.example.com/prm');
    expect(s.context.authorizations).to.equal(1);
  });

  it('falls back to the PRM scopes_supported when the challenge has no scope', async () => {
    const { actor, authorizeScopes, settle } = run({}, { discover: async () => discovery(['a', 'b']) });
    actor.send({ type: 'UNAUTHORIZED', wwwAuthenticate: 'Bearer error="invalid_token"' });
    await settle();
    expect(authorizeScopes[0]).to.deep.equal(['a', 'b']);
  });

  it('steps up on INSUFFICIENT_SCOPE with the union of the scopes asked before and the challenged ones', async () => {
    const { actor, authorizeScopes, settle } = run();
    actor.send({ type: 'UNAUTHORIZED', wwwAuthenticate: 'Bearer scope="mcp:basic"' });
    await settle();
    actor.send({ type: 'SUCCEEDED' });
    actor.send({ type: 'INSUFFICIENT_SCOPE', wwwAuthenticate: 'Bearer error="insufficient_scope", scope="mcp:write"' });
    const s = await settle();
    expect(s.value).to.equal('authorized');
    expect(authorizeScopes).to.deep.equal([['mcp:basic'], ['mcp:basic', 'mcp:write']]);
  });

  it('stops after 3 authorizations without a successful request: retry_limit, no 4th authorization', async () => {
    const { actor, calls, settle } = run({}, { grantedScopes: () => [] });
    actor.send({ type: 'UNAUTHORIZED', wwwAuthenticate: 'Bearer scope="mcp:admin"' });
    await settle();
    for (let i = 0; i < 2; i++) {
      actor.send({ type: 'INSUFFICIENT_SCOPE', wwwAuthenticate: 'Bearer error="insufficient_scope", scope="mcp:admin"' });
      expect((await settle()).value).to.equal('authorized');
    }
    actor.send({ type: 'INSUFFICIENT_SCOPE', wwwAuthenticate: 'Bearer error="insufficient_scope", scope="mcp:admin"' });
    const s = await settle();
    expect(s.value).to.equal('failed');
    expect(s.context.error).to.be.instanceOf(AuthorizationError);
    expect(s.context.error!.code).to.equal('retry_limit');
    expect(s.context.error!.message).to.include('mcp:admin');
    expect(calls.filter((c) => c === 'authorize')).to.have.length(3);
    // A later 401 gets the refresh token's one try (no user involved)...
    actor.send({ type: 'UNAUTHORIZED' });
    expect((await settle()).value).to.equal('authorized');
    expect(calls.filter((c) => c === 'refresh')).to.have.length(1);
    // ...and after that no new attempt until something succeeds or the user resets.
    actor.send({ type: 'UNAUTHORIZED' });
    expect((await settle()).value).to.equal('failed');
    expect(calls.filter((c) => c === 'authorize')).to.have.length(3);
    expect(calls.filter((c) => c === 'refresh')).to.have.length(1);
    actor.send({ type: 'RESET' });
    actor.send({ type: 'UNAUTHORIZED' });
    expect((await settle()).value).to.equal('authorized');
    expect(calls.filter((c) => c === 'authorize')).to.have.length(4);
  });

  it('a successful request resets the count of authorizations', async () => {
    // The server grants none of the scopes asked for, so each step-up may still help.
    const { actor, settle } = run({ maxAuthorizations: 1 }, { grantedScopes: () => [] });
    actor.send({ type: 'UNAUTHORIZED' });
    await settle();
    actor.send({ type: 'SUCCEEDED' });
    actor.send({ type: 'INSUFFICIENT_SCOPE', wwwAuthenticate: 'Bearer error="insufficient_scope", scope="x"' });
    expect((await settle()).value).to.equal('authorized');
    actor.send({ type: 'INSUFFICIENT_SCOPE', wwwAuthenticate: 'Bearer error="insufficient_scope", scope="x"' });
    expect((await settle()).value).to.equal('failed');
  });

  it('[AUTH-174] starts no step-up for a 403 asking only for scopes the token was granted: stays authorized with an insufficient_scope error, cleared by the next success', async () => {
    const { actor, calls, settle } = run();
    actor.send({ type: 'UNAUTHORIZED', wwwAuthenticate: 'Bearer scope="mcp:basic mcp:write"' });
    await settle();
    actor.send({ type: 'INSUFFICIENT_SCOPE', wwwAuthenticate: 'Bearer error="insufficient_scope", scope="mcp:write"' });
    const s = await settle();
    expect(s.value).to.equal('authorized');
    expect(s.context.error?.code).to.equal('insufficient_scope');
    expect(s.context.error?.message).to.include('mcp:write');
    expect(calls.filter((c) => c === 'authorize')).to.have.length(1);
    actor.send({ type: 'SUCCEEDED' });
    expect(actor.getSnapshot().context.error).to.equal(undefined);
    // A scope the token lacks still gets its step-up.
    actor.send({ type: 'INSUFFICIENT_SCOPE', wwwAuthenticate: 'Bearer error="insufficient_scope", scope="mcp:admin"' });
    expect((await settle()).value).to.equal('authorized');
    expect(calls.filter((c) => c === 'authorize')).to.have.length(2);
  });

  it('refreshes on a 401 when it holds a refresh token, once; the next 401 runs the whole flow', async () => {
    const { actor, calls, states, settle } = run({ hasTokens: true, hasRefreshToken: true });
    expect(actor.getSnapshot().value).to.equal('authorized');
    actor.send({ type: 'UNAUTHORIZED' });
    await settle();
    expect(calls).to.deep.equal(['refresh']);
    actor.send({ type: 'UNAUTHORIZED' });
    await settle();
    expect(calls).to.deep.equal(['refresh', 'discover', 'register', 'authorize', 'exchange']);
    expect(states).to.include('refreshing');
  });

  it('runs the whole flow when the refresh fails, and refreshes on TOKEN_EXPIRED', async () => {
    const failing = run({ hasTokens: true, hasRefreshToken: true }, { refresh: () => Promise.reject(new AuthorizationError('token_request_failed', 'invalid_grant')) });
    failing.actor.send({ type: 'UNAUTHORIZED' });
    expect((await failing.settle()).value).to.equal('authorized');
    expect(failing.calls).to.deep.equal(['refresh', 'discover', 'register', 'authorize', 'exchange']);

    const expiring = run({ hasTokens: true, hasRefreshToken: true });
    expiring.actor.send({ type: 'TOKEN_EXPIRED' });
    expect((await expiring.settle()).value).to.equal('authorized');
    expect(expiring.calls).to.deep.equal(['refresh']);
    const noRefresh = run({ hasTokens: true, hasRefreshToken: false });
    noRefresh.actor.send({ type: 'TOKEN_EXPIRED' });
    expect(noRefresh.actor.getSnapshot().value).to.equal('authorized');
    expect(noRefresh.calls).to.deep.equal([]);
  });

  it('fails with the discovery error without authorizing, and tries again on the next 401', async () => {
    let fail = true;
    const { actor, calls, settle } = run(
      {},
      {
        discover: async () => {
          if (fail) throw new AuthorizationError('resource_mismatch', 'PRM is for another resource');
          return discovery();
        },
      },
    );
    actor.send({ type: 'UNAUTHORIZED' });
    const s = await settle();
    expect(s.value).to.equal('failed');
    expect(s.context.error?.code).to.equal('resource_mismatch');
    expect(calls).to.deep.equal(['discover']);
    fail = false;
    actor.send({ type: 'UNAUTHORIZED' });
    expect((await settle()).value).to.equal('authorized');
  });

  it('wraps an unexpected actor failure in a provider_failed AuthorizationError', async () => {
    const { actor, settle } = run({}, { discover: () => Promise.reject(new Error('disk full')) });
    actor.send({ type: 'UNAUTHORIZED' });
    const s = await settle();
    expect(s.context.error?.code).to.equal('provider_failed');
    expect(s.context.error?.message).to.include('disk full');
  });

  describe("flow: 'grant' (no user: client credentials, cross-app access)", () => {
    it('on a 401 discovers, then makes one grant request instead of registering, authorizing and exchanging', async () => {
      const { actor, calls, states, grantScopes, settle } = run({ flow: 'grant', offlineAccess: false }, { discover: async () => discovery(['mcp:read']) });
      actor.send({ type: 'UNAUTHORIZED', wwwAuthenticate: 'Bearer error="invalid_token"' });
      const s = await settle();
      expect(states).to.deep.equal(['idle', 'discovering', 'granting', 'authorized']);
      expect(calls).to.deep.equal(['discover', 'grant']);
      expect(grantScopes).to.deep.equal([['mcp:read']]);
      expect(s.context.clientId).to.equal(undefined);
      expect(s.context.authorizations).to.equal(1);
    });

    it('replaces an expired token with a new grant, without discovering again', async () => {
      const { actor, calls, settle } = run({ flow: 'grant' });
      actor.send({ type: 'UNAUTHORIZED' });
      await settle();
      actor.send({ type: 'SUCCEEDED' });
      actor.send({ type: 'TOKEN_EXPIRED' });
      expect((await settle()).value).to.equal('authorized');
      expect(calls).to.deep.equal(['discover', 'grant', 'grant']);
    });

    it('fails with the grant error, and stops after 3 grants without a successful request (retry_limit)', async () => {
      let refuse = true;
      const { actor, calls, settle } = run(
        { flow: 'grant' },
        { grant: async () => (refuse ? Promise.reject(new AuthorizationError('token_request_failed', 'invalid_client')) : { scopes: undefined, hasRefreshToken: false }) },
      );
      actor.send({ type: 'UNAUTHORIZED' });
      const failed = await settle();
      expect(failed.value).to.equal('failed');
      expect(failed.context.error?.code).to.equal('token_request_failed');
      refuse = false;
      actor.send({ type: 'UNAUTHORIZED' });
      expect((await settle()).value).to.equal('authorized');
      actor.send({ type: 'UNAUTHORIZED' });
      expect((await settle()).value).to.equal('authorized');
      actor.send({ type: 'UNAUTHORIZED' });
      const s = await settle();
      expect(s.value).to.equal('failed');
      expect(s.context.error?.code).to.equal('retry_limit');
      expect(calls.filter((c) => c === 'grant')).to.have.length(3);
      expect(calls).not.to.include('register');
      // The token held expires: the refusals were about other tokens, so a new grant is made.
      actor.send({ type: 'TOKEN_EXPIRED' });
      const renewed = await settle();
      expect(renewed.value).to.equal('authorized');
      expect(renewed.context.authorizations).to.equal(1);
      expect(calls.filter((c) => c === 'grant')).to.have.length(4);
    });
  });

  it('after retry_limit without a refresh token, TOKEN_EXPIRED starts the count again: the next 401 authorizes', async () => {
    const { actor, calls, settle } = run({ maxAuthorizations: 1 }, { grantedScopes: () => [], exchangeRefreshToken: false });
    actor.send({ type: 'UNAUTHORIZED' });
    expect((await settle()).value).to.equal('authorized');
    actor.send({ type: 'INSUFFICIENT_SCOPE', wwwAuthenticate: 'Bearer error="insufficient_scope", scope="admin"' });
    expect((await settle()).context.error?.code).to.equal('retry_limit');
    actor.send({ type: 'UNAUTHORIZED' });
    expect((await settle()).context.error?.code).to.equal('retry_limit');
    expect(calls.filter((c) => c === 'authorize')).to.have.length(1);
    actor.send({ type: 'TOKEN_EXPIRED' });
    actor.send({ type: 'UNAUTHORIZED' });
    expect((await settle()).value).to.equal('authorized');
    expect(calls.filter((c) => c === 'authorize')).to.have.length(2);
    expect(calls).not.to.include('refresh');
  });
});
