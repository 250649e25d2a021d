/**
 * Serve a fetch handler (such as `createMcpFetchHandler(mcp)`) with what the runtime offers:
 * `Bun.serve` on Bun, `Deno.serve` on Deno, and on Node a small `node:http` bridge (loaded only
 * there, so this module imports no `node:` built-in). Binds 127.0.0.1 unless told otherwise, like
 * `listen()`.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#security-warning
 */

import type { Bound } from './node-fetch-bridge.js';
import { runtimeName, type RuntimeName } from '../runtime.js';

export { runtimeName, type RuntimeName } from '../runtime.js';

/** A fetch handler, as `createMcpFetchHandler` returns it (`path` and `close` are used when present). */
export type FetchHandler = ((request: Request) => Response | Promise<Response>) & { path?: string; close?: () => Promise<void> };

export interface ServeFetchOptions {
  /** Port; 0 (the default) picks a free one. */
  port?: number;
  /** Interface to bind. Default `127.0.0.1`. */
  host?: string;
  /** Where the "listening on" line goes; false for nowhere. Default `console.error`. */
  logger?: ((line: string) => void) | false;
}

export interface ServedFetch {
  /** The MCP endpoint's URL (the handler's `path` on the bound address). */
  readonly url: string;
  readonly port: number;
  readonly host: string;
  /** Which server runs it. */
  readonly runtime: RuntimeName;
  /** Close the handler (its sessions), stop listening, drop open connections. */
  close(): Promise<void>;
}

interface BunLike {
  serve(options: { port: number; hostname: string; idleTimeout: number; fetch: (request: Request) => Response | Promise<Response> }): {
    port: number;
    hostname: string;
    stop(closeActiveConnections?: boolean): unknown;
  };
}

interface DenoLike {
  serve(
    options: { port: number; hostname: string; onListen?: (addr: { hostname: string; port: number }) => void },
    handler: (request: Request) => Response | Promise<Response>,
  ): { addr: { hostname: string; port: number }; shutdown(): Promise<void>; finished: Promise<void> };
}

const ALL_INTERFACES = new Set(['0.0.0.0', '::', '']);

/**
 * Serve `handler` on a port of its own: `Bun.serve`, `Deno.serve` or a `node:http` bridge.
 * Resolves once listening, with the endpoint's `url` and `close()` (which closes the handler too).
 *
 * ```ts
 * const { url, close } = await serveFetch(createMcpFetchHandler(mcp), { port: 3000 });
 * ```
 */
export async function serveFetch(handler: FetchHandler, options: ServeFetchOptions = {}): Promise<ServedFetch> {
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? 0;
  const log = options.logger === false ? undefined : (options.logger ?? ((line: string) => console.error(line)));
  const runtime = runtimeName();
  const fetch = (request: Request) => handler(request);
  let bound: Bound;
  if (runtime === 'bun') {
    const bun = (globalThis as unknown as { Bun: BunLike }).Bun;
    // Bun closes a connection idle for 10 s by default, SSE streams included: the longest it
    // allows (255 s) leaves room for the handler's keep-alive comments (every 15 s).
    const server = bun.serve({ port, hostname: host, idleTimeout: 255, fetch });
    bound = { port: server.port, host, stop: async () => void server.stop(true) };
  } else if (runtime === 'deno') {
    const deno = (globalThis as unknown as { Deno: DenoLike }).Deno;
    const server = deno.serve({ port, hostname: host, onListen: () => {} }, fetch);
    bound = { port: server.addr.port, host, stop: () => server.shutdown() };
  } else {
    const { serveOnNode } = await import('./node-fetch-bridge.js');
    bound = await serveOnNode(fetch, port, host);
  }
  const urlHost = bound.host.includes(':') ? `[${bound.host}]` : bound.host;
  const url = `http://${urlHost}:${bound.port}${handler.path ?? ''}`;
  if (ALL_INTERFACES.has(host)) log?.(`warning: listening on all interfaces (${host}); configure allowedHosts/allowedOrigins and authentication`);
  log?.(`MCP server listening on ${url} (${runtime})`);
  let closing: Promise<void> | undefined;
  return {
    url,
    port: bound.port,
    host: bound.host,
    runtime,
    close() {
      closing ??= (async () => {
        await handler.close?.();
        await bound.stop();
      })();
      return closing;
    },
  };
}
