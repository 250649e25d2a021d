/**
 * A Web `Request` as the HTTP core's request shape, and the core's response shape as a Web
 * `Response`: the thin edge that lets the one core (`streamable-http-server.ts`) serve fetch
 * runtimes (Bun, Deno, Workers, Hono, and Node through a bridge).
 *
 * The response becomes a `Response` when its head would go out on node: at the first `write`,
 * `flushHeaders` or `end`. Ended at once, its body is the text; written to first, its body is a
 * `ReadableStream` (an SSE stream) fed by the writes. When the consumer cancels that stream, or
 * (for a response still pending) the request's `signal` aborts, the client is gone: the response
 * is `destroyed` and says `close`, which is what a disconnection is on node, and what cancels a
 * stateless request.
 *
 * No `node:` import and no `Buffer`: the body's bytes stay `Uint8Array`s, so this runs on a
 * Worker without `nodejs_compat`.
 */
import type { HttpHeadersIn, HttpHeadersOut, HttpRequestIn, HttpResponseOut } from './http-shape.js';

type Listener = (arg?: any) => void;

/** Headers a `Response` must not carry or that the runtime sets itself (a JSON body's length, the connection's fate). */
const RUNTIME_HEADERS = new Set(['content-length', 'connection', 'keep-alive', 'transfer-encoding']);

/** The path and query of an absolute URL (`http://h/p?q` → `/p?q`). */
export function pathAndQuery(url: string): string {
  const scheme = url.indexOf('://');
  const slash = url.indexOf('/', scheme < 0 ? 0 : scheme + 3);
  if (slash < 0) return '/';
  const hash = url.indexOf('#', slash);
  return hash < 0 ? url.slice(slash) : url.slice(slash, hash);
}

/** A Web `Request` as the core reads a request. `request` is there for `authenticate` hooks. */
export class WebRequestIn implements HttpRequestIn {
  readonly method: string;
  readonly url: string;
  readonly headers: HttpHeadersIn;
  readonly socket: { readonly localAddress: string | undefined };
  body?: unknown;
  private listeners: Map<string, Listener[]> | undefined;
  private reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  private pumping = false;
  private done = false;

  constructor(
    readonly request: Request,
    /** Where the request arrived, as far as the Host check is concerned (see fetch-handler.ts). */
    localAddress: string | undefined,
  ) {
    this.method = request.method;
    this.url = pathAndQuery(request.url);
    const headers: Record<string, string> = {};
    // Names come lower-cased; repeated headers come joined with ", " (node keeps the first of a
    // repeated Host or Content-Type; a fetch runtime has already joined them).
    request.headers.forEach((value, name) => (headers[name] = value));
    this.headers = headers;
    this.socket = { localAddress };
  }

  on(event: 'data' | 'end' | 'error', listener: Listener): this {
    const listeners = (this.listeners ??= new Map());
    const list = listeners.get(event);
    if (list === undefined) listeners.set(event, [listener]);
    else list.push(listener);
    // The core attaches its three listeners in one go: start reading once it has.
    if (event === 'data' && !this.pumping) {
      this.pumping = true;
      queueMicrotask(() => void this.pump());
    }
    return this;
  }

  off(event: 'data' | 'end' | 'error', listener: Listener): this {
    const list = this.listeners?.get(event);
    if (list !== undefined) {
      const i = list.indexOf(listener);
      if (i >= 0) list.splice(i, 1);
    }
    return this;
  }

  /** The rest of the body is not wanted. */
  resume(): this {
    this.stop();
    return this;
  }

  /** There is no connection to drop behind a `Request`: the body is cancelled. */
  destroy(): this {
    this.stop();
    return this;
  }

  private stop(): void {
    if (this.done) return;
    this.done = true;
    const reader = this.reader;
    if (reader !== undefined) reader.cancel().catch(() => {});
    else if (this.request.body !== null && !this.request.bodyUsed) this.request.body.cancel().catch(() => {});
  }

  private emit(event: string, arg?: unknown): void {
    const list = this.listeners?.get(event);
    if (list === undefined) return;
    for (const fn of [...list]) fn(arg);
  }

  private async pump(): Promise<void> {
    const body = this.request.body;
    if (body === null) {
      if (!this.done) {
        this.done = true;
        this.emit('end');
      }
      return;
    }
    try {
      if (this.headers['content-length'] !== undefined) {
        // A declared length (checked against the limit before reading began): in one piece. (On
        // Deno a body reader also touches the request's signal, which Deno then warns about.)
        const bytes = new Uint8Array(await this.request.arrayBuffer());
        if (this.done) return;
        if (bytes.byteLength > 0) this.emit('data', bytes);
        this.done = true;
        this.emit('end');
        return;
      }
      const reader = (this.reader = body.getReader());
      for (;;) {
        if (this.done) return;
        const { done, value } = await reader.read();
        if (this.done) return;
        if (done) break;
        this.emit('data', value);
      }
      this.done = true;
      this.emit('end');
    } catch {
      if (this.done) return;
      this.done = true;
      this.emit('error');
    }
  }
}

const encoder = new TextEncoder();

/** The core's response shape, becoming a Web `Response` (see the module comment). */
/** Bytes a streamed body queues before write() says false (node's default for a response is 16 KiB). */
const BODY_HIGH_WATER_MARK = 65_536;

export class WebResponseOut implements HttpResponseOut {
  /** The `Response`, once its head is out. */
  readonly response: Promise<Response>;
  headersSent = false;
  writableEnded = false;
  writableFinished = false;
  destroyed = false;
  readonly socket = undefined;
  private status = 200;
  private readonly head: Headers = new Headers();
  private resolve!: (response: Response) => void;
  private controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  private sent = false;
  private closeListeners: Listener[] | undefined;
  private finishListeners: Listener[] | undefined;
  private watching = false;
  private readonly onAbort = (): void => this.gone();

  /** The request's signal, once someone waits for `close` (read lazily: Deno warns about signals that are read). */
  private signal: AbortSignal | undefined;

  constructor(private readonly request?: Request) {
    this.response = new Promise((resolve) => (this.resolve = resolve));
  }

  setHeader(name: string, value: string | number): this {
    this.put(name, value);
    return this;
  }

  writeHead(status: number, headers?: HttpHeadersOut): this {
    this.status = status;
    if (headers !== undefined) for (const name in headers) this.put(name, headers[name]!);
    this.headersSent = true;
    return this;
  }

  write(chunk: string): boolean {
    if (this.writableEnded || this.destroyed) return false;
    this.headersSent = true;
    this.stream();
    const controller = this.controller;
    if (controller === undefined) return true;
    controller.enqueue(encoder.encode(chunk));
    // As node's write(): false once the body's queue is past its high-water mark (a slow reader).
    return (controller.desiredSize ?? 1) > 0;
  }

  /** Bytes queued in the body that the runtime has not taken yet (the client reads slower than we write). */
  get writableLength(): number {
    const desired = this.controller?.desiredSize;
    return desired === undefined || desired === null ? 0 : Math.max(0, BODY_HIGH_WATER_MARK - desired);
  }

  /** Drop the body and what is queued in it (the runtime ends the response as broken). */
  destroy(): this {
    if (this.destroyed || this.writableEnded) return this;
    try {
      this.controller?.error(new Error('The response was dropped: the client did not read it'));
    } catch {
      // already errored or closed
    }
    this.gone();
    return this;
  }

  end(chunk?: string): this {
    if (this.writableEnded) return this;
    this.writableEnded = true;
    this.headersSent = true;
    if (!this.sent) {
      this.sent = true;
      // 1xx/204/205/304 carry no body; everything else gets its text (or nothing).
      const bodyless = this.status === 204 || this.status === 205 || this.status === 304;
      this.resolve(new Response(bodyless || chunk === undefined || chunk === '' ? null : chunk, { status: this.status, headers: this.head }));
    } else if (!this.destroyed) {
      if (chunk !== undefined && chunk !== '') this.controller!.enqueue(encoder.encode(chunk));
      try {
        this.controller!.close();
      } catch {
        // the consumer went away meanwhile
      }
    }
    this.writableFinished = !this.destroyed;
    const finish = this.finishListeners;
    this.finishListeners = undefined;
    if (finish !== undefined) for (const fn of finish) fn();
    this.closed();
    return this;
  }

  flushHeaders(): void {
    this.headersSent = true;
    this.stream();
  }

  on(event: 'close', listener: Listener): this {
    (this.closeListeners ??= []).push(listener);
    // A response that is not streaming yet learns of a disconnection from the request's signal
    // (a streaming one from its stream's cancellation). The listener goes when the response ends:
    // Deno aborts the signal of every answered request (and says so once, on stderr).
    if (!this.watching && !this.sent && this.request !== undefined) {
      this.watching = true;
      const signal = (this.signal = this.request.signal);
      if (signal.aborted) queueMicrotask(this.onAbort);
      else signal.addEventListener('abort', this.onAbort, { once: true });
    }
    return this;
  }

  off(event: 'close', listener: Listener): this {
    const list = this.closeListeners;
    if (list !== undefined) {
      const i = list.indexOf(listener);
      if (i >= 0) list.splice(i, 1);
    }
    return this;
  }

  once(event: 'finish', listener: Listener): this {
    if (this.writableFinished) listener();
    else (this.finishListeners ??= []).push(listener);
    return this;
  }

  private put(name: string, value: string | number | string[]): void {
    const key = name.toLowerCase();
    if (RUNTIME_HEADERS.has(key)) return;
    if (Array.isArray(value)) {
      this.head.delete(key);
      for (const v of value) this.head.append(key, v);
    } else {
      this.head.set(key, String(value));
    }
  }

  /** Hands out a streaming `Response` (once). */
  private stream(): void {
    if (this.sent) return;
    this.sent = true;
    const body = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.controller = controller;
        },
        cancel: () => this.gone(),
      },
      // Counted in bytes, so that the queue's size says how much waits for a slow reader.
      { highWaterMark: BODY_HIGH_WATER_MARK, size: (chunk) => chunk.byteLength },
    );
    this.resolve(new Response(body, { status: this.status, headers: this.head }));
  }

  /** The client went away before the end. */
  private gone(): void {
    if (this.destroyed || this.writableEnded) return;
    this.destroyed = true;
    this.closed();
  }

  private closed(): void {
    if (this.watching) {
      this.watching = false;
      this.signal!.removeEventListener('abort', this.onAbort);
    }
    const list = this.closeListeners;
    this.closeListeners = undefined;
    if (list !== undefined) for (const fn of list) fn();
  }
}
