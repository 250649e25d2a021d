// In-test servers for DPoP (RFC 9449), on 127.0.0.1 (port 0): an authorization server that
// checks the DPoP proof of every token request (authorization_code, refresh_token,
// client_credentials) and binds the tokens it issues to the proof's key, and our `Server` behind a
// front that accepts only DPoP-bound tokens with a valid proof (ath, htm, htu, key thumbprint).
// Either may demand nonces (`use_dpop_nonce`). Every proof is checked here with node:crypto: the
// signature against the header's jwk, then the claims; jti reuse is recorded across both servers.
import { createHash, createPublicKey, verify as verifySignature } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createProtectedResourceMetadataHandler, type ProtectedResourceMetadataHandler } from '../../lib/auth/server/protected-resource-handler.js';
import type { ManualClock } from '../../lib/clock.js';
import { listen } from '../../lib/http/listen-port.js';
import { Server } from '../../lib/server.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';

/** A proof as checked: its header and claims, and what was wrong with it (undefined: valid). */
export interface CheckedProof {
  header: Record<string, unknown>;
  claims: Record<string, unknown>;
  /** RFC 7638 thumbprint of the header's jwk. */
  jkt: string;
  problem: string | undefined;
}

const b64json = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;

export function thumbprint(jwk: Record<string, unknown>): string {
  const { crv, kty, x, y } = jwk;
  return createHash('sha256').update(JSON.stringify({ crv, kty, x, y })).digest('base64url');
}

/**
 * Checks a proof for `method` `url`: compact JWS, typ dpop+jwt, alg ES256, a public jwk the
 * signature verifies with, a string jti, htm, htu (the URL without query or fragment), a numeric
 * iat within 5 minutes of the clock, and, for a resource request, ath = SHA-256 of the token.
 */
export function checkProof(proof: string | undefined, method: string, url: string, clock: ManualClock, accessToken?: string): CheckedProof {
  const fail = (problem: string, header: Record<string, unknown> = {}, claims: Record<string, unknown> = {}): CheckedProof => ({ header, claims, jkt: '', problem });
  if (proof === undefined) return fail('no DPoP header');
  const [h, c, s] = proof.split('.');
  if (!h || !c || !s) return fail('not a compact JWS');
  const header = b64json(h);
  const claims = b64json(c);
  const jwk = header.jwk as Record<string, unknown> | undefined;
  if (header.typ !== 'dpop+jwt') return fail('typ is not dpop+jwt', header, claims);
  if (header.alg !== 'ES256') return fail('alg is not ES256', header, claims);
  if (!jwk || jwk.d !== undefined) return fail('no public jwk', header, claims);
  const key = createPublicKey({ key: jwk as never, format: 'jwk' });
  if (!verifySignature('sha256', Buffer.from(`${h}.${c}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(s, 'base64url'))) return fail('signature does not verify', header, claims);
  const u = new URL(url);
  const problem =
    typeof claims.jti !== 'string' || claims.jti.length < 16 ? 'jti missing or short'
    : claims.htm !== method ? `htm ${String(claims.htm)} is not ${method}`
    : claims.htu !== `${u.origin}${u.pathname}` ? `htu ${String(claims.htu)} is not ${u.origin}${u.pathname}`
    : typeof claims.iat !== 'number' || Math.abs(claims.iat - clock.now() / 1000) > 300 ? 'iat is not now'
    : accessToken !== undefined && claims.ath !== createHash('sha256').update(accessToken).digest('base64url') ? 'ath is not the hash of the token'
    : accessToken === undefined && claims.ath !== undefined ? 'ath on a token request'
    : undefined;
  return { header, claims, jkt: thumbprint(jwk), problem };
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export interface DpopAuthServerOptions {
  clock: ManualClock;
  /** What the metadata lists in `dpop_signing_alg_values_supported` (undefined: the member is absent). */
  algs?: string[];
  /** The nonce every token request must carry; a function: a new nonce on every request, none accepted. */
  nonce?: string | (() => string);
  /** Issue Bearer tokens even for a proof (RFC 9449 allows it). */
  bearerOnly?: boolean;
  expiresIn?: number;
}

export interface TokenRequestSeen {
  form: URLSearchParams;
  proof: CheckedProof | undefined;
  status: number;
}

export interface DpopAuthServer {
  issuer: string;
  tokenEndpoint: string;
  tokenRequests: TokenRequestSeen[];
  /** Access token → the jkt it is bound to ('' for Bearer). */
  tokens: Map<string, string>;
  close(): Promise<void>;
}

export async function startDpopAuthServer(options: DpopAuthServerOptions): Promise<DpopAuthServer> {
  const tokenRequests: TokenRequestSeen[] = [];
  const tokens = new Map<string, string>();
  const refreshTokens = new Map<string, string>();
  let counter = 0;
  let origin = '';
  const server: HttpServer = createServer((req, res) => {
    void (async () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (req.method === 'GET' && path === '/.well-known/oauth-authorization-server') {
        return json(res, 200, {
          issuer: origin,
          authorization_endpoint: `${origin}/authorize`,
          token_endpoint: `${origin}/token`,
          response_types_supported: ['code'],
          grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
          code_challenge_methods_supported: ['S256'],
          token_endpoint_auth_methods_supported: ['none', 'client_secret_post'],
          ...(options.algs !== undefined && { dpop_signing_alg_values_supported: options.algs }),
        });
      }
      if (!(req.method === 'POST' && path === '/token')) return json(res, 404, { error: 'not_found' });
      const form = new URLSearchParams(await readBody(req));
      const header = req.headers.dpop;
      const proof = typeof header === 'string' ? checkProof(header, 'POST', `${origin}/token`, options.clock) : undefined;
      const seen: TokenRequestSeen = { form, proof, status: 0 };
      tokenRequests.push(seen);
      const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        seen.status = status;
        json(res, status, body, headers);
      };
      if (proof?.problem !== undefined) return answer(400, { error: 'invalid_dpop_proof', error_description: proof.problem });
      if (proof && options.nonce !== undefined) {
        // A function: a server that never accepts a nonce twice, and answers each with a new one.
        const fresh = typeof options.nonce === 'function';
        if (fresh || proof.claims.nonce !== options.nonce) {
          const nonce = typeof options.nonce === 'function' ? options.nonce() : options.nonce;
          return answer(400, { error: 'use_dpop_nonce', error_description: 'a nonce is required' }, { 'dpop-nonce': nonce });
        }
      }
      const grant = form.get('grant_type');
      let jkt = proof?.jkt ?? '';
      if (grant === 'refresh_token') {
        // A public client's refresh token is bound to its key (RFC 9449 §5): the same key only.
        const boundTo = refreshTokens.get(form.get('refresh_token') ?? '');
        if (boundTo === undefined || boundTo !== jkt) return answer(400, { error: 'invalid_grant', error_description: 'refresh token unknown or bound to another key' });
      } else if (grant !== 'authorization_code' && grant !== 'client_credentials') {
        return answer(400, { error: 'unsupported_grant_type' });
      }
      if (options.bearerOnly) jkt = '';
      const access = `at-${++counter}`;
      const refresh = `rt-${counter}`;
      tokens.set(access, jkt);
      if (grant !== 'client_credentials') refreshTokens.set(refresh, proof?.jkt ?? '');
      answer(200, {
        access_token: access,
        token_type: jkt === '' ? 'Bearer' : 'DPoP',
        expires_in: options.expiresIn ?? 3600,
        ...(grant !== 'client_credentials' && { refresh_token: refresh }),
      });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer: origin,
    tokenEndpoint: `${origin}/token`,
    tokenRequests,
    tokens,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

export interface McpRequestSeen {
  method: string;
  url: string;
  authorization: string | undefined;
  proof: CheckedProof | undefined;
  status: number;
}

export interface DpopResourceServer {
  url: string;
  requests: McpRequestSeen[];
  close(): Promise<void>;
}

/**
 * Our `Server` behind a front that takes only DPoP-bound tokens of `as`, each with a valid proof
 * whose key is the token's. `nonces`: the nonce each request must carry, in order: the first
 * challenge asks for `nonces[0]`; a 200 may hand out the next one (`DPoP-Nonce` on a success).
 */
export async function startDpopResourceServer(as: DpopAuthServer, clock: ManualClock, options: { nonces?: string[]; rotateAfter?: number } = {}): Promise<DpopResourceServer> {
  const requests: McpRequestSeen[] = [];
  const server = new Server({ info: { name: 'dpop-protected', version: '1.0.0' }, capabilities: { tools: {} } });
  server.onRequest('tools/list', () => ({ tools: [{ name: 'whoami', inputSchema: { type: 'object' } }] }));
  server.onRequest('tools/call', () => ({ content: [{ type: 'text', text: 'ok' }] }));
  const slot: { handler?: ProtectedResourceMetadataHandler } = {};
  let url = '';
  let nonceIndex = 0;
  let successes = 0;
  const front = Object.assign(
    (req: IncomingMessage, res: ServerResponse) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path !== '/mcp') return slot.handler!(req, res);
      const authorization = req.headers.authorization;
      const seen: McpRequestSeen = { method: req.method ?? 'GET', url: req.url ?? '/', authorization, proof: undefined, status: 0 };
      requests.push(seen);
      res.on('finish', () => (seen.status = res.statusCode));
      const challenge = (params: string, headers: Record<string, string> = {}) =>
        json(res, 401, { error: 'unauthorized' }, { 'www-authenticate': `DPoP algs="ES256", ${params}resource_metadata="${new URL(url).origin}/.well-known/oauth-protected-resource/mcp"`, ...headers });
      const m = /^DPoP (\S+)$/.exec(authorization ?? '');
      if (!m) return challenge('');
      const token = m[1]!;
      const header = req.headers.dpop;
      seen.proof = checkProof(typeof header === 'string' ? header : undefined, seen.method, `${new URL(url).origin}${req.url ?? '/'}`, clock, token);
      const bound = as.tokens.get(token);
      if (seen.proof.problem !== undefined || bound === undefined || bound === '' || bound !== seen.proof.jkt) return challenge('error="invalid_token", ');
      const nonces = options.nonces ?? [];
      if (nonceIndex < nonces.length && seen.proof.claims.nonce !== nonces[nonceIndex]) {
        return challenge('error="use_dpop_nonce", ', { 'dpop-nonce': nonces[nonceIndex]! });
      }
      successes++;
      if (options.rotateAfter !== undefined && successes === options.rotateAfter && nonceIndex + 1 < nonces.length) {
        nonceIndex++;
        res.setHeader('dpop-nonce', nonces[nonceIndex]!);
      }
      slot.handler!(req, res);
    },
    { path: '/mcp', close: () => slot.handler!.close() },
  );
  const listening = await listen(front, { logger: false });
  url = listening.url;
  slot.handler = createProtectedResourceMetadataHandler({ resource: url, authorizationServers: [as.issuer] }, createStreamableHttpHandler(server));
  return { url, requests, close: () => listening.close() };
}
