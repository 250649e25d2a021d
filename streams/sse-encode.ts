/**
 * Server-Sent Events encoding: the few field lines MCP's HTTP transports write.
 *
 * @see https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http
 */

/** Response headers of every SSE stream. */
export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  // Reverse proxies (nginx) would otherwise buffer the stream.
  'x-accel-buffering': 'no',
};

/** A comment line: ignored by every SSE parser, keeps idle connections (and proxies) alive. */
export const SSE_KEEPALIVE = ': keep-alive\n\n';

const NEEDS_SPLIT = /[\r\n]/;

/** `data:` lines for `data` (one per line of it; JSON text from `JSON.stringify` has none). */
function dataLines(data: string): string {
  if (!NEEDS_SPLIT.test(data)) return `data: ${data}\n`;
  let out = '';
  for (const line of data.split(/\r\n|\r|\n/)) out += `data: ${line}\n`;
  return out;
}

/**
 * One event: optional `event:` type and `id:`, then the data. The event type defaults to
 * `message` on the client side, so it is left out unless given.
 */
export function sseEvent(data: string, id?: string, event?: string): string {
  let head = '';
  if (event !== undefined) head = `event: ${event}\n`;
  if (id !== undefined) head += `id: ${id}\n`;
  return head + dataLines(data) + '\n';
}

/**
 * What starts a stream. With `id`: a priming event (the id and empty data) that gives the client
 * a cursor to resume from before any message has been sent (SEP-1699, 2025-11-25). With
 * `retryMs`: the `retry:` field, the client's reconnection delay. Without an id no data line is
 * written, so no event is dispatched: clients of older revisions would choke on empty data.
 */
export function sseStreamStart(id: string | undefined, retryMs: number | undefined): string {
  if (id === undefined) return retryMs === undefined ? '' : `retry: ${retryMs}\n\n`;
  return retryMs === undefined ? `id: ${id}\ndata: \n\n` : `id: ${id}\nretry: ${retryMs}\ndata: \n\n`;
}
