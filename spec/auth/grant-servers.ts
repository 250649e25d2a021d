// In-test servers for the client modes without a user, all on 127.0.0.1 (port 0): an
// authorization server with the client credentials and jwt-bearer grants (secrets checked,
// private_key_jwt assertions verified with node:crypto), an identity provider's token-exchange
// endpoint issuing ID-JAGs, and our `Server` behind `requireBearerAuth` with its protected
// resource metadata. One ManualClock judges expiry everywhere.
import { verify as verifySignature, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bearerAuthInfo, type VerifiedToken } from '../../lib/auth/server/auth-info.js';
import { requireBearerAuth } from '../../lib/auth/server/bearer-auth.js';
import { createProtectedResourceMetadataHandler, type ProtectedResourceMetadataHandler } from '../../lib/auth/server/protected-resource-handler.js';
import type { ManualClock } from '../../lib/clock.js';
import { listen } from '../../lib/http/listen-port.js';
import { Server } from '../../lib/server.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';

export const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
export const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';

export interface GrantClient {
  secret?: string;
  /** For private_key_jwt. */
  publicKey?: KeyObject;
  /** A client without credentials (`none`: its client_id in the body). */
  public?: boolean;
}

export interface GrantServerOptions {
  clock: ManualClock;
  clients: Record<string, GrantClient>;
  grantTypes?: string[];
  authMethods?: string[];
  /** Lifetime of access tokens, in seconds (default 3600). */
  expiresIn?: number;
  /** ID tokens the IdP accepts for the token exchange. */
  idTokens?: string[];
  /** Workload JWTs accepted as jwt-bearer assertions (workload identity federation), with their audience. */
  workloadAssertions?: Record<string, { audience: string }>;
}

export interface TokenRequestSeen {
  path: string;
  form: URLSearchParams;
  authorization: string | undefined;
}

export interface Issued {
  clientId: string;
  scopes: string[];
  resource: string | undefined;
  /** Clock ms. */
  expiresAt: number;
}

export interface GrantServer {
  origin: string;
  issuer: string;
  idpTokenEndpoint: string;
  /** Every request, as `METHOD path`. */
  requests: string[];
  tokenRequests: TokenRequestSeen[];
  idpRequests: TokenRequestSeen[];
  tokens: Map<string, Issued>;
  /** Claims of each verified client assertion. */
  assertions: { header: Record<string, unknown>; claims: Record<string, unknown> }[];
  close(): Promise<void>;
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const formDecode = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));

/** A compact JWS checked with node:crypto: signature, then the claims the test asks about. */
function verifyJwt(jwt: string, key: KeyObject): { header: Record<string, unknown>; claims: Record<string, unknown> } | undefined {
  const [h, c, s] = jwt.split('.');
  if (!h || !c || !s) return undefined;
  const header = JSON.parse(Buffer.from(h, 'base64url').toString()) as Record<string, unknown>;
  const data = Buffer.from(`${h}.${c}`);
  const sig = Buffer.from(s, 'base64url');
  const ok = header.alg === 'ES256' ? verifySignature('sha256', data, { key, dsaEncoding: 'ieee-p1363' }, sig) : header.alg === 'RS256' && verifySignature('sha256', data, key, sig);
  return ok ? { header, claims: JSON.parse(Buffer.from(c, 'base64url').toString()) as Record<string, unknown> } : undefined;
}

export async function startGrantServer(options: GrantServerOptions): Promise<GrantServer> {
  const { clock } = options;
  const requests: string[] = [];
  const tokenRequests: TokenRequestSeen[] = [];
  const idpRequests: TokenRequestSeen[] = [];
  const tokens = new Map<string, Issued>();
  const assertions: GrantServer['assertions'] = [];
  const idJags = new Map<string, { audience: string; resource: string; clientId: string }>();
  let counter = 0;
  let origin = '';

  /** The authenticated client id, or why not. */
  const authenticate = (req: IncomingMessage, form: URLSearchParams): string | { error: string } => {
    const header = req.headers.authorization;
    if (header?.startsWith('Basic ')) {
      const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
      const i = decoded.indexOf(':');
      const id = formDecode(decoded.slice(0, i));
      return options.clients[id]?.secret !== undefined && options.clients[id]!.secret === formDecode(decoded.slice(i + 1)) ? id : { error: 'bad basic credentials' };
    }
    const id = form.get('client_id') ?? '';
    const client = options.clients[id];
    if (form.has('client_secret')) return client?.secret !== undefined && client.secret === form.get('client_secret') ? id : { error: 'bad post credentials' };
    if (form.get('client_assertion_type') === 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer') {
      if (!client?.publicKey) return { error: 'no key for client' };
      const jwt = verifyJwt(form.get('client_assertion') ?? '', client.publicKey);
      if (!jwt) return { error: 'bad assertion signature' };
      const { claims } = jwt;
      if (claims.iss !== id || claims.sub !== id || claims.aud !== origin || typeof claims.exp !== 'number' || claims.exp * 1000 <= clock.now()) return { error: 'bad assertion claims' };
      assertions.push(jwt);
      return id;
    }
    if (client?.public === true) return id;
    return { error: 'no client authentication' };
  };

  const issue = (clientId: string, scope: string | null, resource: string | null) => {
    const access = `access-${++counter}`;
    const expiresIn = options.expiresIn ?? 3600;
    const scopes = scope?.split(' ').filter(Boolean) ?? [];
    tokens.set(access, { clientId, scopes, resource: resource ?? undefined, expiresAt: clock.now() + expiresIn * 1000 });
    return { access_token: access, token_type: 'Bearer', expires_in: expiresIn, ...(scopes.length > 0 && { scope: scopes.join(' ') }) };
  };

  const server: HttpServer = createServer((req, res) => {
    void (async () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      requests.push(`${req.method} ${path}`);
      if (req.method === 'GET' && path === '/.well-known/oauth-authorization-server') {
        const grantTypes = options.grantTypes ?? ['client_credentials', JWT_BEARER];
        // A server for machine clients only has no authorization endpoint (RFC 8414 §2).
        const withCode = grantTypes.includes('authorization_code');
        return json(res, 200, {
          issuer: origin,
          ...(withCode && { authorization_endpoint: `${origin}/authorize`, response_types_supported: ['code'] }),
          token_endpoint: `${origin}/token`,
          grant_types_supported: grantTypes,
          token_endpoint_auth_methods_supported: options.authMethods ?? ['client_secret_basic', 'client_secret_post', 'private_key_jwt'],
          token_endpoint_auth_signing_alg_values_supported: ['ES256', 'RS256'],
        });
      }
      const form = new URLSearchParams(req.method === 'POST' ? await readBody(req) : '');
      const seen = { path, form, authorization: req.headers.authorization };
      if (req.method === 'POST' && path === '/idp/token') {
        idpRequests.push(seen);
        if (form.get('grant_type') !== TOKEN_EXCHANGE) return json(res, 400, { error: 'unsupported_grant_type' });
        if (!(options.idTokens ?? []).includes(form.get('subject_token') ?? '')) return json(res, 400, { error: 'invalid_grant', error_description: 'unknown ID token' });
        const idJag = `idjag-${++counter}`;
        // The IdP's policy: the ID-JAG is for the MCP client registered at the audience, `xaa-client` here.
        idJags.set(idJag, { audience: form.get('audience') ?? '', resource: form.get('resource') ?? '', clientId: 'xaa-client' });
        return json(res, 200, { access_token: idJag, issued_token_type: 'urn:ietf:params:oauth:token-type:id-jag', token_type: 'N_A', expires_in: 300 });
      }
      if (req.method === 'POST' && path === '/token') {
        tokenRequests.push(seen);
        const client = authenticate(req, form);
        if (typeof client !== 'string') return json(res, 401, { error: 'invalid_client', error_description: client.error });
        const grant = form.get('grant_type');
        if (!(options.grantTypes ?? ['client_credentials', JWT_BEARER]).includes(grant ?? '')) return json(res, 400, { error: 'unsupported_grant_type' });
        if (grant === 'client_credentials') return json(res, 200, issue(client, form.get('scope'), form.get('resource')));
        if (grant === JWT_BEARER) {
          const workload = options.workloadAssertions?.[form.get('assertion') ?? ''];
          if (workload !== undefined) {
            if (workload.audience !== origin) return json(res, 400, { error: 'invalid_grant', error_description: 'assertion audience is not this server' });
            return json(res, 200, issue(client, form.get('scope'), form.get('resource')));
          }
          if (options.workloadAssertions !== undefined) return json(res, 400, { error: 'invalid_grant', error_description: 'assertion refused' });
          const jag = idJags.get(form.get('assertion') ?? '');
          if (!jag || jag.audience !== origin || jag.clientId !== client) return json(res, 400, { error: 'invalid_grant', error_description: 'unknown ID-JAG' });
          idJags.delete(form.get('assertion')!);
          return json(res, 200, issue(client, form.get('scope'), jag.resource));
        }
      }
      json(res, 404, { error: 'not_found' });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    issuer: origin,
    idpTokenEndpoint: `${origin}/idp/token`,
    requests,
    tokenRequests,
    idpRequests,
    tokens,
    assertions,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

export interface ProtectedMcp {
  url: string;
  /** Every request the MCP endpoint and its metadata saw: method, path, Authorization. */
  requests: { method: string; path: string; url: string; authorization: string | undefined; status?: number }[];
  /** The client id each tool call was made with, as `requireBearerAuth` verified it. */
  callers: string[];
  close(): Promise<void>;
}

/** Our `Server` behind `requireBearerAuth`, tokens looked up in the grant server's table, expiry on `clock`. */
export async function startProtectedMcp(as: GrantServer, clock: ManualClock, options: { scopesSupported?: string[]; prmResource?: string } = {}): Promise<ProtectedMcp> {
  const requests: ProtectedMcp['requests'] = [];
  const callers: string[] = [];
  const server = new Server({ info: { name: 'protected', version: '1.0.0' }, capabilities: { tools: {} } });
  server.onRequest('tools/list', () => ({ tools: [{ name: 'whoami', inputSchema: { type: 'object' } }] }));
  server.onRequest('tools/call', (_params, ctx) => {
    callers.push(bearerAuthInfo(ctx.authInfo)?.clientId ?? '(none)');
    return { content: [{ type: 'text', text: 'ok' }] };
  });
  const slot: { handler?: ProtectedResourceMetadataHandler } = {};
  const front = Object.assign(
    (req: IncomingMessage, res: ServerResponse) => {
      const entry: ProtectedMcp['requests'][number] = { method: req.method ?? 'GET', path: new URL(req.url ?? '/', 'http://x').pathname, url: req.url ?? '/', authorization: req.headers.authorization };
      requests.push(entry);
      res.on('finish', () => (entry.status = res.statusCode));
      slot.handler!(req, res);
    },
    { path: '/mcp', close: () => slot.handler!.close() },
  );
  const listening = await listen(front, { logger: false });
  const url = listening.url;
  const auth = requireBearerAuth({
    resource: url,
    clock,
    verifyAccessToken: (token): VerifiedToken | undefined => {
      const issued = as.tokens.get(token);
      return issued && { clientId: issued.clientId, scopes: issued.scopes, expiresAt: Math.floor(issued.expiresAt / 1000), ...(issued.resource !== undefined && { resource: issued.resource }) };
    },
  });
  const mcp = createStreamableHttpHandler(server, { authenticate: auth });
  slot.handler = createProtectedResourceMetadataHandler(
    { resource: options.prmResource ?? url, authorizationServers: [as.issuer], ...(options.scopesSupported && { scopesSupported: options.scopesSupported }) },
    mcp,
  );
  return { url, requests, callers, close: () => listening.close() };
}
