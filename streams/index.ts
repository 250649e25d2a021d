/** Transports and frame operators: `mcp-actors/streams`. */
export {
  DeepFrame,
  OVERSIZE_HEAD_CHARS,
  OversizeFrame,
  type RawFrame,
  type SendOptions,
  type Transport,
  type TransportPhase,
  type TransportState,
} from './transport.js';
export { type BatchInbound, type Inbound, type InvalidInbound, type SingleInbound } from './inbound.js';
export { createMemoryPair, type MemoryTransport, type MemoryPairOptions } from './memory.js';
export { createStdioServerTransport, type StdioServerTransportOptions } from './stdio-server.js';
export { createStdioClientTransport, type StdioClientTransport, type StdioClientTransportOptions } from './stdio-client.js';
export { createSocketTransport, type SocketTransportOptions } from './socket.js';
export { ndjsonSplit } from './ndjson-split.js';
export { ndjsonEncode, toNdjsonLine } from './ndjson-encode.js';
export { decode } from './decode.js';
export { ofKind, isKind } from './frame-kind.js';
export { parseJson } from './parse-json.js';
export { journalTap } from './journal-tap.js';
export { correlate, type Routable, type RoutableSingle } from './correlate.js';
export { route, type Routes, type Reply } from './route.js';
export {
  createWebSocketClientTransport,
  type WebSocketClientTransport,
} from './websocket-client.js';
export { createWebSocketServer } from '../lib/server-bindings/websocket-server.js';
export {
  createStreamableHttpClientTransport,
  type StreamableHttpClientTransport,
  type StreamableHttpClientTransportOptions,
  type HttpTransportMode,
  type HeadersOption,
  type FetchLike,
} from './streamable-http-client.js';
export {
  createLegacySseClientTransport,
  type LegacySseClientTransport,
  type LegacySseClientTransportOptions,
} from './legacy-sse-client.js';
export { sseParse, SseParser, type SseItem } from './sse-parse.js';
export { undiciFetch, createUndiciFetch } from './http-fetch.js';
export {
  createStreamableHttpHandler,
  MemoryEventStore,
  type StreamableHttpOptions,
  type StreamableHttpHandler,
  type CorsOptions,
  type EventStore,
  type StoredEvent,
  type AuthOutcome,
  type Authenticate,
  type LegacySseOptions,
} from '../lib/server-bindings/streamable-http-server.js';
export { createMcpFetchHandler, type McpFetchHandler, type McpFetchHandlerOptions } from '../lib/server-bindings/fetch-handler.js';
export type { HttpRequestHead, HttpRequestIn, HttpResponseOut } from './http-shape.js';
// What a transport and a session over it reject with.
export {
  CapabilityError,
  ConnectionClosedError,
  McpError,
  PhaseError,
  RequestCancelledError,
  RequestTimeoutError,
  ResourceNotFoundError,
  TransportError,
  UpstreamFaultError,
  VersionMismatchError,
} from '../lib/errors.js';
