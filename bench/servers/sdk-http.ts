/**
 * Bench server, official SDK 1.x over Streamable HTTP, stateful, as the SDK's examples do it: one
 * `StreamableHTTPServerTransport` and one `McpServer` (the echo tool) per session
 * (`sessionful-http.ts`). `--mode json` sets `enableJsonResponse: true`, `--mode sse` false.
 */
import { randomUUID } from 'node:crypto';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { createSdkMcpServer } from '../echo/sdk.js';
import { modeArg, serveParent } from './http-child.js';
import { listenSessionful } from './sessionful-http.js';

const enableJsonResponse = modeArg() === 'json';
const { url, sessions } = await listenSessionful({
  isInitializeRequest,
  async openSession(onInitialized) {
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), enableJsonResponse, onsessioninitialized: onInitialized });
    await createSdkMcpServer().connect(transport);
    return transport;
  },
});
serveParent(url, sessions);
