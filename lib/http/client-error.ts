/**
 * Node's answer to a request its HTTP parser refuses (a control character in a header value, a
 * malformed request line), which no handler ever sees: by default a bare `400 Bad Request`. This
 * answers like every other HTTP refusal of the MCP endpoint instead: the status with a JSON-RPC
 * error body, under the request's id when the body's first bytes arrived with the head, else null.
 *
 * `listen()` and `serveFetch()` install it; a server of your own takes it with
 * `server.on('clientError', answerClientError)`.
 *
 * @see https://nodejs.org/api/http.html#event-clienterror
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/transports
 */
import type { Duplex } from 'node:stream';
import { sniffRequestId } from '../jsonrpc/codec.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';

interface ParserError extends Error {
  code?: string;
  rawPacket?: Buffer;
}

/** What each parser error is answered with: its status and what to tell the client. */
function refusalOf(code: string | undefined): { status: number; reason: string; message: string } {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, reason: 'Request Header Fields Too Large', message: 'Request Header Fields Too Large: the request head is over the size limit' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, reason: 'Request Timeout', message: 'Request Timeout: the request head did not arrive in time' };
    case 'HPE_INVALID_HEADER_TOKEN':
    case 'HPE_INVALID_CHARACTER':
    case 'HPE_LF_EXPECTED':
    case 'HPE_CR_EXPECTED':
      return { status: 400, reason: 'Bad Request', message: 'Bad Request: a header holds a character HTTP does not allow (a control character, say)' };
    default:
      return { status: 400, reason: 'Bad Request', message: `Bad Request: the HTTP request is malformed${code ? ` (${code})` : ''}` };
  }
}

/** The id of the request whose head failed, from the bytes after the head, when they came along. */
function idOf(raw: Buffer | undefined): string | number | null {
  if (raw === undefined) return null;
  const text = raw.toString('latin1');
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return null;
  return sniffRequestId(Buffer.from(text.slice(end + 4), 'latin1').toString('utf8'));
}

/** A `clientError` listener for a node `http.Server`: answers a refused request with a JSON-RPC error body. */
export function answerClientError(err: Error, socket: Duplex): void {
  const e = err as ParserError;
  // The client is gone or already answered: nothing to say.
  if (e.code === 'ECONNRESET' || !socket.writable || (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent) {
    socket.destroy();
    return;
  }
  const { status, reason, message } = refusalOf(e.code);
  const body = JSON.stringify({ jsonrpc: '2.0', id: idOf(e.rawPacket), error: { code: ErrorCode.InvalidRequest, message } });
  socket.end(`HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
}
