/**
 * A protected MCP server for the auth-server specs: our `Server` behind `requireBearerAuth` and
 * the Protected Resource Metadata handler on one `listen()` (127.0.0.1, ephemeral port), tokens
 * from an in-test table, expiry judged on a ManualClock.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ManualClock } from '../../../lib/clock.js';
import { listen, type Listening } from '../../../lib/http/listen-port.js';
import { Server } from '../../../lib/server.js';
import { requireBearerAuth, type BearerAuthOptions, type BearerAuthenticate } from '../../../lib/auth/server/bearer-auth.js';
import { bearerAuthInfo, type VerifiedToken, type VerifyAccessToken } from '../../../lib/auth/server/auth-info.js';
import { createProtectedResourceMetadataHandler, type ProtectedResourceMetadataHandler } from '../../../lib/auth/server/protected-resource-handler.js';
import { createStreamableHttpHandler, type StreamableHttpHandler, type StreamableHttpOptions } from '../../../lib/server-bindings/streamable-http-server.js';

export const ISSUER = 'https://auth.example.com';
/** The clock starts here (ms); tokens expire an hour later unless told otherwise. */
export const T0 = 1_700_000_000_000;

export interface Protected {
  server: Server;
  auth: BearerAuthenticate;
  mcp: StreamableHttpHandler;
  prm: ProtectedResourceMetadataHandler;
  listening: Listening;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** The MCP endpoint (also the resource). */
  url: string;
  clock: ManualClock;
  /** The token table the verifier reads: add tokens in a test. */
  tokens: Map<string, VerifiedToken>;
  /** Tokens the verifier was asked about, in order. */
  verified: string[];
  /** `tools/call` handler runs, by tool name. */
  calls: string[];
  errors: Error[];
  close(): Promise<void>;
}

export interface ProtectOptions {
  auth?: Partial<BearerAuthOptions>;
  http?: StreamableHttpOptions;
  scopesSupported?: string[];
  /** Replace the table verifier. */
  verify?: VerifyAccessToken;
}

/** A token for this server: subject, scopes, an hour of life. */
export function tokenFor(resource: string, subject: string, scopes: string[], extra: Partial<VerifiedToken> = {}): VerifiedToken {
  return { subject, clientId: `client-of-${subject}`, scopes, expiresAt: T0 / 1000 + 3600, resource, ...extra };
}

export async function startProtected(options: ProtectOptions = {}): Promise<Protected> {
  const clock = new ManualClock(T0);
  const tokens = new Map<string, VerifiedToken>();
  const verified: string[] = [];
  const calls: string[] = [];
  const errors: Error[] = [];
  const server = new Server({ info: { name: 'protected', version: '1.0.0' }, capabilities: { tools: {} } });
  server.onRequest('tools/list', () => ({ tools: [{ name: 'whoami', inputSchema: { type: 'object' } }, { name: 'write', inputSchema: { type: 'object' } }] }));
  server.onRequest('tools/call', (params, ctx) => {
    calls.push(String(params?.name));
    const info = bearerAuthInfo(ctx.authInfo);
    return { content: [{ type: 'text', text: JSON.stringify({ authInfo: info ?? null, tool: params?.name }) }] };
  });
  // The resource names the port, known only once listening: the handlers are made then.
  const slot: { handler?: ProtectedResourceMetadataHandler } = {};
  const front = Object.assign((req: IncomingMessage, res: ServerResponse) => slot.handler!(req, res), { path: '/mcp', close: () => slot.handler!.close() });
  const listening = await listen(front, { logger: false });
  const url = listening.url;
  const origin = url.slice(0, -'/mcp'.length);
  const verify: VerifyAccessToken =
    options.verify ??
    ((token) => {
      verified.push(token);
      return tokens.get(token);
    });
  const auth = requireBearerAuth({ verifyAccessToken: verify, resource: url, clock, ...options.auth });
  const mcp = createStreamableHttpHandler(server, { authenticate: auth, onError: (e) => errors.push(e), ...options.http });
  const prm = createProtectedResourceMetadataHandler({ resource: url, authorizationServers: [ISSUER], scopesSupported: options.scopesSupported }, mcp);
  slot.handler = prm;
  return { server, auth, mcp, prm, listening, origin, url, clock, tokens, verified, calls, errors, close: () => listening.close() };
}

/** The auth-params of a `WWW-Authenticate: Bearer …` value. */
export function challengeParams(header: string | undefined): Record<string, string> {
  if (header === undefined) throw new Error('no WWW-Authenticate header');
  if (!/^Bearer( |$)/.test(header)) throw new Error(`not a Bearer challenge: ${header}`);
  const params: Record<string, string> = {};
  const re = /([a-z_]+)="((?:[^"\\]|\\.)*)"/g;
  for (let m = re.exec(header); m !== null; m = re.exec(header)) params[m[1]] = m[2].replace(/\\(.)/g, '$1');
  return params;
}
