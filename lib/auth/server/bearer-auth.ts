/**
 * `requireBearerAuth`: the `authenticate` hook of an MCP server acting as an OAuth 2.1 resource
 * server. It takes the access token from the `Authorization: Bearer` header only, asks the user's
 * verifier about it, and then checks itself what a resource server must check whatever the
 * verifier says: that the token was issued for this server (RFC 8707 audience), that it has not
 * expired (on the server's clock), and the scopes. Refusals carry a `WWW-Authenticate` challenge
 * pointing at the Protected Resource Metadata (RFC 9728).
 *
 * @see https://modelcontextprotocol.io/specification/draft/basic/authorization#token-handling
 * @see https://modelcontextprotocol.io/specification/draft/basic/authorization#access-token-privilege-restriction
 * @see https://datatracker.ietf.org/doc/html/draft-ietf-oauth-v2-1-13#section-5.2
 */
import { systemClock, type Clock } from '../../clock.js';
import type { Authenticate, AuthFailure, AuthOutcome, AuthorizedMessage } from '../../../streams/http-auth.js';
import type { HttpRequestHead } from '../../../streams/http-shape.js';
import { InvalidTokenError, bearerAuthInfo, sealAuthInfo, type VerifiedToken, type VerifyAccessToken } from './auth-info.js';
import type { BearerChallenge } from '../www-authenticate.js';
import { bearerRefusal, type BearerErrorCode } from './bearer-refusal.js';
import { canonicalResourceUri, sameResource } from '../canonical-resource.js';
import { protectedResourceMetadataUrl } from '../protected-resource-metadata.js';
import { checkDpopProof, DpopReplayCache, InvalidDpopProofError } from './dpop-proof.js';
import { OFFLINE_ACCESS, impliedScopes, refuseOfflineAccess, type ScopeHierarchy } from './scope-hierarchy.js';

export interface BearerAuthOptions {
  /** Checks a token (signature, issuer, revocation...) and says who it is for. */
  verifyAccessToken: VerifyAccessToken;
  /** This server's canonical URI (e.g. `https://mcp.example.com/mcp`): tokens must be issued for it. */
  resource: string | URL;
  /** Where the Protected Resource Metadata is. Default the path-based well-known URL of `resource`. */
  resourceMetadataUrl?: string | URL;
  /** Scopes every request needs (403 `insufficient_scope` without them). */
  requiredScopes?: readonly string[];
  /**
   * Scopes a JSON-RPC message needs on top of `requiredScopes`, checked on each POST body (each
   * WebSocket message) once it is read: by method (`{ 'tools/call': ['mcp:write'] }`), or a function
   * of the method and its params, for scopes that depend on the request (per tool:
   * `(m, p) => m === 'tools/call' && p?.name === 'delete_file' ? ['files:write'] : undefined`).
   * Every scope a body needs is named in one challenge.
   */
  scopesForMethod?: Readonly<Record<string, readonly string[]>> | ((method: string, params: Readonly<Record<string, unknown>> | undefined) => readonly string[] | undefined);
  /**
   * Broader scopes and the narrower ones they imply (transitively), e.g.
   * `{ 'mcp:admin': ['mcp:write'], 'mcp:write': ['mcp:read'] }`: a token with `mcp:admin` then
   * satisfies `mcp:read`. Challenges still name the scopes the operation needs.
   * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization#step-up-authorization-flow
   */
  scopeHierarchy?: ScopeHierarchy;
  /** Refuse tokens without an expiry. Default true. */
  requireExpiry?: boolean;
  /** The clock expiry is judged by. Default the system clock. */
  clock?: Pick<Clock, 'now'>;
  /** The `realm` of the challenges, if any. */
  realm?: string;
  /**
   * Accept DPoP-bound tokens (RFC 9449): `Authorization: DPoP <token>` with a proof in the `DPoP`
   * header, checked here (signature, method, URL, `ath`, `iat` within `maxAgeSeconds` of the
   * clock, each `jti` once). Challenges then also name `DPoP algs="ES256"`. Whatever this says, a
   * token the verifier reports as bound (`cnf.jkt`) is refused when presented as Bearer.
   * @see https://www.rfc-editor.org/rfc/rfc9449.html#section-7
   */
  dpop?: boolean | { maxAgeSeconds?: number; replay?: DpopReplayCache };
}

/** The hook, with its per-message step and what it was configured with. */
export type BearerAuthenticate = Authenticate & {
  /** The canonical URI tokens must be issued for. */
  readonly resource: string;
  /** The metadata URL the challenges point at. */
  readonly resourceMetadataUrl: string;
};

/** RFC 6750 §2.1 `b64token`. */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/**
 * The `authenticate` hook for `createStreamableHttpHandler` (and the legacy SSE and WebSocket
 * servers). On success `ctx.authInfo` is an {@link AuthInfo} without the token. Answers:
 * no credentials → 401 with `resource_metadata` (and `scope`); invalid, expired or foreign token →
 * 401 `invalid_token`; missing scope → 403 `insufficient_scope`; a token in the query string or a
 * malformed header → 400 `invalid_request`.
 *
 * @see https://modelcontextprotocol.io/specification/draft/basic/authorization#error-handling
 */
export function requireBearerAuth(options: BearerAuthOptions): BearerAuthenticate {
  const resource = canonicalResourceUri(options.resource);
  const resourceMetadata = options.resourceMetadataUrl !== undefined ? new URL(String(options.resourceMetadataUrl)).href : protectedResourceMetadataUrl(resource);
  // offline_access is about refresh tokens, never a resource requirement: refused in what is
  // configured, dropped from what a scopesForMethod function answers.
  refuseOfflineAccess(options.requiredScopes, 'requiredScopes');
  const required = [...(options.requiredScopes ?? [])];
  const requireExpiry = options.requireExpiry ?? true;
  const clock = options.clock ?? systemClock;
  const verify = options.verifyAccessToken;
  const byMethod = options.scopesForMethod;
  if (byMethod !== undefined && typeof byMethod !== 'function') for (const [m, s] of Object.entries(byMethod)) refuseOfflineAccess(s, `scopesForMethod['${m}']`);
  const scopesOf: (method: string, params: unknown) => readonly string[] =
    byMethod === undefined
      ? () => []
      : typeof byMethod === 'function'
        ? (m, p) => {
            const scopes = byMethod(m, p !== null && typeof p === 'object' && !Array.isArray(p) ? (p as Record<string, unknown>) : undefined) ?? [];
            if (!Array.isArray(scopes)) throw new TypeError(`scopesForMethod answered ${typeof scopes} for ${m}; expected an array of scopes`);
            return scopes.filter((s): s is string => typeof s === 'string' && s !== OFFLINE_ACCESS);
          }
        : (m) => (Object.hasOwn(byMethod, m) ? byMethod[m] : []);
  const hierarchy = options.scopeHierarchy;
  // What each verified caller effectively holds, computed once per AuthInfo.
  const held = new WeakMap<object, ReadonlySet<string>>();
  const heldBy = (info: { scopes: readonly string[] }): ReadonlySet<string> => {
    let have = held.get(info);
    if (have === undefined) held.set(info, (have = impliedScopes(info.scopes, hierarchy)));
    return have;
  };

  const dpopOptions = typeof options.dpop === 'object' ? options.dpop : {};
  const dpop = options.dpop ? { maxAgeSeconds: dpopOptions.maxAgeSeconds ?? 300, replay: dpopOptions.replay ?? new DpopReplayCache() } : undefined;
  // With DPoP on, every challenge names it beside Bearer (RFC 9449 §7.1).
  const withDpop = (f: AuthFailure): AuthFailure => (dpop && f.wwwAuthenticate !== undefined ? { ...f, wwwAuthenticate: `${f.wwwAuthenticate}, DPoP algs="ES256"` } : f);
  const refuse = (c: Omit<BearerChallenge, 'resourceMetadata' | 'realm' | 'error'> & { error?: BearerErrorCode }): AuthFailure =>
    withDpop(bearerRefusal({ realm: options.realm, resourceMetadata, ...c, scope: c.scope ?? required }));
  const invalidProof = (description: string): AuthFailure => ({
    ok: false,
    status: 401,
    wwwAuthenticate: `DPoP error="invalid_dpop_proof", error_description=${JSON.stringify(description)}, algs="ES256"`,
    body: { error: 'invalid_dpop_proof', error_description: description },
  });
  const invalidToken = (description: string) => refuse({ error: 'invalid_token', errorDescription: description });

  const check = (v: VerifiedToken | undefined, proofKey?: string): AuthOutcome => {
    if (v === undefined || v === null || typeof v !== 'object') return invalidToken('The access token is not valid');
    // RFC 9449 §7.1/§7.2: a bound token only with a proof by its key; a proof only with a bound token.
    const jkt = v.cnf?.jkt;
    if (jkt !== undefined && proofKey === undefined) return invalidToken('The access token is DPoP-bound: present it with the DPoP scheme and a proof');
    if (proofKey !== undefined && jkt !== proofKey) return invalidToken(jkt === undefined ? 'The access token is not DPoP-bound' : 'The DPoP proof is signed by another key than the token is bound to');
    // RFC 8707: the token must name this server, whatever the verifier checked.
    const audiences = [v.resource, ...(typeof v.audience === 'string' ? [v.audience] : (v.audience ?? []))];
    if (!audiences.some((a) => sameResource(resource, a))) return invalidToken('The access token was not issued for this resource');
    if (v.expiresAt === undefined) {
      if (requireExpiry) return invalidToken('The access token has no expiry');
    } else if (typeof v.expiresAt !== 'number' || !Number.isFinite(v.expiresAt) || v.expiresAt * 1000 <= clock.now()) {
      return invalidToken('The access token has expired');
    }
    if (typeof v.clientId !== 'string' || !Array.isArray(v.scopes)) return invalidToken('The access token is not valid');
    const scopes = v.scopes.filter((s): s is string => typeof s === 'string');
    const have = impliedScopes(scopes, hierarchy);
    if (!required.every((s) => have.has(s))) {
      return refuse({ error: 'insufficient_scope', errorDescription: 'The access token lacks a required scope' });
    }
    return {
      ok: true,
      authInfo: sealAuthInfo({
        ...(typeof v.subject === 'string' ? { subject: v.subject } : {}),
        clientId: v.clientId,
        scopes,
        ...(v.expiresAt !== undefined ? { expiresAt: v.expiresAt } : {}),
        resource,
        ...(v.extra !== undefined ? { extra: Object.freeze({ ...v.extra }) } : {}),
      }),
    };
  };

  const failed = (token: string, e: unknown): AuthOutcome => {
    if (e instanceof InvalidTokenError) return invalidToken(redact(e.description, token));
    // Not the client's fault (the verifier or its backend failed): a 500, reported without the token.
    const message = e instanceof Error ? e.message : String(e);
    throw new Error(`Access token verification failed: ${redact(message, token)}`);
  };

  const authenticate = ((req: HttpRequestHead): AuthOutcome | Promise<AuthOutcome> => {
    // A token in the URI would end up in logs and histories: never used, always refused.
    if (hasQueryToken(req.url)) {
      return refuse({ error: 'invalid_request', errorDescription: 'Access tokens must not be sent in the query string; use the Authorization header' });
    }
    const header = req.headers.authorization;
    if (header === undefined || header.trim() === '') return refuse({});
    const space = header.indexOf(' ');
    const scheme = space < 0 ? header : header.slice(0, space);
    // Another scheme counts as no credentials for this one (RFC 6750 §3.1).
    const isDpop = dpop !== undefined && scheme.toLowerCase() === 'dpop';
    if (scheme.toLowerCase() !== 'bearer' && !isDpop) return refuse({});
    const token = space < 0 ? '' : header.slice(space + 1).trim();
    if (!B64TOKEN.test(token)) {
      return refuse({ error: 'invalid_request', errorDescription: 'Malformed Authorization header: expected "Bearer <token>"' });
    }
    if (isDpop) {
      // htu is judged against the URL the client used: this server's origin and the request's path.
      return checkDpopProof({ proof: req.headers.dpop, method: req.method ?? 'GET', url: new URL(req.url ?? '/', resource), accessToken: token, nowSeconds: Math.floor(clock.now() / 1000), maxAgeSeconds: dpop.maxAgeSeconds, replay: dpop.replay }).then(
        ({ jkt }) => verifyThenCheck(token, jkt),
        (e: unknown) => {
          if (e instanceof InvalidDpopProofError) return invalidProof(e.description);
          throw e;
        },
      );
    }
    return verifyThenCheck(token, undefined);
  }) as BearerAuthenticate;

  const verifyThenCheck = (token: string, proofKey: string | undefined): AuthOutcome | Promise<AuthOutcome> => {
    let verified: VerifiedToken | undefined | Promise<VerifiedToken | undefined>;
    try {
      verified = verify(token, { resource });
    } catch (e) {
      return failed(token, e);
    }
    if (isPromiseLike(verified)) return Promise.resolve(verified).then((v) => check(v, proofKey), (e: unknown) => failed(token, e));
    return check(verified, proofKey);
  };

  const authorizeMessages = (methods: readonly string[], authInfo: unknown, messages?: readonly AuthorizedMessage[]): AuthFailure | undefined => {
    const info = bearerAuthInfo(authInfo);
    const needed = new Set(required);
    try {
      for (const m of messages ?? methods.map((method) => ({ method }))) for (const s of scopesOf(m.method, (m as AuthorizedMessage).params)) needed.add(s);
    } catch {
      // The user's function failed on what the peer sent: refused, never let through, and the server stays up.
      return refuse({ error: 'invalid_request', errorDescription: 'The scopes this request needs could not be determined from it' });
    }
    if (needed.size === required.length) return undefined;
    const have = info !== undefined ? heldBy(info) : new Set<string>();
    if ([...needed].every((s) => have.has(s))) return undefined;
    return refuse({ error: 'insufficient_scope', errorDescription: 'The access token lacks a scope this request needs', scope: [...needed] });
  };

  Object.defineProperties(authenticate, {
    authorizeMessages: { value: authorizeMessages, enumerable: true },
    resource: { value: resource, enumerable: true },
    resourceMetadataUrl: { value: resourceMetadata, enumerable: true },
  });
  return authenticate;
}

function isPromiseLike<T>(v: unknown): v is PromiseLike<T> {
  return v !== null && typeof v === 'object' && typeof (v as PromiseLike<T>).then === 'function';
}

function hasQueryToken(url: string | undefined): boolean {
  if (url === undefined) return false;
  const q = url.indexOf('?');
  if (q < 0) return false;
  return new URLSearchParams(url.slice(q + 1)).has('access_token');
}

/** The message without the token in it (a verifier may have quoted it). */
function redact(message: string, token: string): string {
  return token.length >= 4 ? message.split(token).join('[redacted]') : message;
}
