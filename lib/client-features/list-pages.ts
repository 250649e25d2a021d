/**
 * Cursor-based pagination, as the client walks it: cursors are opaque, passed back exactly as
 * received; a missing `nextCursor` ends the listing; page sizes are whatever the server chose.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/pagination
 */
import type { JsonObject } from '../jsonrpc/message.js';
import type { RequestOptions } from '../session/request-registry.js';
import { McpError } from '../errors.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import { PaginationLoopError } from './client-feature-errors.js';

/** Sends one list request (the client's `request`). */
export type PageRequester = (method: string, params: JsonObject | undefined, options?: RequestOptions) => Promise<JsonObject>;

/**
 * Every page of a paginated list method, one result at a time, following `nextCursor`.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/pagination#pagination-model
 */
export async function* pages<P extends JsonObject>(request: PageRequester, method: string, options?: RequestOptions): AsyncGenerator<P, void, undefined> {
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (;;) {
    const result = (await request(method, cursor === undefined ? undefined : { cursor }, options)) as P;
    yield result;
    const next = result.nextCursor;
    // An absent (or null) nextCursor is the end; anything else is opaque and sent back as is.
    if (next === undefined || next === null) return;
    if (typeof next !== 'string') return;
    if (seen.has(next)) throw new PaginationLoopError(method, next);
    seen.add(next);
    cursor = next;
  }
}

/**
 * All items of a paginated list method, concatenated across pages. When the server refuses a
 * cursor it handed out (-32602: it expired, the list changed), the listing starts over once from
 * the beginning instead of failing.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/pagination
 * @see https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/caching#interaction-with-pagination
 */
export async function listAll<T>(request: PageRequester, method: string, key: string, options?: RequestOptions): Promise<T[]> {
  let cursorRefused = false;
  const watched: PageRequester = (m, params, o) =>
    request(m, params, o).catch((e: unknown) => {
      cursorRefused = params?.cursor !== undefined && e instanceof McpError && e.code === ErrorCode.InvalidParams;
      throw e;
    });
  for (let attempt = 0; ; attempt++) {
    const out: T[] = [];
    try {
      for await (const page of pages(watched, method, options)) {
        const items = page[key];
        if (Array.isArray(items)) out.push(...(items as T[]));
      }
      return out;
    } catch (e) {
      if (!cursorRefused || attempt > 0) throw e;
      cursorRefused = false;
    }
  }
}
