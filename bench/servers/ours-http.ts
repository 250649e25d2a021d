/**
 * Bench server, ours over Streamable HTTP: the `createMcpServer` echo behind
 * `createStreamableHttpHandler(mcp.server, { responseMode })` and `listen` on 127.0.0.1, a port of
 * its own. Forked by the bench: `--mode json|sse`; `--modern` leaves the response mode at its
 * default (as the SDK v2 server's modern rows do), the same handler serving both eras.
 */
import { listen } from '../../lib/http/listen-port.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';
import { createOursServer } from '../echo/ours.js';
import { modeArg, serveParent } from './http-child.js';

const options = process.argv.includes('--modern') ? {} : { responseMode: modeArg() };
const handler = createStreamableHttpHandler(createOursServer().server, options);
const listening = await listen(handler, { port: 0, logger: false });
serveParent(listening.url, () => handler.sessionCount);
