/**
 * The one table of what each MCP revision allows.
 *
 * Code that behaves differently per revision asks {@link allows}; nobody compares date
 * strings. A new revision is a new column here; a new difference is a new row.
 *
 * Two eras share the table. **Legacy** revisions (2024-11-05 … 2025-11-25) are negotiated once
 * per session by `initialize`; the **modern** revision 2026-07-28 has no handshake: every
 * request names its revision in `_meta` and is served on its own. `initialize` only ever
 * negotiates a legacy revision ({@link negotiateRevision}).
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/changelog
 * @see https://modelcontextprotocol.io/specification/2025-11-25/changelog
 * @see https://modelcontextprotocol.io/specification/2025-06-18/changelog
 * @see https://modelcontextprotocol.io/specification/2025-03-26/changelog
 */

/**
 * The revisions a session negotiates with `initialize`, latest first: the order a client offers
 * them and the order a server prefers them.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#version-negotiation
 */
export const SUPPORTED_REVISIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;

/** Alias of {@link SUPPORTED_REVISIONS}: the session (legacy) era. */
export const LEGACY_REVISIONS = SUPPORTED_REVISIONS;

/**
 * The revisions served per request, without a session (no `initialize`), latest first.
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning
 */
export const MODERN_REVISIONS = ['2026-07-28'] as const;

/** Every revision this runtime speaks, newest first (the table's columns). */
export const ALL_REVISIONS = ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;

/** A revision negotiated by `initialize`. */
export type LegacyRevision = (typeof SUPPORTED_REVISIONS)[number];
/** A revision whose requests carry their own version in `_meta`. */
export type ModernRevision = (typeof MODERN_REVISIONS)[number];

/**
 * A protocol revision this runtime supports, of either era.
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning
 */
export type Revision = LegacyRevision | ModernRevision;

/**
 * The newest session revision: what a client puts in `initialize`.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#version-negotiation
 */
export const LATEST_REVISION: LegacyRevision = SUPPORTED_REVISIONS[0];

/** The newest modern revision: what a modern client puts in `_meta` first. */
export const LATEST_MODERN_REVISION: ModernRevision = MODERN_REVISIONS[0];

/**
 * The oldest supported revision.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#version-negotiation
 */
export const OLDEST_REVISION: LegacyRevision = SUPPORTED_REVISIONS[SUPPORTED_REVISIONS.length - 1];

/**
 * What a Streamable HTTP server assumes when a request has no `MCP-Protocol-Version` header
 * and it has no other way to know the negotiated revision.
 * @see https://modelcontextprotocol.io/specification/2025-06-18/basic/transports#protocol-version-header
 */
export const REVISION_WITHOUT_VERSION_HEADER: LegacyRevision = '2025-03-26';

/**
 * True when `v` is a revision of either era (exact string match).
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning
 */
export function isSupportedRevision(v: unknown): v is Revision {
  return typeof v === 'string' && (ALL_REVISIONS as readonly string[]).includes(v);
}

/**
 * True when `v` is a revision `initialize` can negotiate.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#version-negotiation
 */
export function isLegacyRevision(v: unknown): v is LegacyRevision {
  return typeof v === 'string' && (SUPPORTED_REVISIONS as readonly string[]).includes(v);
}

/**
 * True when `v` is a modern revision this runtime serves per request.
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning
 */
export function isModernRevision(v: unknown): v is ModernRevision {
  return typeof v === 'string' && (MODERN_REVISIONS as readonly string[]).includes(v);
}

// Rows are written out per revision (not as "since" dates) so that a feature that was
// removed again, such as batches, reads the same as one that was added.
const T = true;
const F = false;

/** One row for what a revision of the session era has and the modern revision dropped (or the reverse). */
const LEGACY_ONLY = { '2026-07-28': F, '2024-11-05': T, '2025-03-26': T, '2025-06-18': T, '2025-11-25': T } as const;
const MODERN_ONLY = { '2026-07-28': T, '2024-11-05': F, '2025-03-26': F, '2025-06-18': F, '2025-11-25': F } as const;

/**
 * Feature × revision. Each row says, for each revision, whether the protocol text (or its
 * schema) of that revision has the feature.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/changelog
 */
export const REVISION_FEATURES = {
  // ── Transports and wire format ──────────────────────────────────────────────────────
  /** JSON-RPC batches (arrays of messages): added in 2025-03-26, removed in 2025-06-18. */
  batches: { '2026-07-28': F, '2024-11-05': F, '2025-03-26': T, '2025-06-18': F, '2025-11-25': F },
  /** The HTTP+SSE transport (GET event stream, `endpoint` event, POST endpoint). */
  httpSse: { '2026-07-28': F, '2024-11-05': T, '2025-03-26': F, '2025-06-18': F, '2025-11-25': F },
  /** The Streamable HTTP transport (one MCP endpoint, POST + optional SSE streams). */
  streamableHttp: { '2026-07-28': T, '2024-11-05': F, '2025-03-26': T, '2025-06-18': T, '2025-11-25': T },
  /** `Mcp-Session-Id` header sessions on Streamable HTTP. */
  httpSessions: { '2026-07-28': F, '2024-11-05': F, '2025-03-26': T, '2025-06-18': T, '2025-11-25': T },
  /** SSE event ids and `Last-Event-ID` resumption on Streamable HTTP. */
  resumability: { '2026-07-28': F, '2024-11-05': F, '2025-03-26': T, '2025-06-18': T, '2025-11-25': T },
  /** Clients send `MCP-Protocol-Version` on every HTTP request after initialization. */
  protocolVersionHeader: { '2026-07-28': T, '2024-11-05': F, '2025-03-26': F, '2025-06-18': T, '2025-11-25': T },
  /** A server may close an SSE stream at will and the client polls/resumes via GET (SEP-1699). */
  sseServerDisconnect: { '2026-07-28': F, '2024-11-05': F, '2025-03-26': F, '2025-06-18': F, '2025-11-25': T },
  /** A JSON-RPC error response may omit `id` (schema made it optional). */
  errorIdOptional: { '2026-07-28': T, '2024-11-05': F, '2025-03-26': F, '2025-06-18': F, '2025-11-25': T },

  // ── Authorization ───────────────────────────────────────────────────────────────────
  /** The OAuth 2.1 authorization framework for HTTP transports. */
  authorization: { '2026-07-28': T, '2024-11-05': F, '2025-03-26': T, '2025-06-18': T, '2025-11-25': T },
  /** Server is an OAuth resource server: Protected Resource Metadata (RFC 9728). */
  protectedResourceMetadata: { '2026-07-28': T, '2024-11-05': F, '2025-03-26': F, '2025-06-18': T, '2025-11-25': T },
  /** Clients MUST send Resource Indicators (RFC 8707). */
  resourceIndicators: { '2026-07-28': T, '2024-11-05': F, '2025-03-26': F, '2025-06-18': T, '2025-11-25': T },
  /** Authorization server discovery may use OpenID Connect Discovery 1.0. */
  openIdConnectDiscovery: { '2026-07-28': T, '2024-11-05': F, '2025-03-26': F, '2025-06-18': F, '2025-11-25': T },
  /** OAuth Client ID Metadata Documents as a client registration mechanism (SEP-991). */
  clientIdMetadataDocuments: { '2026-07-28': T, '2024-11-05': F, '2025-03-26': F, '2025-06-18': F, '2025-11-25': T },
  /** Incremental scope consent via `WWW-Authenticate` (SEP-835). */
  incrementalScopeConsent: { '2026-07-28': T, '2024-11-05': F, '2025-03-26': F, '2025-06-18': F, '2025-11-25': T },

  // ── Base protocol and `_meta` ───────────────────────────────────────────────────────
  /** `_meta` key names follow the prefix/name format, with reserved MCP prefixes. */
  metaKeyFormat: { '2026-07-28': T, '2024-11-05': F, '2025-03-26': F, '2025-06-18': T, '2025-11-25': T },
  /** `_meta` on tools, resources, prompts, content blocks, roots and the like (not just params/results). */
  metaOnObjects: { '2026-07-28': T, '2024-11-05': F, '2025-03-26': F, '2025-06-18': T, '2025-11-25': T },
  /** `message` field on `notifications/progress`. */
  progressMessage: { '2026-07-28': T, '2024-11-05': F, '2025-03-26': T, '2025-06-18': T, '2025-11-25': T },
  /** `title` display names on tools, resources, templates, prompts, arguments, implementations. */
  title: { '2026-07-28': T, '2024-11-05': F, '2025-03-26': F, '2025-06-18': T, '2025-11-25': T },
  /** `icons` on implementations, tools, resources, templates and prompts (SEP-973). */
  icons: { '2026-07-28': T, '2024-11-05': F, '2025-03-26': F, '2025-06-18': F, '2025-11-25': T },
  /** `Implementation.description` and `Implementation.websiteUrl`. */
  implementationDescription: { '2026-07-28': T, '2024-11-05': F, '2025-03-26': F, '2025-06-18': F, '2025-11-25': T },
  /** JSON Schema 2020-12 is the default dialect of schemas without `$schema` (SEP-1613). */
  jsonSchema2020Default: { '2026-07-28': T, '2024-11-05': F, '2025-03-26': F, '2025-06-18': F, '2025-11-25': T },
  /** Tasks: `task` param, `tasks/*` methods, `tasks` capability (experimental, SEP-1686). */
  tasks: { '2026-07-28': F, '2024-11-05': F, '2025-03-26': F, '2025-06-18': F, '2025-11-25': T },

  // ── Content ─────────────────────────────────────────────────────────────────────────
  /** `audio` content blocks. */
  audioContent: { '2026-07-28': T, '2024-11-05': F, '2025-03-26': T, '2025-06-18': T, '2025-11-25': T },
  /** `resource_link` content blocks in tool results and prompts. */
  resourceLinks: { '2026-07-28': T, '2024-11-05': F, '2025-03-26': F, '2025-06-18': T, '2025-11-25': T },
  /** `Annotations.lastModified`. */
  annotationsLastModified: { '2026-07-28': T, '2024-11-05': F, '2025-03-26': F, '2025-06-18': T, '2025-11-25': T },

  // ── Server features ─────────────────────────────────────────────────────────────────
  /** `Tool.annotations` (readOnlyHint, destructiveHint, idempotentHint, openWorldHint). */
  toolAnnotations: { '2026-07-28': T, '2024-11-05': F, '2025-03-26': T, '2025-06-18': T, '2025-11-25': T },
  /** `CallToolResult.structuredContent`. */
  structuredContent: { '2026-07-28': T, '2024-11-05': F, '2025-03-26': F, '2025-06-18': T, '2025-11-25': T },
  /** `Tool.outputSchema`. */
  outputSchema: { '2026-07-28': T, '2024-11-05': F, '2025-03-26': F, '2025-06-18': T, '2025-11-25': T },
  /** Tool name guidance (length, allowed characters; SEP-986). */
  toolNameGuidance: { '2026-07-28': T, '2024-11-05': F, '2025-03-26': F, '2025-06-18': F, '2025-11-25': T },
  /** `Tool.execution.taskSupport`. */
  toolExecution: { '2026-07-28': F, '2024-11-05': F, '2025-03-26': F, '2025-06-18': F, '2025-11-25': T },
  /**
   * The server `completions` capability gates `completion/complete`; before it existed
   * (2024-11-05) completion was not negotiated.
   */
  completionsCapability: { '2026-07-28': T, '2024-11-05': F, '2025-03-26': T, '2025-06-18': T, '2025-11-25': T },
  /** `context.arguments` (previously resolved arguments) in `completion/complete`. */
  completionContext: { '2026-07-28': T, '2024-11-05': F, '2025-03-26': F, '2025-06-18': T, '2025-11-25': T },

  // ── Client features ─────────────────────────────────────────────────────────────────
  /** `elicitation/create` in form mode and the client `elicitation` capability. */
  elicitationForm: { '2026-07-28': T, '2024-11-05': F, '2025-03-26': F, '2025-06-18': T, '2025-11-25': T },
  /** URL-mode elicitation, `elicitationId`, `notifications/elicitation/complete`, error -32042. */
  elicitationUrl: { '2026-07-28': T, '2024-11-05': F, '2025-03-26': F, '2025-06-18': F, '2025-11-25': T },
  /** `elicitation.form` / `elicitation.url` sub-capabilities (an empty object means form only). */
  elicitationModeCapabilities: { '2026-07-28': T, '2024-11-05': F, '2025-03-26': F, '2025-06-18': F, '2025-11-25': T },
  /** Titled and multi-select enum schemas in elicitation; string[] answers (SEP-1330). */
  elicitationEnumSchemas: { '2026-07-28': T, '2024-11-05': F, '2025-03-26': F, '2025-06-18': F, '2025-11-25': T },
  /** `default` on string, number and enum elicitation schemas (boolean had it from 2025-06-18). */
  elicitationDefaults: { '2026-07-28': T, '2024-11-05': F, '2025-03-26': F, '2025-06-18': F, '2025-11-25': T },
  /** Sampling with `tools` / `toolChoice`, `tool_use` / `tool_result` content, `sampling.tools`. */
  samplingTools: { '2026-07-28': T, '2024-11-05': F, '2025-03-26': F, '2025-06-18': F, '2025-11-25': T },
  /** `sampling.context` capability gating `includeContext` other than `none`. */
  samplingContextCapability: { '2026-07-28': T, '2024-11-05': F, '2025-03-26': F, '2025-06-18': F, '2025-11-25': T },
  /** `SamplingMessage.content` may be an array of blocks. */
  samplingContentArrays: { '2026-07-28': T, '2024-11-05': F, '2025-03-26': F, '2025-06-18': F, '2025-11-25': T },

  // ── Eras: what 2026-07-28 removed or added (changelog; NOTES a1–a9) ─────────────────
  /** The `initialize` / `notifications/initialized` handshake and protocol sessions. */
  initializeHandshake: LEGACY_ONLY,
  /** Every request carries `io.modelcontextprotocol/protocolVersion` and client capabilities in `_meta`. */
  perRequestMeta: MODERN_ONLY,
  /** `server/discover`: supported versions, capabilities and identity (answered in both eras here). */
  serverDiscover: MODERN_ONLY,
  /** `ping`. */
  ping: LEGACY_ONLY,
  /** `logging/setLevel` (modern: `io.modelcontextprotocol/logLevel` per request instead). */
  loggingSetLevel: LEGACY_ONLY,
  /** `io.modelcontextprotocol/logLevel` in a request's `_meta`: no log messages without it. */
  perRequestLogLevel: MODERN_ONLY,
  /** `notifications/roots/list_changed` and `roots.listChanged`. */
  rootsListChanged: LEGACY_ONLY,
  /** `notifications/elicitation/complete` and the `elicitationId` of URL elicitations. */
  elicitationComplete: LEGACY_ONLY,
  /** Error -32042 (URL elicitation required). */
  urlElicitationRequiredError: LEGACY_ONLY,
  /** Server-to-client JSON-RPC requests (sampling, elicitation, roots); modern: input-required results. */
  serverToClientRequests: LEGACY_ONLY,
  /** `InputRequiredResult` and retries with `inputResponses` / `requestState` (SEP-2322). */
  inputRequiredResults: MODERN_ONLY,
  /** `resultType` on every result. */
  resultType: MODERN_ONLY,
  /** Errors -32020 HeaderMismatch, -32021 MissingRequiredClientCapability, -32022 UnsupportedProtocolVersion. */
  modernErrorCodes: MODERN_ONLY,
  /** An unknown resource is -32002; modern: -32602 with `data.uri`. */
  resourceNotFound32002: LEGACY_ONLY,
  /** `ttlMs` and `cacheScope` on cacheable results (SEP-2549). */
  cachingHints: MODERN_ONLY,
  /** `subscriptions/listen` (replaces the GET stream and `resources/subscribe`). */
  subscriptionsListen: MODERN_ONLY,
  /** `resources/subscribe` and `resources/unsubscribe`. */
  resourcesSubscribeMethods: LEGACY_ONLY,
  /** The standalone GET SSE stream and DELETE of a Streamable HTTP session. */
  standaloneGetStream: LEGACY_ONLY,
  /** `Mcp-Method` / `Mcp-Name` headers and `x-mcp-header` parameters on Streamable HTTP (SEP-2243). */
  standardRequestHeaders: MODERN_ONLY,
  /** OpenTelemetry `traceparent` / `tracestate` / `baggage` reserved in `_meta` (SEP-414). */
  traceContextMeta: MODERN_ONLY,
  /** `capabilities.extensions` (SEP-2133 framework). */
  extensionsCapability: MODERN_ONLY,
} as const satisfies Record<string, Readonly<Record<Revision, boolean>>>;

/**
 * A row of {@link REVISION_FEATURES}.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/changelog
 */
export type Feature = keyof typeof REVISION_FEATURES;

/**
 * Every feature name, in table order.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/changelog
 */
export const FEATURES = Object.keys(REVISION_FEATURES) as Feature[];

/**
 * Whether `revision` has `feature`. The one question code asks about revisions.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#version-negotiation
 */
export function allows(revision: Revision, feature: Feature): boolean {
  const row = ROWS[revision];
  // (A revision not in the table, from a caller that did not check it, allows nothing.)
  return row !== undefined && row[feature];
}

/**
 * Every feature of `revision` as one flat object (handy to hand to a machine's context).
 * @see https://modelcontextprotocol.io/specification/2025-11-25/changelog
 */
export function featuresOf(revision: Revision): Record<Feature, boolean> {
  const out = {} as Record<Feature, boolean>;
  for (const f of FEATURES) out[f] = REVISION_FEATURES[f][revision];
  return out;
}

/**
 * The table turned round once, one row of every feature per revision: {@link allows} reads
 * `ROWS[revision][feature]`, whose rows share one shape, at about half the cost of the feature
 * first (a request asks several features, in both eras).
 */
const ROWS: Readonly<Record<string, Readonly<Record<Feature, boolean>> | undefined>> = Object.assign(
  Object.create(null) as Record<string, Readonly<Record<Feature, boolean>>>,
  Object.fromEntries(ALL_REVISIONS.map((r) => [r, featuresOf(r)])),
);

/**
 * Whether `revision` is `baseline` or newer. Used by the method table's "first appeared in"
 * column; everything else asks {@link allows}.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#version-negotiation
 */
export function isAtLeast(revision: Revision, baseline: Revision): boolean {
  // ALL_REVISIONS is latest first, so a smaller index is newer.
  return ALL_REVISIONS.indexOf(revision) <= ALL_REVISIONS.indexOf(baseline);
}

/**
 * The server's answer to a client's `protocolVersion`: the same revision when supported,
 * otherwise the latest this runtime supports (the client then decides whether to disconnect).
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#version-negotiation
 */
export function negotiateRevision(requested: string): LegacyRevision {
  // Never a modern revision: those have no handshake (versioning.md, "dual-era").
  return isLegacyRevision(requested) ? requested : LATEST_REVISION;
}
