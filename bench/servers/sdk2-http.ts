/**
 * Bench server, official SDK v2 (2.4.0) over Streamable HTTP in the 2025 (legacy, sessionful) era,
 * as its `@modelcontextprotocol/node` README wires plain node:http: the localhost Host/Origin guards
 * in front, one `NodeStreamableHTTPServerTransport` and one `McpServer` (the echo tool) per session
 * (`sessionful-http.ts`). `--mode json` sets `enableJsonResponse: true`, `--mode sse` false.
 */
import { randomUUID } from 'node:crypto';
import { localhostHostValidation, localhostOriginValidation, NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { isInitializeRequest } from '@modelcontextprotocol/server';
import { createSdk2McpServer } from '../echo/sdk2.js';
import { modeArg, serveParent } from './http-child.js';
import { listenSessionful, type SessionTransport } from './sessionful-http.js';

const enableJsonResponse = modeArg() === 'json';
const validateHost = localhostHostValidation();
const validateOrigin = localhostOriginValidation();
const { url, sessions } = await listenSessionful({
  isInitializeRequest,
  guard: (req, res) => validateHost(req, res) && validateOrigin(req, res),
  async openSession(onInitialized) {
    const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), enableJsonResponse, onsessioninitialized: onInitialized });
    await createSdk2McpServer().connect(transport);
    return transport as SessionTransport;
  },
});
serveParent(url, sessions);
