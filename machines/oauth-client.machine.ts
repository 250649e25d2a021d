/**
 * The client side of MCP authorization: getting an access token with the OAuth 2.1
 * authorization-code flow (PKCE, resource indicators) or, for a client that acts without a user
 * (client credentials, cross-app access), with one grant request; refreshing it, and stepping up
 * when the server wants more scopes.
 *
 * `idle` (no token) or `authorized` → on UNAUTHORIZED (a 401) or INSUFFICIENT_SCOPE (a 403 with
 * `error="insufficient_scope"`) → `discovering` (protected resource and authorization server
 * metadata) → `registering` (a client id) → `authorizing` (the user approves; a code comes back)
 * → `exchanging` (code for tokens) → `authorized`. With `flow: 'grant'` there is no user and no
 * registration: `discovering` → `granting` (one token request with the configured client
 * credentials or assertion) → `authorized`, and a token the clock says expired is replaced by
 * `granting` again before it is sent. A 401 while a refresh token is held goes to
 * `refreshing` first (once until a request succeeds again); a refresh that fails runs the whole
 * flow. Every authorization request counts: after `maxAuthorizations` of them without a request
 * succeeding in between, the next refusal ends in `failed` with a `retry_limit` error instead of
 * another round, so a server that never accepts cannot loop the client. SUCCEEDED resets the count.
 * A 403 that asks only for scopes the current token already has starts no flow: the machine
 * stays `authorized` with an `insufficient_scope` error for that request (a step-up would ask the
 * user for the same scopes again); SUCCEEDED or the next challenge clears it.
 *
 * No I/O here: each busy state's entry effect (`discover`, `register`, `authorize`, `exchange`,
 * `grant`, `refresh`) is a placeholder the runner (lib/auth/oauth-client.ts) supplies with
 * `.provide({ actions })`; it does the I/O and answers with DISCOVERED, REGISTERED,
 * CODE_RECEIVED or GRANTED, or STEP_FAILED. Tokens never enter the context, only what they allow
 * (scopes, whether a refresh token exists); neither does the authorization code, which the
 * runner keeps with the PKCE verifier between `authorizing` and `exchanging`.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#authorization-flow-steps
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#step-up-authorization-flow
 */
import { assign, setup } from 'xstate';
import type { AuthorizationDiscovery } from '../lib/auth/discovery-types.js';
import { AuthorizationError } from '../lib/auth/authorization-errors.js';
import { selectScopes } from '../lib/auth/scope-selection.js';
import { resourceChallenge, type BearerChallenge } from '../lib/auth/www-authenticate.js';

/** Default bound on authorization requests between two successful requests. */
export const DEFAULT_MAX_AUTHORIZATIONS = 3;

/**
 * How tokens are obtained: `authorization_code` (a user approves in a browser) or `grant` (the
 * client asks the token endpoint directly: client credentials, jwt-bearer after a token exchange).
 */
export type OAuthClientFlow = 'authorization_code' | 'grant';

export interface OAuthClientInput {
  /** Default `authorization_code`. */
  flow?: OAuthClientFlow;
  /** Authorization requests allowed between two successful requests (default 3). */
  maxAuthorizations?: number;
  /** Tokens are already stored (start `authorized`). */
  hasTokens?: boolean;
  hasRefreshToken?: boolean;
  /** Ask for `offline_access` when the authorization server lists it. */
  offlineAccess?: boolean;
}

export interface OAuthClientContext {
  flow: OAuthClientFlow;
  maxAuthorizations: number;
  /** Stored tokens existed when the machine started. */
  startsWithToken: boolean;
  /** Authorization (or grant) requests since the last successful request. */
  authorizations: number;
  offlineAccess: boolean;
  /** The challenge that started the current flow. */
  challenge: (BearerChallenge & { header?: string; status: 401 | 403 }) | undefined;
  discovery: AuthorizationDiscovery | undefined;
  clientId: string | undefined;
  /** The scopes of the last authorization request (undefined: the parameter was omitted). */
  requestedScopes: string[] | undefined;
  /** The scopes the current token was granted, as the token endpoint said (else those requested). */
  grantedScopes: string[] | undefined;
  hasRefreshToken: boolean;
  /** A refresh was tried since the last successful request. */
  refreshTried: boolean;
  error: AuthorizationError | undefined;
}

/** What a token endpoint answer tells the machine (never the tokens). */
export interface TokenGrantSummary {
  scopes: string[] | undefined;
  hasRefreshToken: boolean;
}

export type OAuthClientEvent =
  /** The server answered 401; `wwwAuthenticate` is its header. */
  | { type: 'UNAUTHORIZED'; wwwAuthenticate?: string | null }
  /** The server answered 403 with `error="insufficient_scope"`. */
  | { type: 'INSUFFICIENT_SCOPE'; wwwAuthenticate?: string | null }
  /** The access token expired by the clock: refresh before the next request. */
  | { type: 'TOKEN_EXPIRED' }
  /** A request with the current token was accepted. */
  | { type: 'SUCCEEDED' }
  /** Forget a failure and the attempts counted (the user wants to try again). */
  | { type: 'RESET' }
  /** `discover` found the metadata. */
  | { type: 'DISCOVERED'; discovery: AuthorizationDiscovery }
  /** `register` has a client id. */
  | { type: 'REGISTERED'; clientId: string }
  /** `authorize` got the code back (state checked); the runner keeps the code, not the machine. */
  | { type: 'CODE_RECEIVED' }
  /** `exchange`, `grant` or `refresh` got (and stored) tokens. */
  | { type: 'GRANTED'; grant: TokenGrantSummary }
  /** The current step's I/O failed. */
  | { type: 'STEP_FAILED'; error: unknown };

const asAuthorizationError = (error: unknown): AuthorizationError =>
  error instanceof AuthorizationError
    ? error
    : new AuthorizationError('provider_failed', `The authorization flow failed: ${error instanceof Error ? error.message : String(error)}.`);

/**
 * The OAuth client flow. Provide the effects `discover`, `register`, `authorize`, `exchange`,
 * `grant` and `refresh` with `.provide({ actions })`; each reads what it needs from the context and sends
 * its outcome back as an event.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization
 */
export const oauthClientMachine = setup({
  types: {
    context: {} as OAuthClientContext,
    events: {} as OAuthClientEvent,
    input: {} as OAuthClientInput,
  },
  actions: {
    // I/O placeholders: replaced by the runner via `.provide({ actions })`.
    discover: () => {},
    register: () => {},
    authorize: () => {},
    exchange: () => {},
    grant: () => {},
    refresh: () => {},
    recordChallenge: assign({
      challenge: ({ event }) => {
        if (event.type !== 'UNAUTHORIZED' && event.type !== 'INSUFFICIENT_SCOPE') return undefined;
        const parsed = resourceChallenge(event.wwwAuthenticate) ?? {};
        return { ...parsed, ...(event.wwwAuthenticate && { header: event.wwwAuthenticate }), status: event.type === 'UNAUTHORIZED' ? 401 : 403 };
      },
      error: undefined,
    }),
    retryLimitReached: assign({
      error: ({ context }) =>
        new AuthorizationError(
          'retry_limit',
          `The server still refuses access after ${context.authorizations} authorization attempt(s)` +
            (context.challenge?.scope ? ` (it asks for scope "${context.challenge.scope.join(' ')}")` : '') +
            '; gave up instead of asking again. Check that your account may use these scopes, then reconnect.',
          { attempts: context.authorizations, ...(context.challenge?.scope && { scope: context.challenge.scope }) },
        ),
    }),
    stepUpRefused: assign({
      error: ({ context }) =>
        new AuthorizationError(
          'insufficient_scope',
          `The server refuses the token for lacking scope "${(context.challenge?.scope ?? []).join(' ')}", which it was already granted; ` +
            'a new authorization would ask for the same scopes again, so none was started. The server may not let this account use the operation.',
          { scope: context.challenge?.scope ?? [], grantedScopes: context.grantedScopes ?? [] },
        ),
    }),
    selectScopes: assign({
      requestedScopes: ({ context }) =>
        selectScopes({
          challenged: context.challenge?.scope,
          protectedResourceScopes: context.discovery?.protectedResource?.scopes_supported,
          authorizationServerScopes: context.discovery?.authorizationServer.scopes_supported,
          authorizationServerGrantTypes: context.discovery?.authorizationServer.grant_types_supported,
          // A step-up keeps what was already asked for.
          ...(context.challenge?.status === 403 && { previous: context.requestedScopes ?? context.grantedScopes }),
          offlineAccess: context.offlineAccess,
        }),
    }),
    countAuthorization: assign({ authorizations: ({ context }) => context.authorizations + 1 }),
    markRefreshTried: assign({ refreshTried: true }),
    resetAttempts: assign({ authorizations: 0, refreshTried: false, error: undefined }),
    assignDiscovery: assign({ discovery: ({ context, event }) => (event.type === 'DISCOVERED' ? event.discovery : context.discovery) }),
    assignClientId: assign({ clientId: ({ context, event }) => (event.type === 'REGISTERED' ? event.clientId : context.clientId) }),
    assignGrant: assign({
      grantedScopes: ({ context, event }) => (event.type === 'GRANTED' ? (event.grant.scopes ?? context.requestedScopes) : context.grantedScopes),
      hasRefreshToken: ({ context, event }) => (event.type === 'GRANTED' ? event.grant.hasRefreshToken : context.hasRefreshToken),
      refreshTried: false,
    }),
    assignRefreshGrant: assign({
      grantedScopes: ({ context, event }) => (event.type === 'GRANTED' ? (event.grant.scopes ?? context.grantedScopes) : context.grantedScopes),
      hasRefreshToken: ({ context, event }) => (event.type === 'GRANTED' ? event.grant.hasRefreshToken : context.hasRefreshToken),
    }),
    dropRefreshToken: assign({ hasRefreshToken: false }),
    recordError: assign({
      error: ({ event }) => asAuthorizationError(event.type === 'STEP_FAILED' ? event.error : undefined),
    }),
  },
  guards: {
    authorizationsLeft: ({ context }) => context.authorizations < context.maxAuthorizations,
    /**
     * A 403 asking only for scopes the current token was already granted: stepping up would ask
     * for the same set and get the same refusal (MCP: track scope upgrade attempts).
     */
    stepUpCannotHelp: ({ context, event }) => {
      if (event.type !== 'INSUFFICIENT_SCOPE' || context.grantedScopes === undefined) return false;
      const challenged = resourceChallenge(event.wwwAuthenticate)?.scope ?? [];
      return challenged.length > 0 && challenged.every((s) => context.grantedScopes!.includes(s));
    },
    canRefresh: ({ context }) => context.hasRefreshToken && !context.refreshTried,
    startsWithToken: ({ context }) => context.startsWithToken,
    grantFlow: ({ context }) => context.flow === 'grant',
    /** A grant-flow client that already knows its authorization server gets a fresh token directly. */
    grantFlowDiscovered: ({ context }) => context.flow === 'grant' && context.discovery !== undefined,
    canGrantAgain: ({ context }) => context.flow === 'grant' && context.discovery !== undefined && context.authorizations < context.maxAuthorizations,
  },
}).createMachine({
  id: 'oauthClient',
  context: ({ input }) => ({
    flow: input.flow ?? 'authorization_code',
    maxAuthorizations: input.maxAuthorizations ?? DEFAULT_MAX_AUTHORIZATIONS,
    startsWithToken: input.hasTokens ?? false,
    authorizations: 0,
    offlineAccess: input.offlineAccess ?? true,
    challenge: undefined,
    discovery: undefined,
    clientId: undefined,
    requestedScopes: undefined,
    grantedScopes: undefined,
    hasRefreshToken: input.hasRefreshToken ?? false,
    refreshTried: false,
    error: undefined,
  }),
  initial: 'starting',
  states: {
    starting: {
      description: 'Stored tokens decide where the client starts.',
      always: [{ guard: 'startsWithToken', target: 'authorized' }, { target: 'idle' }],
    },
    idle: {
      description: 'No access token: requests go without one until the server asks for it.',
      on: {
        UNAUTHORIZED: [
          { guard: 'authorizationsLeft', target: 'discovering', actions: 'recordChallenge' },
          { target: 'failed', actions: ['recordChallenge', 'retryLimitReached'] },
        ],
        INSUFFICIENT_SCOPE: [
          { guard: 'authorizationsLeft', target: 'discovering', actions: 'recordChallenge' },
          { target: 'failed', actions: ['recordChallenge', 'retryLimitReached'] },
        ],
        SUCCEEDED: { actions: 'resetAttempts' },
      },
    },
    authorized: {
      description: 'An access token is held and sent as `Authorization: Bearer` on every request.',
      on: {
        SUCCEEDED: { actions: 'resetAttempts' },
        TOKEN_EXPIRED: [
          { guard: 'canRefresh', target: 'refreshing' },
          { guard: 'canGrantAgain', target: 'granting' },
        ],
        UNAUTHORIZED: [
          { guard: 'canRefresh', target: 'refreshing', actions: 'recordChallenge' },
          { guard: 'authorizationsLeft', target: 'discovering', actions: 'recordChallenge' },
          { target: 'failed', actions: ['recordChallenge', 'retryLimitReached'] },
        ],
        INSUFFICIENT_SCOPE: [
          // The token stays good for what it allows: only this request fails, with `error`.
          { guard: 'stepUpCannotHelp', actions: ['recordChallenge', 'stepUpRefused'] },
          { guard: 'authorizationsLeft', target: 'discovering', actions: 'recordChallenge' },
          { target: 'failed', actions: ['recordChallenge', 'retryLimitReached'] },
        ],
      },
    },
    discovering: {
      description: 'Fetching the protected resource metadata and the authorization server metadata.',
      entry: 'discover',
      on: {
        DISCOVERED: [
          { guard: 'grantFlow', target: 'granting', actions: 'assignDiscovery' },
          { target: 'registering', actions: 'assignDiscovery' },
        ],
        STEP_FAILED: { target: 'failed', actions: 'recordError' },
      },
    },
    registering: {
      description: 'Getting a client id: stored or pre-registered, a client ID metadata document, or dynamic registration.',
      entry: 'register',
      on: {
        REGISTERED: { target: 'authorizing', actions: 'assignClientId' },
        STEP_FAILED: { target: 'failed', actions: 'recordError' },
      },
    },
    authorizing: {
      description: 'The authorization request (PKCE S256, state, resource, scope); waiting for the code.',
      entry: ['selectScopes', 'countAuthorization', 'authorize'],
      on: {
        CODE_RECEIVED: { target: 'exchanging' },
        STEP_FAILED: { target: 'failed', actions: 'recordError' },
      },
    },
    exchanging: {
      description: 'Exchanging the code (with the PKCE verifier and resource) for tokens.',
      entry: 'exchange',
      on: {
        GRANTED: { target: 'authorized', actions: 'assignGrant' },
        STEP_FAILED: { target: 'failed', actions: 'recordError' },
      },
    },
    granting: {
      description: 'No user: one token request with the configured client authentication (client credentials, or an assertion such as an ID-JAG), with resource and scope.',
      entry: ['selectScopes', 'countAuthorization', 'grant'],
      on: {
        GRANTED: { target: 'authorized', actions: 'assignGrant' },
        STEP_FAILED: { target: 'failed', actions: 'recordError' },
      },
    },
    refreshing: {
      description: 'Using the refresh token before running the whole flow again.',
      entry: ['markRefreshTried', 'refresh'],
      on: {
        GRANTED: { target: 'authorized', actions: 'assignRefreshGrant' },
        STEP_FAILED: [
          { guard: 'authorizationsLeft', target: 'discovering', actions: 'dropRefreshToken' },
          { target: 'failed', actions: ['recordError', 'retryLimitReached'] },
        ],
      },
    },
    failed: {
      description:
        'The flow failed (`error` says why). Another 401 or 403 starts again while attempts remain; a refresh token still held is tried first, and the expiry of the token held starts the count again, so a refused request does not strand the client.',
      on: {
        RESET: { target: 'idle', actions: 'resetAttempts' },
        SUCCEEDED: { actions: 'resetAttempts' },
        // The token held expired: the refusals counted were about other tokens, so the count starts
        // again (a refresh, a new grant, or a new authorization on the next 401).
        TOKEN_EXPIRED: [
          { guard: 'canRefresh', target: 'refreshing' },
          { guard: 'grantFlowDiscovered', target: 'granting', actions: 'resetAttempts' },
          { actions: 'resetAttempts' },
        ],
        UNAUTHORIZED: [
          { guard: 'canRefresh', target: 'refreshing', actions: 'recordChallenge' },
          { guard: 'authorizationsLeft', target: 'discovering', actions: 'recordChallenge' },
          { target: 'failed', reenter: true, actions: ['recordChallenge', 'retryLimitReached'] },
        ],
        INSUFFICIENT_SCOPE: [
          { guard: 'stepUpCannotHelp', target: 'failed', reenter: true, actions: ['recordChallenge', 'stepUpRefused'] },
          { guard: 'authorizationsLeft', target: 'discovering', actions: 'recordChallenge' },
          { target: 'failed', reenter: true, actions: ['recordChallenge', 'retryLimitReached'] },
        ],
      },
    },
  },
});
