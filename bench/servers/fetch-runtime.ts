/**
 * Bench server for `fetch-runtimes.ts`, run by `node`, `bun` or `deno run -A`; prints
 * `listening <url>` and serves until killed. `--impl`:
 *
 * - `ours-fetch`: the `createMcpServer` echo behind `createMcpFetchHandler`, on `serveFetch`
 *   (Bun.serve, Deno.serve, or on Node the node:http bridge).
 * - `ours-fetch-hono`: the same fetch handler in a Hono app on `@hono/node-server` (Node only).
 * - `ours-node`: the same echo behind `createStreamableHttpHandler` on `listen` (node:http; on Bun and
 *   Deno their node:http).
 * - `sdk2-web`: the SDK v2's Web-standard `createMcpHandler(() => echo McpServer)` (a fresh server
 *   per request, as it documents), on Node wrapped with `toNodeHandler` behind its localhost
 *   Host/Origin guards (its README's wiring), on Bun and Deno given to `Bun.serve` / `Deno.serve`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { listen } from '../../lib/http/listen-port.js';
import { serveFetch } from '../../lib/http/serve-fetch.js';
import { runtimeName } from '../../lib/runtime.js';
import { createMcpFetchHandler } from '../../lib/server-bindings/fetch-handler.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';
import { createOursServer } from '../echo/ours.js';
import { createSdk2McpServer } from '../echo/sdk2.js';

const impl = process.argv[process.argv.indexOf('--impl') + 1];
let url: string;
switch (impl) {
  case 'ours-fetch':
    url = (await serveFetch(createMcpFetchHandler(createOursServer()), { logger: false })).url;
    break;
  case 'ours-fetch-hono': {
    const { Hono } = await import('hono');
    const { serve } = await import('@hono/node-server');
    const handler = createMcpFetchHandler(createOursServer());
    const app = new Hono();
    app.all('/mcp', (c) => handler(c.req.raw));
    const port = await new Promise<number>((resolve) => {
      const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => resolve(info.port));
      void s;
    });
    url = `http://127.0.0.1:${port}/mcp`;
    break;
  }
  case 'ours-node':
    url = (await listen(createStreamableHttpHandler(createOursServer().server), { logger: false })).url;
    break;
  case 'sdk2-web': {
    const handler = createMcpHandler(() => createSdk2McpServer());
    if (runtimeName() !== 'node') {
      url = `${(await serveFetch((request: Request) => handler.fetch(request), { logger: false })).url}/mcp`;
      break;
    }
    const { localhostHostValidation, localhostOriginValidation, toNodeHandler } = await import('@modelcontextprotocol/node');
    const nodeHandler = toNodeHandler(handler);
    const validateHost = localhostHostValidation();
    const validateOrigin = localhostOriginValidation();
    const http = createServer((req, res) => {
      if (!validateHost(req, res) || !validateOrigin(req, res)) return;
      void nodeHandler(req, res);
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
    break;
  }
  default:
    throw new Error(`--impl ours-fetch|ours-fetch-hono|ours-node|sdk2-web, not ${impl}`);
}
console.log(`listening ${url}`);
