/**
 * The MCP semantic conventions of OpenTelemetry as pure functions: which attributes a request
 * carries, its span name, and the `error.type` of how it ended. No OpenTelemetry import here: the
 * values are plain strings and numbers any `Attributes` bag accepts.
 * @see https://opentelemetry.io/docs/specs/semconv/gen-ai/mcp/
 */
import { ConnectionClosedError, McpError, RequestCancelledError, RequestTimeoutError } from '../errors.js';
import type { JsonObject } from '../jsonrpc/message.js';
import type { TransportPeer } from '../../streams/transport.js';

/** An attribute bag: what `span.setAttributes` and a histogram's `record` take. */
export type SemconvAttributes = Record<string, string | number | boolean>;

/** The bucket boundaries (seconds) the conventions advise for all four duration histograms. */
export const DURATION_BUCKETS: readonly number[] = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

/** Methods whose `params.uri` is the `mcp.resource.uri` of the conventions. */
const RESOURCE_METHODS = new Set(['resources/read', 'resources/subscribe', 'resources/unsubscribe', 'notifications/resources/updated']);

/** Where a request travelled, as far as the side that sees it knows. */
export interface NetworkFacts {
  /** `pipe` for stdio, `tcp` for HTTP and WebSocket (the conventions' `network.transport`). */
  readonly transport?: string | undefined;
  /** `http` or `websocket`, lower case. */
  readonly protocolName?: string | undefined;
  readonly protocolVersion?: string | undefined;
  /** The peer: `server.*` on a client span, `client.*` on a server span. */
  readonly peerAddress?: string | undefined;
  readonly peerPort?: number | undefined;
}

/** What the conventions record of one request beyond its method and params. */
export interface RequestFacts {
  /** The JSON-RPC id; left out for a notification (and for `null`, as the conventions ask). */
  readonly id?: string | number | null | undefined;
  readonly sessionId?: string | undefined;
  readonly protocolVersion?: string | undefined;
  readonly network?: NetworkFacts | undefined;
}

/** The low-cardinality target of a span name: the tool's or the prompt's name (never a URI unless asked). */
export function targetOf(method: string, params: JsonObject | undefined, resourceUriInName = false): string | undefined {
  const name = params?.name;
  if ((method === 'tools/call' || method === 'prompts/get') && typeof name === 'string') return name;
  if (resourceUriInName && RESOURCE_METHODS.has(method) && typeof params?.uri === 'string') return params.uri;
  return undefined;
}

/** `{mcp.method.name} {target}`, or the method alone when there is no target. */
export function spanName(method: string, params: JsonObject | undefined, resourceUriInName = false): string {
  const target = targetOf(method, params, resourceUriInName);
  return target === undefined ? method : `${method} ${target}`;
}

/** The attributes spans and histograms share (low cardinality; `mcp.resource.uri` only on spans unless opted in). */
export function operationAttributes(method: string, params: JsonObject | undefined, facts: RequestFacts, side: 'client' | 'server'): SemconvAttributes {
  const a: SemconvAttributes = { 'mcp.method.name': method };
  const name = params?.name;
  if (method === 'tools/call' && typeof name === 'string') {
    a['gen_ai.tool.name'] = name;
    a['gen_ai.operation.name'] = 'execute_tool';
  } else if (method === 'prompts/get' && typeof name === 'string') {
    a['gen_ai.prompt.name'] = name;
  }
  if (facts.protocolVersion) a['mcp.protocol.version'] = facts.protocolVersion;
  const n = facts.network;
  if (n?.transport) a['network.transport'] = n.transport;
  if (n?.protocolName) a['network.protocol.name'] = n.protocolName.toLowerCase();
  if (n?.protocolVersion) a['network.protocol.version'] = n.protocolVersion;
  // server.* is on the client's metrics too; client.* (a port per connection) only on server spans.
  if (side === 'client' && n?.peerAddress) {
    a['server.address'] = n.peerAddress;
    if (n.peerPort !== undefined) a['server.port'] = n.peerPort;
  }
  return a;
}

/** The span-only attributes: the request id, the session, the resource URI, the client's address (high cardinality, so not on metrics). */
export function spanOnlyAttributes(method: string, params: JsonObject | undefined, facts: RequestFacts, side: 'client' | 'server' = 'client'): SemconvAttributes {
  const a: SemconvAttributes = {};
  const n = facts.network;
  if (side === 'server' && n?.peerAddress) {
    a['client.address'] = n.peerAddress;
    if (n.peerPort !== undefined) a['client.port'] = n.peerPort;
  }
  if (facts.id !== undefined && facts.id !== null) a['jsonrpc.request.id'] = String(facts.id);
  if (facts.sessionId) a['mcp.session.id'] = facts.sessionId;
  if (RESOURCE_METHODS.has(method) && typeof params?.uri === 'string') a['mcp.resource.uri'] = params.uri;
  return a;
}

/** How a request ended, for `error.type`, `rpc.response.status_code` and the span's status. */
export interface Outcome {
  readonly errorType?: string;
  readonly statusCode?: string;
  readonly message?: string;
}

/** A result can still be a failure: a tool's `isError` is `tool_error`. */
export function resultOutcome(method: string, result: JsonObject | undefined): Outcome {
  if (method === 'tools/call' && result?.isError === true) return { errorType: 'tool_error' };
  return {};
}

/**
 * A thrown error: the JSON-RPC code when a peer answered with one, a low-cardinality name for what
 * happened on this side (no answer came: timeout, cancelled, connection closed), else the error's class.
 */
export function errorOutcome(e: unknown): Outcome {
  const message = e instanceof Error ? e.message : String(e);
  if (e instanceof RequestTimeoutError) return { errorType: 'timeout', message };
  if (e instanceof RequestCancelledError) return { errorType: 'cancelled', message };
  if (e instanceof ConnectionClosedError) return { errorType: 'connection_closed', message };
  if (e instanceof McpError) return { errorType: String(e.code), statusCode: String(e.code), message };
  const name = e instanceof Error && e.name ? e.name : '_OTHER';
  return { errorType: name, message };
}

/** The conventions' network facts of a transport's peer; cached per peer object (a session's is read per request). */
const networks = new WeakMap<TransportPeer, NetworkFacts>();
export function networkOf(peer: TransportPeer | undefined): NetworkFacts | undefined {
  if (peer?.transport === undefined) return undefined;
  let facts = networks.get(peer);
  if (facts === undefined) {
    facts = { transport: peer.transport, protocolName: peer.protocolName, peerAddress: peer.address, peerPort: peer.port };
    networks.set(peer, facts);
  }
  return facts;
}
