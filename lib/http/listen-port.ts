/**
 * Serve a request handler (such as `createStreamableHttpHandler(server)`) on a port of its own.
 *
 * Binds to 127.0.0.1 unless told otherwise: a local MCP server should not listen on every
 * interface (the transports' security warning), and the handler's DNS rebinding protection keys
 * on the loopback address.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#security-warning
 */
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import '../crypto/node-digests.js';
import { answerClientError } from './client-error.js';

export interface ListenOptions {
  /** Port; 0 (the default) picks a free one. */
  port?: number;
  /** Interface to bind. Default `127.0.0.1`. */
  host?: string;
  /** Where the "listening on" line goes; false for nowhere. Default `console.error` (stdout may be a protocol stream). */
  logger?: ((line: string) => void) | false;
}

export interface Listening {
  /** The MCP endpoint's URL (the handler's `path` on the bound address). */
  readonly url: string;
  readonly port: number;
  readonly host: string;
  /** The underlying node server. */
  readonly server: HttpServer;
  /** Close the handler (its sessions), stop listening and drop open connections. */
  close(): Promise<void>;
}

type Handler = ((req: IncomingMessage, res: ServerResponse) => void) & { path?: string; close?: () => Promise<void> };

const ALL_INTERFACES = new Set(['0.0.0.0', '::', '']);

/**
 * Serve an HTTP request handler (usually {@link createStreamableHttpHandler}'s) on a node
 * `http.Server`: 127.0.0.1 and a free port by default, so nothing is exposed beyond this machine
 * unless `host` says so. Resolves once listening, with the MCP endpoint's `url` and `close()`,
 * which closes the handler's sessions too.
 *
 * ```ts
 * const { url, close } = await listen(createStreamableHttpHandler(mcp.server), { port: 3000 });
 * ```
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#security-warning
 */
export async function listen(handler: Handler, options: ListenOptions = {}): Promise<Listening> {
  const host = options.host ?? '127.0.0.1';
  const log = options.logger === false ? undefined : (options.logger ?? ((line: string) => console.error(line)));
  const server = createServer((req, res) => handler(req, res));
  // A request node's parser refuses still gets a JSON-RPC error body, as every other refusal.
  server.on('clientError', answerClientError);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' || address.address.includes(':') ? `[${address.address}]` : address.address;
  const url = `http://${urlHost}:${address.port}${handler.path ?? ''}`;
  if (ALL_INTERFACES.has(host)) {
    log?.(`warning: listening on all interfaces (${host}); configure allowedHosts/allowedOrigins and authentication`);
  }
  log?.(`MCP server listening on ${url}`);
  let closing: Promise<void> | undefined;
  return {
    url,
    port: address.port,
    host: address.address,
    server,
    close() {
      closing ??= (async () => {
        await handler.close?.();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
      })();
      return closing;
    },
  };
}
