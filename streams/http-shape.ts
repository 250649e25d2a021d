/**
 * The request and response as the HTTP server core sees them: the few members of node's
 * `IncomingMessage` and `ServerResponse` it uses, and nothing else. Node's objects fit these shapes
 * as they are (no wrapper on the node path); a Web `Request` fits through the small shim in
 * `fetch-shim.ts`, whose response becomes a `Response` (with a `ReadableStream` body for SSE).
 *
 * Types only: no runtime code, no `node:` import.
 */

/**
 * Request headers by lower-cased name (node's `IncomingHttpHeaders` fits). The ones node folds
 * into one string (it keeps the first of duplicates, or joins them) are strings here too.
 */
export interface HttpHeadersIn {
  readonly host?: string | undefined;
  readonly origin?: string | undefined;
  readonly accept?: string | undefined;
  readonly authorization?: string | undefined;
  readonly 'content-type'?: string | undefined;
  readonly 'content-length'?: string | undefined;
  readonly 'access-control-request-headers'?: string | undefined;
  readonly [name: string]: string | string[] | undefined;
}

/** Response headers (node's `OutgoingHttpHeaders` accepts these). */
export type HttpHeadersOut = { [name: string]: string | number | string[] };

/**
 * What an `authenticate` hook gets: the method, the path with its query, and the headers. On the
 * node handler it is node's `IncomingMessage`; on the fetch handler an object with `request`
 * (the Web `Request`) beside these.
 */
export interface HttpRequestHead {
  readonly method?: string | undefined;
  /** The path and query (`/mcp?x=1`), as node's `req.url`. */
  readonly url?: string | undefined;
  readonly headers: HttpHeadersIn;
}

/** A request as the core reads it: its head, its body as chunks (or one a framework parsed), and where it arrived. */
export interface HttpRequestIn extends HttpRequestHead {
  /** Express: the URL before the mount path was cut off. */
  readonly originalUrl?: string | undefined;
  /** A body a framework already parsed (Express' `express.json()` leaves it here). */
  body?: unknown;
  /** Where the request arrived; a loopback `localAddress` turns the Host check on (see http-security.ts). */
  readonly socket?: { readonly localAddress?: string | undefined; readonly remoteAddress?: string | undefined; readonly remotePort?: number | undefined } | null | undefined;
  /** Body chunks (`data`), its end (`end`), a broken body (`error`). */
  on(event: 'data' | 'end' | 'error', listener: (chunk: any) => void): unknown;
  off(event: 'data' | 'end' | 'error', listener: (chunk: any) => void): unknown;
  /** Discard the rest of the body. */
  resume(): unknown;
  /** Drop the connection (a body that came too slowly). */
  destroy(): unknown;
}

/** A response as the core writes it: status and headers, then text, then the end; told when the client goes. */
export interface HttpResponseOut {
  readonly headersSent: boolean;
  readonly writableEnded: boolean;
  readonly writableFinished: boolean;
  /** The client went away (or the response was torn down). */
  readonly destroyed: boolean;
  readonly socket?: { readonly destroyed: boolean } | null | undefined;
  setHeader(name: string, value: string | number): unknown;
  writeHead(status: number, headers?: HttpHeadersOut): unknown;
  write(chunk: string): unknown;
  end(chunk?: string): unknown;
  /** Send the status and headers now (an SSE stream that has nothing to say yet). */
  flushHeaders(): void;
  /** Bytes written and not yet taken by the client (node: the response's and its socket's buffers). */
  readonly writableLength?: number;
  /** Drop the response and what it holds unsent (a client that does not read). */
  destroy?(): unknown;
  /** `close`: the response is over, ended by us or because the client left (then `writableFinished` is false). */
  on(event: 'close', listener: () => void): unknown;
  off(event: 'close', listener: () => void): unknown;
  /** `finish`: the whole response was handed over. */
  once(event: 'finish', listener: () => void): unknown;
}
