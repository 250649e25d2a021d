/**
 * The refusal of a request whose header holds a control character: HTTP 400 with a JSON-RPC error
 * body like every other HTTP refusal, under the request's id when its body can be read (a POST),
 * else null. The header's value is not echoed: it is the malformed part.
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/transports
 */
import { sniffRequestId } from '../lib/jsonrpc/codec.js';
import { topLevelOf } from '../lib/jsonrpc/depth.js';
import { ErrorCode } from '../lib/jsonrpc/error-codes.js';
import type { RequestId } from '../lib/jsonrpc/message.js';
import { readBody, writeError, type BodyDeadline } from './http-body.js';
import { headerWithControlCharacter } from './http-security.js';
import type { HttpRequestIn, HttpResponseOut } from './http-shape.js';

/** The message of the refusal, naming the header. */
export const controlCharacterMessage = (header: string): string =>
  `Bad Request: the ${header} header holds a control character, which HTTP does not allow in a header value`;

/**
 * Answers (and returns true) when a header of `req` holds a control character. A POST body is
 * read first, within `maxBytes` and the deadline, only to answer under its id.
 */
export function refusesMalformedHeader(req: HttpRequestIn, res: HttpResponseOut, maxBytes: number, deadline?: BodyDeadline): boolean {
  const header = headerWithControlCharacter(req.headers);
  if (header === undefined) return false;
  const message = controlCharacterMessage(header);
  if (req.method !== 'POST') {
    writeError(res, 400, ErrorCode.InvalidRequest, message);
    return true;
  }
  readBody(req, maxBytes, (error, text, value) => {
    let id: RequestId | null = null;
    if (error === undefined) id = text !== undefined ? sniffRequestId(text) : topLevelOf(value).id;
    writeError(res, 400, ErrorCode.InvalidRequest, message, undefined, id);
  }, deadline);
  return true;
}
