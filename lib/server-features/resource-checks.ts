/**
 * Resources, server side: checks of what a user registers (names, URIs, metadata), the shape
 * of a listed object per revision, and a read callback's output checked and completed.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/resources
 */
import { isSupportedRevision, allows, type Revision } from '../protocol/revisions.js';
import type { JsonObject } from '../jsonrpc/message.js';
import type { Annotations, Icon, Meta } from '../protocol/schema/base.js';
import type { Resource } from '../protocol/schema/resources.js';
import type { RequestCaller } from '../session/session.js';
import { base64Encode } from '../crypto/bytes.js';
import { uriProblem } from './uri-template.js';
import type { ReadResourceOutput, ResourceMetadata, ResourceTemplateMetadata, TemplateEntry } from './resource-types.js';

export function revisionOf(session: RequestCaller): Revision | undefined {
  const v = session.protocolVersion;
  return isSupportedRevision(v) ? v : undefined;
}

export function positiveInt(v: number | undefined, fallback: number, name: string): number {
  if (v === undefined) return fallback;
  if (!Number.isSafeInteger(v) || v < 1) throw new RangeError(`${name} must be a positive integer`);
  return v;
}

export function checkName(name: unknown, what: string): void {
  if (typeof name !== 'string' || name.length === 0) throw new TypeError(`A ${what} needs a non-empty string name`);
}

/** Registered URIs must be RFC 3986 URIs with a scheme (custom schemes included). */
export function checkUri(uri: unknown): asserts uri is string {
  if (typeof uri !== 'string') throw new TypeError('A resource URI must be a string');
  const problem = uriProblem(uri);
  if (problem) throw new Error(`Invalid resource URI "${uri.slice(0, 256)}": ${problem}`);
}

export function checkMetadata(meta: ResourceMetadata | undefined): void {
  if (meta === undefined || meta === null) return;
  if (typeof meta !== 'object') throw new TypeError('Resource metadata must be an object');
  for (const k of ['title', 'description', 'mimeType'] as const) {
    if (meta[k] !== undefined && typeof meta[k] !== 'string') throw new TypeError(`"${k}" must be a string`);
  }
  if (meta.size !== undefined && !(Number.isSafeInteger(meta.size) && meta.size >= 0)) throw new TypeError('"size" must be a non-negative integer (bytes)');
  const a = meta.annotations;
  if (a !== undefined) {
    if (a.priority !== undefined && !(typeof a.priority === 'number' && a.priority >= 0 && a.priority <= 1)) {
      throw new RangeError('"annotations.priority" must be a number from 0 to 1');
    }
    if (a.audience !== undefined && !(Array.isArray(a.audience) && a.audience.every((r) => r === 'user' || r === 'assistant'))) {
      throw new TypeError('"annotations.audience" must be an array of "user" and "assistant"');
    }
  }
  if (meta.icons !== undefined && !(Array.isArray(meta.icons) && meta.icons.every((i) => i && typeof i.src === 'string'))) {
    throw new TypeError('"icons" must be an array of { src: string, ... }');
  }
}

export function listedResource(uri: string, name: string, meta: ResourceMetadata | undefined): Resource {
  const out: Resource = { uri, name };
  for (const [k, v] of Object.entries(meta ?? {})) if (v !== undefined) (out as Record<string, unknown>)[k] = structuredClone(v);
  return out;
}

export function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function metadataOf(e: TemplateEntry): ResourceTemplateMetadata {
  const { uriTemplate: _u, name: _n, ...meta } = e.listed;
  const out: ResourceTemplateMetadata = { ...meta } as ResourceTemplateMetadata;
  if (e.list) out.list = e.list;
  if (e.complete) out.complete = { ...e.complete };
  return out;
}

/** Drop the fields `rev` does not have (title, icons, `_meta` on objects, `lastModified`). */
export function shapeForRevision<T extends { title?: string; icons?: Icon[]; _meta?: Meta; annotations?: Annotations }>(obj: T, rev: Revision | undefined): T {
  if (!rev) return obj;
  let out = obj;
  const copy = (): T => (out === obj ? (out = { ...obj }) : out);
  if (obj.title !== undefined && !allows(rev, 'title')) delete copy().title;
  if (obj.icons !== undefined && !allows(rev, 'icons')) delete copy().icons;
  if (obj._meta !== undefined && !allows(rev, 'metaOnObjects')) delete copy()._meta;
  if (obj.annotations?.lastModified !== undefined && !allows(rev, 'annotationsLastModified')) {
    const { lastModified: _l, ...rest } = obj.annotations;
    copy().annotations = rest;
  }
  return out;
}


const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Check and complete a read callback's output: URIs, MIME types, text or properly encoded blobs. */
export function finishRead(output: ReadResourceOutput, uri: string, mimeType: string | undefined, rev: Revision | undefined): JsonObject {
  if (!output || typeof output !== 'object' || !Array.isArray(output.contents)) {
    throw new Error(`The read callback for "${uri.slice(0, 256)}" must return { contents: [...] }`);
  }
  const metaAllowed = rev === undefined || allows(rev, 'metaOnObjects');
  const contents = output.contents.map((c, i) => {
    if (!c || typeof c !== 'object') throw new Error(`Resource contents #${i} of "${uri.slice(0, 256)}" must be an object`);
    const out: JsonObject = { uri: c.uri ?? uri };
    if (typeof out.uri !== 'string') throw new Error(`Resource contents #${i}: "uri" must be a string`);
    const mt = c.mimeType ?? mimeType;
    if (mt !== undefined) out.mimeType = mt;
    const hasText = 'text' in c && c.text !== undefined;
    const hasBlob = 'blob' in c && c.blob !== undefined;
    if (hasText === hasBlob) throw new Error(`Resource contents #${i} of "${uri.slice(0, 256)}" must have exactly one of "text" and "blob"`);
    if (hasText) {
      if (typeof (c as { text: unknown }).text !== 'string') throw new Error(`Resource contents #${i}: "text" must be a string`);
      out.text = (c as { text: string }).text;
    } else {
      const blob = (c as { blob: unknown }).blob;
      if (blob instanceof Uint8Array) out.blob = base64Encode(blob);
      else if (typeof blob === 'string' && blob.length % 4 === 0 && BASE64.test(blob)) out.blob = blob;
      else throw new Error(`Resource contents #${i} of "${uri.slice(0, 256)}": "blob" must be base64 (or bytes, which are encoded for you)`);
    }
    if (c._meta !== undefined && metaAllowed) out._meta = c._meta;
    return out;
  });
  const result: JsonObject = { contents };
  if (output._meta !== undefined) result._meta = output._meta;
  if (rev !== undefined && allows(rev, 'cachingHints')) {
    if (typeof output.ttlMs === 'number' && Number.isInteger(output.ttlMs) && output.ttlMs >= 0) result.ttlMs = output.ttlMs;
    if (output.cacheScope === 'public' || output.cacheScope === 'private') result.cacheScope = output.cacheScope;
  }
  return result;
}
