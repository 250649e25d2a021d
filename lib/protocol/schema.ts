/**
 * MCP message types; the definitions live in `./schema/`, one file per feature.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/schema
 */
export * from './schema/index.js';
