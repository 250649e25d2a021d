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
import type { Observable, Subscription } from 'rxjs';
import { createActor, type Actor } from 'xstate';
import { AuthorizationError } from '../lib/auth/authorization-errors.js';
import { oauthClientFor, type HttpClientAuth, type OAuthClient } from '../lib/auth/oauth-client.js';
import { systemClock, type Clock } from '../lib/clock.js';
import { TransportError } from '../lib/errors.js';
import { DEFAULT_MAX_FRAME_BYTES } from '../lib/jsonrpc/codec.js';
import type { Frame, JsonObject, JsonRpcRequest, RequestId } from '../lib/jsonrpc/message.js';
import { allows, isSupportedRevision } from '../lib/protocol/revisions.js';
import { reconnectMachine, type ReconnectOptions } from '../machines/reconnect.machine.js';
import {
  bodySnippet,
  customHeaders,
  describeFrame,
  describeHttpFailure,
  localErrorResponse,
  mediaType,
  messageOf,
  parseFrame,
  requestIdOf,
  requestIdsOf,
  type HeadersOption,
  type HttpClientMethod,
} from './http-client-common.js';
import { undiciFetch, type FetchLike } from './http-fetch.js';
import { LegacySseChannel } from './legacy-sse-client.js';
import { HotInbound, StateCell } from './memory.js';
import { fromWebStream, sseParse, type SseItem } from './sse-parse.js';
import { OversizeFrame, type RawFrame, type RestoreAnswer, type SendOptions, type SessionRestorer, type Transport, type TransportState } from './transport.js';
import { modernClaim, modernHeaders, type ParamHeaderSource } from '../lib/client-modern/wire-headers.js';
import { postModern, type ModernPostHost } from './modern-post.js';
import { fromReadable } from './stdio-server.js';

export type { HeadersOption, HttpClientMethod } from './http-client-common.js';
export type { RestoreAnswer, SessionRestorer } from './transport.js';
export type { FetchLike } from './http-fetch.js';

/** Which wire protocol the transport speaks. */
export type HttpTransportMode = 'streamable' | 'legacy-sse';

export interface StreamableHttpClientTransportOptions {
  /**
   * Extra headers for every request: a fixed set, or a function called per request (where an
   * OAuth client adds `Authorization`). The transport's own headers win over these.
   */
  headers?: HeadersOption;
  /** The fetch to use (wrap it to watch or change requests). Default: {@link undiciFetch}. */
  fetch?: FetchLike;
  /**
   * OAuth 2.1 authorization (`lib/auth/`): every request (POST, GET, DELETE) carries
   * `Authorization: Bearer` once a token exists; a 401 runs the authorization flow (or a refresh)
   * and a 403 `insufficient_scope` a step-up, then the request is sent again. A user's
   * authorization (`createHeadlessOAuthProvider`, `InMemoryOAuthClientProvider`) or a client
   * without a user (`createClientCredentialsProvider`, `createCrossAppAccessProvider`), or an
   * `OAuthClient` made from one. When the flow
   * fails, requests fail with the {@link AuthorizationError}'s message. Without it the
   * transport sends no credentials of its own.
   *
   * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization
   */
  auth?: HttpClientAuth;
  /** How dropped SSE streams are resumed. Defaults: 6 attempts, 1 s → 30 s, ×2, jitter 0.3. */
  reconnect?: Partial<ReconnectOptions>;
  /** The clock reconnect waits run on (pass the session's; a ManualClock in tests). */
  clock?: Clock;
  /** Source of the backoff jitter, in [0, 1). Default Math.random. */
  random?: () => number;
  /** On a 404 for a session, initialize a new session and retry (default true); else fail. */
  reinitializeOnExpiry?: boolean;
  /** When POSTing `initialize` fails with a 4xx, try the HTTP+SSE transport (default true). */
  fallbackToSse?: boolean;
  /** Open the standalone GET stream after initialization (default true). */
  openStandaloneStream?: boolean;
  /** Largest accepted frame in bytes. Default 4 MiB. */
  maxFrameBytes?: number;
  /** Bound on the DELETE that ends the session on close, in ms (default 5000). */
  closeTimeoutMs?: number;
}

/** A {@link Transport} over Streamable HTTP (or, after a fallback, HTTP+SSE). */
export interface StreamableHttpClientTransport extends Transport {
  /** The MCP endpoint. */
  readonly url: URL;
  /** 'streamable' until a fallback switched to 'legacy-sse'. */
  readonly mode: HttpTransportMode;
  /** The `Mcp-Session-Id` the server assigned, if any. */
  readonly sessionId: string | undefined;
  /** The revision sent as `MCP-Protocol-Version` (undefined before initialization or when the revision has no header). */
  readonly protocolVersion: string | undefined;
  /**
   * Where the `x-mcp-header` arguments of a tool are looked up for modern `tools/call` POSTs
   * (`Mcp-Param-*` headers); the client sets it from its tool list.
   * @see https://modelcontextprotocol.io/specification/2026-07-28/server/tools#x-mcp-header
   */
  paramHeaders: ParamHeaderSource | undefined;
  /**
   * Run after a transparent re-initialization (see `reinitializeOnExpiry`), before the new
   * session is used: a new session has none of the old one's state, so the client sets it again
   * (a `Client` sets this when it connects).
   */
  restoreSession: SessionRestorer | undefined;
  /** Close the response stream of a request (modern-era cancellation). */
  closeRequestStream(id: RequestId): boolean;
  /**
   * Who the next request is made as: a digest of the Authorization header it will carry (the
   * `auth` client's current token, or the `headers` option's), undefined without one. The client
   * keeps `private` cached results per value.
   * @see https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/caching#cache-scope-field
   */
  authContext(): Promise<string | undefined>;
}

/** Statuses of the `initialize` POST that mean "maybe an HTTP+SSE server": 4xx but not auth, timeouts or rate limits. */
const NO_FALLBACK_4XX = new Set([401, 403, 407, 408, 429]);

/** How long restoring a new session's state (the subscriptions, the log level) may take in all. */
const RESTORE_TIMEOUT_MS = 10_000;

/** Visible ASCII only (0x21–0x7E), as the spec requires of session ids. */
const SESSION_ID_RE = /^[\x21-\x7e]+$/;

type ReconnectActor = Actor<typeof reconnectMachine>;
/** What ends an HTTP exchange: an AbortController, or the modern POST's LeanAbort. */
interface Abortable {
  abort(): void;
}

/** One SSE stream we read: a request's (until its response) or the standalone GET stream. */
interface SseStream {
  kind: 'request' | 'standalone';
  /** The request whose response this stream carries (request streams). */
  requestId: RequestId | undefined;
  /** The session generation the stream belongs to. */
  generation: number;
  lastEventId: string | undefined;
  retryMs: number | undefined;
  /** The response arrived, the request was cancelled, or the stream is otherwise done. */
  finished: boolean;
  subscription: Subscription | undefined;
  controller: Abortable | undefined;
  actor: ReconnectActor | undefined;
  /** Called when the stream ends or breaks (internal requests wait on it). */
  onEnd?: () => void;
  /** It carries a modern (2026-07-28) request: never resumed; a loss is reported so the request is re-issued. */
  modern?: boolean;
}

class StreamableHttpClient implements StreamableHttpClientTransport {
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
  /** Incremented by every re-initialization: requests of an older generation retry on the new session. */
  private generation = 0;
  private reinitCount = 0;
  private reinitializing: Promise<void> | undefined;
  /** Waiting for a response of ours (re-initialization), by id. */
  private readonly internalWaiters = new Map<RequestId, { resolve: (value: object) => void; reject: (e: Error) => void }>();
  /** Set while `notifications/initialized` is in flight: later POSTs wait for it. */
  private initializedGate: Promise<void> | undefined;
  private falling: Promise<void> | undefined;
  private legacy: LegacySseChannel | undefined;
  private readonly requestStreams = new Map<RequestId, SseStream>();
  private standalone: SseStream | undefined;
  /** The server answered 405 to the standalone GET: it offers none. */
  private standaloneUnsupported = false;
  private readonly controllers = new Set<Abortable>();
  /** Modern requests' POSTs until they are answered: cancelling one aborts it (closeRequestStream). */
  private readonly requestPosts = new Map<RequestId, Abortable>();
  private readonly postIds = new WeakMap<Abortable, RequestId>();
  /** POSTs aborted as their request's cancellation: their failure is no news to report. */
  private readonly cancelledPosts = new WeakSet<Abortable>();
  /** Modern POSTs go the lean way (undici directly) unless a custom fetch or auth is in the way. */
  private readonly lean: boolean;
  private readonly leanHost: ModernPostHost;
  private closing: Promise<void> | undefined;
  private readonly headersOption: HeadersOption | undefined;

  constructor(
    readonly url: URL,
    options: StreamableHttpClientTransportOptions,
  ) {
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
    this.lean = options.fetch === undefined && options.auth === undefined;
    const paramHeaders = () => this.paramHeaders;
    this.leanHost = {
      url,
      headersOption: options.headers,
      get paramHeaders() {
        return paramHeaders();
      },
      ended: () => this.closing !== undefined || this.state.terminal,
      track: (abort, id) => this.track(abort, id),
      untrack: (abort) => this.release(abort),
      deliver: (text) => this.deliver(text),
      readSse: (id, body, abort) => {
        const stream = this.newStream('request', id, this.generation, abort);
        stream.modern = true;
        this.requestStreams.set(id, stream);
        this.readFrom(stream, fromReadable(body));
      },
      deliverErrorBody: (frame, text, status) => this.deliverErrorBody(frame, text, status),
      undeliverable: (frame, message, data) => this.undeliverable(frame, message, data),
    };
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
  private restoreCount = 0;

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
    if (this.reinitializing) await this.reinitializing.catch(() => {});
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
      const stream = this.requestStreams.get(f.params.requestId);
      if (stream) this.finishStream(stream);
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
    // A modern message on the default stack: the lean path (it hands back what it cannot take).
    if (this.lean && !Array.isArray(frame) && modernClaim(frame) !== undefined && (await postModern(this.leanHost, frame))) return;
    const initialize = isInitializeRequest(frame);
    const generation = this.generation;
    let headers: Headers;
    try {
      headers = await this.headersFor('POST', { initialize });
    } catch (e) {
      return this.undeliverable(frame, `The \`headers\` option failed for POST ${describeFrame(frame)}: ${messageOf(e)}`, {});
    }
    const sentSession = this.session;
    headers.set('content-type', 'application/json');
    headers.set('accept', 'application/json, text/event-stream');
    // A modern (2026-07-28) message names its version, method and target in headers too.
    for (const [name, value] of modernHeaders(frame, this.paramHeaders)) headers.set(name, value);
    const controller = this.controller();
    if (modernClaim(frame) !== undefined) this.track(controller, requestIdOf(frame));
    let res: Response;
    try {
      res = await this.fetch(this.url, { method: 'POST', headers, body: JSON.stringify(frame), signal: controller.signal });
    } catch (e) {
      this.release(controller);
      if (this.closing || this.state.terminal || this.cancelledPosts.has(controller)) return;
      if (e instanceof AuthorizationError) {
        return this.undeliverable(frame, `POST ${describeFrame(frame)} to ${this.url.href}: authorization failed: ${e.message}`, {
          url: this.url.href,
          authorization: e.code,
        });
      }
      return this.undeliverable(frame, `POST ${describeFrame(frame)} to ${this.url.href} failed: ${messageOf(e)}. Is the server running?`, {
        url: this.url.href,
      });
    }
    if (initialize) this.captureSession(res);
    if (res.ok) return this.accepted(frame, res, controller, generation);
    this.release(controller);

    if (res.status === 404 && sentSession !== undefined && !initialize) {
      await res.body?.cancel().catch(() => {});
      if (!retried && (await this.sessionExpired(generation, `POST ${describeFrame(frame)}`))) return this.post(frame, true);
      if (this.state.terminal) return;
      return this.undeliverable(frame, `POST ${describeFrame(frame)} got HTTP 404 again right after the session was re-initialized.`, {
        status: 404,
      });
    }
    if (
      initialize &&
      this.fallbackToSse &&
      sentSession === undefined &&
      this.generation === 0 &&
      res.status >= 400 &&
      res.status < 500 &&
      !NO_FALLBACK_4XX.has(res.status)
    ) {
      const snippet = await bodySnippet(res);
      return this.fallBack(frame, `HTTP ${res.status}${snippet ? ': ' + snippet : ''}`);
    }
    // A modern request refused with a JSON-RPC error body (-32022, -32020, -32602...): that
    // error is the answer, so that the client can retry with another version or fall back.
    if (modernClaim(frame) !== undefined) {
      const text = await res.text().catch(() => '');
      if (this.deliverErrorBody(frame, text, res.status)) return;
      return this.undeliverable(frame, `POST ${describeFrame(frame)} to ${this.url.href} failed: HTTP ${res.status} ${text.slice(0, 300)}`, {
        status: res.status,
        body: text.slice(0, 1200),
      });
    }
    const snippet = await bodySnippet(res);
    return this.undeliverable(frame, `POST ${describeFrame(frame)} to ${this.url.href} failed: ${describeHttpFailure(res, snippet)}`, {
      status: res.status,
      body: snippet,
    });
  }

  /** A 2xx answer to a POST: 202, a JSON body, or an SSE stream. */
  private async accepted(frame: Frame, res: Response, controller: AbortController, generation: number): Promise<void> {
    const ids = requestIdsOf(frame);
    const type = mediaType(res);
    if (res.status === 202 || !res.body || ids.length === 0) {
      // Notifications and responses: nothing to read (a stray stream is still read if one came).
      if (type === 'text/event-stream' && res.body) {
        this.readStream(this.newStream('request', undefined, generation, controller), res.body);
      } else {
        this.release(controller);
        await res.body?.cancel().catch(() => {});
      }
      if (isInitializedNotification(frame) && this.openStandalone) this.openStandaloneStream(this.generation);
      if (ids.length > 0 && res.status === 202) {
        // A request answered 202 gets its response some other way (the standalone stream), if at all.
        this.details({ event: 'request-accepted-without-body', requestIds: ids });
      }
      return;
    }
    if (type === 'text/event-stream') {
      const stream = this.newStream('request', requestIdOf(frame), generation, controller);
      if (modernClaim(frame) !== undefined) stream.modern = true;
      if (stream.requestId !== undefined) this.requestStreams.set(stream.requestId, stream);
      this.readStream(stream, res.body);
      return;
    }
    if (type === 'application/json') {
      let text: string;
      try {
        text = await res.text();
      } catch (e) {
        if (this.closing || this.state.terminal || this.cancelledPosts.has(controller)) return;
        // A modern request whose answer was cut is lost: the client re-issues it (streamBroken).
        return this.undeliverable(frame, `Reading the answer to ${describeFrame(frame)} failed: ${messageOf(e)}.`, modernClaim(frame) !== undefined ? { streamBroken: true } : {});
      } finally {
        this.release(controller);
      }
      if (text.trim() !== '') this.deliver(text);
      return;
    }
    this.release(controller);
    await res.body.cancel().catch(() => {});
    return this.undeliverable(
      frame,
      `The answer to ${describeFrame(frame)} has content type ${JSON.stringify(res.headers.get('content-type'))}; ` +
        'a Streamable HTTP server answers application/json or text/event-stream.',
      { status: res.status, contentType: res.headers.get('content-type') },
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
    const id = requestIdOf(frame);
    if (id === undefined) return false;
    let body: { error?: { code?: unknown; message?: unknown; data?: unknown } };
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      return false;
    }
    const e = body?.error;
    if (e === null || typeof e !== 'object' || typeof e.code !== 'number' || !Number.isInteger(e.code)) return false;
    const error: { code: number; message: string; data?: unknown } = { code: e.code, message: typeof e.message === 'string' ? e.message : `HTTP ${status}` };
    if (e.data !== undefined) error.data = e.data;
    this.inbound.push({ jsonrpc: '2.0', id, error } as RawFrame);
    return true;
  }

  private captureSession(res: Response): void {
    const id = res.headers.get('mcp-session-id');
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
    const waiter = this.internalWaiters.get(m.id);
    if (waiter) {
      this.internalWaiters.delete(m.id);
      waiter.resolve(value);
      return true;
    }
    if (this.initRequest && m.id === this.initRequest.id && this.generation === 0) {
      const version = m.result?.protocolVersion;
      this.negotiated = version;
      if (isSupportedRevision(version) && allows(version, 'protocolVersionHeader')) this.versionHeader = version;
    }
    const owner = this.requestStreams.get(m.id);
    if (owner) this.finishStream(owner);
    else if (stream && stream.requestId === m.id) this.finishStream(stream);
    return false;
  }

  private newStream(kind: SseStream['kind'], requestId: RequestId | undefined, generation: number, controller: Abortable | undefined): SseStream {
    return {
      kind,
      requestId,
      generation,
      lastEventId: undefined,
      retryMs: undefined,
      finished: false,
      subscription: undefined,
      controller,
      actor: undefined,
    };
  }

  private readStream(stream: SseStream, body: ReadableStream<Uint8Array>): void {
    this.readFrom(stream, fromWebStream(body));
  }

  /** Parse a stream's bytes as SSE events (a fetch body's web stream, or a Node readable). */
  private readFrom(stream: SseStream, bytes: Observable<Uint8Array | string>): void {
    const sub = bytes
      .pipe(sseParse({ maxEventChars: this.maxFrameBytes }))
      .subscribe({
        next: (item) => this.onSseItem(stream, item),
        error: (e: unknown) => this.onStreamEnd(stream, sub, `broke: ${messageOf(e)}`),
        complete: () => this.onStreamEnd(stream, sub, undefined),
      });
    stream.subscription = sub;
  }

  private onSseItem(stream: SseStream, item: SseItem): void {
    if (item.type === 'retry') {
      stream.retryMs = item.ms;
      stream.actor?.send({ type: 'RETRY', ms: item.ms });
      return;
    }
    if (item.type === 'oversize') {
      // The session reports it (and the JSON-RPC size error) like any oversize frame.
      this.inbound.push(new OversizeFrame(item.size, item.limit));
      return;
    }
    if (item.hasId) {
      // An empty id resets the cursor: no Last-Event-ID then, as in EventSource.
      stream.lastEventId = item.lastEventId === '' ? undefined : item.lastEventId;
      if (stream.lastEventId !== undefined) stream.actor?.send({ type: 'EVENT_ID', id: stream.lastEventId });
    }
    // Events without data prime the stream for resumption (an id) or keep it alive.
    if (item.data === '' || item.event !== 'message') return;
    this.deliver(item.data, stream);
  }

  /** A stream ended (`error` set when it broke): resume it unless it is done. */
  private onStreamEnd(stream: SseStream, sub: Subscription | undefined, error: string | undefined): void {
    if (stream.subscription === sub) stream.subscription = undefined;
    if (stream.controller) {
      this.release(stream.controller);
      stream.controller = undefined;
    }
    stream.onEnd?.();
    if (stream.finished || this.closing || this.state.terminal || (stream.kind === 'request' && stream.requestId === undefined)) {
      this.dropStream(stream);
      return;
    }
    if (stream.modern && stream.requestId !== undefined) {
      // 2026-07-28 streams are not resumable: the request is lost, and the client must re-issue
      // it with a new id. The local error says so (data.streamBroken); the client's link does it.
      const id = stream.requestId;
      this.finishStream(stream);
      this.details({ event: 'stream-lost', stream: 'request', requestId: id, resumable: false, modern: true });
      this.inbound.push(
        localErrorResponse(id, `The response stream of request ${JSON.stringify(id)} ${error ?? 'ended'} before its response; the request was lost.`, {
          transport: 'streamable-http',
          streamBroken: true,
        }),
      );
      return;
    }
    if (stream.generation !== this.generation) {
      this.finishStream(stream);
      return;
    }
    if (stream.kind === 'request' && stream.lastEventId === undefined) {
      // No event id: the server did not make this stream resumable. The request stays pending
      // (its timeout or a cancel settles it); a disconnect is not a cancellation.
      this.details({
        event: 'stream-lost',
        stream: 'request',
        requestId: stream.requestId,
        resumable: false,
        message: `The SSE stream of request ${JSON.stringify(stream.requestId)} ${error ?? 'ended'} before its response, without an event id to resume from.`,
      });
      this.finishStream(stream);
      return;
    }
    this.resume(stream, error ?? 'ended');
  }

  // ---------------------------------------------------------------- resumption

  private resume(stream: SseStream, why: string): void {
    if (!stream.actor) {
      const actor = createActor(
        reconnectMachine.provide({
          actions: {
            openStream: ({ context }) => void this.reopen(stream, context.lastEventId),
            reportWaiting: ({ context }) =>
              this.details({
                event: 'reconnecting',
                stream: stream.kind,
                ...(stream.requestId !== undefined && { requestId: stream.requestId }),
                attempt: context.attempts + 1,
                delayMs: context.delayMs,
                ...(context.lastEventId !== undefined && { lastEventId: context.lastEventId }),
                ...(context.serverRetryMs !== undefined && { serverRetryMs: context.serverRetryMs }),
                reason: context.lastError,
              }),
            reportExhausted: ({ context }) => {
              this.details({
                event: 'reconnect-exhausted',
                stream: stream.kind,
                ...(stream.requestId !== undefined && { requestId: stream.requestId }),
                attempts: context.attempts,
                message:
                  `Gave up resuming the ${stream.kind === 'standalone' ? 'standalone GET' : `request ${JSON.stringify(stream.requestId)}`} ` +
                  `SSE stream after ${context.attempts} attempts (last: ${context.lastError ?? 'unknown'}). ` +
                  'Pending requests stay pending until their timeout.',
              });
              // Not from inside the actor's own transition.
              queueMicrotask(() => this.dropStream(stream));
            },
            reportFailed: ({ context }) => {
              this.details({
                event: 'reconnect-failed',
                stream: stream.kind,
                ...(stream.requestId !== undefined && { requestId: stream.requestId }),
                message: `The server refused to resume the SSE stream: ${context.lastError ?? 'unknown'}.`,
              });
              queueMicrotask(() => this.dropStream(stream));
            },
          },
        }),
        {
          input: { ...this.reconnect, lastEventId: stream.lastEventId, serverRetryMs: stream.retryMs },
          clock: this.clock,
        },
      );
      stream.actor = actor;
      actor.start();
    }
    stream.actor.send({ type: 'DROPPED', sample: this.random(), error: why });
  }

  /** The reconnecting GET (with Last-Event-ID); reports CONNECTED or CONNECT_FAILED to the stream's actor. */
  private async reopen(stream: SseStream, lastEventId: string | undefined): Promise<void> {
    const actor = stream.actor;
    if (!actor || stream.finished || this.closing || this.state.terminal) return;
    const failed = (retryable: boolean, error: string) => {
      if (!stream.finished && actor.getSnapshot().status === 'active') actor.send({ type: 'CONNECT_FAILED', retryable, sample: this.random(), error });
    };
    const outcome = await this.getStream(lastEventId);
    if (stream.finished || this.closing || this.state.terminal) {
      await this.discard(outcome);
      return;
    }
    switch (outcome.kind) {
      case 'stream':
        stream.controller = outcome.controller;
        actor.send({ type: 'CONNECTED' });
        this.details({ event: 'reconnected', stream: stream.kind, ...(stream.requestId !== undefined && { requestId: stream.requestId }) });
        this.readStream(stream, outcome.body);
        return;
      case 'expired': {
        // Re-initializing drops the old session's streams and answers their requests with an error.
        const renewed = await this.sessionExpired(stream.generation, 'GET (resuming an SSE stream)');
        if (!stream.finished) this.dropStream(stream);
        if (renewed && stream.kind === 'standalone' && this.openStandalone) this.openStandaloneStream(this.generation);
        return;
      }
      case 'failed':
        failed(outcome.retryable, outcome.message);
        return;
    }
  }

  private async getStream(
    lastEventId: string | undefined,
  ): Promise<
    | { kind: 'stream'; body: ReadableStream<Uint8Array>; controller: AbortController }
    | { kind: 'expired' }
    | { kind: 'failed'; retryable: boolean; status?: number; message: string }
  > {
    let headers: Headers;
    try {
      headers = await this.headersFor('GET');
    } catch (e) {
      return { kind: 'failed', retryable: true, message: `the \`headers\` option failed for GET: ${messageOf(e)}` };
    }
    const sentSession = this.session;
    headers.set('accept', 'text/event-stream');
    if (lastEventId !== undefined) headers.set('last-event-id', lastEventId);
    const controller = this.controller();
    let res: Response;
    try {
      res = await this.fetch(this.url, { method: 'GET', headers, signal: controller.signal });
    } catch (e) {
      this.release(controller);
      // Without a token the GET cannot succeed: not worth retrying.
      if (e instanceof AuthorizationError) return { kind: 'failed', retryable: false, message: `GET ${this.url.href}: authorization failed: ${e.message}` };
      return { kind: 'failed', retryable: true, message: `GET ${this.url.href} failed: ${messageOf(e)}` };
    }
    if (res.ok && mediaType(res) === 'text/event-stream' && res.body) return { kind: 'stream', body: res.body, controller };
    this.release(controller);
    if (res.status === 404 && sentSession !== undefined) {
      await res.body?.cancel().catch(() => {});
      return { kind: 'expired' };
    }
    if (res.ok) {
      await res.body?.cancel().catch(() => {});
      return {
        kind: 'failed',
        retryable: false,
        status: res.status,
        message: `GET ${this.url.href} answered ${JSON.stringify(res.headers.get('content-type'))} instead of text/event-stream`,
      };
    }
    const snippet = await bodySnippet(res);
    const retryable = res.status >= 500 || res.status === 408 || res.status === 409 || res.status === 429;
    return { kind: 'failed', retryable, status: res.status, message: `GET ${this.url.href}: ${describeHttpFailure(res, snippet)}` };
  }

  /** A GET that opened after nobody wants it any more: let its connection go. */
  private async discard(outcome: Awaited<ReturnType<typeof this.getStream>>): Promise<void> {
    if (outcome.kind !== 'stream') return;
    this.release(outcome.controller);
    await outcome.body.cancel().catch(() => {});
  }

  /** Open the standalone GET stream (after initialization). 405 means the server offers none. */
  private openStandaloneStream(generation: number): void {
    if (this.standaloneUnsupported || this.standalone || this.closing || this.state.terminal) return;
    const stream = this.newStream('standalone', undefined, generation, undefined);
    this.standalone = stream;
    void this.getStream(undefined).then(async (outcome) => {
      if (this.closing || this.state.terminal || stream.finished) {
        await this.discard(outcome);
        return;
      }
      switch (outcome.kind) {
        case 'stream':
          stream.controller = outcome.controller;
          this.readStream(stream, outcome.body);
          return;
        case 'expired':
          this.dropStream(stream);
          if (await this.sessionExpired(generation, 'GET (opening the standalone SSE stream)')) this.openStandaloneStream(this.generation);
          return;
        case 'failed':
          if (outcome.status === 405) {
            // The server offers no standalone stream: fine, it talks on request streams only.
            this.standaloneUnsupported = true;
            this.dropStream(stream);
            return;
          }
          if (!outcome.retryable) {
            this.details({ event: 'standalone-stream-refused', message: outcome.message, status: outcome.status });
            this.dropStream(stream);
            return;
          }
          this.resume(stream, outcome.message);
          return;
      }
    });
  }

  /** Done with a stream: stop its reconnects and forget it (its current read goes on, if any). */
  private finishStream(stream: SseStream): void {
    stream.finished = true;
    if (stream.actor) {
      if (stream.actor.getSnapshot().status === 'active') stream.actor.send({ type: 'STOP' });
      stream.actor.stop();
      stream.actor = undefined;
    }
    if (stream.requestId !== undefined && this.requestStreams.get(stream.requestId) === stream) this.requestStreams.delete(stream.requestId);
    if (this.standalone === stream) this.standalone = undefined;
  }

  /**
   * Cancel a modern request by closing its response stream (2026-07-28 has no
   * `notifications/cancelled` over HTTP). False when no stream of that request is open.
   * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http
   */
  closeRequestStream(id: RequestId): boolean {
    const stream = this.requestStreams.get(id);
    if (stream) {
      this.dropStream(stream);
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

  /** Finish a stream and stop reading it. */
  private dropStream(stream: SseStream): void {
    this.finishStream(stream);
    stream.subscription?.unsubscribe();
    stream.subscription = undefined;
    if (stream.controller) {
      stream.controller.abort();
      this.release(stream.controller);
      stream.controller = undefined;
    }
  }

  // ---------------------------------------------------------------- session expiry

  /**
   * The server answered 404 for our session. Re-initialize (once for all the requests that saw
   * it) and return true, or fail the transport and return false.
   */
  private async sessionExpired(generation: number, what: string): Promise<boolean> {
    if (this.closing || this.state.terminal) return false;
    if (generation !== this.generation) {
      // A newer session exists; its state may still be being restored.
      if (this.reinitializing) await this.reinitializing.catch(() => {});
      return true;
    }
    const expired = this.session;
    if (!this.reinitializeOnExpiry || !this.initRequest) {
      this.fail(
        new TransportError(
          `The MCP session ${JSON.stringify(expired)} expired: the server answered HTTP 404 to ${what}. ` +
            'Connect a new client session, or create the transport with `reinitializeOnExpiry: true` to start a new one by itself.',
          { status: 404, sessionId: expired },
        ),
      );
      return false;
    }
    this.reinitializing ??= this.reinitialize(expired).finally(() => {
      this.reinitializing = undefined;
    });
    try {
      await this.reinitializing;
      return true;
    } catch {
      return false;
    }
  }

  /** Start a new session: initialize (our own id, answer kept), initialized, reopen the GET stream. */
  private async reinitialize(expired: string | undefined): Promise<void> {
    this.session = undefined;
    // Streams of the old session carry nothing more; their requests' answers are lost with it.
    if (this.standalone) this.dropStream(this.standalone);
    for (const stream of [...this.requestStreams.values()]) {
      this.dropStream(stream);
      if (stream.requestId !== undefined) {
        this.inbound.push(
          localErrorResponse(
            stream.requestId,
            `The server ended MCP session ${JSON.stringify(expired)} while request ${JSON.stringify(stream.requestId)} was in progress; ` +
              'its response is lost. A new session was started: retry the request if it is safe to repeat.',
            { transport: 'streamable-http', status: 404, sessionId: expired },
          ),
        );
      }
    }
    const id = `mcp-actors/reinitialize/${++this.reinitCount}`;
    const init: JsonRpcRequest = { ...this.initRequest!, id };
    try {
      const answer = (await this.internalRequest(init)) as { result?: { protocolVersion?: unknown }; error?: { message?: string } };
      if (answer.error || !answer.result) throw new Error(`the server answered the new initialize with an error: ${answer.error?.message ?? 'no result'}`);
      const version = answer.result.protocolVersion;
      if (version !== this.negotiated) {
        throw new Error(`the server answered the new initialize with protocol version ${JSON.stringify(version)}, not the one negotiated before`);
      }
      await this.internalNotify({ jsonrpc: '2.0', method: 'notifications/initialized' });
    } catch (e) {
      const error = new TransportError(
        `The MCP session ${JSON.stringify(expired)} expired and starting a new one failed: ${messageOf(e)}. Connect a new client session.`,
        { sessionId: expired },
      );
      this.fail(error);
      throw error;
    }
    this.generation++;
    // The GET stream first: what the restored subscriptions bring may come on it.
    if (this.openStandalone) this.openStandaloneStream(this.generation);
    await this.restore();
    this.details({ event: 'session-reinitialized', sessionId: this.session, previousSessionId: expired });
  }

  /** Let the client set up the new session as the old one was (queued frames wait for it). */
  private async restore(): Promise<void> {
    const restorer = this.restoreSession;
    if (!restorer) return;
    // Bounded as a whole: every frame the client sends waits for the restore.
    const deadline = this.clock.now() + RESTORE_TIMEOUT_MS;
    const request = (method: string, params?: Record<string, unknown>): Promise<RestoreAnswer> => {
      const frame: JsonRpcRequest = { jsonrpc: '2.0', id: `mcp-actors/restore/${++this.restoreCount}`, method, ...(params && { params: params as JsonObject }) };
      const late = () => new TransportError(`${describeFrame(frame)}: restoring the new session took longer than ${RESTORE_TIMEOUT_MS} ms`);
      const left = deadline - this.clock.now();
      if (left <= 0) return Promise.reject(late());
      return new Promise<RestoreAnswer>((resolve, reject) => {
        const timer = this.clock.setTimeout(
          () => {
            this.internalWaiters.delete(frame.id);
            reject(late());
          },
          left,
          'session-restore',
        );
        this.internalRequest(frame).then(
          (answer) => {
            this.clock.clearTimeout(timer);
            resolve(answer as RestoreAnswer);
          },
          (e: unknown) => {
            this.clock.clearTimeout(timer);
            reject(e as Error);
          },
        );
      });
    };
    try {
      await restorer(request);
    } catch (e) {
      // The restorer reports what it lost itself; this is its own failure, not the session's.
      this.details({ event: 'session-restore-failed', message: messageOf(e) });
    }
  }

  /** POST a request of the transport's own and wait for its answer (in a JSON body or on its SSE stream). */
  private internalRequest(frame: JsonRpcRequest): Promise<object> {
    return new Promise<object>((resolve, reject) => {
      this.internalWaiters.set(frame.id, { resolve, reject });
      const unanswered = (why: string) => {
        if (!this.internalWaiters.has(frame.id)) return;
        this.internalWaiters.delete(frame.id);
        reject(new TransportError(`${describeFrame(frame)}: ${why}`));
      };
      this.postInternal(frame, unanswered).catch((e: unknown) => unanswered(messageOf(e)));
    });
  }

  private async postInternal(frame: JsonRpcRequest, unanswered: (why: string) => void): Promise<void> {
    const headers = await this.headersFor('POST', { initialize: frame.method === 'initialize' });
    headers.set('content-type', 'application/json');
    headers.set('accept', 'application/json, text/event-stream');
    const controller = this.controller();
    let res: Response;
    try {
      res = await this.fetch(this.url, { method: 'POST', headers, body: JSON.stringify(frame), signal: controller.signal });
    } catch (e) {
      this.release(controller);
      throw e;
    }
    if (frame.method === 'initialize') this.captureSession(res);
    const type = mediaType(res);
    if (res.ok && res.body && type === 'text/event-stream') {
      const stream = this.newStream('request', frame.id, this.generation, controller);
      stream.finished = true; // not resumed: if it breaks, the re-initialization fails
      stream.onEnd = () => unanswered('its SSE stream ended without the response');
      this.readStream(stream, res.body);
      return;
    }
    this.release(controller);
    if (!res.ok) {
      const snippet = await bodySnippet(res);
      throw new Error(`POST failed: ${describeHttpFailure(res, snippet)}`);
    }
    if (type !== 'application/json' || !res.body) {
      await res.body?.cancel().catch(() => {});
      throw new Error(`the answer has content type ${JSON.stringify(res.headers.get('content-type'))}`);
    }
    this.deliver(await res.text());
    unanswered('the JSON answer was not its response');
  }

  private async internalNotify(frame: Frame): Promise<void> {
    const headers = await this.headersFor('POST');
    headers.set('content-type', 'application/json');
    headers.set('accept', 'application/json, text/event-stream');
    const controller = this.controller();
    try {
      const res = await this.fetch(this.url, { method: 'POST', headers, body: JSON.stringify(frame), signal: controller.signal });
      if (!res.ok) {
        const snippet = await bodySnippet(res);
        throw new Error(`POST ${describeFrame(frame)} failed: ${describeHttpFailure(res, snippet)}`);
      }
      await res.body?.cancel().catch(() => {});
    } finally {
      this.release(controller);
    }
  }

  // ---------------------------------------------------------------- legacy fallback

  /** POST initialize failed with a 4xx: try the HTTP+SSE transport at the same URL. */
  private fallBack(initialize: Frame, why: string): Promise<void> {
    const attempt = (async () => {
      const channel = new LegacySseChannel(this.url, {
        fetch: this.fetch,
        headers: this.headersOption,
        maxFrameBytes: this.maxFrameBytes,
        onFrame: (raw) => this.inbound.push(raw),
        onEnd: (error) => this.fail(error),
      });
      let endpoint: URL;
      try {
        endpoint = await channel.open();
      } catch (e) {
        const error = new TransportError(
          `${this.url.href} speaks neither transport: POST initialize (Streamable HTTP) got ${why}; ` +
            `GET for the HTTP+SSE fallback: ${messageOf(e)}`,
          { url: this.url.href },
        );
        this.fail(error);
        throw error;
      }
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
    if (this.standalone) this.dropStream(this.standalone);
    for (const stream of [...this.requestStreams.values()]) this.dropStream(stream);
    this.legacy?.close();
    for (const c of this.controllers) c.abort();
    this.controllers.clear();
    const waiters = [...this.internalWaiters.values()];
    this.internalWaiters.clear();
    for (const w of waiters) w.reject(new TransportError('The transport closed.'));
  }

  private async shutdown(): Promise<void> {
    if (this.state.terminal) return;
    const wasOpen = this.state.phase === 'open';
    this.state.set({ phase: 'closing' });
    const details: Record<string, unknown> = { mode: this.currentMode };
    try {
      this.stopEverything();
      if (wasOpen && this.currentMode === 'streamable' && this.session !== undefined) {
        details.deleteSession = await this.deleteSession();
      }
    } finally {
      const final: TransportState = { phase: 'closed', details };
      this.state.set(final);
      this.inbound.complete();
    }
  }

  /** DELETE the session (405: the server does not let clients end sessions, fine). */
  private async deleteSession(): Promise<string> {
    const controller = new AbortController();
    const timer = this.clock.setTimeout(() => controller.abort(), this.closeTimeoutMs, 'http-client:delete');
    try {
      const headers = await this.headersFor('DELETE');
      const res = await this.fetch(this.url, { method: 'DELETE', headers, signal: controller.signal });
      await res.body?.cancel().catch(() => {});
      if (res.ok) return 'deleted';
      if (res.status === 405) return 'not-allowed';
      if (res.status === 404) return 'already-gone';
      return `HTTP ${res.status}`;
    } catch (e) {
      return `failed: ${messageOf(e)}`;
    } finally {
      this.clock.clearTimeout(timer);
    }
  }

  private controller(): AbortController {
    const c = new AbortController();
    this.controllers.add(c);
    return c;
  }

  private release(c: Abortable): void {
    this.controllers.delete(c);
    const id = this.postIds.get(c);
    if (id !== undefined && this.requestPosts.get(id) === c) this.requestPosts.delete(id);
  }

  /** An exchange starts; a modern request's POST is remembered by its id, for cancellation. */
  private track(c: Abortable, id: RequestId | undefined): void {
    this.controllers.add(c);
    if (id === undefined) return;
    this.requestPosts.set(id, c);
    this.postIds.set(c, id);
  }
}

function isInitializeRequest(frame: Frame): frame is JsonRpcRequest {
  const f = frame as { method?: unknown; id?: unknown };
  return !Array.isArray(frame) && f.method === 'initialize' && f.id !== undefined && f.id !== null;
}

function isInitializedNotification(frame: Frame): boolean {
  const f = frame as { method?: unknown; id?: unknown };
  return !Array.isArray(frame) && f.method === 'notifications/initialized' && f.id === undefined;
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
