/**
 * A Streamable HTTP client's session renewal: when the server answers 404 for the session, one
 * new session is started for all the requests that saw it (the recorded `initialize` again, with
 * the transport's own id, then `notifications/initialized`), the old session's request streams are
 * answered with an error, and the client restores its state on the new session (bounded in time).
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#session-management
 */
import type { Clock } from '../lib/clock.js';
import { TransportError } from '../lib/errors.js';
import type { Frame, JsonObject, JsonRpcRequest, RequestId } from '../lib/jsonrpc/message.js';
import { bodySnippet, describeFrame, describeHttpFailure, localErrorResponse, mediaType, messageOf, type HttpClientMethod } from './http-client-common.js';
import type { Abortable, SseStream, SseStreams } from './http-client-streams.js';
import type { FetchLike } from './http-fetch.js';
import type { RawFrame, RestoreAnswer, SessionRestorer } from './transport.js';

/** How long restoring a new session's state (the subscriptions, the log level) may take in all. */
const RESTORE_TIMEOUT_MS = 10_000;

/** What the renewal needs from its transport. */
export interface SessionRenewalHost {
  readonly url: URL;
  readonly fetch: FetchLike;
  readonly clock: Clock;
  readonly streams: SseStreams;
  readonly reinitializeOnExpiry: boolean;
  readonly standaloneWanted: boolean;
  /** The transport is closing or closed. */
  ended(): boolean;
  fail(error: Error): void;
  sessionId(): string | undefined;
  forgetSession(): void;
  /** The `initialize` request the client sent (replayed to start a new session). */
  initRequest(): JsonRpcRequest | undefined;
  /** The protocol version the first `initialize` negotiated (the new session must answer the same). */
  negotiated(): unknown;
  restorer(): SessionRestorer | undefined;
  headersFor(method: HttpClientMethod, extra?: { initialize?: boolean }): Promise<Headers>;
  controller(): AbortController;
  release(c: Abortable): void;
  captureSession(res: Response): void;
  deliver(text: string, stream?: SseStream): void;
  push(raw: RawFrame): void;
  details(details: Record<string, unknown>): void;
}

/** Starts new sessions for a transport whose session expired; answers the transport's own requests. */
export class SessionRenewal {
  /** Incremented by every re-initialization: requests of an older generation retry on the new session. */
  generation = 0;
  /** Set while a new session is being started and restored: frames wait for it. */
  pending: Promise<void> | undefined;
  private reinitCount = 0;
  private restoreCount = 0;
  /** Waiting for a response of the transport's own (re-initialization, restore), by id. */
  private readonly waiters = new Map<RequestId, { resolve: (value: object) => void; reject: (e: Error) => void }>();

  constructor(private readonly host: SessionRenewalHost) {}

  /** An answer to one of the transport's own requests: true when it was one (not to be forwarded). */
  answer(id: RequestId, value: object): boolean {
    const waiter = this.waiters.get(id);
    if (!waiter) return false;
    this.waiters.delete(id);
    waiter.resolve(value);
    return true;
  }

  /** The transport closed: its own requests fail. */
  rejectAll(): void {
    const waiters = [...this.waiters.values()];
    this.waiters.clear();
    for (const w of waiters) w.reject(new TransportError('The transport closed.'));
  }

  /**
   * The server answered 404 for our session. Re-initialize (once for all the requests that saw
   * it) and return true, or fail the transport and return false.
   */
  async sessionExpired(generation: number, what: string): Promise<boolean> {
    if (this.host.ended()) return false;
    if (generation !== this.generation) {
      // A newer session exists; its state may still be being restored.
      if (this.pending) await this.pending.catch(() => {});
      return true;
    }
    const expired = this.host.sessionId();
    if (!this.host.reinitializeOnExpiry || !this.host.initRequest()) {
      this.host.fail(
        new TransportError(
          `The MCP session ${JSON.stringify(expired)} expired: the server answered HTTP 404 to ${what}. ` +
            'Connect a new client session, or create the transport with `reinitializeOnExpiry: true` to start a new one by itself.',
          { status: 404, sessionId: expired },
        ),
      );
      return false;
    }
    this.pending ??= this.reinitialize(expired).finally(() => {
      this.pending = undefined;
    });
    try {
      await this.pending;
      return true;
    } catch {
      return false;
    }
  }

  /** Start a new session: initialize (our own id, answer kept), initialized, reopen the GET stream. */
  private async reinitialize(expired: string | undefined): Promise<void> {
    this.host.forgetSession();
    // Streams of the old session carry nothing more; their requests' answers are lost with it.
    for (const stream of this.host.streams.dropAll()) {
      if (stream.requestId !== undefined) {
        this.host.push(
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
    const init: JsonRpcRequest = { ...this.host.initRequest()!, id };
    try {
      const answer = (await this.request(init)) as { result?: { protocolVersion?: unknown }; error?: { message?: string } };
      if (answer.error || !answer.result) throw new Error(`the server answered the new initialize with an error: ${answer.error?.message ?? 'no result'}`);
      const version = answer.result.protocolVersion;
      if (version !== this.host.negotiated()) {
        throw new Error(`the server answered the new initialize with protocol version ${JSON.stringify(version)}, not the one negotiated before`);
      }
      await this.notify({ jsonrpc: '2.0', method: 'notifications/initialized' });
    } catch (e) {
      const error = new TransportError(
        `The MCP session ${JSON.stringify(expired)} expired and starting a new one failed: ${messageOf(e)}. Connect a new client session.`,
        { sessionId: expired },
      );
      this.host.fail(error);
      throw error;
    }
    this.generation++;
    // The GET stream first: what the restored subscriptions bring may come on it.
    if (this.host.standaloneWanted) this.host.streams.openStandalone(this.generation);
    await this.restore();
    this.host.details({ event: 'session-reinitialized', sessionId: this.host.sessionId(), previousSessionId: expired });
  }

  /** Let the client set up the new session as the old one was (queued frames wait for it). */
  private async restore(): Promise<void> {
    const restorer = this.host.restorer();
    if (!restorer) return;
    // Bounded as a whole: every frame the client sends waits for the restore.
    const deadline = this.host.clock.now() + RESTORE_TIMEOUT_MS;
    const request = (method: string, params?: Record<string, unknown>): Promise<RestoreAnswer> => {
      const frame: JsonRpcRequest = { jsonrpc: '2.0', id: `mcp-actors/restore/${++this.restoreCount}`, method, ...(params && { params: params as JsonObject }) };
      const late = () => new TransportError(`${describeFrame(frame)}: restoring the new session took longer than ${RESTORE_TIMEOUT_MS} ms`);
      const left = deadline - this.host.clock.now();
      if (left <= 0) return Promise.reject(late());
      return new Promise<RestoreAnswer>((resolve, reject) => {
        const timer = this.host.clock.setTimeout(
          () => {
            this.waiters.delete(frame.id);
            reject(late());
          },
          left,
          'session-restore',
        );
        this.request(frame).then(
          (answer) => {
            this.host.clock.clearTimeout(timer);
            resolve(answer as RestoreAnswer);
          },
          (e: unknown) => {
            this.host.clock.clearTimeout(timer);
            reject(e as Error);
          },
        );
      });
    };
    try {
      await restorer(request);
    } catch (e) {
      // The restorer reports what it lost itself; this is its own failure, not the session's.
      this.host.details({ event: 'session-restore-failed', message: messageOf(e) });
    }
  }

  /** POST a request of the transport's own and wait for its answer (in a JSON body or on its SSE stream). */
  private request(frame: JsonRpcRequest): Promise<object> {
    return new Promise<object>((resolve, reject) => {
      this.waiters.set(frame.id, { resolve, reject });
      const unanswered = (why: string) => {
        if (!this.waiters.has(frame.id)) return;
        this.waiters.delete(frame.id);
        reject(new TransportError(`${describeFrame(frame)}: ${why}`));
      };
      this.postInternal(frame, unanswered).catch((e: unknown) => unanswered(messageOf(e)));
    });
  }

  private async postInternal(frame: JsonRpcRequest, unanswered: (why: string) => void): Promise<void> {
    const headers = await this.host.headersFor('POST', { initialize: frame.method === 'initialize' });
    headers.set('content-type', 'application/json');
    headers.set('accept', 'application/json, text/event-stream');
    const controller = this.host.controller();
    let res: Response;
    try {
      res = await this.host.fetch(this.host.url, { method: 'POST', headers, body: JSON.stringify(frame), signal: controller.signal });
    } catch (e) {
      this.host.release(controller);
      throw e;
    }
    if (frame.method === 'initialize') this.host.captureSession(res);
    const type = mediaType(res);
    if (res.ok && res.body && type === 'text/event-stream') {
      const stream = this.host.streams.create('request', frame.id, this.generation, controller);
      stream.finished = true; // not resumed: if it breaks, the re-initialization fails
      stream.onEnd = () => unanswered('its SSE stream ended without the response');
      this.host.streams.read(stream, res.body);
      return;
    }
    this.host.release(controller);
    if (!res.ok) {
      const snippet = await bodySnippet(res);
      throw new Error(`POST failed: ${describeHttpFailure(res, snippet)}`);
    }
    if (type !== 'application/json' || !res.body) {
      await res.body?.cancel().catch(() => {});
      throw new Error(`the answer has content type ${JSON.stringify(res.headers.get('content-type'))}`);
    }
    this.host.deliver(await res.text());
    unanswered('the JSON answer was not its response');
  }

  private async notify(frame: Frame): Promise<void> {
    const headers = await this.host.headersFor('POST');
    headers.set('content-type', 'application/json');
    headers.set('accept', 'application/json, text/event-stream');
    const controller = this.host.controller();
    try {
      const res = await this.host.fetch(this.host.url, { method: 'POST', headers, body: JSON.stringify(frame), signal: controller.signal });
      if (!res.ok) {
        const snippet = await bodySnippet(res);
        throw new Error(`POST ${describeFrame(frame)} failed: ${describeHttpFailure(res, snippet)}`);
      }
      await res.body?.cancel().catch(() => {});
    } finally {
      this.host.release(controller);
    }
  }
}

/** DELETE the session on close, bounded in time (405: the server does not let clients end sessions, fine). */
export async function deleteSession(url: URL, fetch: FetchLike, headersFor: () => Promise<Headers>, clock: Clock, timeoutMs: number): Promise<string> {
  const controller = new AbortController();
  const timer = clock.setTimeout(() => controller.abort(), timeoutMs, 'http-client:delete');
  try {
    const res = await fetch(url, { method: 'DELETE', headers: await headersFor(), signal: controller.signal });
    await res.body?.cancel().catch(() => {});
    if (res.ok) return 'deleted';
    if (res.status === 405) return 'not-allowed';
    if (res.status === 404) return 'already-gone';
    return `HTTP ${res.status}`;
  } catch (e) {
    return `failed: ${messageOf(e)}`;
  } finally {
    clock.clearTimeout(timer);
  }
}
