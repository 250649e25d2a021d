// In-test OAuth pieces for the client auth specs, all on 127.0.0.1 (port 0): an authorization
// server that records what it is sent and checks PKCE, client authentication and redirect URIs,
// and a protected MCP server (our Server behind an `authenticate` hook) that serves its protected
// resource metadata and answers 401/403 with Bearer challenges.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ManualClock } from '../../lib/clock.js';
import { listen, type Listening } from '../../lib/http/listen-port.js';
import { Server } from '../../lib/server.js';
import type { AuthOutcome, Authenticate } from '../../streams/http-auth.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';

export const T0 = 1_700_000_000_000;

export interface Issued {
  scopes: string[];
  resource: string | undefined;
  clientId: string;
  /** Clock ms. */
  expiresAt: number;
}

export interface RecordedRequest {
  method: string;
  /** Path and query. */
  url: string;
  headers: IncomingMessage['headers'];
  /** Form or JSON body, parsed. */
  body: Record<string, unknown> | undefined;
}

interface RegisteredClient {
  client_id: string;
  client_secret?: string;
  token_endpoint_auth_method: string;
  redirect_uris: string[];
}

export interface AuthorizationServerOptions {
  /** The issuer's path (e.g. `/tenant1`). */
  issuerPath?: string;
  /** Where the metadata is served (paths on the AS). Default the RFC 8414 location for the issuer. */
  metadataPaths?: string[];
  /** Changes to the metadata (undefined values remove a field). */
  metadata?: Record<string, unknown>;
  /** Clients known without registration. */
  clients?: RegisteredClient[];
  /** The registered client ids are `<prefix>-1`, `<prefix>-2`... (default `client`). */
  clientIdPrefix?: string;
  /** Registration answers with this method whatever was asked (else it echoes the request). */
  registrationMethod?: string;
  /** The authorization endpoint sends back this state instead of the client's. */
  stateOverride?: string | null;
  /** RFC 9207: the `iss` put in the authorization response, made from the issuer (undefined: none). */
  issInResponse?: (issuer: string) => string;
  /** The authorization endpoint answers with this error (RFC 6749 §4.1.2.1) instead of a code. */
  authorizationError?: { error: string; error_description?: string; error_uri?: string };
  /** The registration endpoint refuses with this status and JSON body (RFC 7591 §3.2.2). */
  registrationError?: { status: number; body: Record<string, unknown> };
  /** A refresh answers with a new refresh token (default true; false: the old one stays valid and none comes back). */
  rotateRefreshTokens?: boolean;
  /** Lifetime of access tokens, in seconds. */
  expiresIn?: number;
  issueRefreshTokens?: boolean;
  /** Scopes the server never grants (dropped from the token). */
  withheldScopes?: string[];
  clock?: ManualClock;
}

export interface TestAuthorizationServer {
  origin: string;
  issuer: string;
  requests: RecordedRequest[];
  /** Query of each authorization request. */
  authorizations: URLSearchParams[];
  /** Form of each token request, with the client authentication method it used. */
  tokenRequests: { form: URLSearchParams; authMethod: string; authorization: string | undefined }[];
  registrations: Record<string, unknown>[];
  /** Access tokens issued, by value. */
  tokens: Map<string, Issued>;
  /** Refresh tokens still valid, by value. */
  refreshTokens: Map<string, Issued>;
  clock: ManualClock;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ server: HttpServer; origin: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

function close(server: HttpServer): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

export async function startAuthorizationServer(options: AuthorizationServerOptions = {}): Promise<TestAuthorizationServer> {
  const clock = options.clock ?? new ManualClock(T0);
  const requests: RecordedRequest[] = [];
  const authorizations: URLSearchParams[] = [];
  const tokenRequests: TestAuthorizationServer['tokenRequests'] = [];
  const registrations: Record<string, unknown>[] = [];
  const tokens = new Map<string, Issued>();
  const clients = new Map<string, RegisteredClient>((options.clients ?? []).map((c) => [c.client_id, c]));
  const codes = new Map<string, { clientId: string; challenge: string; redirectUri: string; resource: string | undefined; scopes: string[] }>();
  const refreshTokens = new Map<string, Issued>();
  let counter = 0;
  const prefix = options.issuerPath ?? '';
  let origin = '';

  const metadata = (): Record<string, unknown> => {
    const m: Record<string, unknown> = {
      issuer: origin + prefix,
      authorization_endpoint: `${origin}${prefix}/authorize`,
      token_endpoint: `${origin}${prefix}/token`,
      registration_endpoint: `${origin}${prefix}/register`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
    };
    for (const [k, v] of Object.entries(options.metadata ?? {})) {
      if (v === undefined) delete m[k];
      else m[k] = v;
    }
    return m;
  };
  const metadataPaths = options.metadataPaths ?? [prefix ? `/.well-known/oauth-authorization-server${prefix}` : '/.well-known/oauth-authorization-server'];

  /** `narrowed`: fewer scopes than requested were granted, so the answer must say which (RFC 6749 §5.1), even none. */
  const issue = (clientId: string, scopes: string[], resource: string | undefined, narrowed = false) => {
    counter++;
    const access = `access-${counter}`;
    const issued: Issued = { scopes, resource, clientId, expiresAt: clock.now() + (options.expiresIn ?? 3600) * 1000 };
    tokens.set(access, issued);
    const body: Record<string, unknown> = { access_token: access, token_type: 'Bearer', expires_in: options.expiresIn ?? 3600 };
    if (scopes.length > 0 || narrowed) body.scope = scopes.join(' ');
    if (options.issueRefreshTokens) {
      const refresh = `refresh-${counter}`;
      refreshTokens.set(refresh, issued);
      body.refresh_token = refresh;
    }
    return body;
  };

  /** Which client authentication a token request used, and whether it is the registered one with the right secret. */
  const authenticate = (req: IncomingMessage, form: URLSearchParams): { method: string; client: RegisteredClient | undefined } => {
    const header = req.headers.authorization;
    if (header?.startsWith('Basic ')) {
      const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
      const i = decoded.indexOf(':');
      const id = decodeURIComponent(decoded.slice(0, i).replace(/\+/g, ' '));
      const secret = decodeURIComponent(decoded.slice(i + 1).replace(/\+/g, ' '));
      const client = clients.get(id);
      return { method: 'client_secret_basic', client: client?.token_endpoint_auth_method === 'client_secret_basic' && client.client_secret === secret ? client : undefined };
    }
    const id = form.get('client_id') ?? '';
    const client = clients.get(id);
    if (form.has('client_secret')) {
      return { method: 'client_secret_post', client: client?.token_endpoint_auth_method === 'client_secret_post' && client.client_secret === form.get('client_secret') ? client : undefined };
    }
    return { method: 'none', client: client?.token_endpoint_auth_method === 'none' ? client : undefined };
  };

  const { server, origin: o } = await serve((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', origin);
      const text = req.method === 'POST' ? await readBody(req) : '';
      const isJson = (req.headers['content-type'] ?? '').includes('json');
      const body = text === '' ? undefined : isJson ? (JSON.parse(text) as Record<string, unknown>) : Object.fromEntries(new URLSearchParams(text));
      requests.push({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body });
      if (req.method === 'GET' && metadataPaths.includes(url.pathname)) return json(res, 200, metadata());
      if (req.method === 'GET' && url.pathname === `${prefix}/authorize`) {
        const q = url.searchParams;
        authorizations.push(q);
        const client = clients.get(q.get('client_id') ?? '');
        const redirectUri = q.get('redirect_uri') ?? '';
        const cimd = (q.get('client_id') ?? '').startsWith('https://');
        if (!cimd && (!client || !client.redirect_uris.includes(redirectUri))) return json(res, 400, { error: 'invalid_request', error_description: 'unknown client or redirect URI' });
        const code = `code-${++counter}`;
        codes.set(code, {
          clientId: q.get('client_id')!,
          challenge: q.get('code_challenge') ?? '',
          redirectUri,
          resource: q.get('resource') ?? undefined,
          scopes: q.get('scope')?.split(' ').filter(Boolean) ?? [],
        });
        const back = new URL(redirectUri);
        if (options.authorizationError) {
          codes.delete(code);
          for (const [k, v] of Object.entries(options.authorizationError)) if (v !== undefined) back.searchParams.set(k, v);
        } else {
          back.searchParams.set('code', code);
        }
        const state = options.stateOverride === undefined ? q.get('state') : options.stateOverride;
        if (state !== null) back.searchParams.set('state', state);
        if (options.issInResponse !== undefined) back.searchParams.set('iss', options.issInResponse(origin + prefix));
        res.writeHead(302, { location: back.href });
        return res.end();
      }
      if (req.method === 'POST' && url.pathname === `${prefix}/token`) {
        const form = new URLSearchParams(text);
        const { method, client } = authenticate(req, form);
        tokenRequests.push({ form, authMethod: method, authorization: req.headers.authorization });
        const cimd = (form.get('client_id') ?? '').startsWith('https://') && method === 'none';
        if (!client && !cimd) return json(res, 401, { error: 'invalid_client', error_description: `client authentication failed (${method})` });
        const clientId = client?.client_id ?? form.get('client_id')!;
        if (form.get('grant_type') === 'authorization_code') {
          const grant = codes.get(form.get('code') ?? '');
          codes.delete(form.get('code') ?? '');
          if (!grant || grant.clientId !== clientId) return json(res, 400, { error: 'invalid_grant', error_description: 'unknown code' });
          const verifier = form.get('code_verifier') ?? '';
          if (createHash('sha256').update(verifier).digest('base64url') !== grant.challenge) return json(res, 400, { error: 'invalid_grant', error_description: 'PKCE verification failed' });
          if (form.get('redirect_uri') !== grant.redirectUri) return json(res, 400, { error: 'invalid_grant', error_description: 'redirect_uri differs' });
          if (form.get('resource') !== grant.resource) return json(res, 400, { error: 'invalid_target', error_description: 'resource differs' });
          const granted = grant.scopes.filter((s) => !(options.withheldScopes ?? []).includes(s));
          return json(res, 200, issue(clientId, granted, grant.resource, granted.length < grant.scopes.length));
        }
        if (form.get('grant_type') === 'refresh_token') {
          const previous = refreshTokens.get(form.get('refresh_token') ?? '');
          if (!previous || previous.clientId !== clientId) return json(res, 400, { error: 'invalid_grant', error_description: 'unknown refresh token' });
          if (options.rotateRefreshTokens === false) {
            const { refresh_token: _kept, ...answer } = issue(clientId, previous.scopes, form.get('resource') ?? undefined);
            refreshTokens.delete(_kept as string);
            return json(res, 200, answer);
          }
          refreshTokens.delete(form.get('refresh_token')!);
          return json(res, 200, issue(clientId, previous.scopes, form.get('resource') ?? undefined));
        }
        return json(res, 400, { error: 'unsupported_grant_type' });
      }
      if (req.method === 'POST' && url.pathname === `${prefix}/register` && metadata().registration_endpoint !== undefined) {
        registrations.push(body ?? {});
        if (options.registrationError) return json(res, options.registrationError.status, options.registrationError.body);
        const method = options.registrationMethod ?? (body?.token_endpoint_auth_method as string | undefined) ?? 'client_secret_basic';
        const client: RegisteredClient = {
          client_id: `${options.clientIdPrefix ?? 'client'}-${++counter}`,
          ...(method !== 'none' && { client_secret: `secret+/${counter}:x` }),
          token_endpoint_auth_method: method,
          redirect_uris: (body?.redirect_uris as string[]) ?? [],
        };
        clients.set(client.client_id, client);
        return json(res, 201, client);
      }
      json(res, 404, { error: 'not_found' });
    })();
  });
  origin = o;
  return {
    origin,
    issuer: origin + prefix,
    requests,
    authorizations,
    tokenRequests,
    registrations,
    tokens,
    refreshTokens,
    clock,
    close: () => close(server),
  };
}

export interface ProtectedServerOptions {
  as: TestAuthorizationServer;
  /** Where the PRM is served. Default the path-based location of /mcp. Null: no PRM. */
  prmPath?: string | null;
  /** Put `resource_metadata` in the 401 challenge (default true). */
  advertiseMetadata?: boolean;
  /** The PRM's `resource` (or a function of the server's origin). Default the MCP endpoint URL. */
  prmResource?: string | ((origin: string) => string);
  scopesSupported?: string[];
  /** Scopes a token needs for any request. */
  requiredScopes?: string[];
  /** Scopes needed per method on top (403 insufficient_scope otherwise). */
  methodScopes?: Record<string, string[]>;
  /** Methods refused with 403 insufficient_scope for these scopes whatever the token holds (a server whose policy denies this user). */
  refusedMethods?: Record<string, string[]>;
  /** The challenge's `scope` on 401 (default: requiredScopes when any). */
  challengeScope?: string[];
  /** Also serve the HTTP+SSE endpoints (/sse, /messages). */
  legacySse?: boolean;
}

export interface TestProtectedServer {
  url: string;
  origin: string;
  /** Every HTTP request the MCP endpoint and the PRM saw. */
  requests: { method: string; url: string; authorization: string | undefined }[];
  /** Move to another authorization server: the PRM names it, and only its tokens are accepted. */
  useAuthorizationServer(as: TestAuthorizationServer): void;
  close(): Promise<void>;
}

export async function startProtectedServer(options: ProtectedServerOptions): Promise<TestProtectedServer> {
  const requests: TestProtectedServer['requests'] = [];
  let as = options.as;
  const server = new Server({ info: { name: 'protected', version: '1.0.0' }, capabilities: { tools: {} } });
  server.onRequest('tools/list', () => ({ tools: [{ name: 'echo', inputSchema: { type: 'object' } }] }));
  server.onRequest('tools/call', () => ({ content: [{ type: 'text', text: 'ok' }] }));
  let origin = '';
  const prmPath = options.prmPath === undefined ? '/.well-known/oauth-protected-resource/mcp' : options.prmPath;
  const challenge = (error: string, scopes: string[] | undefined) => {
    const parts = [`error="${error}"`];
    if (scopes && scopes.length > 0) parts.push(`scope="${scopes.join(' ')}"`);
    if (prmPath !== null && options.advertiseMetadata !== false) parts.push(`resource_metadata="${origin}${prmPath}"`);
    return `Bearer ${parts.join(', ')}`;
  };
  const authenticate: Authenticate = (req): AuthOutcome => {
    const header = req.headers.authorization;
    const token = header?.startsWith('Bearer ') ? header.slice(7) : undefined;
    const issued = token === undefined ? undefined : as.tokens.get(token);
    const scope = options.challengeScope ?? options.requiredScopes;
    const resource = typeof options.prmResource === 'function' ? options.prmResource(origin) : `${origin}/mcp`;
    if (!issued || issued.expiresAt <= as.clock.now() || issued.resource !== resource) {
      return { ok: false, status: 401, wwwAuthenticate: challenge('invalid_token', scope), body: { error: 'invalid_token' } };
    }
    if (!(options.requiredScopes ?? []).every((s) => issued.scopes.includes(s))) {
      return { ok: false, status: 403, wwwAuthenticate: challenge('insufficient_scope', options.requiredScopes), body: { error: 'insufficient_scope' } };
    }
    return { ok: true, authInfo: { sub: 'user-1', scopes: issued.scopes } };
  };
  authenticate.authorizeMessages = (methods, authInfo) => {
    const held = (authInfo as { scopes: string[] }).scopes;
    for (const m of methods) {
      const refused = options.refusedMethods?.[m];
      if (refused) return { ok: false, status: 403, wwwAuthenticate: challenge('insufficient_scope', refused), body: { error: 'insufficient_scope' } };
      const needed = [...(options.requiredScopes ?? []), ...(options.methodScopes?.[m] ?? [])];
      if (!needed.every((s) => held.includes(s))) {
        return { ok: false, status: 403, wwwAuthenticate: challenge('insufficient_scope', needed), body: { error: 'insufficient_scope' } };
      }
    }
    return undefined;
  };
  const mcp = createStreamableHttpHandler(server, { authenticate, ...(options.legacySse && { legacySse: true }) });
  const handler = Object.assign(
    (req: IncomingMessage, res: ServerResponse) => {
      requests.push({ method: req.method ?? 'GET', url: req.url ?? '/', authorization: req.headers.authorization });
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (req.method === 'GET' && prmPath !== null && path === prmPath) {
        const resource = typeof options.prmResource === 'function' ? options.prmResource(origin) : (options.prmResource ?? `${origin}/mcp`);
        const prm: Record<string, unknown> = { resource, authorization_servers: [as.issuer] };
        if (options.scopesSupported) prm.scopes_supported = options.scopesSupported;
        return json(res, 200, prm);
      }
      if (path.startsWith('/.well-known/')) return json(res, 404, { error: 'not_found' });
      mcp(req, res);
    },
    { path: '/mcp', close: () => mcp.close() },
  );
  const listening: Listening = await listen(handler, { logger: false });
  origin = new URL(listening.url).origin;
  return {
    url: listening.url,
    origin,
    requests,
    useAuthorizationServer: (next) => {
      as = next;
    },
    close: () => listening.close(),
  };
}

export interface StaticServer {
  origin: string;
  /** Paths requested, in order. */
  paths: string[];
  close(): Promise<void>;
}

/** Serves JSON documents by path (everything else 404), recording the paths asked for. */
export async function startStaticServer(documents: (origin: string) => Record<string, unknown>): Promise<StaticServer> {
  const paths: string[] = [];
  let origin = '';
  const { server, origin: o } = await serve((req, res) => {
    const path = new URL(req.url ?? '/', origin).pathname;
    paths.push(path);
    const doc = documents(origin)[path];
    if (doc === undefined) return json(res, 404, { error: 'not_found' });
    json(res, 200, doc);
  });
  origin = o;
  return { origin, paths, close: () => close(server) };
}
