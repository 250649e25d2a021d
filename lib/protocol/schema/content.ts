/**
 * Content blocks: what tool results, prompt messages and sampling messages are made of.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-result
 */
import type { Revision } from '../revisions.js';
import type { Annotations, Meta } from './base.js';
import type { BlobResourceContents, Resource, TextResourceContents } from './resources.js';

/**
 * Text.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#text-content
 */
export type TextContent = {
  type: 'text';
  text: string;
  annotations?: Annotations;
  /** @since 2025-06-18 */
  _meta?: Meta;
};

/**
 * An image, base64-encoded.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#image-content
 */
export type ImageContent = {
  type: 'image';
  /** Base64 data. */
  data: string;
  mimeType: string;
  annotations?: Annotations;
  /** @since 2025-06-18 */
  _meta?: Meta;
};

/**
 * Audio, base64-encoded.
 * @since 2025-03-26
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#audio-content
 */
export type AudioContent = {
  type: 'audio';
  /** Base64 data. */
  data: string;
  mimeType: string;
  annotations?: Annotations;
  /** @since 2025-06-18 */
  _meta?: Meta;
};

/**
 * A pointer to a resource (which need not appear in `resources/list`).
 * @since 2025-06-18
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#resource-links
 */
export type ResourceLink = Resource & {
  type: 'resource_link';
};

/**
 * A resource's contents carried inline.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#embedded-resources
 */
export type EmbeddedResource = {
  type: 'resource';
  resource: TextResourceContents | BlobResourceContents;
  annotations?: Annotations;
  /** @since 2025-06-18 */
  _meta?: Meta;
};

/**
 * Any block of tool-result or prompt content, in the newest revision.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-result
 */
export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

/**
 * The model's request, inside sampling, to call a tool.
 * @since 2025-11-25
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/sampling#sampling-with-tools
 */
export type ToolUseContent = {
  type: 'tool_use';
  /** Unique per use; the matching `tool_result` refers to it. */
  id: string;
  name: string;
  input: { [key: string]: unknown };
  _meta?: Meta;
};

/**
 * The outcome of a `tool_use`, handed back to the model in a later sampling request.
 * @since 2025-11-25
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/sampling#sampling-with-tools
 */
export type ToolResultContent = {
  type: 'tool_result';
  /** The `id` of the `tool_use` this answers. */
  toolUseId: string;
  content: ContentBlock[];
  structuredContent?: { [key: string]: unknown };
  isError?: boolean;
  _meta?: Meta;
};

/**
 * A block of a sampling message, in the newest revision.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/sampling#messages
 */
export type SamplingMessageContentBlock =
  | TextContent
  | ImageContent
  | AudioContent
  | ToolUseContent
  | ToolResultContent;

/**
 * The tool-result / prompt content blocks each revision defines. Agrees with the
 * `audioContent` and `resourceLinks` rows of the revision table.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-result
 */
export type ContentBlockByRevision = {
  '2024-11-05': TextContent | ImageContent | EmbeddedResource;
  '2025-03-26': TextContent | ImageContent | AudioContent | EmbeddedResource;
  '2025-06-18': ContentBlock;
  '2025-11-25': ContentBlock;
  '2026-07-28': ContentBlock;
};

/**
 * A content block as revision `R` defines it.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-result
 */
export type ContentBlockIn<R extends Revision> = ContentBlockByRevision[R];

/**
 * The sampling-message content blocks each revision defines. Agrees with the
 * `audioContent` and `samplingTools` rows of the revision table.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/sampling#messages
 */
export type SamplingContentByRevision = {
  '2024-11-05': TextContent | ImageContent;
  '2025-03-26': TextContent | ImageContent | AudioContent;
  '2025-06-18': TextContent | ImageContent | AudioContent;
  '2025-11-25': SamplingMessageContentBlock;
  '2026-07-28': SamplingMessageContentBlock;
};

/**
 * A sampling content block as revision `R` defines it.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/sampling#messages
 */
export type SamplingContentIn<R extends Revision> = SamplingContentByRevision[R];
