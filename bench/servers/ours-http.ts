/**
 * Bench server, ours over Streamable HTTP: one `Server` (the `tools/call` echo) behind
 * `createStreamableHttpHandler(server, { responseMode })` and `listen` on 127.0.0.1, a port of its own.
 * Forked by the bench: `--mode json|sse`.
 */
import { listen } from '../../lib/http/listen.js';
import { createStreamableHttpHandler } from '../../streams/streamable-http-server.js';
import { createOursServer } from '../echo/ours.js';
import { modeArg, serveParent } from './http-child.js';

const handler = createStreamableHttpHandler(createOursServer(), { responseMode: modeArg() });
const listening = await listen(handler, { port: 0, logger: false });
serveParent(listening.url, () => handler.sessionCount);
