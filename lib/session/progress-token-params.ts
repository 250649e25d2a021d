/**
 * A request that asks for progress carries its token in `params._meta.progressToken`: the caller's
 * params and `_meta` are left as they are, and copies with the token are sent. Shared by the
 * session's outbound requests and the 2026-07-28 client link.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/progress
 */
import type { JsonObject } from '../jsonrpc/message.js';
import { spreadCopy } from '../jsonrpc/spread-copy.js';
import type { ProgressToken } from '../protocol/schema/base.js';

/**
 * `{ ...params, _meta: { ...params._meta, progressToken: token } }` (absent or null params or
 * `_meta` as empty), made key by key where a spread copy is slow to grow (Node 20: see spread-copy.ts).
 */
export function withProgressToken(params: JsonObject | undefined, token: ProgressToken): JsonObject {
  const own = params?._meta as JsonObject | null | undefined;
  const meta = own === undefined || own === null ? {} : spreadCopy(own);
  meta.progressToken = token;
  const out = params === undefined || params === null ? {} : spreadCopy(params);
  out._meta = meta;
  return out;
}
