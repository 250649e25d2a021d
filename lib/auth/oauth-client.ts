/**
 * Runs `oauthClientMachine` for one MCP server: provides its I/O (discovery, registration, the
 * authorization request through the provider, the token endpoint; or, for a provider that acts
 * without a user, its grant request) and puts the token on HTTP requests. {@link OAuthClient.wrapFetch} gives the transports a fetch that sends
 * `Authorization: Bearer` on every request, answers a 401 by running the flow (or refreshing)
 * and a 403 `insufficient_scope` by stepping up, then sends the request again.
 *
 * Secrets stay here and in the provider: the machine's context holds no token, and no message
 * or error names one. The PKCE verifier and the `state` of the authorization in progress live
 * only in this object's memory.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#access-token-usage
 */
import { randomBytes } from 'node:crypto';
import { createActor, type Actor, type SnapshotFrom } from 'xstate';
import { systemClock, type Clock } from '../clock.js';
import { oauthClientMachine, type OAuthClientContext, type OAuthClientEvent, type TokenGrantSummary } from '../../machines/oauth-client.machine.js';
import { undiciFetch, type FetchLike } from '../../streams/http-fetch.js';
import { resourceCovers } from './canonical-resource.js';
import { resolveClient } from './client-registration.js';
import { discoverAuthorization, type AuthorizationDiscovery } from './discovery.js';
import { DpopProver, isResourceNonceChallenge, useDpopWith, type DpopMode } from './dpop.js';
import { AuthorizationError } from './authorization-errors.js';
import { isGrantProvider, type OAuthGrantProvider } from './grant-provider.js';
import { createPkce, requireS256 } from './pkce.js';
import type { OAuthClientInformation, OAuthClientProvider, StoredTokens } from './provider.js';
import { isSecureOAuthUrl, requireSecureRedirectUrl } from './secure-endpoint.js';
import { exchangeAuthorizationCode, refreshAccessToken, type OAuthTokens } from './token-endpoint.js';
import { parseWwwAuthenticate, resourceChallenge } from './www-authenticate.js';

export interface OAuthClientOptions {
  /** The MCP server's URL. */
  serverUrl: string | URL;
  /** A user's authorization (authorization-code flow), or a grant without a user (client credentials, cross-app access). */
  provider: OAuthClientProvider | OAuthGrantProvider;
  /** For metadata, registration and token requests (and the MCP requests of {@link OAuthClient.wrapFetch} by default). */
  fetch?: FetchLike;
  /** Decides when an access token has expired. */
  clock?: Clock;
  /** Authorization (or grant) requests allowed between two successful requests (default 3). */
  maxAuthorizations?: number;
  /** Refresh (or, without a user, get a new token) this long before the token's expiry, in ms (default 10 000). */
  refreshSkewMs?: number;
  /** Picks one of several authorization servers (RFC 9728 §7.6). Default: the first. */
  selectAuthorizationServer?: (servers: string[]) => string;
  /**
   * DPoP-bound tokens (RFC 9449, MCP's DPoP extension): `auto` (default) when the authorization
   * server's metadata lists ES256 in `dpop_signing_alg_values_supported`, `always`, or `off`
   * (Bearer tokens only; a server that accepts only DPoP is then an {@link AuthorizationError}
   * `dpop_unsupported`).
   */
  dpop?: DpopMode;
  /** The DPoP key to use (one is made for this client when needed). Share one to keep tokens usable across clients. */
  dpopProver?: DpopProver;
}

type OAuthActor = Actor<typeof oauthClientMachine>;
export type OAuthClientSnapshot = SnapshotFrom<typeof oauthClientMachine>;

const SETTLED = new Set(['idle', 'authorized', 'failed']);

/** What a transport's `auth` option takes: a provider of either kind, or an {@link OAuthClient} made from one. */
export type HttpClientAuth = OAuthClientProvider | OAuthGrantProvider | OAuthClient;

/** The OAuth client of one MCP server. Give it (or its provider) to a transport as `auth`. */
export class OAuthClient {
  readonly serverUrl: URL;
  readonly provider: OAuthClientProvider | OAuthGrantProvider;
  private readonly fetch: FetchLike;
  private readonly clock: Clock;
  private readonly options: OAuthClientOptions;
  private actor: OAuthActor | undefined;
  private starting: Promise<OAuthActor> | undefined;
  /**
   * The client credentials in use and the authorization server they belong to (they may hold a
   * secret: never in the machine). Credentials of one server are never sent to another.
   */
  private client: { issuer: string; info: OAuthClientInformation } | undefined;
  private lastDiscovery: AuthorizationDiscovery | undefined;
  /**
   * The authorization request in progress: its `state`, PKCE verifier and client id, and the
   * issuer of the validated metadata it was sent to (RFC 9207: the response's `iss` must be it).
   */
  private pending: { state: string; verifier: string; clientId: string; issuer: string } | undefined;
  /** The code of that request, once it came back, until it is exchanged. */
  private receivedCode: string | undefined;
  /** This client's DPoP key, from the first token request that uses DPoP on. */
  private prover: DpopProver | undefined;

  constructor(options: OAuthClientOptions) {
    this.options = options;
    this.serverUrl = new URL(options.serverUrl);
    this.provider = options.provider;
    this.fetch = options.fetch ?? undiciFetch;
    this.clock = options.clock ?? systemClock;
    this.prover = options.dpopProver;
  }

  /** The machine's current snapshot (undefined before the first request). */
  get snapshot(): OAuthClientSnapshot | undefined {
    return this.actor?.getSnapshot();
  }

  /** The last discovery result (metadata and resource), once the flow ran. */
  get discovery(): AuthorizationDiscovery | undefined {
    return this.lastDiscovery;
  }

  /** Called with every machine snapshot. Returns an unsubscribe function. */
  async subscribe(listener: (snapshot: OAuthClientSnapshot) => void): Promise<() => void> {
    const actor = await this.started();
    const sub = actor.subscribe(listener);
    return () => sub.unsubscribe();
  }

  /**
   * A fetch that authorizes every request to the MCP server: Bearer token in the header (never in
   * the URL), a 401 answered by refreshing or by the authorization flow, a 403
   * `insufficient_scope` by a step-up, then the same request again. Throws
   * {@link AuthorizationError} when no token can be had.
   */
  wrapFetch(inner: FetchLike = this.fetch): FetchLike {
    return async (input, init = {}) => {
      // Each round either follows a flow that counted an authorization, or a newer token: bounded.
      const maxRounds = 2 * (this.options.maxAuthorizations ?? 3) + 3;
      for (let round = 0; ; round++) {
        const token = await this.tokensToSend();
        let res = await this.sendWith(inner, input, init, token);
        // RFC 9449 §9: a resource server's use_dpop_nonce is answered once, with its nonce.
        if (token?.prover && isResourceNonceChallenge(res)) {
          await res.body?.cancel().catch(() => {});
          res = await this.sendWith(inner, input, init, token);
        }
        const kind = challengeKind(res);
        if (kind === undefined) {
          if (token !== undefined && res.status < 400) this.actor?.send({ type: 'SUCCEEDED' });
          return res;
        }
        // Ending a session is best effort: no user interaction for a DELETE.
        if (round >= maxRounds || init.method === 'DELETE') return res;
        const header = res.headers.get('www-authenticate');
        await res.body?.cancel().catch(() => {});
        // A server that takes DPoP-bound tokens only, and a client that cannot get one: no use
        // running the flow again (it would end in retry_limit with the same Bearer token).
        if (kind === 'unauthorized' && requiresDpop(header) && (this.options.dpop === 'off' || (token !== undefined && !token.prover))) {
          const where = `${this.serverUrl.origin}${this.serverUrl.pathname}`;
          throw new AuthorizationError(
            'dpop_unsupported',
            this.options.dpop === 'off'
              ? `The MCP server ${where} accepts DPoP-bound tokens only, and DPoP is off for this client. Set the dpop option to 'auto'.`
              : `The MCP server ${where} accepts DPoP-bound tokens only, and its authorization server issued a Bearer token ` +
                  "(it does not list ES256 in dpop_signing_alg_values_supported; dpop: 'always' sends proofs anyway).",
            { serverUrl: where },
          );
        }
        await this.handleChallenge(kind, header, token?.accessToken);
      }
    };
  }

  /** One attempt of a request: the token in the header, as DPoP with a fresh proof when it is DPoP-bound. */
  private async sendWith(inner: FetchLike, input: string | URL, init: RequestInit, token: TokenToSend | undefined): Promise<Response> {
    const headers = new Headers(init.headers);
    if (token?.prover) {
      headers.set('authorization', `DPoP ${token.accessToken}`);
      headers.set('dpop', token.prover.proof({ method: init.method ?? 'GET', url: input, accessToken: token.accessToken, nowSeconds: Math.floor(this.clock.now() / 1000) }));
    } else if (token !== undefined) {
      headers.set('authorization', `Bearer ${token.accessToken}`);
    }
    const res = await inner(input, { ...init, headers });
    token?.prover?.rememberNonce(input, res);
    return res;
  }

  /** The access token to send now (refreshed first when the clock says it expired), if any. */
  async accessToken(): Promise<string | undefined> {
    return (await this.tokensToSend())?.accessToken;
  }

  /** The access token to send now, with the DPoP key it is bound to when it is DPoP-bound. */
  private async tokensToSend(): Promise<TokenToSend | undefined> {
    const actor = await this.started();
    await settled(actor);
    let tokens = await this.usableTokens();
    if (tokens?.expiresAt !== undefined && this.clock.now() >= tokens.expiresAt - (this.options.refreshSkewMs ?? 10_000)) {
      // After a failed flow (a request that hit the retry limit, say) the expiry is news too: the
      // machine refreshes, gets a new grant, or at least lets the next 401 start a flow again.
      const state = actor.getSnapshot().value;
      const renewable = state === 'failed' || (state === 'authorized' && (tokens.refresh_token !== undefined || isGrantProvider(this.provider)));
      if (renewable) {
        actor.send({ type: 'TOKEN_EXPIRED' });
        const after = await settled(actor);
        // Without a user a failed grant is final for this request: its error, not a stale token.
        if (after.value === 'failed' && isGrantProvider(this.provider) && after.context.error !== undefined) throw after.context.error;
        tokens = await this.usableTokens();
      }
    }
    if (tokens === undefined) return undefined;
    const bound = tokens.token_type?.toLowerCase() === 'dpop';
    return { accessToken: tokens.access_token, ...(bound && this.prover && { prover: this.prover }) };
  }

  /** The DPoP key for requests to this authorization server, or undefined for Bearer tokens. */
  private dpopFor(discovery: AuthorizationDiscovery): DpopProver | undefined {
    if (!useDpopWith(this.options.dpop ?? 'auto', discovery.authorizationServer)) return undefined;
    this.prover ??= new DpopProver();
    return this.prover;
  }

  /**
   * A request sent with `usedToken` got a 401 or a 403 `insufficient_scope`: get a better token.
   * Resolves when the request should be sent again; throws {@link AuthorizationError} otherwise.
   */
  async handleChallenge(kind: 'unauthorized' | 'insufficient_scope', wwwAuthenticate: string | null, usedToken: string | undefined): Promise<void> {
    const actor = await this.started();
    await settled(actor);
    const current = (await this.usableTokens())?.access_token;
    if (current !== undefined && current !== usedToken) return; // another request already got a newer token
    actor.send({ type: kind === 'unauthorized' ? 'UNAUTHORIZED' : 'INSUFFICIENT_SCOPE', wwwAuthenticate });
    const snapshot = await settled(actor);
    // A step-up that cannot help leaves the token in place (`authorized`) and fails this request only.
    const refusedStepUp = kind === 'insufficient_scope' && snapshot.value === 'authorized' && snapshot.context.error?.code === 'insufficient_scope';
    if (snapshot.value === 'failed' || refusedStepUp) {
      throw snapshot.context.error ?? new AuthorizationError('provider_failed', 'The authorization flow failed.');
    }
  }

  /** Forget a failure and the attempts counted (after the user fixed something). */
  reset(): void {
    this.actor?.send({ type: 'RESET' });
  }

  // ---------------------------------------------------------------- the machine's I/O

  private started(): Promise<OAuthActor> {
    if (this.actor) return Promise.resolve(this.actor);
    // A bearer token over plain http to another host could be read on the way (OAuth 2.1 §1.5):
    // refused before any token is looked up, requested or sent.
    if (!isSecureOAuthUrl(this.serverUrl)) {
      return Promise.reject(
        new AuthorizationError(
          'insecure_endpoint',
          `The MCP server ${this.serverUrl.origin}${this.serverUrl.pathname} is not an https URL; no access token is requested for it or sent to it. ` +
            'Connect to its https URL; plain http is accepted only on localhost, 127.0.0.1 and [::1].',
          { serverUrl: `${this.serverUrl.origin}${this.serverUrl.pathname}` },
        ),
      );
    }
    this.starting ??= (async () => {
      const tokens = await this.usableTokens();
      // Each effect starts its I/O and answers the machine with an event when it is done.
      const step =
        (work: (context: OAuthClientContext) => Promise<OAuthClientEvent>) =>
        ({ context }: { context: OAuthClientContext }) => {
          void work(context).then(
            (event) => this.actor?.send(event),
            (error: unknown) => this.actor?.send({ type: 'STEP_FAILED', error }),
          );
        };
      const actor = createActor(
        oauthClientMachine.provide({
          actions: {
            discover: step(async (c) => ({ type: 'DISCOVERED', discovery: await this.discover(c.challenge) })),
            register: step(async (c) => ({ type: 'REGISTERED', clientId: await this.register(c.discovery!) })),
            authorize: step(async (c) => {
              // The code stays here, beside the verifier: never in the machine's context or events.
              this.receivedCode = await this.authorize(c.discovery!, c.clientId!, c.requestedScopes);
              return { type: 'CODE_RECEIVED' };
            }),
            exchange: step(async (c) => {
              const code = this.receivedCode;
              this.receivedCode = undefined;
              return { type: 'GRANTED', grant: await this.exchange(c.discovery!, code ?? '', c.requestedScopes) };
            }),
            grant: step(async (c) => ({ type: 'GRANTED', grant: await this.grant(c.discovery!, c.requestedScopes) })),
            refresh: step(async (c) => ({ type: 'GRANTED', grant: await this.refresh(c.discovery, c.challenge) })),
          },
        }),
        {
          input: isGrantProvider(this.provider)
            ? {
                flow: 'grant',
                ...(this.options.maxAuthorizations !== undefined && { maxAuthorizations: this.options.maxAuthorizations }),
                hasTokens: tokens !== undefined,
                // A new grant replaces a token: no refresh tokens, no offline_access.
                hasRefreshToken: false,
                offlineAccess: false,
              }
            : {
                ...(this.options.maxAuthorizations !== undefined && { maxAuthorizations: this.options.maxAuthorizations }),
                hasTokens: tokens !== undefined,
                hasRefreshToken: tokens?.refresh_token !== undefined,
                offlineAccess: this.provider.requestOfflineAccess ?? true,
              },
        },
      );
      actor.start();
      this.actor = actor;
      return actor;
    })();
    return this.starting;
  }

  /** Stored tokens, unless they were issued for another resource (never sent to a server they are not for). */
  private async usableTokens(): Promise<StoredTokens | undefined> {
    const tokens = await this.provider.tokens();
    if (!tokens) return undefined;
    if (tokens.resource !== undefined && !resourceCovers(tokens.resource, this.serverUrl)) return undefined;
    // A DPoP-bound token is useless without its key (stored by another process, say).
    if (tokens.token_type?.toLowerCase() === 'dpop' && this.prover === undefined) return undefined;
    return tokens;
  }

  private async discover(challenge: OAuthClientContext['challenge']): Promise<AuthorizationDiscovery> {
    const discovery = await discoverAuthorization(this.serverUrl, {
      fetch: this.fetch,
      wwwAuthenticate: challenge?.header ?? null,
      ...(this.options.selectAuthorizationServer && { selectAuthorizationServer: this.options.selectAuthorizationServer }),
    });
    this.lastDiscovery = discovery;
    return discovery;
  }

  /** The provider of the authorization-code flow (the machine runs its steps only for one). */
  private get userProvider(): OAuthClientProvider {
    if (isGrantProvider(this.provider)) throw new AuthorizationError('provider_failed', 'A grant provider has no authorization step.');
    return this.provider;
  }

  private async register(discovery: AuthorizationDiscovery): Promise<string> {
    if (discovery.authorizationServer.authorization_endpoint === undefined) {
      throw new AuthorizationError(
        'discovery_failed',
        `The authorization server ${discovery.authorizationServer.issuer} has no authorization endpoint: it serves clients without a user only. ` +
          'Use createClientCredentialsProvider (or another mode without a user) as the transport\'s auth.',
        { issuer: discovery.authorizationServer.issuer },
      );
    }
    // No authorization request (and no registration) with a server that cannot do PKCE S256.
    requireS256(discovery.authorizationServer);
    // A provider other than ours may not have checked its redirect URL (ours does at construction).
    try {
      requireSecureRedirectUrl(this.userProvider.redirectUrl);
    } catch (e) {
      throw new AuthorizationError('insecure_endpoint', (e as Error).message);
    }
    const { client } = await resolveClient({
      provider: this.userProvider,
      issuer: discovery.authorizationServerUrl,
      metadata: discovery.authorizationServer,
      fetch: this.fetch,
    });
    this.client = { issuer: discovery.authorizationServerUrl, info: client };
    return client.client_id;
  }

  private async authorize(discovery: AuthorizationDiscovery, clientId: string, scopes: string[] | undefined): Promise<string> {
    const pkce = createPkce();
    const state = randomBytes(24).toString('base64url');
    const url = new URL(discovery.authorizationServer.authorization_endpoint!); // checked in `register`
    const params = url.searchParams;
    params.set('response_type', 'code');
    params.set('client_id', clientId);
    params.set('redirect_uri', this.userProvider.redirectUrl);
    params.set('code_challenge', pkce.challenge);
    params.set('code_challenge_method', pkce.method);
    params.set('state', state);
    params.set('resource', discovery.resource);
    if (scopes && scopes.length > 0) params.set('scope', scopes.join(' '));
    // Recorded before the user agent leaves, with the verifier: what the response is checked against.
    this.pending = { state, verifier: pkce.verifier, clientId, issuer: discovery.authorizationServer.issuer };
    const issuer = this.pending.issuer;

    let callback: URL;
    try {
      callback = await this.userProvider.authorize(url);
    } catch (e) {
      this.pending = undefined;
      if (e instanceof AuthorizationError) throw e;
      throw new AuthorizationError('provider_failed', `The provider's authorize step failed: ${e instanceof Error ? e.message : String(e)}.`);
    }
    const answer = callback.searchParams;
    // Anything that does not come back with our state is discarded, error or code alike.
    if (answer.get('state') !== state) {
      this.pending = undefined;
      throw new AuthorizationError(
        'state_mismatch',
        `The authorization response ${answer.has('state') ? 'carries another state' : 'has no state'} than the request sent; it was discarded ` +
          '(it may be forged or belong to another attempt). Try to connect again.',
      );
    }
    // RFC 9207 (2026-07-28): a present iss must equal the recorded issuer exactly (no
    // normalization); when the server advertises iss, an answer without it is discarded too.
    // On a mismatch nothing of the response is used or shown: not its code, not its error.
    const iss = answer.get('iss');
    if (iss !== null && iss !== issuer) {
      this.pending = undefined;
      // The foreign iss is the sender's text: shown short, and nothing else of the response.
      throw new AuthorizationError(
        'issuer_mismatch',
        `The authorization response comes from issuer ${JSON.stringify(iss.slice(0, 200))}, not ${JSON.stringify(issuer)}; it was discarded ` +
          '(it may come from another authorization server: a mix-up attack). Try to connect again.',
      );
    }
    if (iss === null && (discovery.authorizationServer as { authorization_response_iss_parameter_supported?: unknown }).authorization_response_iss_parameter_supported === true) {
      this.pending = undefined;
      throw new AuthorizationError('issuer_mismatch', `The authorization server ${JSON.stringify(issuer)} advertises the iss parameter, but its authorization response has none; discarded.`);
    }
    const error = answer.get('error');
    const code = answer.get('code');
    if (error !== null || code === null || code === '') {
      this.pending = undefined;
      const description = answer.get('error_description');
      throw new AuthorizationError(
        'authorization_denied',
        error !== null
          ? `The authorization server refused the authorization request: ${error.slice(0, 100)}${description ? ` (${description.slice(0, 300)})` : ''}.`
          : 'The authorization response carries no code.',
        { ...(error !== null && { oauthError: error.slice(0, 100) }) },
      );
    }
    return code;
  }

  private async exchange(discovery: AuthorizationDiscovery, code: string, scopes: string[] | undefined): Promise<TokenGrantSummary> {
    const pending = this.pending;
    this.pending = undefined;
    if (!pending || !this.client || this.client.issuer !== discovery.authorizationServerUrl) {
      throw new AuthorizationError('provider_failed', 'No authorization request is in progress to exchange a code for.');
    }
    const tokens = await exchangeAuthorizationCode({
      metadata: discovery.authorizationServer,
      client: this.client.info,
      code,
      codeVerifier: pending.verifier,
      redirectUri: this.userProvider.redirectUrl,
      resource: discovery.resource,
      fetch: this.fetch,
      ...withDpop(this.dpopFor(discovery)),
      now: this.clock.now(),
    }).catch(async (e: unknown) => {
      if (e instanceof AuthorizationError && e.details.oauthError === 'invalid_client') {
        await this.provider.invalidate('client', discovery.authorizationServerUrl);
      }
      throw e;
    });
    await this.save(tokens, discovery, undefined);
    return summary(tokens, scopes);
  }

  private async refresh(known: AuthorizationDiscovery | undefined, challenge: OAuthClientContext['challenge']): Promise<TokenGrantSummary> {
    const stored = await this.usableTokens();
    if (!stored?.refresh_token) throw new AuthorizationError('token_request_failed', 'No refresh token is stored.');
    const discovery = known ?? this.lastDiscovery ?? (await this.discover(challenge));
    const issuer = discovery.authorizationServerUrl;
    // A refresh token goes only to the server that issued it: after a move to another
    // authorization server, the whole flow runs there (and the client registers there).
    if (stored.issuer !== undefined && stored.issuer !== discovery.authorizationServer.issuer) {
      await this.provider.invalidate('tokens');
      throw new AuthorizationError(
        'token_request_failed',
        `The stored refresh token was issued by ${stored.issuer}; the server now uses ${discovery.authorizationServer.issuer}, so it is not sent there.`,
      );
    }
    const client = this.client?.issuer === issuer ? this.client.info : await this.userProvider.clientInformation(issuer);
    if (!client) throw new AuthorizationError('registration_unavailable', 'No client credentials to refresh the token with.');
    this.client = { issuer, info: client };
    try {
      const tokens = await refreshAccessToken({
        metadata: discovery.authorizationServer,
        client,
        refreshToken: stored.refresh_token,
        resource: discovery.resource,
        fetch: this.fetch,
        ...withDpop(this.dpopFor(discovery)),
        now: this.clock.now(),
      });
      await this.save(tokens, discovery, stored.refresh_token);
      // Without a new refresh token the old one stays valid and stored (OAuth 2.1 §4.3.3).
      return { ...summary(tokens, undefined), hasRefreshToken: true };
    } catch (e) {
      // A refused refresh token is useless: the next attempt runs the whole flow.
      await this.provider.invalidate('tokens');
      throw e;
    }
  }

  /** The grant of a provider without a user, in place of the authorization request and the code exchange. */
  private async grant(discovery: AuthorizationDiscovery, scopes: string[] | undefined): Promise<TokenGrantSummary> {
    const provider = this.provider as OAuthGrantProvider;
    const { refresh_token: _unused, ...tokens } = await provider.requestGrant({ discovery, scopes, fetch: this.fetch, now: this.clock.now(), ...withDpop(this.dpopFor(discovery)) });
    await this.save(tokens, discovery, undefined);
    return summary(tokens, scopes);
  }

  private async save(tokens: OAuthTokens, discovery: AuthorizationDiscovery, previousRefreshToken: string | undefined): Promise<void> {
    const stored: StoredTokens = {
      ...tokens,
      resource: discovery.resource,
      issuer: discovery.authorizationServer.issuer,
      ...(typeof tokens.expires_in === 'number' && { expiresAt: this.clock.now() + tokens.expires_in * 1000 }),
      // A refresh answer without a new refresh token keeps the old one (OAuth 2.1 §4.3.3).
      ...(tokens.refresh_token === undefined && previousRefreshToken !== undefined && { refresh_token: previousRefreshToken }),
    };
    await this.provider.saveTokens(stored);
  }
}

function summary(tokens: OAuthTokens, requested: string[] | undefined): TokenGrantSummary {
  const scopes = typeof tokens.scope === 'string' ? tokens.scope.split(' ').filter(Boolean) : requested;
  return { scopes, hasRefreshToken: typeof tokens.refresh_token === 'string' };
}

/** 401, or 403 with a Bearer (or DPoP) `insufficient_scope` challenge: something a new token may fix. */
function challengeKind(res: Response): 'unauthorized' | 'insufficient_scope' | undefined {
  if (res.status === 401) return 'unauthorized';
  if (res.status === 403 && resourceChallenge(res.headers.get('www-authenticate'))?.error === 'insufficient_scope') return 'insufficient_scope';
  return undefined;
}

/** A challenge in the DPoP scheme and none in Bearer: the server takes DPoP-bound tokens only. */
function requiresDpop(header: string | null): boolean {
  if (header === null) return false;
  const schemes = parseWwwAuthenticate(header).map((c) => c.scheme);
  return schemes.includes('dpop') && !schemes.includes('bearer');
}

/** What a request presents: the access token, and the DPoP key when the token is bound to one. */
interface TokenToSend {
  accessToken: string;
  prover?: DpopProver;
}

function withDpop(prover: DpopProver | undefined): { dpop?: DpopProver } {
  return prover ? { dpop: prover } : {};
}

/** Resolves with the first snapshot in which the machine is not in the middle of a flow. */
function settled(actor: OAuthActor): Promise<OAuthClientSnapshot> {
  const now = actor.getSnapshot();
  if (SETTLED.has(now.value as string)) return Promise.resolve(now);
  return new Promise((resolve) => {
    const sub = actor.subscribe((s) => {
      if (!SETTLED.has(s.value as string)) return;
      sub.unsubscribe();
      resolve(s);
    });
  });
}

/** An {@link OAuthClient} for `auth` given as a provider or as a client. */
export function oauthClientFor(auth: HttpClientAuth, serverUrl: URL, fetch: FetchLike, clock?: Clock): OAuthClient {
  if (auth instanceof OAuthClient) return auth;
  return new OAuthClient({ serverUrl, provider: auth, fetch, ...(clock && { clock }) });
}
