/**
 * The one table of what each MCP revision allows.
 *
 * Code that behaves differently per revision asks {@link allows}; nobody compares date
 * strings. A new revision is a new column here (and a new entry in
 * {@link SUPPORTED_REVISIONS}); a new difference is a new row.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/changelog
 * @see https://modelcontextprotocol.io/specification/2025-06-18/changelog
 * @see https://modelcontextprotocol.io/specification/2025-03-26/changelog
 */

/**
 * Every revision this runtime speaks, latest first: the order a client offers them and the
 * order the table's columns are read in.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#version-negotiation
 */
export const SUPPORTED_REVISIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;

/**
 * A protocol revision this runtime supports.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#version-negotiation
 */
export type Revision = (typeof SUPPORTED_REVISIONS)[number];

/**
 * The newest supported revision: what a client puts in `initialize`.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#version-negotiation
 */
export const LATEST_REVISION: Revision = SUPPORTED_REVISIONS[0];

/**
 * The oldest supported revision.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#version-negotiation
 */
export const OLDEST_REVISION: Revision = SUPPORTED_REVISIONS[SUPPORTED_REVISIONS.length - 1];

/**
 * What a Streamable HTTP server assumes when a request has no `MCP-Protocol-Version` header
 * and it has no other way to know the negotiated revision.
 * @see https://modelcontextprotocol.io/specification/2025-06-18/basic/transports#protocol-version-header
 */
export const REVISION_WITHOUT_VERSION_HEADER: Revision = '2025-03-26';

/**
 * True when `v` is one of {@link SUPPORTED_REVISIONS} (exact string match).
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#version-negotiation
 */
export function isSupportedRevision(v: unknown): v is Revision {
  return typeof v === 'string' && (SUPPORTED_REVISIONS as readonly string[]).includes(v);
}

// Rows are written out per revision (not as "since" dates) so that a feature that was
// removed again, such as batches, reads the same as one that was added.
const T = true;
const F = false;

/**
 * Feature × revision. Each row says, for each revision, whether the protocol text (or its
 * schema) of that revision has the feature.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/changelog
 */
export const REVISION_FEATURES = {
  // ── Transports and wire format ──────────────────────────────────────────────────────
  /** JSON-RPC batches (arrays of messages): added in 2025-03-26, removed in 2025-06-18. */
  batches: { '2024-11-05': F, '2025-03-26': T, '2025-06-18': F, '2025-11-25': F },
  /** The HTTP+SSE transport (GET event stream, `endpoint` event, POST endpoint). */
  httpSse: { '2024-11-05': T, '2025-03-26': F, '2025-06-18': F, '2025-11-25': F },
  /** The Streamable HTTP transport (one MCP endpoint, POST + optional SSE streams). */
  streamableHttp: { '2024-11-05': F, '2025-03-26': T, '2025-06-18': T, '2025-11-25': T },
  /** `Mcp-Session-Id` header sessions on Streamable HTTP. */
  httpSessions: { '2024-11-05': F, '2025-03-26': T, '2025-06-18': T, '2025-11-25': T },
  /** SSE event ids and `Last-Event-ID` resumption on Streamable HTTP. */
  resumability: { '2024-11-05': F, '2025-03-26': T, '2025-06-18': T, '2025-11-25': T },
  /** Clients send `MCP-Protocol-Version` on every HTTP request after initialization. */
  protocolVersionHeader: { '2024-11-05': F, '2025-03-26': F, '2025-06-18': T, '2025-11-25': T },
  /** A server may close an SSE stream at will and the client polls/resumes via GET (SEP-1699). */
  sseServerDisconnect: { '2024-11-05': F, '2025-03-26': F, '2025-06-18': F, '2025-11-25': T },
  /** A JSON-RPC error response may omit `id` (schema made it optional). */
  errorIdOptional: { '2024-11-05': F, '2025-03-26': F, '2025-06-18': F, '2025-11-25': T },

  // ── Authorization ───────────────────────────────────────────────────────────────────
  /** The OAuth 2.1 authorization framework for HTTP transports. */
  authorization: { '2024-11-05': F, '2025-03-26': T, '2025-06-18': T, '2025-11-25': T },
  /** Server is an OAuth resource server: Protected Resource Metadata (RFC 9728). */
  protectedResourceMetadata: { '2024-11-05': F, '2025-03-26': F, '2025-06-18': T, '2025-11-25': T },
  /** Clients MUST send Resource Indicators (RFC 8707). */
  resourceIndicators: { '2024-11-05': F, '2025-03-26': F, '2025-06-18': T, '2025-11-25': T },
  /** Authorization server discovery may use OpenID Connect Discovery 1.0. */
  openIdConnectDiscovery: { '2024-11-05': F, '2025-03-26': F, '2025-06-18': F, '2025-11-25': T },
  /** OAuth Client ID Metadata Documents as a client registration mechanism (SEP-991). */
  clientIdMetadataDocuments: { '2024-11-05': F, '2025-03-26': F, '2025-06-18': F, '2025-11-25': T },
  /** Incremental scope consent via `WWW-Authenticate` (SEP-835). */
  incrementalScopeConsent: { '2024-11-05': F, '2025-03-26': F, '2025-06-18': F, '2025-11-25': T },

  // ── Base protocol and `_meta` ───────────────────────────────────────────────────────
  /** `_meta` key names follow the prefix/name format, with reserved MCP prefixes. */
  metaKeyFormat: { '2024-11-05': F, '2025-03-26': F, '2025-06-18': T, '2025-11-25': T },
  /** `_meta` on tools, resources, prompts, content blocks, roots and the like (not just params/results). */
  metaOnObjects: { '2024-11-05': F, '2025-03-26': F, '2025-06-18': T, '2025-11-25': T },
  /** `message` field on `notifications/progress`. */
  progressMessage: { '2024-11-05': F, '2025-03-26': T, '2025-06-18': T, '2025-11-25': T },
  /** `title` display names on tools, resources, templates, prompts, arguments, implementations. */
  title: { '2024-11-05': F, '2025-03-26': F, '2025-06-18': T, '2025-11-25': T },
  /** `icons` on implementations, tools, resources, templates and prompts (SEP-973). */
  icons: { '2024-11-05': F, '2025-03-26': F, '2025-06-18': F, '2025-11-25': T },
  /** `Implementation.description` and `Implementation.websiteUrl`. */
  implementationDescription: { '2024-11-05': F, '2025-03-26': F, '2025-06-18': F, '2025-11-25': T },
  /** JSON Schema 2020-12 is the default dialect of schemas without `$schema` (SEP-1613). */
  jsonSchema2020Default: { '2024-11-05': F, '2025-03-26': F, '2025-06-18': F, '2025-11-25': T },
  /** Tasks: `task` param, `tasks/*` methods, `tasks` capability (experimental, SEP-1686). */
  tasks: { '2024-11-05': F, '2025-03-26': F, '2025-06-18': F, '2025-11-25': T },

  // ── Content ─────────────────────────────────────────────────────────────────────────
  /** `audio` content blocks. */
  audioContent: { '2024-11-05': F, '2025-03-26': T, '2025-06-18': T, '2025-11-25': T },
  /** `resource_link` content blocks in tool results and prompts. */
  resourceLinks: { '2024-11-05': F, '2025-03-26': F, '2025-06-18': T, '2025-11-25': T },
  /** `Annotations.lastModified`. */
  annotationsLastModified: { '2024-11-05': F, '2025-03-26': F, '2025-06-18': T, '2025-11-25': T },

  // ── Server features ─────────────────────────────────────────────────────────────────
  /** `Tool.annotations` (readOnlyHint, destructiveHint, idempotentHint, openWorldHint). */
  toolAnnotations: { '2024-11-05': F, '2025-03-26': T, '2025-06-18': T, '2025-11-25': T },
  /** `CallToolResult.structuredContent`. */
  structuredContent: { '2024-11-05': F, '2025-03-26': F, '2025-06-18': T, '2025-11-25': T },
  /** `Tool.outputSchema`. */
  outputSchema: { '2024-11-05': F, '2025-03-26': F, '2025-06-18': T, '2025-11-25': T },
  /** Tool name guidance (length, allowed characters; SEP-986). */
  toolNameGuidance: { '2024-11-05': F, '2025-03-26': F, '2025-06-18': F, '2025-11-25': T },
  /** `Tool.execution.taskSupport`. */
  toolExecution: { '2024-11-05': F, '2025-03-26': F, '2025-06-18': F, '2025-11-25': T },
  /**
   * The server `completions` capability gates `completion/complete`; before it existed
   * (2024-11-05) completion was not negotiated.
   */
  completionsCapability: { '2024-11-05': F, '2025-03-26': T, '2025-06-18': T, '2025-11-25': T },
  /** `context.arguments` (previously resolved arguments) in `completion/complete`. */
  completionContext: { '2024-11-05': F, '2025-03-26': F, '2025-06-18': T, '2025-11-25': T },

  // ── Client features ─────────────────────────────────────────────────────────────────
  /** `elicitation/create` in form mode and the client `elicitation` capability. */
  elicitationForm: { '2024-11-05': F, '2025-03-26': F, '2025-06-18': T, '2025-11-25': T },
  /** URL-mode elicitation, `elicitationId`, `notifications/elicitation/complete`, error -32042. */
  elicitationUrl: { '2024-11-05': F, '2025-03-26': F, '2025-06-18': F, '2025-11-25': T },
  /** `elicitation.form` / `elicitation.url` sub-capabilities (an empty object means form only). */
  elicitationModeCapabilities: { '2024-11-05': F, '2025-03-26': F, '2025-06-18': F, '2025-11-25': T },
  /** Titled and multi-select enum schemas in elicitation; string[] answers (SEP-1330). */
  elicitationEnumSchemas: { '2024-11-05': F, '2025-03-26': F, '2025-06-18': F, '2025-11-25': T },
  /** `default` on string, number and enum elicitation schemas (boolean had it from 2025-06-18). */
  elicitationDefaults: { '2024-11-05': F, '2025-03-26': F, '2025-06-18': F, '2025-11-25': T },
  /** Sampling with `tools` / `toolChoice`, `tool_use` / `tool_result` content, `sampling.tools`. */
  samplingTools: { '2024-11-05': F, '2025-03-26': F, '2025-06-18': F, '2025-11-25': T },
  /** `sampling.context` capability gating `includeContext` other than `none`. */
  samplingContextCapability: { '2024-11-05': F, '2025-03-26': F, '2025-06-18': F, '2025-11-25': T },
  /** `SamplingMessage.content` may be an array of blocks. */
  samplingContentArrays: { '2024-11-05': F, '2025-03-26': F, '2025-06-18': F, '2025-11-25': T },
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
  return REVISION_FEATURES[feature][revision];
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
 * Whether `revision` is `baseline` or newer. Used by the method table's "first appeared in"
 * column; everything else asks {@link allows}.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#version-negotiation
 */
export function isAtLeast(revision: Revision, baseline: Revision): boolean {
  // SUPPORTED_REVISIONS is latest first, so a smaller index is newer.
  return SUPPORTED_REVISIONS.indexOf(revision) <= SUPPORTED_REVISIONS.indexOf(baseline);
}

/**
 * The server's answer to a client's `protocolVersion`: the same revision when supported,
 * otherwise the latest this runtime supports (the client then decides whether to disconnect).
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#version-negotiation
 */
export function negotiateRevision(requested: string): Revision {
  return isSupportedRevision(requested) ? requested : LATEST_REVISION;
}
