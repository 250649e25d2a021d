/**
 * The client side of the deprecated HTTP+SSE transport (protocol revision 2024-11-05): GET the
 * SSE endpoint, wait for the `endpoint` event naming where to POST, POST every message there,
 * and receive everything as `message` events on the SSE stream.
 *
 * {@link LegacySseChannel} is the mechanism (the Streamable HTTP client falls back to it);
 * {@link createLegacySseClientTransport} wraps it as a {@link Transport} of its own.
 *
 * @see https://modelcontextprotocol.io/specification/2024-11-05/basic/transports#http-with-sse
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#backwards-compatibility
 */
import type { Subscription } from 'rxjs';
import { oauthClientFor, type HttpClientAuth } from '../lib/auth/oauth-client.js';
import { TransportError } from '../lib/errors.js';
import { DEFAULT_MAX_FRAME_BYTES } from '../lib/jsonrpc/codec.js';
import type { Frame } from '../lib/jsonrpc/message.js';
import {
  bodySnippet,
  customHeaders,
  describeFrame,
  describeHttpFailure,
  localErrorResponse,
  mediaType,
  messageOf,
  parseFrame,
  requestIdsOf,
  type HeadersOption,
} from './http-client-common.js';
import { undiciFetch, type FetchLike } from './http-fetch.js';
import { HotInbound, StateCell } from './memory.js';
import { fromWebStream, sseParse, type SseItem } from './sse-parse.js';
import type { RawFrame, Transport } from './transport.js';

export interface LegacySseChannelOptions {
  fetch: FetchLike;
  headers?: HeadersOption;
  maxFrameBytes: number;
  /** A frame arrived on the event stream (`value` is the parsed object, when it parsed). */
  onFrame(raw: RawFrame, value: object | undefined): void;
  /** The event stream ended after the endpoint arrived (not called after `close()`). */
  onEnd(error: TransportError): void;
}

/**
 * One HTTP+SSE connection: the event stream and the POST endpoint it announced.
 */
export class LegacySseChannel {
  /** Where messages are POSTed, once the `endpoint` event arrived. */
  endpoint: URL | undefined;
  private subscription: Subscription | undefined;
  private readonly controllers = new Set<AbortController>();
  private closed = false;

  constructor(
    readonly url: URL,
    private readonly options: LegacySseChannelOptions,
  ) {}

  /**
   * GET the event stream and wait for the `endpoint` event. Rejects with a TransportError when the
   * GET fails, the answer is not an event stream, the stream ends first, or the endpoint is on
   * another origin.
   */
  async open(): Promise<URL> {
    const headers = await customHeaders(this.options.headers, 'GET', this.url);
    headers.set('accept', 'text/event-stream');
    const controller = this.controller();
    let res: Response;
    try {
      res = await this.options.fetch(this.url, { method: 'GET', headers, signal: controller.signal });
    } catch (e) {
      this.controllers.delete(controller);
      throw new TransportError(`GET ${this.url.href} for the HTTP+SSE event stream failed: ${messageOf(e)}. Is the server running?`, {
        url: this.url.href,
      });
    }
    if (!res.ok) {
      this.controllers.delete(controller);
      const snippet = await bodySnippet(res);
      throw new TransportError(`GET ${this.url.href} for the HTTP+SSE event stream failed: ${describeHttpFailure(res, snippet)}`, {
        status: res.status,
        body: snippet,
        url: this.url.href,
      });
    }
    if (mediaType(res) !== 'text/event-stream' || !res.body) {
      this.controllers.delete(controller);
      await res.body?.cancel().catch(() => {});
      throw new TransportError(
        `GET ${this.url.href} answered ${res.headers.get('content-type') ?? 'no content type'} instead of an event stream: ` +
          'this URL serves neither Streamable HTTP nor HTTP+SSE.',
        { status: res.status, url: this.url.href },
      );
    }
    return new Promise<URL>((resolve, reject) => {
      let settled = false;
      const fail = (error: TransportError) => {
        if (settled) return;
        settled = true;
        this.close();
        reject(error);
      };
      this.subscription = fromWebStream(res.body!)
        .pipe(sseParse({ maxEventChars: this.options.maxFrameBytes }))
        .subscribe({
          next: (item: SseItem) => {
            if (item.type !== 'event') return;
            if (this.endpoint === undefined) {
              if (item.event !== 'endpoint') return; // the endpoint event comes first; ignore anything before it
              let endpoint: URL;
              try {
                endpoint = new URL(item.data.trim(), this.url);
              } catch {
                fail(new TransportError(`The server's endpoint event is not a URI: ${JSON.stringify(item.data.slice(0, 200))}.`, { url: this.url.href }));
                return;
              }
              if (endpoint.origin !== this.url.origin) {
                fail(
                  new TransportError(
                    `The server's endpoint event names ${endpoint.href}, on another origin than ${this.url.origin}; ` +
                      'refusing to send messages there. Use a server whose POST endpoint is on the same origin as its SSE endpoint.',
                    { endpoint: endpoint.href, url: this.url.href },
                  ),
                );
                return;
              }
              this.endpoint = endpoint;
              settled = true;
              resolve(endpoint);
              return;
            }
            if (item.event !== 'message' || item.data === '') return;
            const { raw, value } = parseFrame(item.data, this.options.maxFrameBytes);
            this.options.onFrame(raw, value);
          },
          error: (e: unknown) => this.ended(controller, fail, `broke: ${messageOf(e)}`),
          complete: () => this.ended(controller, fail, 'was closed by the server'),
        });
    });
  }

  private ended(controller: AbortController, fail: (e: TransportError) => void, how: string): void {
    this.controllers.delete(controller);
    if (this.closed) return;
    if (this.endpoint === undefined) {
      fail(new TransportError(`The HTTP+SSE event stream from ${this.url.href} ${how} before its endpoint event.`, { url: this.url.href }));
      return;
    }
    this.closed = true;
    this.options.onEnd(
      new TransportError(
        `The HTTP+SSE event stream from ${this.url.href} ${how}; the legacy transport cannot resume a session. Connect again.`,
        { url: this.url.href },
      ),
    );
  }

  /**
   * POST one message to the endpoint. A failed request is answered locally with an error
   * response naming the HTTP status (`deliverError`); a failed notification or response rejects.
   */
  async send(frame: Frame, deliverError: (raw: RawFrame) => void): Promise<void> {
    const endpoint = this.endpoint;
    if (endpoint === undefined || this.closed) throw new TransportError(`Cannot send ${describeFrame(frame)}: the HTTP+SSE connection is not open.`);
    const headers = await customHeaders(this.options.headers, 'POST', endpoint);
    headers.set('content-type', 'application/json');
    const controller = this.controller();
    let failure: string;
    let data: Record<string, unknown>;
    try {
      const res = await this.options.fetch(endpoint, { method: 'POST', headers, body: JSON.stringify(frame), signal: controller.signal });
      if (res.ok) {
        await res.body?.cancel().catch(() => {});
        return;
      }
      const snippet = await bodySnippet(res);
      failure = `POST ${describeFrame(frame)} to ${endpoint.href} failed: ${describeHttpFailure(res, snippet)}`;
      data = { status: res.status, body: snippet, url: endpoint.href };
    } catch (e) {
      if (this.closed) return;
      failure = `POST ${describeFrame(frame)} to ${endpoint.href} failed: ${messageOf(e)}. Is the server still running?`;
      data = { url: endpoint.href };
    } finally {
      this.controllers.delete(controller);
    }
    const ids = requestIdsOf(frame);
    if (ids.length === 0) throw new TransportError(failure, data);
    for (const id of ids) deliverError(localErrorResponse(id, failure, data));
  }

  /** Stop reading and abort what is in flight. Idempotent. */
  close(): void {
    this.closed = true;
    this.subscription?.unsubscribe();
    this.subscription = undefined;
    for (const c of this.controllers) c.abort();
    this.controllers.clear();
  }

  private controller(): AbortController {
    const c = new AbortController();
    this.controllers.add(c);
    return c;
  }
}

export interface LegacySseClientTransportOptions {
  /** Extra headers for every request (static, or a function called per request). */
  headers?: HeadersOption;
  /** The fetch to use. Default: {@link undiciFetch}. */
  fetch?: FetchLike;
  /** OAuth 2.1 authorization, as in the Streamable HTTP client: Bearer on every request, the flow on a 401. */
  auth?: HttpClientAuth;
  /** Largest accepted frame in bytes. Default 4 MiB. */
  maxFrameBytes?: number;
}

/** A {@link Transport} over the HTTP+SSE transport of 2024-11-05. */
export interface LegacySseClientTransport extends Transport {
  readonly mode: 'legacy-sse';
  readonly url: URL;
  /** The POST endpoint the server announced, once open. */
  readonly endpoint: URL | undefined;
}

class LegacySseClient implements LegacySseClientTransport {
  readonly mode = 'legacy-sse' as const;
  /** HTTP+SSE (2024-11-05) knows no later revision: no era probe. */
  readonly legacyOnly = true;
  private readonly inbound = new HotInbound<RawFrame>();
  private readonly state = new StateCell({ phase: 'connecting' });
  private readonly channel: LegacySseChannel;
  private starting: Promise<void> | undefined;
  private closing: Promise<void> | undefined;
  readonly inbound$ = this.inbound.observable;
  readonly state$ = this.state.observable;

  constructor(
    readonly url: URL,
    options: LegacySseClientTransportOptions,
  ) {
    const baseFetch = options.fetch ?? undiciFetch;
    this.channel = new LegacySseChannel(url, {
      fetch: options.auth ? oauthClientFor(options.auth, url, baseFetch).wrapFetch(baseFetch) : baseFetch,
      headers: options.headers,
      maxFrameBytes: options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES,
      onFrame: (raw) => this.inbound.push(raw),
      onEnd: (error) => {
        this.state.set({ phase: 'failed', error });
        this.inbound.complete();
      },
    });
  }

  get endpoint(): URL | undefined {
    return this.channel.endpoint;
  }

  start(): Promise<void> {
    this.starting ??= this.channel.open().then(
      (endpoint) => {
        this.state.set({ phase: 'open', details: { mode: 'legacy-sse', endpoint: endpoint.href } });
      },
      (error: Error) => {
        this.state.set({ phase: 'failed', error });
        this.inbound.complete();
        throw error;
      },
    );
    return this.starting;
  }

  send(frame: Frame): Promise<void> {
    if (this.state.phase !== 'open') {
      return Promise.reject(new TransportError(`Cannot send ${describeFrame(frame)}: the HTTP+SSE transport is ${this.state.phase}.`));
    }
    return this.channel.send(frame, (raw) => this.inbound.push(raw));
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      if (this.state.terminal) return;
      this.state.set({ phase: 'closing' });
      this.channel.close();
      this.state.set({ phase: 'closed' });
      this.inbound.complete();
    })();
    return this.closing;
  }
}

/**
 * A client transport for servers that speak only the deprecated HTTP+SSE transport (2024-11-05).
 * `start()` GETs `url` and resolves once the `endpoint` event arrived (an endpoint on another
 * origin is refused). Prefer {@link createStreamableHttpClientTransport}, which falls back to this
 * by itself.
 *
 * @see https://modelcontextprotocol.io/specification/2024-11-05/basic/transports#http-with-sse
 */
export function createLegacySseClientTransport(url: string | URL, options: LegacySseClientTransportOptions = {}): LegacySseClientTransport {
  return new LegacySseClient(new URL(url), options);
}
