/**
 * `--auth` of the demo server (examples/everything.ts): the embedded authorization server on its
 * own port, and what the MCP endpoint needs to be its resource server: `requireBearerAuth` with
 * the authorization server's verifier (DPoP-bound tokens accepted), and the Protected Resource
 * Metadata (RFC 9728) naming the authorization server.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createAuthorizationServer } from '../lib/auth/authorization-server/authorization-server.js';
import { memoryAccounts } from '../lib/auth/authorization-server/accounts.js';
import { requireBearerAuth } from '../lib/auth/server/bearer-auth.js';
import { createProtectedResourceMetadataHandler } from '../lib/auth/server/protected-resource-handler.js';
import type { InterceptedRequest, Interceptor } from '../lib/server-features/interceptors/server-chain.js';
import { perCallerView } from '../lib/server-features/interceptors/views.js';

/** The scope that shows the notebook's maintenance: a token asks for it explicitly (clients ask for `mcp`). */
export const ADMIN_SCOPE = 'notebook:admin';
const ADMIN_ONLY = { tools: new Set(['rebuild_index']), prompts: new Set(['weekly_review']) };

/**
 * Views by scope (issue 29): a caller without {@link ADMIN_SCOPE} does not see `rebuild_index` or
 * `weekly_review`, and naming either gets -32602 as for an unknown one.
 */
export function viewsByScope(): Interceptor {
  const admin = (req: InterceptedRequest) => ((req.caller.authInfo as { scopes?: string[] } | undefined)?.scopes ?? []).includes(ADMIN_SCOPE);
  return perCallerView({
    tools: (name, req) => !ADMIN_ONLY.tools.has(name) || admin(req),
    prompts: (name, req) => !ADMIN_ONLY.prompts.has(name) || admin(req),
  });
}

type NodeHandler = ((req: IncomingMessage, res: ServerResponse) => void) & { path?: string; close?: () => Promise<void> };

export async function protectWithEmbeddedAuthorizationServer(options: { port: number; authPort: number; out: (line: string) => void }) {
  const { port, authPort, out } = options;
  // The resource and the issuer are URLs clients see: the ports must be known before listening.
  if (!(port > 0) || !(authPort > 0) || port === authPort) throw new Error('--auth needs fixed, different PORT and AUTH_PORT (not 0)');
  const resource = `http://127.0.0.1:${port}/mcp`;
  const issuer = `http://127.0.0.1:${authPort}`;
  const user = process.env.MCP_DEMO_USER || 'demo';
  const given = process.env.MCP_DEMO_PASSWORD;
  const password = given || randomBytes(12).toString('base64url');
  const as = await createAuthorizationServer({
    issuer,
    // `mcp` for everyone (the metadata's scopes_supported, what clients ask for); the admin scope on request.
    resources: [{ uri: resource, scopes: ['mcp', ADMIN_SCOPE] }],
    accounts: memoryAccounts({ [user]: password }),
    log: (line) => out(`[auth] ${line}`),
  });
  const http = createServer((req, res) => as.handler(req, res));
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(authPort, '127.0.0.1', () => resolve());
  });
  // The operator's terminal is told the password it made (once); the authorization server's log never has it.
  out(`everything: protected by the authorization server at ${issuer}; sign in as "${user}"${given ? ' with MCP_DEMO_PASSWORD' : ` with the password ${password} (set MCP_DEMO_PASSWORD to choose one)`}`);
  return {
    /** What each caller sees (views by scope), for `mcp.use`. */
    view: viewsByScope(),
    authenticate: requireBearerAuth({ resource, verifyAccessToken: as.verifier(resource), dpop: true }),
    /** The MCP handler behind the Protected Resource Metadata (which names this authorization server). */
    wrap(handler: NodeHandler): NodeHandler {
      const prm = createProtectedResourceMetadataHandler({ resource, authorizationServers: [issuer], scopesSupported: ['mcp'], resourceName: 'Field notebook (mcp-actors demo)' }, handler);
      return Object.assign((req: IncomingMessage, res: ServerResponse) => prm(req, res), { ...(handler.path !== undefined && { path: handler.path }), ...(handler.close && { close: handler.close }) });
    },
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
