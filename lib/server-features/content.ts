/**
 * Content blocks for tool results and prompt messages: helpers to make them, a check that a
 * block is well formed, and the downgrade of blocks to what a negotiated revision can carry.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-result
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/prompts#promptmessage
 */
import { allows, type Revision } from '../protocol/revisions.js';
import type { Annotations, Meta } from '../protocol/schema/base.js';
import { base64Encode } from '../crypto/bytes.js';
import type { AudioContent, ContentBlock, EmbeddedResource, ImageContent, ResourceLink, TextContent } from '../protocol/schema/content.js';
import type { BlobResourceContents, TextResourceContents } from '../protocol/schema/resources.js';

/** Optional parts every block may have. */
export interface BlockOptions {
  annotations?: Annotations;
  _meta?: Meta;
}

const MIME = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}(\s*;.*)?$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Whether `s` looks like a MIME type (`type/subtype`, parameters allowed). */
export function isMimeType(s: unknown): s is string {
  return typeof s === 'string' && MIME.test(s);
}

/** Whether `s` is standard base64 (padded, no whitespace). */
export function isBase64(s: unknown): s is string {
  return typeof s === 'string' && BASE64.test(s);
}

function withOptions<T extends object>(block: T, options: BlockOptions | undefined): T {
  if (options?.annotations !== undefined) (block as BlockOptions).annotations = options.annotations;
  if (options?._meta !== undefined) (block as BlockOptions)._meta = options._meta;
  return block;
}

function binary(data: string | Uint8Array, mimeType: string, kind: string): { data: string; mimeType: string } {
  const encoded = typeof data === 'string' ? data : base64Encode(data);
  if (!isBase64(encoded)) throw new TypeError(`${kind} data must be base64-encoded (or pass the bytes as a Uint8Array)`);
  if (!isMimeType(mimeType)) throw new TypeError(`${kind} needs a valid MIME type such as "image/png"; got ${JSON.stringify(mimeType)}`);
  return { data: encoded, mimeType };
}

/** A text block. */
export function text(value: string, options?: BlockOptions): TextContent {
  return withOptions({ type: 'text', text: value }, options);
}

/** An image block; bytes are base64-encoded for you. @throws TypeError on bad base64 or MIME type */
export function image(data: string | Uint8Array, mimeType: string, options?: BlockOptions): ImageContent {
  return withOptions({ type: 'image', ...binary(data, mimeType, 'Image') }, options);
}

/**
 * An audio block (2025-03-26 on; left out of results for older clients).
 * @throws TypeError on bad base64 or MIME type
 */
export function audio(data: string | Uint8Array, mimeType: string, options?: BlockOptions): AudioContent {
  return withOptions({ type: 'audio', ...binary(data, mimeType, 'Audio') }, options);
}

/** A link to a resource (2025-06-18 on; left out of results for older clients). */
export function resourceLink(resource: Omit<ResourceLink, 'type'>): ResourceLink {
  if (typeof resource.uri !== 'string' || resource.uri === '') throw new TypeError('A resource link needs a uri');
  if (typeof resource.name !== 'string') throw new TypeError('A resource link needs a name');
  return { type: 'resource_link', ...resource };
}

/**
 * A resource carried inline: a URI, a MIME type, and either `text` or a base64 `blob`
 * (bytes are encoded for you).
 */
export function embeddedResource(
  resource:
    | (Omit<TextResourceContents, 'mimeType'> & { mimeType: string })
    | (Omit<BlobResourceContents, 'mimeType' | 'blob'> & { mimeType: string; blob: string | Uint8Array }),
  options?: BlockOptions,
): EmbeddedResource {
  let contents: TextResourceContents | BlobResourceContents;
  if ('blob' in resource) {
    const blob = typeof resource.blob === 'string' ? resource.blob : base64Encode(resource.blob);
    contents = { ...resource, blob };
  } else {
    contents = { ...resource };
  }
  const problem = resourceContentsProblem(contents, true);
  if (problem) throw new TypeError(`Embedded resource: ${problem}`);
  return withOptions({ type: 'resource', resource: contents }, options);
}

function resourceContentsProblem(r: unknown, requireMime: boolean): string | undefined {
  if (r === null || typeof r !== 'object') return 'resource must be an object';
  const c = r as Record<string, unknown>;
  if (typeof c.uri !== 'string' || c.uri === '') return 'resource.uri must be a non-empty string';
  if (requireMime ? !isMimeType(c.mimeType) : c.mimeType !== undefined && !isMimeType(c.mimeType)) {
    return `resource.mimeType must be a valid MIME type (got ${JSON.stringify(c.mimeType)})`;
  }
  const hasText = typeof c.text === 'string';
  const hasBlob = c.blob !== undefined;
  if (hasText === hasBlob) return 'resource needs either text or a base64 blob, not both or neither';
  if (hasBlob && !isBase64(c.blob)) return 'resource.blob must be base64-encoded';
  return undefined;
}

/**
 * What is wrong with `block`, or undefined when it is a well-formed content block.
 * `strictResources`: embedded resources must carry a MIME type (prompt messages require it).
 */
export function contentBlockProblem(block: unknown, strictResources = false): string | undefined {
  if (block === null || typeof block !== 'object' || Array.isArray(block)) return 'a content block must be an object';
  const b = block as Record<string, unknown>;
  switch (b.type) {
    case 'text':
      return typeof b.text === 'string' ? undefined : 'text content needs a string "text"';
    case 'image':
    case 'audio':
      if (!isBase64(b.data)) return `${b.type} content: data must be base64-encoded`;
      if (!isMimeType(b.mimeType)) return `${b.type} content: mimeType must be a valid MIME type (got ${JSON.stringify(b.mimeType)})`;
      return undefined;
    case 'resource_link':
      if (typeof b.uri !== 'string' || b.uri === '') return 'resource_link content needs a uri';
      return typeof b.name === 'string' ? undefined : 'resource_link content needs a name';
    case 'resource':
      return resourceContentsProblem(b.resource, strictResources);
    default:
      return `unknown content type ${JSON.stringify(b.type)}`;
  }
}

/**
 * `block` as revision `rev` can carry it, or undefined when that revision has no such block
 * (audio before 2025-03-26, resource links before 2025-06-18). Also drops `_meta` where objects
 * could not carry it and `annotations.lastModified` where annotations had no such field.
 */
export function blockForRevision(block: ContentBlock, rev: Revision): ContentBlock | undefined {
  if (block.type === 'audio' && !allows(rev, 'audioContent')) return undefined;
  if (block.type === 'resource_link' && !allows(rev, 'resourceLinks')) return undefined;
  let out: ContentBlock = block;
  const meta = !allows(rev, 'metaOnObjects');
  const lastModified = !allows(rev, 'annotationsLastModified') && out.annotations?.lastModified !== undefined;
  const resourceMeta = meta && out.type === 'resource' && out.resource._meta !== undefined;
  if ((meta && out._meta !== undefined) || lastModified || resourceMeta) {
    out = { ...out };
    if (meta) delete out._meta;
    if (lastModified) {
      const { lastModified: _dropped, ...rest } = out.annotations!;
      out.annotations = rest;
    }
    if (resourceMeta && out.type === 'resource') {
      const { _meta: _droppedMeta, ...rest } = out.resource;
      out.resource = rest;
    }
  }
  return out;
}

/** The blocks revision `rev` can carry, each downgraded by {@link blockForRevision}. */
export function contentForRevision(blocks: readonly ContentBlock[], rev: Revision): ContentBlock[] {
  // Mapped, not pushed: sized to its blocks (a [] pushed to keeps room for 17, 152 bytes for one
  // block, as long as the result is kept, by a journal or a cache).
  const out = blocks.map((b) => blockForRevision(b, rev));
  return out.includes(undefined) ? out.filter((b) => b !== undefined) : (out as ContentBlock[]);
}
