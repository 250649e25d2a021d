/**
 * Message shapes revision 2026-07-28 added: the per-request `_meta` envelope, `server/discover`,
 * `resultType` and input-required results (multi round-trip requests), caching hints,
 * `subscriptions/listen`, and the modern error payloads. Types only, apart from the `_meta`
 * key names and the small constant lists.
 *
 * What 2026-07-28 removed (initialize, ping, logging/setLevel, resources/subscribe, core tasks,
 * server-to-client requests) stays in the other files of this folder for the session era.
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/schema
 */
import type { JsonObject } from '../../jsonrpc/message.js';
import type { Implementation } from './base.js';
import type { ClientCapabilities, ServerCapabilities } from './lifecycle.js';
import type { LoggingLevel } from './logging.js';
import type { ElicitRequestParams, ElicitResult } from './elicitation.js';
import type { CreateMessageRequestParams, CreateMessageResult } from './sampling.js';
import type { ListRootsResult } from './roots.js';

/** The reserved `_meta` keys of a modern request and result. */
export const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
} as const;

/** OpenTelemetry keys reserved in `_meta` (W3C Trace Context and Baggage), exempt from the prefix rule. */
export const TRACE_META_KEYS = ['traceparent', 'tracestate', 'baggage'] as const;

/**
 * The `_meta` every modern request carries.
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic#meta
 */
export type RequestMetaObject = {
  'io.modelcontextprotocol/protocolVersion': string;
  'io.modelcontextprotocol/clientCapabilities': ClientCapabilities;
  'io.modelcontextprotocol/clientInfo'?: Implementation;
  'io.modelcontextprotocol/logLevel'?: LoggingLevel;
  progressToken?: string | number;
  traceparent?: string;
  tracestate?: string;
  baggage?: string;
  [key: string]: unknown;
};

/** OpenTelemetry context a request carried, handed to handlers untouched (`ctx.trace`). */
export type TraceContext = { traceparent?: string; tracestate?: string; baggage?: string };

/**
 * `"complete"` or `"input_required"` in the core; extensions add values (tasks: `"task"`).
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic#resulttype
 */
export type ResultType = 'complete' | 'input_required' | (string & {});

/**
 * Caching hints of a cacheable result.
 * @see https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/caching
 */
export type CacheScope = 'public' | 'private';
export type CacheableResult = { ttlMs: number; cacheScope: CacheScope };

/** The methods whose complete results carry {@link CacheableResult} hints. */
export const CACHEABLE_METHODS = ['server/discover', 'tools/list', 'prompts/list', 'resources/list', 'resources/templates/list', 'resources/read'] as const;
export type CacheableMethod = (typeof CACHEABLE_METHODS)[number];

/**
 * `server/discover`'s result.
 * @see https://modelcontextprotocol.io/specification/2026-07-28/server/discover
 */
export type DiscoverResult = CacheableResult & {
  resultType: 'complete';
  supportedVersions: string[];
  capabilities: ServerCapabilities & { extensions?: Record<string, JsonObject> };
  instructions?: string;
  _meta?: { 'io.modelcontextprotocol/serverInfo'?: Implementation; [key: string]: unknown };
};

/** One request the server needs the client to fulfil before it can finish (no `id`). */
export type InputRequest =
  | { method: 'elicitation/create'; params: ElicitRequestParams }
  | { method: 'sampling/createMessage'; params: CreateMessageRequestParams }
  | { method: 'roots/list'; params?: JsonObject };
export type InputRequests = { [key: string]: InputRequest };
export type InputResponse = ElicitResult | CreateMessageResult | ListRootsResult;
export type InputResponses = { [key: string]: InputResponse };

/** The methods an input request may use. */
export const INPUT_REQUEST_METHODS = ['elicitation/create', 'sampling/createMessage', 'roots/list'] as const;
export type InputRequestMethod = (typeof INPUT_REQUEST_METHODS)[number];

/** The only requests that may be answered with an {@link InputRequiredResult}. */
export const INPUT_REQUIRED_METHODS = ['tools/call', 'prompts/get', 'resources/read'] as const;

/**
 * A round of a multi round-trip request ends with this: the client fulfils `inputRequests` and
 * retries with `inputResponses` and the `requestState`, byte for byte.
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr
 */
export type InputRequiredResult = {
  resultType: 'input_required';
  inputRequests?: InputRequests;
  requestState?: string;
  _meta?: JsonObject;
};

/** The params a retry adds. */
export type InputResponseRequestParams = { inputResponses?: InputResponses; requestState?: string };

/**
 * `subscriptions/listen`'s opt-ins.
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/subscriptions
 */
export type SubscriptionFilter = {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
};
export type SubscriptionsListenRequestParams = { notifications: SubscriptionFilter; _meta?: RequestMetaObject };
export type SubscriptionsAcknowledgedParams = { notifications: SubscriptionFilter; _meta: { 'io.modelcontextprotocol/subscriptionId': string | number } };

/** `data` of -32022. */
export type UnsupportedProtocolVersionData = { supported: string[]; requested: string };
/** `data` of -32021. */
export type MissingRequiredClientCapabilityData = { requiredCapabilities: ClientCapabilities };
