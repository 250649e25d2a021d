/**
 * What the two HTTP client transports (Streamable HTTP and the legacy HTTP+SSE one) share:
 * custom headers, error texts that say what happened and what to do, and turning received text
 * into frames.
 * @internal
 */
import { DEFAULT_MAX_FRAME_DEPTH, nestsDeeperThan, textMayNestDeeperThan } from '../lib/jsonrpc/depth.js';
import { ErrorCode } from '../lib/jsonrpc/error-codes.js';
import type { Frame, JsonRpcErrorResponse, RequestId } from '../lib/jsonrpc/message.js';
import type { RawFrame } from './transport.js';

/** What `new Headers(...)` accepts: a record, entry pairs, or a Headers object. */
export type HeadersInit = ConstructorParameters<typeof Headers>[0];

/** The HTTP methods the client transports issue. */
export type HttpClientMethod = 'GET' | 'POST' | 'DELETE';

/**
 * Extra headers for every request: a fixed set, or a function called for each request (the
 * hook an OAuth client plugs into to add `Authorization`). The transport's own headers
 * (`Accept`, `Content-Type`, `Mcp-Session-Id`, `MCP-Protocol-Version`, `Last-Event-ID`) win.
 */
export type HeadersOption =
  | HeadersInit
  | ((request: { method: HttpClientMethod; url: URL }) => HeadersInit | Promise<HeadersInit>);

/** The custom headers for one request, as a fresh `Headers` object. */
export async function customHeaders(option: HeadersOption | undefined, method: HttpClientMethod, url: URL): Promise<Headers> {
  if (option === undefined) return new Headers();
  if (typeof option === 'function') return new Headers(await option({ method, url }));
  return new Headers(option);
}

/** `request "tools/call" (id 3)`, `notification "notifications/initialized"`, `response to id 4`. */
export function describeFrame(frame: Frame): string {
  if (Array.isArray(frame)) return `batch of ${frame.length} messages`;
  const f = frame as { id?: RequestId | null; method?: string };
  if (typeof f.method === 'string') {
    return f.id !== undefined && f.id !== null ? `request "${f.method}" (id ${JSON.stringify(f.id)})` : `notification "${f.method}"`;
  }
  return `response to id ${JSON.stringify(f.id ?? null)}`;
}

/** The id of a request frame, or undefined for notifications, responses and batches. */
export function requestIdOf(frame: Frame): RequestId | undefined {
  if (Array.isArray(frame)) return undefined;
  const f = frame as { id?: RequestId | null; method?: unknown };
  return typeof f.method === 'string' && f.id !== undefined && f.id !== null ? f.id : undefined;
}

/** The request ids in a batch or single frame. */
export function requestIdsOf(frame: Frame): RequestId[] {
  if (!Array.isArray(frame)) {
    const id = requestIdOf(frame);
    return id === undefined ? [] : [id];
  }
  const ids: RequestId[] = [];
  for (const f of frame as Frame[]) {
    const id = requestIdOf(f);
    if (id !== undefined) ids.push(id);
  }
  return ids;
}

const SNIPPET_CHARS = 300;

/**
 * Up to 300 characters of a failed response's body, for the error text (the JSON-RPC error
 * message when the body is one). Reads at most a few KiB and releases the connection.
 */
export async function bodySnippet(res: Response): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    while (text.length < SNIPPET_READ_CHARS) {
      const r = await reader.read();
      if (r.done) break;
      text += decoder.decode(r.value, { stream: true });
    }
  } catch {
    // a broken body still leaves what was read
  } finally {
    reader.cancel().catch(() => {});
  }
  return snippetOf(text);
}

/** How many characters of a failed response's body {@link snippetOf} needs at most. */
export const SNIPPET_READ_CHARS = 4 * SNIPPET_CHARS;

/** The start of a failed response's body as error text: its JSON-RPC error message, else the text, shortened. */
export function snippetOf(read: string): string {
  let text = read.trim();
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown } };
    if (typeof parsed?.error?.message === 'string') return parsed.error.message.slice(0, SNIPPET_CHARS);
  } catch {
    // not JSON
  }
  text = text.replace(/\s+/g, ' ');
  return text.length > SNIPPET_CHARS ? text.slice(0, SNIPPET_CHARS) + '…' : text;
}

/** What to do about an HTTP status, as a sentence (empty when there is nothing useful to say). */
export function adviceFor(status: number): string {
  if (status === 400) return 'The server rejected the message; check the protocol version and the session.';
  if (status === 401) return 'The server wants credentials: pass them with the `headers` option (e.g. Authorization).';
  if (status === 403) return 'The credentials were refused or lack the needed scope.';
  if (status === 404) return 'Nothing at this URL: check the MCP endpoint path.';
  if (status === 405) return 'The URL does not accept this method: is it the MCP endpoint?';
  if (status === 406 || status === 415) return 'The server does not accept JSON-RPC over this transport (content negotiation failed).';
  if (status === 413) return 'The message is too large for the server.';
  if (status === 429) return 'The server is rate limiting: retry later.';
  if (status >= 300 && status < 400) return 'Redirects to another origin are not followed: use the final URL.';
  if (status >= 500) return "The server failed: retry later or check the server's logs.";
  return '';
}

/** `HTTP 500 Internal Server Error: <snippet>. <advice>` */
export function describeHttpFailure(res: Response, snippet: string): string {
  return describeStatus(res.status, res.statusText, res.status >= 300 && res.status < 400 ? res.headers.get('location') : null, snippet);
}

/** {@link describeHttpFailure} from the parts of an answer (one that is no `Response`). */
export function describeStatus(status: number, statusText: string, location: string | null | undefined, snippet: string): string {
  let text = `HTTP ${status}${statusText ? ' ' + statusText : ''}`;
  if (status >= 300 && status < 400 && location) text += ` (Location: ${location})`;
  if (snippet) text += `: ${snippet}`;
  const advice = adviceFor(status);
  return advice ? `${text}. ${advice}` : `${text}.`;
}

/** The message of an error, for texts. */
export function messageOf(e: unknown): string {
  if (e instanceof Error) {
    const cause = (e as { cause?: unknown }).cause;
    return cause instanceof Error && cause.message && !e.message.includes(cause.message) ? `${e.message} (${cause.message})` : e.message;
  }
  return String(e);
}

/**
 * The error response the transport delivers, in the server's stead, for a request it could not
 * deliver (so the caller learns at once instead of waiting for its timeout).
 */
export function localErrorResponse(id: RequestId, message: string, data: Record<string, unknown>): JsonRpcErrorResponse {
  return { jsonrpc: '2.0', id, error: { code: ErrorCode.ConnectionClosed, message, data } };
}

/** Received text as a frame: the parsed object when it is one (parsed once), else the text. */
export function parseFrame(text: string, maxFrameBytes: number): { raw: RawFrame; value: object | undefined } {
  // Too large to parse safely: the session's decoder answers it with the size error.
  if (text.length * 3 > maxFrameBytes && Buffer.byteLength(text, 'utf8') > maxFrameBytes) return { raw: text, value: undefined };
  try {
    const value: unknown = JSON.parse(text);
    // Nested too deep to hand on as a value: the session's decoder refuses the text.
    if (textMayNestDeeperThan(text, DEFAULT_MAX_FRAME_DEPTH) && nestsDeeperThan(value, DEFAULT_MAX_FRAME_DEPTH)) return { raw: text, value: undefined };
    if (value !== null && typeof value === 'object') return { raw: value, value };
  } catch {
    // not JSON: the session reports it
  }
  return { raw: text, value: undefined };
}

/** The media type of a Content-Type header, lower case, without parameters. */
export function mediaType(res: Response): string {
  const ct = res.headers.get('content-type') ?? '';
  const semi = ct.indexOf(';');
  return (semi === -1 ? ct : ct.slice(0, semi)).trim().toLowerCase();
}
