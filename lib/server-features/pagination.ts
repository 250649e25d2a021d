/**
 * Pagination of list results with opaque cursors.
 *
 * A cursor is base64url of a small JSON object: which list it belongs to, the offset of the
 * next item, the registry version it was made at, and the name of the last item handed out.
 * While the registry is unchanged the offset is used as is; after a change the page continues
 * after that last item (so nothing is repeated or skipped because of an insertion or removal
 * before it), falling back to the offset when the item is gone. Anything that does not decode
 * to such an object, or belongs to another list, is answered -32602.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/pagination
 */
import { McpError } from '../errors.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import { base64Decode, utf8Decode, utf8ToBase64url } from '../crypto/bytes.js';

/** The page size when none is configured. */
export const DEFAULT_PAGE_SIZE = 100;

interface CursorPayload {
  /** Which list. */
  l: string;
  /** Offset of the next item. */
  o: number;
  /** Registry version the cursor was made at. */
  v: number;
  /** Name of the last item of the previous page. */
  k: string;
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** Encode a cursor (exported for tests; clients must treat cursors as opaque). */
export function encodeCursor(payload: CursorPayload): string {
  return utf8ToBase64url(JSON.stringify(payload));
}

/** Decode a cursor of list `list`, or throw -32602 saying what is wrong with it. */
export function decodeCursor(cursor: unknown, list: string): CursorPayload {
  const bad = (why: string) => new McpError(ErrorCode.InvalidParams, `Invalid cursor: ${why}. Start again without a cursor.`);
  if (typeof cursor !== 'string') throw bad('a cursor must be a string returned as nextCursor');
  if (!BASE64URL.test(cursor) || cursor.length > 2048) throw bad('not a cursor this server issued');
  let payload: unknown;
  try {
    payload = JSON.parse(utf8Decode(base64Decode(cursor)));
  } catch {
    throw bad('not a cursor this server issued');
  }
  const p = payload as Partial<CursorPayload> | null;
  if (
    p === null ||
    typeof p !== 'object' ||
    typeof p.l !== 'string' ||
    typeof p.k !== 'string' ||
    !Number.isSafeInteger(p.o) ||
    (p.o as number) < 0 ||
    !Number.isSafeInteger(p.v) ||
    (p.v as number) < 0
  ) {
    throw bad('not a cursor this server issued');
  }
  if (p.l !== list) throw bad(`it belongs to another list (${p.l}), not ${list}`);
  return p as CursorPayload;
}

/** A page of `items`. */
export interface Page<T> {
  items: T[];
  /** Present when more items follow. */
  nextCursor?: string;
}

/**
 * The page of `items` (the whole current list, in order) that `cursor` points to.
 * @param list the list's name (`tools`, `prompts`, …), carried in the cursor
 * @param keyOf each item's unique name
 * @param version the registry version `items` come from
 */
export function paginate<T>(
  list: string,
  items: readonly T[],
  keyOf: (item: T) => string,
  cursor: unknown,
  pageSize: number,
  version: number,
): Page<T> {
  let start = 0;
  if (cursor !== undefined) {
    const c = decodeCursor(cursor, list);
    start = c.o;
    if (c.v !== version) {
      const i = items.findIndex((item) => keyOf(item) === c.k);
      if (i >= 0) start = i + 1;
    }
    start = Math.min(start, items.length);
  }
  const end = Math.min(items.length, start + pageSize);
  const page = items.slice(start, end);
  if (end >= items.length || page.length === 0) return { items: page };
  return { items: page, nextCursor: encodeCursor({ l: list, o: end, v: version, k: keyOf(page[page.length - 1]!) }) };
}

/** Check a configured page size: a positive integer, or Infinity for no paging. */
export function checkPageSize(n: number | undefined): number {
  if (n === undefined) return DEFAULT_PAGE_SIZE;
  if (n === Infinity || (Number.isInteger(n) && n > 0)) return n;
  throw new TypeError(`pageSize must be a positive integer (or Infinity for one page); got ${n}`);
}
