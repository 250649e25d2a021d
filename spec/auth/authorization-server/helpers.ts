import { createHash } from 'node:crypto';
// Real parts for the authorization server's end-to-end specs: our authorization server on a
// loopback port, MCP servers it protects (ours, behind requireBearerAuth with its verifier), and
// a person in chromium signing in and allowing on its pages.
import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { createAuthorizationServer, type AuthorizationServer, type AuthorizationServerOptions } from '../../../lib/auth/authorization-server/authorization-server.js';
import { memoryAccounts } from '../../../lib/auth/authorization-server/accounts.js';
import { bearerAuthInfo } from '../../../lib/auth/server/auth-info.js';
import { requireBearerAuth, type BearerAuthOptions } from '../../../lib/auth/server/bearer-auth.js';
import { createProtectedResourceMetadataHandler } from '../../../lib/auth/server/protected-resource-handler.js';
import { Server } from '../../../lib/server.js';
import { createStreamableHttpHandler } from '../../../lib/server-bindings/streamable-http-server.js';
import type { Authenticate } from '../../../streams/http-auth.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const USER = { name: 'alice', password: 'correct horse battery' };

export interface Loopback {
  origin: string;
  server: HttpServer;
  set(handler: (req: IncomingMessage, res: ServerResponse) => void): void;
  close(): Promise<void>;
}

/** An HTTP server on 127.0.0.1 whose handler is set once its port is known. */
export async function loopback(): Promise<Loopback> {
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  const server = createServer((req, res) => handler!(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    set: (h) => (handler = h),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Our authorization server on a loopback port, with `resources` made from the port `mcp` listeners will get. */
export async function startAuthorizationServer(options: Omit<AuthorizationServerOptions, 'issuer' | 'accounts'> & { accounts?: AuthorizationServerOptions['accounts'] }): Promise<{ as: AuthorizationServer; http: Loopback; logs: string[] }> {
  const http = await loopback();
  const logs: string[] = [];
  const as = await createAuthorizationServer({ accounts: memoryAccounts({ [USER.name]: USER.password }), log: (line) => logs.push(line), ...options, issuer: http.origin });
  http.set((req, res) => as.handler(req, res));
  return { as, http, logs };
}

export interface ProtectedMcp {
  url: string;
  /** Every request's method, path and Authorization scheme, with the answer's status and challenge. */
  seen: Array<{ method: string; path: string; scheme?: string; status?: number; challenge?: string }>;
  close(): Promise<void>;
}

/** A free MCP endpoint URL (a port reserved by listening), to name as a resource before the server exists. */
export async function reserveMcp(): Promise<{ url: string; http: Loopback }> {
  const http = await loopback();
  return { url: `${http.origin}/mcp`, http };
}

/**
 * Our MCP server with a `whoami` tool at `reserved.url`, protected by `requireBearerAuth` with
 * the authorization server's verifier, and its Protected Resource Metadata naming that server.
 */
export async function startProtectedMcp(reserved: { url: string; http: Loopback }, as: AuthorizationServer, bearer: Partial<BearerAuthOptions> = {}, wrap?: (a: Authenticate) => Authenticate): Promise<ProtectedMcp> {
  const server = new Server({ info: { name: 'protected', version: '1.0.0' }, capabilities: { tools: {} } });
  server.onRequest('tools/list', () => ({ tools: [{ name: 'whoami', inputSchema: { type: 'object' } }] }));
  server.onRequest('tools/call', (_params, ctx) => {
    const info = bearerAuthInfo(ctx.authInfo);
    return { content: [{ type: 'text', text: JSON.stringify({ subject: info?.subject, clientId: info?.clientId, scopes: info?.scopes, resource: info?.resource }) }] };
  });
  const bearerAuth = requireBearerAuth({ resource: reserved.url, verifyAccessToken: as.verifier(reserved.url), ...bearer });
  const mcp = createStreamableHttpHandler(server, { authenticate: wrap ? wrap(bearerAuth) : bearerAuth });
  const prm = createProtectedResourceMetadataHandler({ resource: reserved.url, authorizationServers: [as.issuer], scopesSupported: ['mcp'] }, mcp);
  const seen: ProtectedMcp['seen'] = [];
  reserved.http.set((req, res) => {
    const entry: ProtectedMcp['seen'][number] = { method: req.method ?? '', path: req.url ?? '', ...(req.headers.authorization && { scheme: req.headers.authorization.split(' ')[0] }) };
    seen.push(entry);
    res.on('finish', () => {
      entry.status = res.statusCode;
      const challenge = res.getHeader('www-authenticate');
      if (challenge !== undefined) entry.challenge = String(challenge);
    });
    prm(req, res);
  });
  return {
    url: reserved.url,
    seen,
    close: async () => {
      await mcp.close?.();
      await server.close();
      await reserved.http.close();
    },
  };
}

/** Chromium, or a clear failure when it is not installed. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`No chromium at ${CHROMIUM} (set CHROMIUM_PATH)`);
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update'] });
}

/**
 * A person at the browser: opens the authorization URL in a fresh context, signs in on our login
 * page, allows on the consent page, and resolves with the URL the server redirected back to
 * (caught before it leaves the browser: nothing needs to listen at the redirect URI).
 * `onConsent` sees the consent page's text.
 */
export function browserAuthorize(browser: Browser, redirectUrl: string, onConsent?: (text: string) => void, order: 'sign-in first' | 'consent first' = 'sign-in first'): (authorizationUrl: URL) => Promise<URL> {
  return async (authorizationUrl) => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      let resolveBack!: (u: URL) => void;
      const back = new Promise<URL>((r) => (resolveBack = r));
      await page.route(
        (u) => u.href.startsWith(redirectUrl),
        async (route) => {
          resolveBack(new URL(route.request().url()));
          await route.fulfill({ status: 200, contentType: 'text/plain', body: 'You may close this window.' });
        },
      );
      await page.goto(authorizationUrl.href);
      const allow = async (last: boolean) => {
        await page.waitForSelector('#allow', { timeout: 10_000 });
        onConsent?.((await page.textContent('body')) ?? '');
        if (last) await page.click('#allow');
        else await Promise.all([page.waitForNavigation(), page.click('#allow')]);
      };
      // Behind a front: the front's consent first (before anything goes upstream), then the upstream's sign-in and consent.
      if (order === 'consent first') await allow(false);
      await page.fill('#username', USER.name);
      await page.fill('#password', USER.password);
      await page.click('button[type=submit]');
      await allow(true);
      return await back;
    } finally {
      await context.close();
    }
  };
}

/**
 * Sign in as {@link USER} and allow, without a browser (cookies carried by hand): the
 * authorization code for a PKCE S256 request with `verifier` (and `scope` when given).
 */
export async function signInCode(issuer: string, request: { clientId: string; redirect: string; resource: string; verifier: string; scope?: string }): Promise<string> {
  const jar = new Map<string, string>();
  const go = async (url: string, init: RequestInit = {}): Promise<Response> => {
    const res = await fetch(new URL(url, issuer), { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string>), cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } });
    for (const c of res.headers.getSetCookie()) {
      const [kv] = c.split(';');
      const i = kv!.indexOf('=');
      jar.set(kv!.slice(0, i), kv!.slice(i + 1));
    }
    return res;
  };
  const challenge = createHash('sha256').update(request.verifier).digest('base64url');
  const q = new URLSearchParams({ response_type: 'code', client_id: request.clientId, redirect_uri: request.redirect, code_challenge: challenge, code_challenge_method: 'S256', resource: request.resource, state: 's' });
  if (request.scope !== undefined) q.set('scope', request.scope);
  let res = await go(`/auth?${q}`);
  const form = { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' } };
  res = await go(`${res.headers.get('location')!}/login`, { ...form, body: new URLSearchParams({ username: USER.name, password: USER.password }).toString() });
  res = await go(res.headers.get('location')!);
  res = await go(`${res.headers.get('location')!}/confirm`, { ...form, body: '' });
  res = await go(res.headers.get('location')!);
  return new URL(res.headers.get('location')!).searchParams.get('code')!;
}
