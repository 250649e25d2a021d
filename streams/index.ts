/** Transports and frame operators: `mcp-actors/streams`. */
export * from './transport.js';
export * from './inbound.js';
export { createMemoryPair, type MemoryTransport, type MemoryPairOptions } from './memory.js';
export { createStdioServerTransport, type StdioServerTransportOptions } from './stdio-server.js';
export { createStdioClientTransport, type StdioClientTransport, type StdioClientTransportOptions } from './stdio-client.js';
export { ndjsonSplit } from './ndjson-split.js';
export { ndjsonEncode, toNdjsonLine } from './ndjson-encode.js';
export { decode } from './decode.js';
export { ofKind, isKind } from './classify.js';
export { parseJson } from './parse-json.js';
export { journalTap } from './journal-tap.js';
export { correlate, type Routable, type RoutableSingle } from './correlate.js';
export { route, type Routes, type Reply } from './route.js';
