/**
 * An OAuth 2.1 authorization server for MCP servers, on `oidc-provider` (a certified OpenID
 * Provider; an optional peer dependency, loaded only here): RFC 8414 metadata, dynamic client
 * registration (RFC 7591) and client ID metadata documents, PKCE S256 only, resource indicators
 * (RFC 8707) with audience-bound JWT access tokens for the MCP servers it serves, refresh tokens
 * rotated on use, `iss` in authorization responses (RFC 9207), sign-in and consent pages, and a
 * pluggable account store. `verifier(resource)` checks its tokens for `requireBearerAuth` with the
 * server's own keys (no network).
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization
 */
import { createPublicKey, generateKeyPairSync, randomBytes, randomUUID, verify as verifySignature } from 'node:crypto';

/** A public JWK (our own type: @types/node 24+ no longer exports one from node:crypto). */
type NodeJwk = Record<string, string | undefined>;
import type { IncomingMessage, ServerResponse } from 'node:http';
import { InvalidTokenError, type VerifiedToken, type VerifyAccessToken } from '../server/auth-info.js';
import type { AccountStore } from './accounts.js';
import { memoryAdapter } from './memory-adapter.js';
import { consentPage, loginPage } from './pages.js';
import { upstreamSignIn, type UpstreamProvider } from './upstream.js';

/** An MCP server the authorization server issues tokens for, and the scopes it knows. */
export interface ProtectedResource {
  /** Its canonical URI (the `resource` clients ask for, the tokens' audience). */
  uri: string;
  /** The scopes it knows (default `['mcp']`). */
  scopes?: string[];
  /**
   * What a client that asks for no scope is given (least privilege: default the first of `scopes`
   * only, so an extra scope such as an admin one is granted only to a client that asks for it).
   * Each must be one of `scopes`.
   */
  defaultScopes?: string[];
  /**
   * `jwt` (default): signed tokens the resource server checks itself (`verifier`). `opaque`: random
   * strings only this server can read, kept in its adapter; the resource server then asks its
   * introspection endpoint (`<issuer>/token/introspection`, RFC 7662) with `introspectionVerifier`,
   * as a client registered with a secret (`clients`). An opaque token can be revoked at once.
   */
  tokenFormat?: 'jwt' | 'opaque';
}

export interface AuthorizationServerOptions {
  /** The issuer URL (`https://auth.example.com`, or `http://127.0.0.1:PORT` on loopback). */
  issuer: string;
  /** The MCP servers tokens may be issued for. A token for anything else is refused (`invalid_target`). */
  resources: Array<string | ProtectedResource>;
  /** Who may sign in (with the server's own sign-in page). Required unless `upstream` is given. */
  accounts?: AccountStore;
  /**
   * Delegate sign-in to an upstream OpenID provider instead (an identity-provider front): register
   * this server there once as a client with the redirect URI `<issuer>/upstream/callback`. The
   * accounts are then the upstream's subjects (`sub`), known to this process once signed in.
   */
  upstream?: UpstreamProvider;
  /** Pre-registered clients (oidc-provider client metadata). Dynamic registration is on unless `registration: false`. */
  clients?: Array<Record<string, unknown>>;
  /** Open dynamic client registration (RFC 7591). Default true. */
  registration?: boolean;
  /** Accept client ID metadata documents (an https URL as client_id). Default true. */
  clientIdMetadataDocuments?: boolean;
  /**
   * How the server fetches client ID metadata documents: `(url, init)`, `init` carrying
   * oidc-provider's SSRF guard (a dispatcher refusing loopback, private and other special-use
   * addresses) which a replacement should keep passing on. Default the global fetch.
   */
  fetch?: (url: string | URL, init: RequestInit) => Promise<Response>;
  /** Access token lifetime in seconds. Default 3600. */
  accessTokenTtl?: number;
  /** Record storage (see oidc-provider's adapter interface). Default: in memory. */
  adapter?: new (name: string) => object;
  /** The clock `verifier` judges expiry by (ms since the epoch). Default `Date.now`. */
  now?: () => number;
  /** Where oidc-provider's notices go. Default: dropped. */
  log?: (line: string) => void;
}

/** A running authorization server: a node request handler to mount at the issuer's origin. */
export interface AuthorizationServer {
  readonly issuer: string;
  /** Serve a request (node's `(req, res)`, Express, Fastify raw...). */
  handler(req: IncomingMessage, res: ServerResponse): void;
  /** A `verifyAccessToken` for `requireBearerAuth` on the MCP server at `resource`. */
  verifier(resource: string): VerifyAccessToken;
  /** The public keys (what `jwks_uri` serves). */
  readonly jwks: { keys: NodeJwk[] };
}

/** oidc-provider is an optional peer dependency: say how to get it when it is missing. */
async function loadProvider(): Promise<{ Provider: new (issuer: string, config: unknown) => ProviderLike; errors: Record<string, new (message?: string) => Error> }> {
  try {
    const mod = (await import('oidc-provider' as string)) as { default: new (issuer: string, config: unknown) => ProviderLike; errors: Record<string, new (message?: string) => Error> };
    return { Provider: mod.default, errors: mod.errors };
  } catch (e) {
    throw new Error(`The authorization server needs the optional dependency "oidc-provider": npm install oidc-provider (${(e as Error).message})`, { cause: e });
  }
}

/* The few parts of oidc-provider used here, typed locally so that nothing of its types leaks into ours. */
interface ProviderLike {
  callback(): (req: IncomingMessage, res: ServerResponse) => void;
  interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>;
  interactionFinished(req: IncomingMessage, res: ServerResponse, result: unknown, options?: { mergeWithLastSubmission?: boolean }): Promise<void>;
  Client: { find(id: string): Promise<{ clientId: string; clientName?: string } | undefined> };
  Grant: { new (init: { accountId: string; clientId: string }): GrantLike; find(id: string): Promise<GrantLike | undefined> };
  proxy: boolean;
  on(event: string, listener: (...args: any[]) => void): unknown;
}
interface Interaction {
  uid: string;
  prompt: { name: string; details: { missingOIDCScope?: string[]; missingOIDCClaims?: string[]; missingResourceScopes?: Record<string, string[]> } };
  params: Record<string, unknown> & { client_id: string; scope?: string; resource?: string | string[] };
  session?: { accountId: string };
  grantId?: string;
}
interface GrantLike {
  addOIDCScope(scope: string): void;
  addOIDCClaims(claims: string[]): void;
  addResourceScope(resource: string, scope: string): void;
  save(): Promise<string>;
}

function b64url(input: string): Buffer {
  return Buffer.from(input, 'base64url');
}

/** Start an authorization server (oidc-provider is loaded now). */
/** What the introspection and revocation policies read of the caller and of the token. */
type PolicyClient = { clientId: string; clientAuthMethod: string };
type PolicyToken = { clientId?: string };

function resourceOf(r: ProtectedResource): { uri: string; scopes: string[]; defaultScopes: string[]; tokenFormat: 'jwt' | 'opaque' } {
  const scopes = r.scopes?.length ? r.scopes : ['mcp'];
  const defaultScopes = r.defaultScopes ?? [scopes[0]!];
  const unknown = defaultScopes.filter((s) => !scopes.includes(s));
  if (unknown.length) throw new TypeError(`The default scopes of ${r.uri} must be among its scopes; not: ${unknown.join(', ')}`);
  return { uri: r.uri, scopes, defaultScopes, tokenFormat: r.tokenFormat === 'opaque' ? 'opaque' : 'jwt' };
}

export async function createAuthorizationServer(options: AuthorizationServerOptions): Promise<AuthorizationServer> {
  const { Provider, errors } = await loadProvider();
  const issuer = options.issuer.replace(/\/$/, '');
  // Each MCP server has at least one scope (a token must grant something): `mcp` unless given.
  const resources = new Map(
    options.resources.map((r) =>
      typeof r === 'string'
        ? [r, { uri: r, scopes: ['mcp'], defaultScopes: ['mcp'], tokenFormat: 'jwt' as const }]
        : [r.uri, resourceOf(r)],
    ),
  );
  if (resources.size === 0) throw new TypeError('An authorization server for MCP needs at least one resource (the MCP servers it issues tokens for)');
  if (options.accounts === undefined && options.upstream === undefined) throw new TypeError('An authorization server needs accounts (its own sign-in) or an upstream identity provider to delegate sign-in to');
  // Signing keys made now: ES256 for access tokens, RS256 for ID tokens (OpenID's default).
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const ecKid = randomUUID();
  const privateJwks = [
    { ...ec.privateKey.export({ format: 'jwk' }), kid: ecKid, alg: 'ES256', use: 'sig' },
    { ...rsa.privateKey.export({ format: 'jwk' }), kid: randomUUID(), alg: 'RS256', use: 'sig' },
  ];
  const publicJwks = { keys: privateJwks.map(({ d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...pub }) => pub as NodeJwk) };
  const scopes = new Set(['openid', 'offline_access', ...[...resources.values()].flatMap((r) => r.scopes)]);
  const ttl = options.accessTokenTtl ?? 3600;
  const now = options.now ?? Date.now;
  const upstream = options.upstream ? upstreamSignIn(options.upstream, `${issuer}/upstream/callback`, now) : undefined;
  // Subjects signed in upstream (their kept claims), and sign-ins back from upstream not yet finished (by interaction).
  const upstreamAccounts = new Map<string, Record<string, unknown>>();
  const upstreamDone = new Map<string, { sub: string; at: number }>();
  // Sign-in interactions whose client the person allowed before being sent upstream (MCP: a proxy
  // asks before forwarding); once signed in upstream in that same browser, the request and the
  // person who allowed it: the consent interaction that follows (another uid) is not asked again.
  const allowedBeforeUpstream = new Map<string, number>();
  const preConsented = new Map<string, number>();
  const requestKey = (d: Interaction) => `${d.params.client_id}\n${String(d.params['code_challenge'])}\n${String(d.params['state'] ?? '')}`;
  const config = {
    adapter: options.adapter ?? memoryAdapter(),
    clients: options.clients ?? [],
    jwks: { keys: privateJwks },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    scopes: [...scopes],
    claims: { openid: ['sub'] },
    pkce: { required: () => true },
    ...(options.fetch && { fetch: options.fetch }),
    // OAuth 2.1: the authorization code flow only (no implicit or hybrid responses).
    responseTypes: ['code'],
    // Refresh tokens for clients allowed to use them (MCP clients rarely ask for offline_access), rotated on every use.
    issueRefreshToken: async (_ctx: unknown, client: { grantTypeAllowed(t: string): boolean }) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    ttl: { AccessToken: ttl, IdToken: 3600, AuthorizationCode: 60, Interaction: 600, Session: 86_400, Grant: 86_400 * 14, RefreshToken: 86_400 * 14 },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    findAccount: async (_ctx: unknown, id: string) => {
      if (upstream !== undefined) {
        const claims = upstreamAccounts.get(id);
        return claims === undefined ? undefined : { accountId: id, claims: async () => ({ ...claims, sub: id }) };
      }
      const account = await options.accounts!.find(id);
      return account === undefined ? undefined : { accountId: account.id, claims: async () => ({ sub: account.id, ...account.claims }) };
    },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: options.registration !== false },
      clientIdMetadataDocument: { enabled: options.clientIdMetadataDocuments !== false, ack: 'draft-02' },
      // A token is revoked by the client it was issued to (RFC 7009 §2.1); it is introspected by a
      // client with a secret (a resource server) or by its own client (RFC 7662 §2.1).
      revocation: { enabled: true, allowedPolicy: async (_ctx: unknown, client: PolicyClient, token: PolicyToken) => token.clientId === client.clientId },
      introspection: { enabled: true, allowedPolicy: async (_ctx: unknown, client: PolicyClient, token: PolicyToken) => client.clientAuthMethod !== 'none' || token.clientId === client.clientId },
      resourceIndicators: {
        enabled: true,
        // One MCP server: a client that names none gets a token for it.
        defaultResource: () => (resources.size === 1 ? [...resources.keys()][0] : undefined),
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, indicator: string) => {
          const resource = resources.get(indicator);
          if (resource === undefined) throw new errors['InvalidTarget']!(`this authorization server issues no tokens for ${indicator}`);
          const info = { scope: resource.scopes.join(' '), audience: resource.uri, accessTokenTTL: ttl };
          return resource.tokenFormat === 'opaque' ? { ...info, accessTokenFormat: 'opaque' } : { ...info, accessTokenFormat: 'jwt', jwt: { sign: { alg: 'ES256', kid: ecKid } } };
        },
      },
    },
    renderError: async (ctx: { type: string; body: string }, out: { error: string; error_description?: string }) => {
      ctx.type = 'html';
      ctx.body = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Error</title></head><body><h1>${escapeText(out.error)}</h1><p>${escapeText(out.error_description ?? '')}</p></body></html>`;
    },
  };
  const provider = new Provider(issuer, config);
  const callback = provider.callback();
  const log = options.log ?? (() => {});
  // What happened, for the operator: event names, client ids, error codes and their descriptions;
  // never a code, token, verifier, proof or password (those stay out of every line).
  type Ctx = { oidc?: { client?: { clientId?: string } } } | undefined;
  const clientOf = (ctx: Ctx) => ctx?.oidc?.client?.clientId ?? '-';
  for (const event of ['authorization.error', 'grant.error', 'registration_create.error', 'introspection.error', 'revocation.error', 'userinfo.error', 'jwks.error', 'discovery.error']) {
    // error_detail is oidc-provider's reason (e.g. "PKCE verification failed"): a fixed text, never the input.
    provider.on(event, (ctx: Ctx, err: { error?: string; error_description?: string; error_detail?: string }) =>
      log(`${event} client=${clientOf(ctx)} ${err.error ?? 'error'}: ${err.error_description ?? ''}${err.error_detail ? ` (${err.error_detail})` : ''}`),
    );
  }
  provider.on('server_error', (_ctx: Ctx, err: Error) => log(`server_error ${err.name}`));
  provider.on('grant.success', (ctx: Ctx) => log(`grant.success client=${clientOf(ctx)}`));
  provider.on('registration_create.success', (ctx: Ctx) => log(`registration_create.success client=${clientOf(ctx)}`));
  const ecPublic = createPublicKey({ key: publicJwks.keys[0]!, format: 'jwk' });

  async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
    let body = '';
    for await (const chunk of req) {
      body += chunk;
      if (body.length > 16_384) throw new Error('form too large');
    }
    return new URLSearchParams(body);
  }

  function html(res: ServerResponse, status: number, body: string): void {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' http: https:; frame-ancestors 'none'" });
    res.end(body);
  }

  async function interaction(req: IncomingMessage, res: ServerResponse, uid: string, action: string | undefined): Promise<void> {
    const details = await provider.interactionDetails(req, res);
    if (details.uid !== uid) return html(res, 400, '<!DOCTYPE html><p>This sign-in page is stale: start again from the application.</p>');
    const client = await provider.Client.find(details.params.client_id);
    const clientView = { name: client?.clientName ?? details.params.client_id, id: details.params.client_id };
    if (action === 'upstream' && upstream !== undefined && req.method === 'GET') {
      const done = upstreamDone.get(uid);
      upstreamDone.delete(uid);
      if (done === undefined || done.at + 600_000 <= now()) return html(res, 400, '<!DOCTYPE html><p>This sign-in is unknown or was already used: start again from the application.</p>');
      log(`sign-in upstream account=${done.sub} client=${clientView.id}`);
      const allowedAt = allowedBeforeUpstream.get(uid);
      allowedBeforeUpstream.delete(uid);
      for (const [key, at] of preConsented) if (at + 600_000 <= now()) preConsented.delete(key);
      if (allowedAt !== undefined) preConsented.set(`${requestKey(details)}\n${done.sub}`, now());
      return provider.interactionFinished(req, res, { login: { accountId: done.sub } }, { mergeWithLastSubmission: false });
    }
    if (req.method === 'GET') {
      if (details.prompt.name === 'login' && upstream === undefined) return html(res, 200, loginPage(uid, clientView));
      // Behind a front, the person allowed this client before being sent upstream: not asked twice.
      if (details.prompt.name === 'consent' && upstream !== undefined && preConsented.delete(`${requestKey(details)}\n${details.session?.accountId}`)) return confirmConsent(req, res, details);
      // The consent page; behind a front it comes first, before anything is forwarded upstream (one per registered client).
      const requested = details.prompt.details.missingResourceScopes ?? {};
      const named = [details.params.resource].flat().filter((r): r is string => typeof r === 'string');
      const shown: Record<string, string[]> = { ...Object.fromEntries(named.map((r) => [r, []])), ...requested };
      const redirectUri = typeof details.params['redirect_uri'] === 'string' ? details.params['redirect_uri'] : undefined;
      return html(res, 200, consentPage(uid, clientView, details.session?.accountId ?? '', shown, details.prompt.details.missingOIDCScope ?? [], redirectUri));
    }
    if (action === 'abort') {
      return provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'The person denied the request' }, { mergeWithLastSubmission: false });
    }
    if (action === 'login' && options.accounts !== undefined) {
      const form = await readForm(req);
      const account = await options.accounts.authenticate(form.get('username') ?? '', form.get('password') ?? '');
      if (account === undefined) {
        log(`sign-in refused client=${clientView.id}`);
        return html(res, 401, loginPage(uid, clientView, 'Wrong username or password.'));
      }
      log(`sign-in account=${account.id} client=${clientView.id}`);
      return provider.interactionFinished(req, res, { login: { accountId: account.id } }, { mergeWithLastSubmission: false });
    }
    if (action === 'confirm' && details.prompt.name === 'login' && upstream !== undefined) {
      for (const [id, at] of allowedBeforeUpstream) if (at + 600_000 <= now()) allowedBeforeUpstream.delete(id);
      allowedBeforeUpstream.set(uid, now());
      res.writeHead(303, { location: await upstream.start(uid), 'cache-control': 'no-store' });
      return void res.end();
    }
    if (action === 'confirm' && details.prompt.name === 'consent') return confirmConsent(req, res, details);
    return html(res, 400, '<!DOCTYPE html><p>Unexpected step.</p>');
  }

  /** The person allowed: the grant gets what the prompt found missing, and the flow goes on. */
  async function confirmConsent(req: IncomingMessage, res: ServerResponse, details: Interaction): Promise<void> {
    const accountId = details.session?.accountId;
    if (accountId === undefined) return html(res, 400, '<!DOCTYPE html><p>Sign in first.</p>');
    const grant = (details.grantId ? await provider.Grant.find(details.grantId) : undefined) ?? new provider.Grant({ accountId, clientId: details.params.client_id });
    const d = details.prompt.details;
    if (d.missingOIDCScope?.length) grant.addOIDCScope(d.missingOIDCScope.join(' '));
    if (d.missingOIDCClaims?.length) grant.addOIDCClaims(d.missingOIDCClaims);
    for (const [indicator, s] of Object.entries(d.missingResourceScopes ?? {})) grant.addResourceScope(indicator, s.join(' '));
    const grantId = await grant.save();
    return provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  }

  const server: AuthorizationServer = {
    issuer,
    jwks: publicJwks,
    handler(req, res) {
      const url = new URL(req.url ?? '/', issuer);
      // RFC 8414's well-known URL serves the same document as OpenID discovery.
      if (req.method === 'GET' && url.pathname === '/.well-known/oauth-authorization-server') req.url = `/.well-known/openid-configuration${url.search}`;
      // A client that asks for no scope (MCP clients may, when the server named none) is asked for
      // the default scopes of the MCP servers it names (or of the only one): a grant must hold some
      // scope, and no more than the default unless asked for.
      if (req.method === 'GET' && url.pathname === '/auth' && !url.searchParams.has('scope') && !url.searchParams.has('request_uri') && !url.searchParams.has('request')) {
        const named = url.searchParams.getAll('resource');
        const targets = named.length ? named : resources.size === 1 ? [...resources.keys()] : [];
        const wanted = [...new Set(targets.flatMap((t) => resources.get(t)?.defaultScopes ?? []))];
        if (wanted.length) {
          url.searchParams.set('scope', wanted.join(' '));
          req.url = `${url.pathname}?${url.searchParams}`;
        }
      }
      if (upstream !== undefined && req.method === 'GET' && url.pathname === '/upstream/callback') {
        // Back from the upstream provider: check its answer, then finish the interaction it was for
        // on the interaction's own path (where its cookie is sent).
        upstream.finish(url.searchParams).then(
          ({ uid, identity }) => {
            upstreamAccounts.set(identity.sub, identity.claims);
            upstreamDone.set(uid, { sub: identity.sub, at: now() });
            res.writeHead(303, { location: `/interaction/${uid}/upstream`, 'cache-control': 'no-store' });
            res.end();
          },
          (e: unknown) => {
            log(`sign-in upstream refused: ${(e as Error).message}`);
            html(res, 400, `<!DOCTYPE html><p>${escapeText((e as Error).message)}</p>`);
          },
        );
        return;
      }
      const m = /^\/interaction\/([\w-]+)(?:\/(login|confirm|abort|upstream))?$/.exec(url.pathname);
      if (m !== null) {
        interaction(req, res, m[1]!, m[2]).catch((e: unknown) => {
          if (!res.headersSent) html(res, 400, `<!DOCTYPE html><p>${escapeText((e as Error).message)}</p>`);
          else res.end();
        });
        return;
      }
      callback(req, res);
    },
    verifier(resource) {
      return (token: string): VerifiedToken => {
        const parts = token.split('.');
        if (parts.length !== 3) throw new InvalidTokenError('not a JWT');
        let header: { alg?: string; kid?: string };
        let claims: Record<string, unknown>;
        try {
          header = JSON.parse(b64url(parts[0]!).toString('utf8')) as typeof header;
          claims = JSON.parse(b64url(parts[1]!).toString('utf8')) as typeof claims;
        } catch {
          throw new InvalidTokenError('not a JWT');
        }
        if (header.alg !== 'ES256' || header.kid !== ecKid) throw new InvalidTokenError('not signed by this authorization server');
        const ok = verifySignature('sha256', Buffer.from(`${parts[0]}.${parts[1]}`), { key: ecPublic, dsaEncoding: 'ieee-p1363' }, b64url(parts[2]!));
        if (!ok) throw new InvalidTokenError('bad signature');
        if (claims['iss'] !== issuer) throw new InvalidTokenError('issued by another authorization server');
        // Expiry checked here too (requireBearerAuth checks it again on its own clock).
        const exp = claims['exp'];
        if (typeof exp !== 'number' || !Number.isFinite(exp)) throw new InvalidTokenError('has no expiry');
        if (exp * 1000 <= now()) throw new InvalidTokenError('expired');
        const cnf = claims['cnf'] as { jkt?: unknown } | undefined;
        const aud = claims['aud'];
        const audiences = Array.isArray(aud) ? aud : [aud];
        if (!audiences.includes(resource)) throw new InvalidTokenError(`issued for another resource (${audiences.join(', ')})`);
        return {
          ...(typeof claims['sub'] === 'string' && { subject: claims['sub'] }),
          clientId: String(claims['client_id'] ?? ''),
          scopes: typeof claims['scope'] === 'string' ? claims['scope'].split(' ').filter(Boolean) : [],
          expiresAt: exp,
          audience: audiences as string[],
          // A DPoP-bound token (RFC 9449 §6): requireBearerAuth then wants a proof by this key.
          ...(cnf !== null && typeof cnf === 'object' && typeof cnf.jkt === 'string' && { cnf: { jkt: cnf.jkt } }),
          resource,
        };
      };
    },
  };
  return server;
}

function escapeText(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
