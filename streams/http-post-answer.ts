/**
 * The answer to a Streamable HTTP client's POST, whichever way it came: a `fetch` `Response` (a
 * custom fetch, auth, a redirect) or undici's `request` answer (the lean path). The client reads
 * both through this one shape, so what it does with an answer (a session id, 202, JSON, SSE, 404,
 * an error body) is written once.
 * @internal
 */
import type { Readable } from 'node:stream';
import type { Observable } from 'rxjs';
import { bodySnippet, describeHttpFailure, describeStatus, mediaType, SNIPPET_READ_CHARS, snippetOf } from './http-client-common.js';
import { fromWebStream } from './sse-parse.js';
import { fromReadable } from './stdio-server.js';

export interface PostAnswer {
  readonly status: number;
  /** The media type of its Content-Type, lower case, without parameters. */
  readonly type: string;
  /** A response header (name in lower case), or null. */
  header(name: string): string | null;
  /** Whether a body came at all. */
  readonly hasBody: boolean;
  /** The whole body as text. */
  text(): Promise<string>;
  /** The start of the body as error text (see `bodySnippet`); lets the rest go. */
  snippet(): Promise<string>;
  /** `HTTP 500: <snippet>. <advice>` */
  failure(snippet: string): string;
  /** The body's bytes as they arrive (an SSE stream). */
  bytes(): Observable<Uint8Array | string>;
  /** Nothing to read: let the body go. */
  discard(): Promise<void>;
}

/** A `fetch` answer. */
export class FetchAnswer implements PostAnswer {
  readonly type: string;
  constructor(private readonly res: Response) {
    this.type = mediaType(res);
  }
  get status(): number {
    return this.res.status;
  }
  get hasBody(): boolean {
    return this.res.body !== null;
  }
  header(name: string): string | null {
    return this.res.headers.get(name);
  }
  text(): Promise<string> {
    return this.res.text();
  }
  snippet(): Promise<string> {
    return bodySnippet(this.res);
  }
  failure(snippet: string): string {
    return describeHttpFailure(this.res, snippet);
  }
  bytes(): Observable<Uint8Array> {
    return fromWebStream(this.res.body!);
  }
  async discard(): Promise<void> {
    await this.res.body?.cancel().catch(() => {});
  }
}

/** What the lean path reads of undici's `request` answer. */
export interface UndiciResponse {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: Readable & { text(): Promise<string> };
}

/** An undici `request` answer: plain header records and a Node stream, no web objects. */
export class UndiciAnswer implements PostAnswer {
  readonly status: number;
  readonly type: string;
  readonly hasBody: boolean;
  constructor(private readonly res: UndiciResponse) {
    this.status = res.statusCode;
    // As a fetch Response: these statuses carry no body.
    this.hasBody = res.statusCode !== 204 && res.statusCode !== 205 && res.statusCode !== 304;
    this.type = mediaTypeOf(res.headers['content-type']);
  }
  header(name: string): string | null {
    const value = this.res.headers[name];
    return (Array.isArray(value) ? value.join(', ') : value) ?? null;
  }
  text(): Promise<string> {
    return this.res.body.text();
  }
  async snippet(): Promise<string> {
    const body = this.res.body;
    let text = '';
    try {
      body.setEncoding('utf8');
      for await (const chunk of body) {
        text += chunk as string;
        if (text.length >= SNIPPET_READ_CHARS) break;
      }
    } catch {
      // a broken body still leaves what was read
    } finally {
      this.drop();
    }
    return snippetOf(text);
  }
  failure(snippet: string): string {
    // No status text: the default fetch path's Response carries none either.
    return describeStatus(this.status, '', this.header('location'), snippet);
  }
  bytes(): Observable<Uint8Array | string> {
    return fromReadable(this.res.body);
  }
  discard(): Promise<void> {
    // Read to the end, so that the kept-alive connection serves the next request.
    this.res.body.on('error', ignore).resume();
    return Promise.resolve();
  }
  private drop(): void {
    // Destroying a body that had not ended aborts its request: an expected error then.
    this.res.body.on('error', ignore);
    this.res.body.destroy();
  }
}

const ignore = (): void => {};

function mediaTypeOf(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined) return '';
  const semi = value.indexOf(';');
  return (semi === -1 ? value : value.slice(0, semi)).trim().toLowerCase();
}
