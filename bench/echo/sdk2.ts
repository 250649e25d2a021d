/**
 * The echo server, official SDK v2 (`@modelcontextprotocol/server` 2.4.0): `McpServer.registerTool`
 * with a zod input schema, as its documentation writes it. Also the factory its per-request and
 * stdio entries (`createMcpHandler`, `serveStdio`) take.
 */
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { SERVER_INFO, TOOL } from '../common.js';

export function createSdk2McpServer(): McpServer {
  const server = new McpServer(SERVER_INFO);
  server.registerTool(TOOL, { description: 'Echo', inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  return server;
}
