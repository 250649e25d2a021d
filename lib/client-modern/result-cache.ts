/**
 * The client's cache of cacheable results (2026-07-28): `server/discover`, the lists and
 * `resources/read`, kept while fresh (`now < received + ttlMs`; an absent or negative `ttlMs` is
 * 0, so nothing is kept). The key is the method and its params without `_meta`, so a request with
 * other params never gets another's result. One cache per client, and a result marked
 * `cacheScope: "private"` (or not marked) is served only to the caller it was fetched for (the
 * transport's authorization context: another access token is another caller). Results that took
 * input rounds are not cached.
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/caching
 */
import type { Clock } from '../clock.js';
import type { JsonObject } from '../jsonrpc/message.js';
import { CACHEABLE_METHODS } from '../protocol/schema/modern.js';

const CACHEABLE: ReadonlySet<string> = new Set(CACHEABLE_METHODS);

/** The list a list-change notification makes stale. */
const INVALIDATES: Record<string, string[]> = {
  'notifications/tools/list_changed': ['tools/list'],
  'notifications/prompts/list_changed': ['prompts/list'],
  'notifications/resources/list_changed': ['resources/list', 'resources/templates/list'],
};

export class ResultCache {
  private readonly entries = new Map<string, { method: string; result: JsonObject; freshUntil: number; privateTo: string | null | undefined }>();

  constructor(private readonly clock: Clock) {}

  static cacheable(method: string): boolean {
    return CACHEABLE.has(method);
  }

  static keyOf(method: string, params: JsonObject | undefined): string {
    const { _meta: _ignored, ...rest } = params ?? {};
    return `${method} ${JSON.stringify(rest)}`;
  }

  /** A fresh result for this request made as `caller`, if one is kept. */
  get(method: string, params: JsonObject | undefined, caller?: string): JsonObject | undefined {
    const key = ResultCache.keyOf(method, params);
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.privateTo !== undefined && entry.privateTo !== (caller ?? null)) return undefined;
    if (this.clock.now() < entry.freshUntil) return entry.result;
    this.entries.delete(key);
    return undefined;
  }

  /**
   * Keep a complete result for its `ttlMs`; a private one (`cacheScope` other than "public")
   * only for the `caller` it was fetched as.
   * @see https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/caching#cache-scope-field
   */
  put(method: string, params: JsonObject | undefined, result: JsonObject, caller?: string): void {
    const ttl = typeof result.ttlMs === 'number' && Number.isFinite(result.ttlMs) && result.ttlMs > 0 ? result.ttlMs : 0;
    if (ttl === 0) return;
    const privateTo = result.cacheScope === 'public' ? undefined : (caller ?? null);
    this.entries.set(ResultCache.keyOf(method, params), { method, result, freshUntil: this.clock.now() + ttl, privateTo });
  }

  /** Forget what a notification says changed (`notifications/resources/updated` names one URI). */
  invalidate(notification: string, params?: JsonObject): void {
    const methods = INVALIDATES[notification];
    if (methods) {
      for (const [key, entry] of this.entries) if (methods.includes(entry.method)) this.entries.delete(key);
      return;
    }
    if (notification === 'notifications/resources/updated' && typeof params?.uri === 'string') {
      this.entries.delete(ResultCache.keyOf('resources/read', { uri: params.uri }));
    }
  }

  /** Forget every kept result of `method` (all pages of a list whose cursor the server refused). */
  forgetMethod(method: string): void {
    for (const [key, entry] of this.entries) if (entry.method === method) this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
