/**
 * Bench server, official SDK v2 (2.4.0) in its 2026-07-28 shape: `createMcpHandler(factory)` (a
 * fresh `McpServer` per request; the default `legacy: 'stateless'` also serves 2025 clients, as ours
 * serves both eras) wrapped with `toNodeHandler` from `@modelcontextprotocol/node` on node:http,
 * the localhost Host/Origin guards in front, as its README writes it. Default response mode (auto).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { localhostHostValidation, localhostOriginValidation, toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { createSdk2McpServer } from '../echo/sdk2.js';
import { serveParent } from './http-child.js';

const handler = toNodeHandler(createMcpHandler(() => createSdk2McpServer()));
const validateHost = localhostHostValidation();
const validateOrigin = localhostOriginValidation();
const http = createServer((req, res) => {
  if (!validateHost(req, res) || !validateOrigin(req, res)) return;
  void handler(req, res);
});
await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
serveParent(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`, () => 0);
