/**
 * What a resource server knows about the caller after checking its access token, and the
 * contract of the user's token verifier.
 *
 * @see https://modelcontextprotocol.io/specification/draft/basic/authorization#token-handling
 */

/**
 * The verified caller, as handlers see it in `ctx.authInfo`. It never holds the access token:
 * a server must not pass the client's token on to anything else (token passthrough is
 * forbidden), so nothing hands it to handlers by default.
 *
 * @see https://modelcontextprotocol.io/specification/draft/basic/security_best_practices#token-passthrough
 */
export interface AuthInfo {
  /** The resource owner (`sub`), when the token has one. Sessions are bound to it. */
  readonly subject?: string;
  /** The OAuth client the token was issued to. */
  readonly clientId: string;
  /** Granted scopes. */
  readonly scopes: readonly string[];
  /** Expiry, in seconds since the epoch. */
  readonly expiresAt?: number;
  /** The canonical URI of this server: the resource the token was checked to be issued for. */
  readonly resource: string;
  /** Whatever else the verifier wants handlers to know (claims, tenant...). */
  readonly extra?: Readonly<Record<string, unknown>>;
}

/**
 * What a verifier says about a valid token. The resource server checks `resource`/`audience`,
 * `expiresAt` and the scopes itself, whatever the verifier did.
 */
export interface VerifiedToken {
  subject?: string;
  clientId: string;
  scopes: readonly string[];
  /** Expiry, in seconds since the epoch (`exp`). Required unless `requireExpiry: false`. */
  expiresAt?: number;
  /** The RFC 8707 resource the token was issued for. */
  resource?: string | URL;
  /** The token's audience (`aud`): one value or several. */
  audience?: string | readonly string[];
  /**
   * The token's confirmation (`cnf`, RFC 7800): `jkt` when it is DPoP-bound (RFC 9449 §6). The
   * resource server then accepts it only with the `DPoP` scheme and a proof by that key.
   */
  cnf?: { jkt?: string };
  extra?: Record<string, unknown>;
}

/** The context a verifier is called with. */
export interface VerifyContext {
  /** The canonical URI of this server. */
  resource: string;
}

/**
 * Checks an access token (a JWT's signature and issuer, or a lookup, or introspection).
 * Returns what it learnt, or undefined (or throws {@link InvalidTokenError}) when the token is
 * not valid. Any other exception is a server failure (500), not the client's fault.
 */
export type VerifyAccessToken = (token: string, context: VerifyContext) => VerifiedToken | undefined | Promise<VerifiedToken | undefined>;

/**
 * Thrown by a verifier for a token it refuses; the resource server answers 401 `invalid_token`
 * with this description. Say why without quoting the token.
 */
export class InvalidTokenError extends Error {
  override readonly name = 'InvalidTokenError';
  constructor(readonly description: string) {
    super(description);
  }
}

const issued = new WeakSet<object>();

/** @internal Marks an AuthInfo as made by this resource server. */
export function sealAuthInfo(info: AuthInfo): AuthInfo {
  const frozen = Object.freeze({ ...info, scopes: Object.freeze([...info.scopes]) });
  issued.add(frozen);
  return frozen;
}

/**
 * `ctx.authInfo` as an {@link AuthInfo} when it came from `requireBearerAuth`, else undefined
 * (another hook's value, or no authentication).
 */
export function bearerAuthInfo(authInfo: unknown): AuthInfo | undefined {
  return typeof authInfo === 'object' && authInfo !== null && issued.has(authInfo) ? (authInfo as AuthInfo) : undefined;
}
