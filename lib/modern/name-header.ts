/**
 * Which param of a request its `Mcp-Name` header mirrors, per method: the HTTP binding checks the
 * header against it, and an extension that adds methods with a name adds rows (the tasks
 * extension adds `taskId`). A protocol table, so that what adds rows need not import the binding.
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http
 */

/** Where `Mcp-Name` comes from, per method (extensions may add rows). */
export const MCP_NAME_SOURCE: Record<string, string> = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri' };
