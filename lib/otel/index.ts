/**
 * `mcp-actors/otel`: OpenTelemetry per the MCP semantic conventions, as a server and a client
 * interceptor. A separate entry, so nothing else in the package loads it or `@opentelemetry/api`.
 * @see https://opentelemetry.io/docs/specs/semconv/gen-ai/mcp/
 */
export { createMcpTelemetry, mcpTelemetry } from './telemetry.js';
export type { McpTelemetry, McpTelemetryOptions, OtelApi, PeerView } from './telemetry.js';
export type { EndingSession, SessionSource } from './session-durations.js';
export { DURATION_BUCKETS, spanName } from './semconv.js';
export type { NetworkFacts, RequestFacts } from './semconv.js';
