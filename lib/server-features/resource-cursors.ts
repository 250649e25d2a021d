/**
 * Opaque cursors of `resources/list` and `resources/templates/list`: base64url of the last
 * item's position, stable when items come and go.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/pagination
 */
import { McpError } from '../errors.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import type { JsonObject } from '../jsonrpc/message.js';
import { base64Decode, utf8Decode, utf8ToBase64url } from '../crypto/bytes.js';

/** A position: group (0 static resources, 1 templates' listed resources), registration order, index in a template's list. */
export type CursorKey = [group: number, seq: number, index: number];

const MAX_CURSOR_LENGTH = 256;

export function compareKeys(a: CursorKey, b: CursorKey): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** An opaque cursor: base64url of the last item's position (stable when items come and go). */
export function writeCursor(kind: 'r' | 't', key: CursorKey): string {
  return utf8ToBase64url(JSON.stringify({ k: kind, p: key }));
}

/** The position a cursor stands for; -32602 for anything this server did not hand out. */
export function readCursor(params: JsonObject | undefined, kind: 'r' | 't'): CursorKey | undefined {
  const cursor = params?.cursor;
  if (cursor === undefined) return undefined;
  const bad = () => new McpError(ErrorCode.InvalidParams, 'Invalid cursor: pass back a "nextCursor" from a previous page of this list, unchanged');
  if (typeof cursor !== 'string' || cursor.length === 0 || cursor.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw bad();
  let parsed: unknown;
  try {
    parsed = JSON.parse(utf8Decode(base64Decode(cursor)));
  } catch {
    throw bad();
  }
  const p = (parsed as { p?: unknown })?.p;
  if (
    (parsed as { k?: unknown })?.k !== kind ||
    !Array.isArray(p) ||
    p.length !== 3 ||
    !p.every((n) => Number.isSafeInteger(n) && (n as number) >= 0) ||
    (p[0] as number) > 1
  ) {
    throw bad();
  }
  return p as CursorKey;
}
