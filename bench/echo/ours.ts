/**
 * The echo server, ours, as a user of the high-level API writes it: `createMcpServer` with one
 * tool registered with a zod input schema (the SDK rows register theirs the same way).
 */
import { z } from 'zod';
import { createMcpServer, type McpServer } from '../../lib/mcp-server.js';
import { SERVER_INFO, TOOL } from '../common.js';

export function createOursServer(): McpServer {
  const mcp = createMcpServer({ info: SERVER_INFO });
  mcp.registerTool(TOOL, { description: 'Echo', inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  return mcp;
}
