/** The echo server, ours: `onRequest('tools/call')` with capabilities `{ tools: {} }`. */
import type { JsonObject } from '../../lib/jsonrpc/message.js';
import { Server } from '../../lib/server.js';
import { SERVER_INFO } from '../common.js';

export function createOursServer(): Server {
  return new Server({ info: SERVER_INFO, capabilities: { tools: {} } }).onRequest('tools/call', (params) => ({
    content: [{ type: 'text', text: (params!.arguments as JsonObject).text }],
  }));
}
