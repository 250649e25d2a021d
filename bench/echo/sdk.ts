/** The echo server, official SDK 1.x (`@modelcontextprotocol/sdk` 1.32.2): `McpServer.registerTool` with a zod input schema. */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { SERVER_INFO, TOOL } from '../common.js';

export function createSdkMcpServer(): McpServer {
  const server = new McpServer(SERVER_INFO);
  server.registerTool(TOOL, { description: 'Echo', inputSchema: { text: z.string() } }, async ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  return server;
}
