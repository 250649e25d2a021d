/**
 * What the OAuth flow needs from the application: where the user is sent back to, what the
 * client registers, storage for tokens and client credentials, and the user's part (visiting the
 * authorization URL and coming back with a code). {@link InMemoryOAuthClientProvider} keeps
 * everything in memory; {@link createHeadlessOAuthProvider} completes the authorization request
 * without a user (for test servers that redirect at once, like the conformance suite's).
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization
 */
import { undiciFetch, type FetchLike } from '../../streams/http-fetch.js';
import { requireClientIdMetadataUrl } from './client-id-metadata-document.js';
import { AuthorizationError } from './authorization-errors.js';
import { requireSecureRedirectUrl } from './secure-endpoint.js';
import type { OAuthClientInformation, OAuthClientMetadata, OAuthTokens } from './client-types.js';

export type { OAuthClientInformation, OAuthClientMetadata } from './client-types.js';

/** Tokens as stored: with when they expire and what they were issued for. */
export interface StoredTokens extends OAuthTokens {
  /** Clock time (ms) after which the access token is expired, when the server said. */
  expiresAt?: number;
  /** The `resource` the tokens were requested for; a stored token is sent only to that resource. */
  resource?: string;
  /** The authorization server that issued them. */
  issuer?: string;
}

type MaybePromise<T> = T | Promise<T>;

/** Storage and user interaction for the client's OAuth flow. */
export interface OAuthClientProvider {
  /** Where the authorization server sends the user back; registered with the client. https, or http on a loopback host. */
  readonly redirectUrl: string;
  /** What the client registers (DCR). `redirect_uris` must contain {@link redirectUrl}. */
  readonly clientMetadata: OAuthClientMetadata;
  /** An https URL of the client's metadata document, used as the client id when the server supports CIMD. */
  readonly clientMetadataUrl?: string | undefined;
  /** Ask for `offline_access` when the authorization server lists it (default true). */
  readonly requestOfflineAccess?: boolean | undefined;
  /** Client credentials for this authorization server: pre-registered or saved by an earlier registration. */
  clientInformation(issuer: string): MaybePromise<OAuthClientInformation | undefined>;
  /**
   * The last resort when the authorization server offers neither client ID metadata documents
   * nor dynamic registration and no credentials are stored: ask the user for a client id (and
   * secret) they registered with it themselves. Resolve with undefined when they give none. What
   * it returns is saved with {@link saveClientInformation} for that server.
   * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization/client-registration
   */
  promptClientInformation?(issuer: string, reason: string): Promise<OAuthClientInformation | undefined>;
  saveClientInformation(issuer: string, info: OAuthClientInformation): MaybePromise<void>;
  tokens(): MaybePromise<StoredTokens | undefined>;
  saveTokens(tokens: StoredTokens): MaybePromise<void>;
  /** Forget credentials the server refused. */
  invalidate(what: 'tokens' | 'client', issuer?: string): MaybePromise<void>;
  /**
   * Let the user authorize at `authorizationUrl` (open a browser, say) and resolve with the URL
   * the authorization server redirected back to (`redirectUrl` with `code` and `state`, or `error`).
   * The flow checks `state` itself.
   */
  authorize(authorizationUrl: URL): Promise<URL>;
}

export interface InMemoryOAuthClientProviderOptions {
  /** https, or http on localhost, 127.0.0.1 or [::1] (MCP: redirect URIs are localhost or HTTPS). */
  redirectUrl: string;
  /** Defaults: `client_name` "mcp-actors client", `redirect_uris` [redirectUrl]. */
  clientMetadata?: Partial<OAuthClientMetadata>;
  /** An https URL with a path where the application serves {@link clientIdMetadataDocument}. */
  clientMetadataUrl?: string;
  /** Asks the user for client credentials when there is no other way to get a client id (see {@link OAuthClientProvider.promptClientInformation}). */
  promptClientInformation?: (issuer: string, reason: string) => Promise<OAuthClientInformation | undefined>;
  /**
   * Pre-registered credentials: with `clientInformationIssuer`, used only with that authorization
   * server (the client registers anew with another); without it, with every one.
   */
  clientInformation?: OAuthClientInformation;
  /** The authorization server (issuer URL) the pre-registered `clientInformation` belongs to. */
  clientInformationIssuer?: string;
  tokens?: StoredTokens;
  requestOfflineAccess?: boolean;
  authorize: (authorizationUrl: URL) => Promise<URL>;
}

/** A provider that keeps tokens and client credentials in memory (lost when the process ends). */
export class InMemoryOAuthClientProvider implements OAuthClientProvider {
  readonly redirectUrl: string;
  readonly clientMetadata: OAuthClientMetadata;
  readonly clientMetadataUrl: string | undefined;
  readonly requestOfflineAccess: boolean | undefined;
  private readonly preRegistered: OAuthClientInformation | undefined;
  private readonly preRegisteredIssuer: string | undefined;
  private readonly clients = new Map<string, OAuthClientInformation>();
  private stored: StoredTokens | undefined;
  private readonly authorizeFn: (url: URL) => Promise<URL>;
  readonly promptClientInformation?: (issuer: string, reason: string) => Promise<OAuthClientInformation | undefined>;

  /**
   * Throws a `TypeError` when `redirectUrl` (or a `redirect_uris` entry) is neither https nor
   * http on a loopback host, or `clientMetadataUrl` cannot be a client id (https with a path).
   */
  constructor(options: InMemoryOAuthClientProviderOptions) {
    requireSecureRedirectUrl(options.redirectUrl);
    if (options.clientMetadataUrl !== undefined) requireClientIdMetadataUrl(options.clientMetadataUrl);
    if (options.promptClientInformation) this.promptClientInformation = options.promptClientInformation;
    for (const uri of options.clientMetadata?.redirect_uris ?? []) requireSecureRedirectUrl(uri);
    this.redirectUrl = options.redirectUrl;
    this.clientMetadata = {
      client_name: 'mcp-actors client',
      ...options.clientMetadata,
      redirect_uris: options.clientMetadata?.redirect_uris ?? [options.redirectUrl],
    };
    this.clientMetadataUrl = options.clientMetadataUrl;
    this.requestOfflineAccess = options.requestOfflineAccess;
    this.preRegistered = options.clientInformation;
    this.preRegisteredIssuer = options.clientInformationIssuer;
    this.stored = options.tokens;
    this.authorizeFn = options.authorize;
  }
  /** Credentials saved for `issuer` by a registration, else the pre-registered ones when they are for it. */
  clientInformation(issuer: string): OAuthClientInformation | undefined {
    const saved = this.clients.get(issuer);
    if (saved) return saved;
    if (this.preRegisteredIssuer !== undefined && !sameIssuer(this.preRegisteredIssuer, issuer)) return undefined;
    return this.preRegistered;
  }
  saveClientInformation(issuer: string, info: OAuthClientInformation): void {
    this.clients.set(issuer, info);
  }
  tokens(): StoredTokens | undefined {
    return this.stored;
  }
  saveTokens(tokens: StoredTokens): void {
    this.stored = tokens;
  }
  invalidate(what: 'tokens' | 'client', issuer?: string): void {
    if (what === 'tokens') this.stored = undefined;
    else if (issuer !== undefined) this.clients.delete(issuer);
    else this.clients.clear();
  }
  authorize(authorizationUrl: URL): Promise<URL> {
    return this.authorizeFn(authorizationUrl);
  }
}

/** Issuer URLs compared as URLs (a trailing slash of an empty path is the same issuer). */
function sameIssuer(a: string, b: string): boolean {
  const norm = (u: string) => u.replace(/\/$/, '');
  return norm(a) === norm(b);
}

/**
 * Completes an authorization request without a user: GETs the authorization URL without
 * following redirects and resolves with the `Location` it redirects to. Only for authorization
 * servers that approve at once (test servers); a real one shows a login page instead.
 */
export function headlessAuthorize(fetch: FetchLike = undiciFetch): (authorizationUrl: URL) => Promise<URL> {
  return async (authorizationUrl) => {
    const res = await fetch(authorizationUrl, { method: 'GET', redirect: 'manual' });
    await res.body?.cancel().catch(() => {});
    const location = res.headers.get('location');
    if (res.status < 300 || res.status >= 400 || location === null) {
      throw new AuthorizationError(
        'authorization_denied',
        `The authorization endpoint ${authorizationUrl.origin}${authorizationUrl.pathname} answered HTTP ${res.status} without a redirect; ` +
          'a headless client can only complete authorizations that redirect at once.',
        { status: res.status },
      );
    }
    return new URL(location, authorizationUrl);
  };
}

/** An in-memory provider whose authorization step is {@link headlessAuthorize}. */
export function createHeadlessOAuthProvider(
  options: Omit<InMemoryOAuthClientProviderOptions, 'authorize'> & { fetch?: FetchLike },
): InMemoryOAuthClientProvider {
  return new InMemoryOAuthClientProvider({ ...options, authorize: headlessAuthorize(options.fetch) });
}
