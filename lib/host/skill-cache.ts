/**
 * The host's cache of skill files: filled as files are read (never in bulk), holding only content
 * that matched its entry's size and digest, keyed by the server's host label, the file's URI and
 * that digest. A read whose entry names a digest the cache holds for that server and URI is
 * answered from memory; any other (a rotated file, another server, an unverifiable "dynamic"
 * skill) goes to the server. What the cache answers is checked against the entry again by the
 * skill loader, as every read is. Bounded: least recently used files leave first.
 * @see https://modelcontextprotocol.io/extensions/skills (Lazy Retrieval; Security Considerations: Cache integrity)
 */
import type { SkillsRequester } from '../client-features/client-skills.js';
import { base64Decode, utf8Encode } from '../crypto/bytes.js';
import type { JsonObject } from '../jsonrpc/message.js';
import type { Skill } from '../protocol/skills-extension.js';
import { skillDigest } from '../shared/skill-digest.js';

/** Default bound of a host's skill cache, in bytes of file content. */
export const DEFAULT_SKILL_CACHE_BYTES = 32 * 1024 * 1024;

/** What a skill cache did so far. */
export interface SkillCacheStats {
  /** Reads answered from the cache. */
  readonly hits: number;
  /** Reads that went to the server. */
  readonly misses: number;
  readonly files: number;
  readonly bytes: number;
}

interface Cached {
  /** The content as the server sent it (`text` or `blob`), for the loader to verify and use. */
  readonly content: JsonObject;
  readonly size: number;
}

/** Verified skill files by (server, uri, digest), in memory, bounded by `maxBytes`. */
export class SkillCache {
  private readonly files = new Map<string, Cached>();
  private bytes = 0;
  private hits = 0;
  private misses = 0;
  readonly maxBytes: number;

  constructor(options: { maxBytes?: number } = {}) {
    const max = options.maxBytes ?? DEFAULT_SKILL_CACHE_BYTES;
    if (!(typeof max === 'number' && max >= 0)) throw new TypeError(`skill cache maxBytes must be a number of bytes >= 0, got ${String(max)}`);
    this.maxBytes = max;
  }

  get stats(): SkillCacheStats {
    return { hits: this.hits, misses: this.misses, files: this.files.size, bytes: this.bytes };
  }

  /** Forget everything (e.g. when the user asks for fresh copies). */
  clear(): void {
    this.files.clear();
    this.bytes = 0;
  }

  /**
   * A requester for one skill of `server` (its held `entry`): reads of the files the entry lists
   * are answered from the cache when it holds them at the entry's digest, else sent through
   * `upstream` and kept once they match the entry. Everything else passes through.
   */
  requesterFor(server: string, entry: Skill, upstream: SkillsRequester): SkillsRequester {
    const listed = new Map(Array.isArray(entry.resources) ? entry.resources.map((r) => [r.uri, r] as const) : []);
    return {
      get serverCapabilities() {
        return upstream.serverCapabilities;
      },
      request: async (method, params) => {
        const uri = params?.['uri'];
        const file = method === 'resources/read' && typeof uri === 'string' ? listed.get(uri) : undefined;
        if (file === undefined) return upstream.request(method, params);
        const key = JSON.stringify([server, file.uri, file.digest]);
        const hit = this.files.get(key);
        if (hit !== undefined) {
          this.hits++;
          // Most recently used last: the first in the map leave first.
          this.files.delete(key);
          this.files.set(key, hit);
          return { contents: [{ ...hit.content }] };
        }
        this.misses++;
        const result = await upstream.request(method, params);
        const contents = result['contents'];
        const content = Array.isArray(contents) ? ((contents.find((c) => (c as JsonObject)?.['uri'] === file.uri) ?? contents[0]) as JsonObject | undefined) : undefined;
        const bytes = bytesOf(content);
        // Only what matches the entry is kept: a mismatch is the loader's to report, and never a cached copy.
        if (content !== undefined && bytes !== undefined && bytes.byteLength === file.size && skillDigest(bytes) === file.digest) this.keep(key, content, file.size);
        return result;
      },
    };
  }

  private keep(key: string, content: JsonObject, size: number): void {
    if (size > this.maxBytes || this.files.has(key)) return;
    for (const [old, cached] of this.files) {
      if (this.bytes + size <= this.maxBytes) break;
      this.files.delete(old);
      this.bytes -= cached.size;
    }
    const kept: JsonObject = { ...content };
    this.files.set(key, { content: kept, size });
    this.bytes += size;
  }
}

/** The raw bytes of a `resources/read` content (what the entry's digest covers). */
function bytesOf(content: JsonObject | undefined): Uint8Array | undefined {
  if (typeof content?.['text'] === 'string') return utf8Encode(content['text']);
  if (typeof content?.['blob'] === 'string') {
    try {
      return base64Decode(content['blob']);
    } catch {
      return undefined;
    }
  }
  return undefined;
}
