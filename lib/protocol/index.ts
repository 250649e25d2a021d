/**
 * The protocol layer: message types, the revision table and the method table.
 * @see https://modelcontextprotocol.io/specification/2025-11-25
 */
export * from './schema/index.js';
export * from './revisions.js';
export * from './methods.js';
export * from './meta-key.js';
