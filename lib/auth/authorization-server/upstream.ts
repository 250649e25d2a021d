/**
 * Sign-in delegated to an upstream OpenID provider (an identity-provider front, or "OAuth
 * proxy"): the upstream needs no dynamic registration, only one client registered with it for
 * this authorization server (redirect URI `<issuer>/upstream/callback`). MCP clients register
 * with us; the person signs in upstream (authorization code with PKCE S256, `state` and `nonce`);
 * we check the ID token (signature by the upstream's keys, `iss`, `aud`, `exp`, `nonce`) and mint
 * our own tokens for the MCP servers, bound to their audience. The upstream's tokens never leave
 * this server.
 *
 * @see https://openid.net/specs/openid-connect-core-1_0.html#CodeFlowAuth
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/security_best_practices#confused-deputy-problem
 */
import { createHash, createPublicKey, randomBytes, verify as verifySignature } from 'node:crypto';

/** The upstream identity provider and this server's client there. */
export interface UpstreamProvider {
  /** Its issuer; its OpenID configuration is read from `<issuer>/.well-known/openid-configuration`. */
  issuer: string;
  /** This authorization server's client id there. */
  clientId: string;
  /** Its secret (sent with client_secret_basic); none for a public client. */
  clientSecret?: string;
  /** Scopes asked for. Default `openid`. */
  scopes?: string[];
}

/** Who signed in upstream: their subject there and a few of the ID token's claims. */
export interface UpstreamIdentity {
  sub: string;
  claims: Record<string, unknown>;
}

interface Discovery {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
}

interface Pending {
  uid: string;
  verifier: string;
  nonce: string;
  expires: number;
}

/** Claims passed on to our accounts (no upstream tokens, nothing about the upstream session). */
const KEPT_CLAIMS = ['email', 'email_verified', 'name', 'preferred_username'];

/** The upstream sign-in of one authorization server. `fetch` and `now` for tests. */
export function upstreamSignIn(upstream: UpstreamProvider, callbackUrl: string, now: () => number = Date.now) {
  const upstreamIssuer = upstream.issuer.replace(/\/$/, '');
  let discovery: Promise<Discovery> | undefined;
  const pending = new Map<string, Pending>();

  async function getJson(url: string, init?: RequestInit): Promise<Record<string, unknown>> {
    const res = await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(10_000) });
    const text = await res.text();
    if (text.length > 1_000_000) throw new Error(`the upstream provider answered too much from ${new URL(url).pathname}`);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    if (body === null || typeof body !== 'object') throw new Error(`the upstream provider answered HTTP ${res.status} without JSON from ${new URL(url).pathname}`);
    if (!res.ok) {
      const b = body as { error?: unknown };
      throw new Error(`the upstream provider refused (${typeof b.error === 'string' ? b.error : `HTTP ${res.status}`})`);
    }
    return body as Record<string, unknown>;
  }

  function discover(): Promise<Discovery> {
    discovery ??= getJson(`${upstreamIssuer}/.well-known/openid-configuration`).then((d) => {
      for (const k of ['authorization_endpoint', 'token_endpoint', 'jwks_uri'] as const) if (typeof d[k] !== 'string') throw new Error(`the upstream provider's configuration has no ${k}`);
      // OpenID Discovery §4.3: the issuer in the document is the one we were given.
      if (d['issuer'] !== upstreamIssuer) throw new Error(`the upstream provider's configuration names another issuer`);
      return d as unknown as Discovery;
    });
    // A failed discovery is tried again next time.
    discovery.catch(() => (discovery = undefined));
    return discovery;
  }

  function forgetExpired(): void {
    for (const [state, p] of pending) if (p.expires <= now()) pending.delete(state);
  }

  return {
    /** Where to send the browser to sign in upstream for interaction `uid`. */
    async start(uid: string): Promise<string> {
      const d = await discover();
      forgetExpired();
      if (pending.size > 10_000) throw new Error('too many sign-ins under way');
      const state = randomBytes(32).toString('base64url');
      const verifier = randomBytes(32).toString('base64url');
      const nonce = randomBytes(16).toString('base64url');
      pending.set(state, { uid, verifier, nonce, expires: now() + 600_000 });
      const url = new URL(d.authorization_endpoint);
      url.search = new URLSearchParams({
        response_type: 'code',
        client_id: upstream.clientId,
        redirect_uri: callbackUrl,
        scope: (upstream.scopes ?? ['openid']).join(' '),
        state,
        nonce,
        code_challenge: createHash('sha256').update(verifier).digest('base64url'),
        code_challenge_method: 'S256',
      }).toString();
      return url.href;
    },

    /**
     * The upstream's answer at the callback: the interaction it was for, and who signed in.
     * Throws (saying why, never quoting the code) for an unknown or used state, an upstream
     * error, another issuer, or an ID token that does not check out.
     */
    async finish(query: URLSearchParams): Promise<{ uid: string; identity: UpstreamIdentity }> {
      const state = query.get('state') ?? '';
      const p = pending.get(state);
      pending.delete(state);
      if (p === undefined || p.expires <= now()) throw new Error('this sign-in is unknown or was already used: start again from the application');
      const error = query.get('error');
      if (error !== null) throw new Error(`the upstream provider refused the sign-in (${error.slice(0, 64)})`);
      const d = await discover();
      // RFC 9207: when the upstream names itself, it must be the one we sent the person to.
      const iss = query.get('iss');
      if (iss !== null && iss !== d.issuer) throw new Error('the answer comes from another issuer');
      const code = query.get('code');
      if (code === null || code === '') throw new Error('the upstream provider sent no code');
      const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
      const form = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: callbackUrl, code_verifier: p.verifier });
      if (upstream.clientSecret !== undefined) {
        const enc = (s: string) => encodeURIComponent(s);
        headers['authorization'] = `Basic ${Buffer.from(`${enc(upstream.clientId)}:${enc(upstream.clientSecret)}`).toString('base64')}`;
      } else {
        form.set('client_id', upstream.clientId);
      }
      const tokens = await getJson(d.token_endpoint, { method: 'POST', headers, body: form });
      if (typeof tokens['id_token'] !== 'string') throw new Error('the upstream provider sent no ID token (ask for the openid scope)');
      const claims = await verifyIdToken(tokens['id_token'], d, p.nonce);
      const kept = Object.fromEntries(KEPT_CLAIMS.filter((k) => claims[k] !== undefined).map((k) => [k, claims[k]]));
      return { uid: p.uid, identity: { sub: claims['sub'] as string, claims: kept } };
    },
  };

  async function verifyIdToken(idToken: string, d: Discovery, nonce: string): Promise<Record<string, unknown>> {
    const parts = idToken.split('.');
    if (parts.length !== 3) throw new Error('the ID token is not a JWT');
    let header: { alg?: unknown; kid?: unknown };
    let claims: Record<string, unknown>;
    try {
      header = JSON.parse(Buffer.from(parts[0]!, 'base64url').toString('utf8')) as typeof header;
      claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as typeof claims;
    } catch {
      throw new Error('the ID token is not a JWT');
    }
    const algs: Record<string, { kty: string; hash: string; dsa?: 'ieee-p1363' }> = { RS256: { kty: 'RSA', hash: 'sha256' }, ES256: { kty: 'EC', hash: 'sha256', dsa: 'ieee-p1363' } };
    const alg = typeof header.alg === 'string' ? algs[header.alg] : undefined;
    if (alg === undefined) throw new Error('the ID token is signed with an algorithm this server does not accept');
    const jwks = await getJson(d.jwks_uri);
    const keys = Array.isArray(jwks['keys']) ? (jwks['keys'] as Array<Record<string, unknown>>) : [];
    const jwk = keys.find((k) => k['kty'] === alg.kty && (header.kid === undefined || k['kid'] === header.kid) && (k['use'] === undefined || k['use'] === 'sig'));
    if (jwk === undefined) throw new Error('no upstream key for the ID token');
    const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...pub } = jwk;
    const ok = verifySignature(alg.hash, Buffer.from(`${parts[0]}.${parts[1]}`), { key: createPublicKey({ key: pub as never, format: 'jwk' }), ...(alg.dsa && { dsaEncoding: alg.dsa }) }, Buffer.from(parts[2]!, 'base64url'));
    if (!ok) throw new Error('the ID token signature does not verify');
    if (claims['iss'] !== d.issuer) throw new Error('the ID token comes from another issuer');
    const aud = Array.isArray(claims['aud']) ? claims['aud'] : [claims['aud']];
    if (!aud.includes(upstream.clientId)) throw new Error('the ID token is for another client');
    if (typeof claims['exp'] !== 'number' || claims['exp'] * 1000 <= now()) throw new Error('the ID token has expired');
    if (claims['nonce'] !== nonce) throw new Error('the ID token is for another sign-in (nonce)');
    if (typeof claims['sub'] !== 'string' || claims['sub'] === '') throw new Error('the ID token names no subject');
    return claims;
  }
}
