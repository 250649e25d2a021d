/**
 * Resources, server side: the public types of the registry (what a user registers and gets
 * back) and its immutable state.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/resources
 */
import type { Clock } from '../clock.js';
import type { Annotations, Icon, Meta } from '../protocol/schema/base.js';
import type { BlobResourceContents, Resource, ResourceTemplate, TextResourceContents } from '../protocol/schema/resources.js';
import type { RequestHandlerContext } from '../session/session.js';
import type { MatchedVariables, UriTemplate } from './uri-template.js';

/** Descriptive fields of a resource (everything but `uri` and `name`). */
export interface ResourceMetadata {
  /** Display name (sent from 2025-06-18). */
  title?: string;
  description?: string;
  mimeType?: string;
  /** Raw size in bytes, when known. */
  size?: number;
  annotations?: Annotations;
  /** Sent from 2025-11-25. */
  icons?: Icon[];
  /** Sent from 2025-06-18. */
  _meta?: Meta;
}

/** One content of a read: text, or binary as base64 or as bytes (encoded to base64 for you). */
export type ResourceContentsInput =
  | (Omit<TextResourceContents, 'uri'> & { uri?: string })
  | (Omit<BlobResourceContents, 'uri' | 'blob'> & { uri?: string; blob: string | Uint8Array });

/** What a read callback returns. A content without `uri` gets the URI that was read. */
export interface ReadResourceOutput {
  contents: ResourceContentsInput[];
  _meta?: Meta;
  /**
   * 2026-07-28 caching hints for this read (sent only to modern requests; the server's per-method
   * default otherwise): how long the result stays fresh, and whether shared caches may keep it.
   * @see https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/caching
   */
  ttlMs?: number;
  cacheScope?: 'public' | 'private';
}

export type ReadResourceCallback = (uri: string, ctx: RequestHandlerContext) => ReadResourceOutput | Promise<ReadResourceOutput>;
export type ReadTemplateCallback = (
  uri: string,
  variables: MatchedVariables,
  ctx: RequestHandlerContext,
) => ReadResourceOutput | Promise<ReadResourceOutput>;

/** A resource a template's `list` callback reports (the template's mimeType etc. fill gaps). */
export type ListedResource = { uri: string; name: string } & ResourceMetadata;
export type ListTemplateCallback = (ctx: RequestHandlerContext) => ListedResource[] | Promise<ListedResource[]>;

/** Context of a completion request: arguments the client already resolved. */
export interface CompletionContext {
  arguments: Record<string, string>;
}
export type CompleteVariableCallback = (
  value: string,
  context: CompletionContext,
  ctx: RequestHandlerContext | undefined,
) => string[] | Promise<string[]>;

/** Descriptive fields of a template plus its optional `list` and per-variable `complete`. */
export interface ResourceTemplateMetadata extends Omit<ResourceMetadata, 'size'> {
  /** Enumerate concrete resources of this template for `resources/list`. */
  list?: ListTemplateCallback;
  /** Completion of template variables, by variable name. */
  complete?: { [variable: string]: CompleteVariableCallback };
}

/** Handle of a registered resource. */
export interface RegisteredResource {
  readonly name: string;
  readonly uri: string;
  /** Change fields; a key given as `undefined` removes that field. */
  update(changes: Partial<ResourceMetadata> & { name?: string; uri?: string; read?: ReadResourceCallback }): void;
  remove(): void;
}

/** Handle of a registered resource template. */
export interface RegisteredResourceTemplate {
  readonly name: string;
  readonly uriTemplate: string;
  /** Change fields; a key given as `undefined` removes that field. */
  update(changes: Partial<ResourceTemplateMetadata> & { name?: string; uriTemplate?: string; read?: ReadTemplateCallback }): void;
  remove(): void;
}

export interface ResourcesInstallOptions {
  /** Items per `resources/list` and `resources/templates/list` page. Default 50. */
  pageSize?: number;
  /** Quiet time before `notifications/resources/list_changed` goes out. Default 0 (one timer turn). */
  listChangedDebounceMs?: number;
  /** Offer `resources/subscribe` (capability `resources.subscribe`). Default true. */
  subscribe?: boolean;
  /** Send `list_changed` (capability `resources.listChanged`). Default true. */
  listChanged?: boolean;
  /** Declare `resources` even while nothing is registered. Default false: on first registration. */
  declareWhenEmpty?: boolean;
  /** Longest URI accepted in requests. Default 65 536. */
  maxUriLength?: number;
  /** Most subscriptions one session may hold. Default 10 000. */
  maxSubscriptionsPerSession?: number;
  /** The clock for the debounce. Default: the server's clock, else the system clock. */
  clock?: Clock;
}

/** What `complete` returns: the `completion` object of a `completion/complete` result. */
export interface CompletionValues {
  values: string[];
  total?: number;
  hasMore?: boolean;
}


/** A registered resource (internal to the feature). */
export interface ResourceEntry {
  readonly seq: number;
  /** The `Resource` object as listed (newest revision's shape). */
  readonly listed: Resource;
  readonly read: ReadResourceCallback;
}

/** A registered template (internal to the feature). */
export interface TemplateEntry {
  readonly seq: number;
  readonly listed: ResourceTemplate;
  readonly template: UriTemplate;
  readonly read: ReadTemplateCallback;
  readonly list: ListTemplateCallback | undefined;
  readonly complete: Readonly<Record<string, CompleteVariableCallback>> | undefined;
}

/** The registry: immutable, replaced on every change. */
export interface ResourcesState {
  /** By URI. */
  readonly resources: Readonly<Record<string, ResourceEntry>>;
  /** By name. */
  readonly templates: Readonly<Record<string, TemplateEntry>>;
  readonly nextSeq: number;
}
