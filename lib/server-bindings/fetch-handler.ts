/**
 * The Web-standard MCP handler: `(request: Request) => Promise<Response>`, for the runtimes that
 * speak fetch (Bun, Deno, Cloudflare Workers, Vercel, Hono on any of them, Node through a bridge).
 *
 * It is the node handler's core (`HttpServerCore` in streamable-http-server.ts: routing, Host and
 * Origin checks, CORS, authentication, body limits, sessions, both eras) behind the shim of
 * fetch-shim.ts; nothing here routes or checks anything itself.
 *
 * - 2026-07-28 (stateless) requests are served fully anywhere: a JSON answer, or an SSE
 *   `ReadableStream` when notifications come first; cancelling that stream cancels the request.
 * - 2025-era sessions (and the 2024-11-05 HTTP+SSE endpoints with `legacySse`) live in this
 *   process's memory: they need a long-lived process (Bun, Deno, Node), not a Worker isolate that
 *   may serve each request somewhere else. `stateless: true` serves old clients without sessions.
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http
 */
import type { Server } from '../server.js';
import { WebRequestIn, WebResponseOut } from '../../streams/fetch-shim.js';
import { HttpServerCore } from './http-server-core.js';
import type { HandlerExtras, StreamableHttpOptions } from './http-server-options.js';

/** Options of {@link createMcpFetchHandler}: those of the node handler. */
export type McpFetchHandlerOptions = StreamableHttpOptions;

/** The fetch handler, with the node handler's extras (`path`, `sessionCount`, `stats`, `closeSseStream`, `close`). */
export interface McpFetchHandler extends HandlerExtras {
  (request: Request): Promise<Response>;
}

/**
 * Create the Web-standard MCP handler for `server` (a `Server`, or an `McpServer`).
 *
 * A fetch runtime does not say on which address a request arrived, so the Host check cannot key
 * on a loopback connection as the node handler does: without `allowedHosts` the handler acts as
 * on a loopback address (only `localhost`, `127.0.0.1` and `[::1]` pass, and loopback origins);
 * with `allowedHosts` it acts as on a public one (those hosts, and origins equal to the Host or
 * in `allowedOrigins`). Deployed behind a public name, set `allowedHosts`.
 *
 * ```ts
 * const handler = createMcpFetchHandler(mcp, { allowedHosts: ['mcp.example.com'] });
 * export default { fetch: handler };                 // Workers, Bun, Deno (deno serve)
 * ```
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#security-warning
 */
export function createMcpFetchHandler(server: Server | { readonly server: Server }, options: McpFetchHandlerOptions = {}): McpFetchHandler {
  const core = new HttpServerCore(serverOf(server), options);
  const localAddress = options.allowedHosts === undefined ? '127.0.0.1' : undefined;
  const handler = ((request: Request): Promise<Response> => {
    const res = new WebResponseOut(request);
    core.handle(new WebRequestIn(request, localAddress), res, undefined);
    return res.response;
  }) as McpFetchHandler;
  return core.describe(handler);
}

function serverOf(server: Server | { readonly server: Server }): Server {
  return 'server' in server && typeof server.server === 'object' && server.server !== null ? server.server : (server as Server);
}
