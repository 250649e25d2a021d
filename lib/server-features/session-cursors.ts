/**
 * Cursors bound to the session that received them. Clients must not keep cursors across
 * sessions; with this binding a server notices when one does: each `nextCursor` of a list is
 * sealed with a random tag of its session, and a cursor presented in another session (or not
 * sealed by this server) is answered -32602 saying to list again from the start.
 *
 * Off by default (`cursorScope: 'server'`): on a stateless HTTP server every POST is its own
 * session, so a session-bound cursor could never reach its second page.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/pagination#implementation-guidelines
 */
import { randomBase64url } from '../crypto/random.js';
import { base64Decode, utf8Decode, utf8ToBase64url } from '../crypto/bytes.js';
import { McpError } from '../errors.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import type { JsonObject } from '../jsonrpc/message.js';
import type { RequestHandler, ServerCaller } from '../session/session.js';

/** The list methods whose cursors are bound (every paginated method of the protocol). */
export const PAGINATED_METHODS: ReadonlySet<string> = new Set(['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list']);

/** Where a server's cursors are valid: in the session that received them, or anywhere on the server. */
export type CursorScope = 'session' | 'server';

const tags = new WeakMap<ServerCaller, string>();

/** The random tag of `session` its cursors are sealed with. */
function tagOf(session: ServerCaller): string {
  let tag = tags.get(session);
  if (tag === undefined) {
    tag = randomBase64url(12);
    tags.set(session, tag);
  }
  return tag;
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;
const MAX_SEALED_LENGTH = 4096;

function invalid(why: string): McpError {
  return new McpError(ErrorCode.InvalidParams, `Invalid cursor: ${why}. Start the listing again without a cursor.`);
}

/** `cursor` sealed for `session`. */
export function sealCursor(session: ServerCaller, cursor: string): string {
  return utf8ToBase64url(JSON.stringify({ s: tagOf(session), c: cursor }));
}

/**
 * The inner cursor of a cursor sealed for `session`; -32602 when it was sealed for another
 * session or is not a sealed cursor at all.
 */
export function unsealCursor(session: ServerCaller, sealed: unknown): string {
  if (typeof sealed !== 'string' || sealed.length === 0 || sealed.length > MAX_SEALED_LENGTH || !BASE64URL.test(sealed)) {
    throw invalid('pass back a "nextCursor" from a previous page of this list, unchanged');
  }
  let value: unknown;
  try {
    value = JSON.parse(utf8Decode(base64Decode(sealed)));
  } catch {
    throw invalid('not a cursor this server issued');
  }
  const v = value as { s?: unknown; c?: unknown } | null;
  if (v === null || typeof v !== 'object' || typeof v.s !== 'string' || typeof v.c !== 'string') throw invalid('not a cursor this server issued');
  if (v.s !== tagOf(session)) {
    throw invalid('it was issued in another session, and cursors are valid only in the session that received them (a client must not keep cursors across sessions)');
  }
  return v.c;
}

/** `handler` (a list method's) with its cursors bound to the session (see the module's description). */
export function bindCursorsToSession(handler: RequestHandler): RequestHandler {
  return (params, ctx) => {
    let inner = params;
    if (params?.cursor !== undefined) inner = { ...params, cursor: unsealCursor(ctx.session, params.cursor) };
    const seal = (result: JsonObject | void): JsonObject | void => {
      if (result && typeof result.nextCursor === 'string') return { ...result, nextCursor: sealCursor(ctx.session, result.nextCursor) };
      return result;
    };
    const out = handler(inner, ctx);
    return out instanceof Promise ? out.then(seal) : seal(out);
  };
}
