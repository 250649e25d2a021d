/**
 * The client side of the Streamable HTTP transport, falling back to the deprecated HTTP+SSE
 * transport for servers that only speak that.
 *
 * - Every message is a POST to the MCP endpoint (`Accept: application/json, text/event-stream`);
 *   the answer is a JSON body, an SSE stream (read with `sseParse`), or 202 for notifications
 *   and responses.
 * - The `Mcp-Session-Id` of the initialize response is echoed on every later request, and
 *   `MCP-Protocol-Version` once the negotiated revision has that header (the transport reads the
 *   result of the `initialize` it carried).
 * - A 404 to a request that carried the session id means the session expired: the transport
 *   re-initializes by itself (`reinitializeOnExpiry`, default) and retries, or fails.
 * - After initialization a standalone GET stream is opened (405 is fine). Streams that end or
 *   break before they are done are resumed with GET + `Last-Event-ID` by `reconnectMachine`
 *   (the server's `retry`, else backoff with jitter, a bounded number of attempts). A dropped
 *   stream never fails a pending request by itself.
 * - If the POST of `initialize` fails with a 4xx, the old HTTP+SSE transport is tried at the same
 *   URL (`fallbackToSse`, default); `mode` says which one is in use.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http
 */
import { createHash } from 'node:crypto';
import { oauthClientFor, type OAuthClient } from '../lib/auth/oauth-client.js';
import { systemClock, type Clock } from '../lib/clock.js';
import { TransportError } from '../lib/errors.js';
import { DEFAULT_MAX_FRAME_BYTES } from '../lib/jsonrpc/codec.js';
import type { Frame, JsonRpcRequest, RequestId } from '../lib/jsonrpc/message.js';
import { allows, isSupportedRevision } from '../lib/protocol/revisions.js';
import type { ReconnectOptions } from '../machines/reconnect.machine.js';
import { customHeaders, describeFrame, localErrorResponse, messageOf } from './http-client-common.js';
import { parseFrame, requestIdOf, requestIdsOf, type HeadersOption, type HttpClientMethod } from './http-client-common.js';
import type { HttpTransportMode, StreamableHttpClientTransport, StreamableHttpClientTransportOptions } from './http-client-options.js';
import { errorBodyResponse, isInitializedNotification, isInitializeRequest } from './http-client-frames.js';
import { deleteSession, SessionRenewal } from './http-client-renewal.js';
import { SseStreams, type Abortable, type SseStream } from './http-client-streams.js';
import { undiciFetch, type FetchLike } from './http-fetch.js';
import { openLegacyFallback } from './http-client-fallback.js';
import type { LegacySseChannel } from './legacy-sse-client.js';
import { HotInbound, StateCell } from './memory.js';
import { type RawFrame, type SendOptions, type SessionRestorer, type TransportPeer, type TransportState } from './transport.js';
import { modernClaim, type ParamHeaderSource } from '../lib/client-modern/wire-headers.js';
import { sendPost, type PostSenderHost } from './http-client-post.js';
import type { PostAnswer } from './http-post-answer.js';

export type { HeadersOption, HttpClientMethod } from './http-client-common.js';
export type { RestoreAnswer, SessionRestorer } from './transport.js';
export type { FetchLike } from './http-fetch.js';
export type { HttpTransportMode, StreamableHttpClientTransport, StreamableHttpClientTransportOptions } from './http-client-options.js';

/** Statuses of the `initialize` POST that mean "maybe an HTTP+SSE server": 4xx but not auth, timeouts or rate limits. */
const NO_FALLBACK_4XX = new Set([401, 403, 407, 408, 429]);

/** Visible ASCII only (0x21–0x7E), as the spec requires of session ids. */
const SESSION_ID_RE = /^[\x21-\x7e]+$/;

/**
 * HTTP over TCP, as the OpenTelemetry conventions name it (`network.transport`, `network.protocol.name`),
 * and the server: the host and port of the URL the user gave, which stay the server's behind a proxy
 * the requests go through (`server.address` / `server.port` name the server behind intermediaries).
 * @see https://opentelemetry.io/docs/specs/semconv/gen-ai/mcp/#client
 */
function httpClientPeer(url: URL): TransportPeer {
  const address = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const port = url.port !== '' ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  return Object.freeze({ transport: 'tcp', protocolName: 'http', address, port });
}

class StreamableHttpClient implements StreamableHttpClientTransport {
  readonly peerFacts: TransportPeer;
  private readonly inbound = new HotInbound<RawFrame>();
  private readonly state = new StateCell({ phase: 'connecting' });
  readonly inbound$ = this.inbound.observable;
  readonly state$ = this.state.observable;

  private readonly fetch: FetchLike;
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly maxFrameBytes: number;
  private readonly reconnect: Partial<ReconnectOptions>;
  private readonly reinitializeOnExpiry: boolean;
  private readonly fallbackToSse: boolean;
  private readonly openStandalone: boolean;
  private readonly closeTimeoutMs: number;

  private currentMode: HttpTransportMode = 'streamable';
  private session: string | undefined;
  private versionHeader: string | undefined;
  /** The protocol version of the first initialize result (a new session must answer the same). */
  private negotiated: unknown;
  /** The `initialize` request the session sent: replayed to start a new session after a 404. */
  private initRequest: JsonRpcRequest | undefined;
  /** Set while `notifications/initialized` is in flight: later POSTs wait for it. */
  private initializedGate: Promise<void> | undefined;
  private falling: Promise<void> | undefined;
  private legacy: LegacySseChannel | undefined;
  /** The SSE streams being read (request streams, the standalone GET stream). */
  private readonly streams: SseStreams;
  /** Starts a new session when the server says the current one expired. */
  private readonly renewal: SessionRenewal;
  /**
   * The exchanges in flight, each with its modern request's id (if it is one): a plain Map, not a
   * WeakMap beside a Set, since a WeakMap entry per POST costs the collector (ephemerons).
   */
  private readonly controllers = new Map<Abortable, RequestId | undefined>();
  /** Modern requests' POSTs until they are answered: cancelling one aborts it (closeRequestStream). */
  private readonly requestPosts = new Map<RequestId, Abortable>();
  /** POSTs aborted as their request's cancellation: their failure is no news to report. */
  private readonly cancelledPosts = new WeakSet<Abortable>();
  /** What sends the POSTs (the lean way unless a custom fetch or auth is in the way). */
  private readonly poster: PostSenderHost;
  private closing: Promise<void> | undefined;
  private readonly headersOption: HeadersOption | undefined;

  constructor(
    readonly url: URL,
    options: StreamableHttpClientTransportOptions,
  ) {
    this.peerFacts = httpClientPeer(url);
    this.headersOption = options.headers;
    const baseFetch = options.fetch ?? undiciFetch;
    this.clock = options.clock ?? systemClock;
    this.oauth = options.auth ? oauthClientFor(options.auth, url, baseFetch, options.clock) : undefined;
    this.fetch = this.oauth ? this.oauth.wrapFetch(baseFetch) : baseFetch;
    this.random = options.random ?? Math.random;
    this.maxFrameBytes = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
    this.reconnect = options.reconnect ?? {};
    this.reinitializeOnExpiry = options.reinitializeOnExpiry ?? true;
    this.fallbackToSse = options.fallbackToSse ?? true;
    this.openStandalone = options.openStandaloneStream ?? true;
    this.closeTimeoutMs = options.closeTimeoutMs ?? 5000;
    this.poster = {
      url,
      fetch: this.fetch,
      lean: options.fetch === undefined && options.auth === undefined,
      headersOption: options.headers,
      paramHeaders: () => this.paramHeaders,
      session: () => this.session,
      versionHeader: () => this.versionHeader,
      quiet: (abort) => this.closing !== undefined || this.state.terminal || this.cancelledPosts.has(abort),
      track: (abort, id) => this.track(abort, id),
      release: (abort) => this.release(abort),
      undeliverable: (frame, message, data) => this.undeliverable(frame, message, data),
    };
    const ended = () => this.closing !== undefined || this.state.terminal;
    this.streams = new SseStreams({
      url,
      fetch: this.fetch,
      clock: this.clock,
      random: this.random,
      maxFrameBytes: this.maxFrameBytes,
      reconnect: this.reconnect,
      standaloneWanted: this.openStandalone,
      ended,
      generation: () => this.renewal.generation,
      sessionId: () => this.session,
      headersFor: (method) => this.headersFor(method),
      controller: () => this.controller(),
      release: (c) => this.release(c),
      deliver: (text, stream) => this.deliver(text, stream),
      push: (raw) => this.inbound.push(raw),
      details: (d) => this.details(d),
      sessionExpired: (generation, what) => this.renewal.sessionExpired(generation, what),
    });
    this.renewal = new SessionRenewal({
      url,
      fetch: this.fetch,
      clock: this.clock,
      streams: this.streams,
      reinitializeOnExpiry: this.reinitializeOnExpiry,
      standaloneWanted: this.openStandalone,
      ended,
      fail: (e) => this.fail(e),
      sessionId: () => this.session,
      forgetSession: () => {
        this.session = undefined;
      },
      initRequest: () => this.initRequest,
      negotiated: () => this.negotiated,
      restorer: () => this.restoreSession,
      headersFor: (method, extra) => this.headersFor(method, extra),
      controller: () => this.controller(),
      release: (c) => this.release(c),
      captureSession: (res) => this.captureSession(res.headers.get('mcp-session-id')),
      deliver: (text, stream) => this.deliver(text, stream),
      push: (raw) => this.inbound.push(raw),
      details: (d) => this.details(d),
    });
  }

  get mode(): HttpTransportMode {
    return this.currentMode;
  }
  get sessionId(): string | undefined {
    return this.session;
  }
  get protocolVersion(): string | undefined {
    return this.versionHeader;
  }
  paramHeaders: ParamHeaderSource | undefined = undefined;
  restoreSession: SessionRestorer | undefined = undefined;

  private readonly oauth: OAuthClient | undefined;

  async authContext(): Promise<string | undefined> {
    let value: string | null;
    if (this.oauth) {
      const token = await this.oauth.accessToken().catch(() => undefined);
      value = token === undefined ? null : `Bearer ${token}`;
    } else {
      value = this.headersOption === undefined ? null : (await customHeaders(this.headersOption, 'POST', this.url)).get('authorization');
    }
    // Never the credential itself: a digest is enough to tell callers apart.
    return value === null ? undefined : createHash('sha256').update(value).digest('base64url').slice(0, 22);
  }

  // ---------------------------------------------------------------- Transport

  start(): Promise<void> {
    if (this.state.phase === 'connecting') this.state.set({ phase: 'open', details: { mode: 'streamable', url: this.url.href } });
    if (this.state.terminal || this.closing) {
      return Promise.reject(new TransportError(`Cannot start: the Streamable HTTP transport is ${this.state.phase}.`));
    }
    return Promise.resolve();
  }

  async send(frame: Frame, _options?: SendOptions): Promise<void> {
    if (this.state.phase !== 'open' || this.closing) {
      throw new TransportError(
        `Cannot send ${describeFrame(frame)}: the Streamable HTTP transport is ${this.closing ? 'closing' : this.state.phase}` +
          (this.state.phase === 'connecting' ? ' (call start() first).' : '.'),
      );
    }
    this.watchOutgoing(frame);
    if (this.falling) await this.falling.catch(() => {});
    if (this.currentMode === 'legacy-sse') {
      if (!this.legacy) throw new TransportError(`Cannot send ${describeFrame(frame)}: the HTTP+SSE fallback failed.`);
      return this.legacy.send(frame, (raw) => this.inbound.push(raw));
    }
    if (this.renewal.pending) await this.renewal.pending.catch(() => {});
    if (this.initializedGate && !isInitializedNotification(frame)) await this.initializedGate;
    if (this.state.terminal || this.closing) return;
    if (isInitializedNotification(frame)) {
      const sent = this.post(frame, false);
      this.initializedGate = sent.then(
        () => undefined,
        () => undefined,
      );
      return sent.finally(() => {
        this.initializedGate = undefined;
      });
    }
    return this.post(frame, false);
  }

  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  // ---------------------------------------------------------------- outgoing

  /** Remember what the transport needs from the frames it carries. */
  private watchOutgoing(frame: Frame): void {
    if (Array.isArray(frame)) {
      for (const f of frame as Frame[]) this.watchOutgoing(f);
      return;
    }
    const f = frame as { id?: RequestId; method?: string; params?: { requestId?: RequestId } };
    if (f.method === 'initialize' && f.id !== undefined && !this.initRequest) this.initRequest = frame as JsonRpcRequest;
    if (f.method === 'notifications/cancelled' && f.params?.requestId !== undefined) {
      // A cancelled request's stream is not worth resuming.
      const stream = this.streams.byRequest.get(f.params.requestId);
      if (stream) this.streams.finish(stream);
    }
  }

  private async headersFor(method: HttpClientMethod, extra: { initialize?: boolean } = {}): Promise<Headers> {
    const headers = await customHeaders(this.headersOption, method, this.url);
    if (this.session !== undefined) headers.set('mcp-session-id', this.session);
    if (this.versionHeader !== undefined && !extra.initialize) headers.set('mcp-protocol-version', this.versionHeader);
    return headers;
  }

  /**
   * POST one frame, handle the answer, and (for requests) deliver a local error response when the
   * message could not be delivered. `retried` is true on the retry after a re-initialization.
   */
  private async post(frame: Frame, retried: boolean): Promise<void> {
    const initialize = isInitializeRequest(frame);
    const generation = this.renewal.generation;
    const modern = modernClaim(frame) !== undefined;
    const sent = await sendPost(this.poster, frame, initialize, modern);
    if (sent === undefined) return;
    const { answer: res, abort, session: sentSession } = sent;
    if (initialize) this.captureSession(res.header('mcp-session-id'));
    if (res.status >= 200 && res.status < 300) return this.accepted(frame, res, abort, generation, modern);
    this.release(abort);

    if (res.status === 404 && sentSession !== undefined && !initialize) {
      await res.discard();
      if (!retried && (await this.renewal.sessionExpired(generation, `POST ${describeFrame(frame)}`))) return this.post(frame, true);
      if (this.state.terminal) return;
      return this.undeliverable(frame, `POST ${describeFrame(frame)} got HTTP 404 again right after the session was re-initialized.`, {
        status: 404,
      });
    }
    if (
      initialize &&
      this.fallbackToSse &&
      sentSession === undefined &&
      this.renewal.generation === 0 &&
      res.status >= 400 &&
      res.status < 500 &&
      !NO_FALLBACK_4XX.has(res.status)
    ) {
      const snippet = await res.snippet();
      return this.fallBack(frame, `HTTP ${res.status}${snippet ? ': ' + snippet : ''}`);
    }
    // A modern request refused with a JSON-RPC error body (-32022, -32020, -32602...): that
    // error is the answer, so that the client can retry with another version or fall back.
    if (modern) {
      const text = await res.text().catch(() => '');
      if (this.deliverErrorBody(frame, text, res.status)) return;
      return this.undeliverable(frame, `POST ${describeFrame(frame)} to ${this.url.href} failed: HTTP ${res.status} ${text.slice(0, 300)}`, {
        status: res.status,
        body: text.slice(0, 1200),
      });
    }
    const snippet = await res.snippet();
    return this.undeliverable(frame, `POST ${describeFrame(frame)} to ${this.url.href} failed: ${res.failure(snippet)}`, {
      status: res.status,
      body: snippet,
    });
  }

  /** A 2xx answer to a POST: 202, a JSON body, or an SSE stream. */
  private async accepted(frame: Frame, res: PostAnswer, controller: Abortable, generation: number, modern: boolean): Promise<void> {
    const ids = requestIdsOf(frame);
    const type = res.type;
    if (res.status === 202 || !res.hasBody || ids.length === 0) {
      // Notifications and responses: nothing to read (a stray stream is still read if one came).
      if (type === 'text/event-stream' && res.hasBody) {
        this.streams.readFrom(this.streams.create('request', undefined, generation, controller), res.bytes());
      } else {
        this.release(controller);
        await res.discard();
      }
      if (isInitializedNotification(frame) && this.openStandalone) this.streams.openStandalone(this.renewal.generation);
      if (ids.length > 0 && res.status === 202) {
        // A request answered 202 gets its response some other way (the standalone stream), if at all.
        this.details({ event: 'request-accepted-without-body', requestIds: ids });
      }
      return;
    }
    if (type === 'text/event-stream') {
      const stream = this.streams.create('request', requestIdOf(frame), generation, controller);
      if (modern) stream.modern = true;
      if (stream.requestId !== undefined) this.streams.byRequest.set(stream.requestId, stream);
      this.streams.readFrom(stream, res.bytes());
      return;
    }
    if (type === 'application/json') {
      let text: string;
      try {
        text = await res.text();
      } catch (e) {
        if (this.closing || this.state.terminal || this.cancelledPosts.has(controller)) return;
        // A modern request whose answer was cut is lost: the client re-issues it (streamBroken).
        return this.undeliverable(frame, `Reading the answer to ${describeFrame(frame)} failed: ${messageOf(e)}.`, modern ? { streamBroken: true } : {});
      } finally {
        this.release(controller);
      }
      if (text.trim() !== '') this.deliver(text);
      return;
    }
    this.release(controller);
    await res.discard();
    return this.undeliverable(
      frame,
      `The answer to ${describeFrame(frame)} has content type ${JSON.stringify(res.header('content-type'))}; ` +
        'a Streamable HTTP server answers application/json or text/event-stream.',
      { status: res.status, contentType: res.header('content-type') },
    );
  }

  /**
   * A message that could not be delivered: requests get a local error response at once (the
   * session rejects them with this text); notifications and responses reject the send.
   */
  private undeliverable(frame: Frame, message: string, data: Record<string, unknown>): void {
    const ids = requestIdsOf(frame);
    if (ids.length === 0) {
      this.details({ event: 'send-failed', message, ...data });
      throw new TransportError(message, data);
    }
    for (const id of ids) this.inbound.push(localErrorResponse(id, message, { transport: 'streamable-http', ...data }));
  }

  /** Deliver a 4xx body that is a JSON-RPC error as the response to `frame`; false if it is not one. */
  private deliverErrorBody(frame: Frame, text: string, status: number): boolean {
    const answer = errorBodyResponse(frame, text, status);
    if (answer) this.inbound.push(answer);
    return answer !== undefined;
  }

  private captureSession(id: string | null): void {
    if (id === null) return;
    if (!SESSION_ID_RE.test(id)) {
      this.details({ event: 'invalid-session-id', message: 'The server sent an Mcp-Session-Id with characters outside 0x21–0x7E; ignored.' });
      return;
    }
    this.session = id;
  }

  // ---------------------------------------------------------------- incoming

  /** One received message (or batch) as text: watch it, then hand it to the session. */
  private deliver(text: string, stream?: SseStream): void {
    const { raw, value } = parseFrame(text, this.maxFrameBytes);
    if (value !== undefined) {
      if (Array.isArray(value)) {
        for (const v of value as unknown[]) if (v !== null && typeof v === 'object') this.watchIncoming(v, stream);
      } else if (this.watchIncoming(value, stream)) {
        return; // an answer to the transport's own request
      }
    }
    this.inbound.push(raw);
  }

  /** Returns true when the message is for the transport itself (not to be forwarded). */
  private watchIncoming(value: object, stream: SseStream | undefined): boolean {
    const m = value as { id?: RequestId | null; method?: unknown; result?: { protocolVersion?: unknown }; error?: unknown };
    if (m.method !== undefined || m.id === undefined || m.id === null) return false;
    if (!('result' in m) && !('error' in m)) return false;
    if (this.renewal.answer(m.id, value)) return true;
    if (this.initRequest && m.id === this.initRequest.id && this.renewal.generation === 0) {
      const version = m.result?.protocolVersion;
      this.negotiated = version;
      if (isSupportedRevision(version) && allows(version, 'protocolVersionHeader')) this.versionHeader = version;
    }
    const owner = this.streams.byRequest.get(m.id);
    if (owner) this.streams.finish(owner);
    else if (stream && stream.requestId === m.id) this.streams.finish(stream);
    return false;
  }

  /**
   * Cancel a modern request by closing its response stream (2026-07-28 has no
   * `notifications/cancelled` over HTTP). False when no stream of that request is open.
   * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http
   */
  closeRequestStream(id: RequestId): boolean {
    const stream = this.streams.byRequest.get(id);
    if (stream) {
      this.streams.drop(stream);
      return true;
    }
    // No stream (yet): the POST still waits for its answer (a JSON body comes whole, at the
    // end). Aborting it closes the request, which is the cancellation the server sees.
    const post = this.requestPosts.get(id);
    if (!post) return false;
    this.cancelledPosts.add(post);
    post.abort();
    this.release(post);
    return true;
  }

  // ---------------------------------------------------------------- legacy fallback

  /** POST initialize failed with a 4xx: try the HTTP+SSE transport at the same URL. */
  private fallBack(initialize: Frame, why: string): Promise<void> {
    const attempt = (async () => {
      let opened: Awaited<ReturnType<typeof openLegacyFallback>>;
      try {
        const onFrame = (raw: RawFrame) => this.inbound.push(raw);
        opened = await openLegacyFallback(this.url, { fetch: this.fetch, headers: this.headersOption, maxFrameBytes: this.maxFrameBytes, onFrame, onEnd: (e) => this.fail(e) }, why);
      } catch (e) {
        this.fail(e as Error);
        throw e;
      }
      const { channel, endpoint } = opened;
      if (this.closing || this.state.terminal) {
        channel.close();
        return;
      }
      this.legacy = channel;
      this.currentMode = 'legacy-sse';
      this.details({ event: 'fallback', mode: 'legacy-sse', endpoint: endpoint.href, reason: `POST initialize got ${why}` });
      await channel.send(initialize, (raw) => this.inbound.push(raw));
    })();
    this.falling = attempt;
    return attempt.finally(() => {
      if (this.falling === attempt) this.falling = undefined;
    });
  }

  // ---------------------------------------------------------------- lifecycle

  private details(details: Record<string, unknown>): void {
    if (this.state.phase !== 'open' || this.closing) return;
    this.state.set({ phase: 'open', details: { mode: this.currentMode, ...details } });
  }

  private fail(error: Error): void {
    if (this.state.terminal || this.closing) return;
    this.stopEverything();
    this.state.set({ phase: 'failed', error, details: { mode: this.currentMode, url: this.url.href } });
    this.inbound.complete();
  }

  private stopEverything(): void {
    this.streams.dropAll();
    this.legacy?.close();
    for (const c of this.controllers.keys()) c.abort();
    this.controllers.clear();
    this.renewal.rejectAll();
  }

  private async shutdown(): Promise<void> {
    if (this.state.terminal) return;
    const wasOpen = this.state.phase === 'open';
    this.state.set({ phase: 'closing' });
    const details: Record<string, unknown> = { mode: this.currentMode };
    try {
      this.stopEverything();
      if (wasOpen && this.currentMode === 'streamable' && this.session !== undefined) {
        details.deleteSession = await deleteSession(this.url, this.fetch, () => this.headersFor('DELETE'), this.clock, this.closeTimeoutMs);
      }
    } finally {
      const final: TransportState = { phase: 'closed', details };
      this.state.set(final);
      this.inbound.complete();
    }
  }

  private controller(): AbortController {
    const c = new AbortController();
    this.controllers.set(c, undefined);
    return c;
  }

  private release(c: Abortable): void {
    const id = this.controllers.get(c);
    this.controllers.delete(c);
    if (id !== undefined && this.requestPosts.get(id) === c) this.requestPosts.delete(id);
  }

  /** An exchange starts; a modern request's POST is remembered by its id, for cancellation. */
  private track(c: Abortable, id: RequestId | undefined): void {
    this.controllers.set(c, id);
    if (id !== undefined) this.requestPosts.set(id, c);
  }
}

/**
 * A client transport for an MCP server at `url` over Streamable HTTP, falling back to HTTP+SSE
 * for servers of 2024-11-05. Hand it to `client.connect(transport)`.
 *
 * `state$` stays `open` while it works and reports what happened in `details.event`:
 * `fallback`, `session-reinitialized`, `reconnecting`, `reconnected`, `reconnect-exhausted`,
 * `reconnect-failed`, `stream-lost`, `send-failed`...
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http
 */
export function createStreamableHttpClientTransport(
  url: string | URL,
  options: StreamableHttpClientTransportOptions = {},
): StreamableHttpClientTransport {
  return new StreamableHttpClient(new URL(url), options);
}
