/**
 * `mcp-actors/server`: the low-level server, its sessions and the Web-standard HTTP handler.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server
 */
export * from '../server.js';
export * from '../session/session.js';
// The Web-standard HTTP handler (also at `mcp-actors/web`, with what a fetch runtime needs).
export { createMcpFetchHandler, type McpFetchHandler, type McpFetchHandlerOptions } from '../server-bindings/fetch-handler.js';
