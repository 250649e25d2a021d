/** The echo server, official SDK: the low-level `Server` (the fair comparison) and `McpServer.registerTool`. */
import { Server as SdkServer } from '@modelcontextprotocol/sdk/server/index.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { SERVER_INFO, TOOL } from '../common.js';

export function createSdkServer(): SdkServer {
  const server = new SdkServer(SERVER_INFO, { capabilities: { tools: {} } });
  server.setRequestHandler(CallToolRequestSchema, async (request) => ({
    content: [{ type: 'text', text: String(request.params.arguments?.text) }],
  }));
  return server;
}

export function createSdkMcpServer(): McpServer {
  const server = new McpServer(SERVER_INFO);
  server.registerTool(TOOL, { description: 'Echo', inputSchema: { text: z.string() } }, async ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  return server;
}
