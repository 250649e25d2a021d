/**
 * Bench server, ours: the `tools/call` echo over our stdio server transport.
 * Spawned by the bench with `process.execPath`; ends when the client closes stdin.
 */
import { createStdioServerTransport } from '../../streams/stdio-server.js';
import { createOursServer } from '../echo/ours.js';

await createOursServer().connect(createStdioServerTransport());
