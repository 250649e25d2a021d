/**
 * Bench server, official SDK: the low-level `Server` with a `tools/call` handler (or, with
 * `--mcpserver`, `McpServer.registerTool`) over the SDK's stdio server transport.
 * Spawned by the bench with `process.execPath`; exits when the client closes stdin.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createSdkMcpServer, createSdkServer } from '../echo/sdk.js';

const server = process.argv.includes('--mcpserver') ? createSdkMcpServer() : createSdkServer();
await server.connect(new StdioServerTransport());
// The SDK transport does not close on end of stdin; leave when the client does.
process.stdin.on('end', () => process.exit(0));
