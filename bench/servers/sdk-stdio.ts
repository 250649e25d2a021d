/**
 * Bench server, official SDK 1.x: `McpServer.registerTool` (the echo) over the SDK's stdio server
 * transport. Spawned by the bench with `process.execPath`; exits when the client closes stdin.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createSdkMcpServer } from '../echo/sdk.js';

await createSdkMcpServer().connect(new StdioServerTransport());
// The SDK transport does not close on end of stdin; leave when the client does.
process.stdin.on('end', () => process.exit(0));
