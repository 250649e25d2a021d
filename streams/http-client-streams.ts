/**
 * The SSE streams a Streamable HTTP client reads: a request's stream (until its response) and the
 * standalone GET stream. A stream that ends or breaks before it is done is resumed with GET +
 * `Last-Event-ID` by `reconnectMachine`; a modern (2026-07-28) request's stream is never resumed,
 * its loss is reported so the client re-issues the request.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#resumability-and-redelivery
 */
import type { Observable, Subscription } from 'rxjs';
import { createActor, type Actor } from 'xstate';
import { AuthorizationError } from '../lib/auth/authorization-errors.js';
import type { Clock } from '../lib/clock.js';
import type { RequestId } from '../lib/jsonrpc/message.js';
import { reconnectMachine, type ReconnectOptions } from '../machines/reconnect.machine.js';
import { bodySnippet, describeHttpFailure, localErrorResponse, mediaType, messageOf, type HttpClientMethod } from './http-client-common.js';
import type { FetchLike } from './http-fetch.js';
import { fromWebStream, sseParse, type SseItem } from './sse-parse.js';
import { OversizeFrame, type RawFrame } from './transport.js';

type ReconnectActor = Actor<typeof reconnectMachine>;

/** What ends an HTTP exchange: an AbortController, or the modern POST's LeanAbort. */
export interface Abortable {
  abort(): void;
}

/** One SSE stream we read: a request's (until its response) or the standalone GET stream. */
export interface SseStream {
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

/** What the streams need from their transport. */
export interface SseStreamsHost {
  readonly url: URL;
  readonly fetch: FetchLike;
  readonly clock: Clock;
  readonly random: () => number;
  readonly maxFrameBytes: number;
  readonly reconnect: Partial<ReconnectOptions>;
  /** Open the standalone GET stream after initialization (and again after a re-initialization). */
  readonly standaloneWanted: boolean;
  /** The transport is closing or closed. */
  ended(): boolean;
  /** The current session generation (incremented by every re-initialization). */
  generation(): number;
  sessionId(): string | undefined;
  headersFor(method: HttpClientMethod): Promise<Headers>;
  /** A tracked AbortController for one exchange. */
  controller(): AbortController;
  release(c: Abortable): void;
  /** A received message as text. */
  deliver(text: string, stream: SseStream): void;
  push(raw: RawFrame): void;
  details(details: Record<string, unknown>): void;
  /** The server answered 404 for the session: true once a new session is in place. */
  sessionExpired(generation: number, what: string): Promise<boolean>;
}

/** The open SSE streams of one transport, by request and the standalone one. */
export class SseStreams {
  /** Request streams by request id, until their response. */
  readonly byRequest = new Map<RequestId, SseStream>();
  standalone: SseStream | undefined;
  /** The server answered 405 to the standalone GET: it offers none. */
  private standaloneUnsupported = false;

  constructor(private readonly host: SseStreamsHost) {}

  /** Stop reading every stream (close, re-initialization). */
  dropAll(): SseStream[] {
    if (this.standalone) this.drop(this.standalone);
    const dropped = [...this.byRequest.values()];
    for (const stream of dropped) this.drop(stream);
    return dropped;
  }

  create(kind: SseStream['kind'], requestId: RequestId | undefined, generation: number, controller: Abortable | undefined): SseStream {
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

  read(stream: SseStream, body: ReadableStream<Uint8Array>): void {
    this.readFrom(stream, fromWebStream(body));
  }

  /** Parse a stream's bytes as SSE events (a fetch body's web stream, or a Node readable). */
  readFrom(stream: SseStream, bytes: Observable<Uint8Array | string>): void {
    const sub = bytes
      .pipe(sseParse({ maxEventChars: this.host.maxFrameBytes }))
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
      this.host.push(new OversizeFrame(item.size, item.limit));
      return;
    }
    if (item.hasId) {
      // An empty id resets the cursor: no Last-Event-ID then, as in EventSource.
      stream.lastEventId = item.lastEventId === '' ? undefined : item.lastEventId;
      if (stream.lastEventId !== undefined) stream.actor?.send({ type: 'EVENT_ID', id: stream.lastEventId });
    }
    // Events without data prime the stream for resumption (an id) or keep it alive.
    if (item.data === '' || item.event !== 'message') return;
    this.host.deliver(item.data, stream);
  }

  /** A stream ended (`error` set when it broke): resume it unless it is done. */
  private onStreamEnd(stream: SseStream, sub: Subscription | undefined, error: string | undefined): void {
    if (stream.subscription === sub) stream.subscription = undefined;
    if (stream.controller) {
      this.host.release(stream.controller);
      stream.controller = undefined;
    }
    stream.onEnd?.();
    if (stream.finished || this.host.ended() || (stream.kind === 'request' && stream.requestId === undefined)) {
      this.drop(stream);
      return;
    }
    if (stream.modern && stream.requestId !== undefined) {
      // 2026-07-28 streams are not resumable: the request is lost, and the client must re-issue
      // it with a new id. The local error says so (data.streamBroken); the client's link does it.
      const id = stream.requestId;
      this.finish(stream);
      this.host.details({ event: 'stream-lost', stream: 'request', requestId: id, resumable: false, modern: true });
      this.host.push(
        localErrorResponse(id, `The response stream of request ${JSON.stringify(id)} ${error ?? 'ended'} before its response; the request was lost.`, {
          transport: 'streamable-http',
          streamBroken: true,
        }),
      );
      return;
    }
    if (stream.generation !== this.host.generation()) {
      this.finish(stream);
      return;
    }
    if (stream.kind === 'request' && stream.lastEventId === undefined) {
      // No event id: the server did not make this stream resumable. The request stays pending
      // (its timeout or a cancel settles it); a disconnect is not a cancellation.
      this.host.details({
        event: 'stream-lost',
        stream: 'request',
        requestId: stream.requestId,
        resumable: false,
        message: `The SSE stream of request ${JSON.stringify(stream.requestId)} ${error ?? 'ended'} before its response, without an event id to resume from.`,
      });
      this.finish(stream);
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
              this.host.details({
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
              this.host.details({
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
              queueMicrotask(() => this.drop(stream));
            },
            reportFailed: ({ context }) => {
              this.host.details({
                event: 'reconnect-failed',
                stream: stream.kind,
                ...(stream.requestId !== undefined && { requestId: stream.requestId }),
                message: `The server refused to resume the SSE stream: ${context.lastError ?? 'unknown'}.`,
              });
              queueMicrotask(() => this.drop(stream));
            },
          },
        }),
        {
          input: { ...this.host.reconnect, lastEventId: stream.lastEventId, serverRetryMs: stream.retryMs },
          clock: this.host.clock,
        },
      );
      stream.actor = actor;
      actor.start();
    }
    stream.actor.send({ type: 'DROPPED', sample: this.host.random(), error: why });
  }

  /** The reconnecting GET (with Last-Event-ID); reports CONNECTED or CONNECT_FAILED to the stream's actor. */
  private async reopen(stream: SseStream, lastEventId: string | undefined): Promise<void> {
    const actor = stream.actor;
    if (!actor || stream.finished || this.host.ended()) return;
    const failed = (retryable: boolean, error: string) => {
      if (!stream.finished && actor.getSnapshot().status === 'active') actor.send({ type: 'CONNECT_FAILED', retryable, sample: this.host.random(), error });
    };
    const outcome = await this.getStream(lastEventId);
    if (stream.finished || this.host.ended()) {
      await this.discard(outcome);
      return;
    }
    switch (outcome.kind) {
      case 'stream':
        stream.controller = outcome.controller;
        actor.send({ type: 'CONNECTED' });
        this.host.details({ event: 'reconnected', stream: stream.kind, ...(stream.requestId !== undefined && { requestId: stream.requestId }) });
        this.read(stream, outcome.body);
        return;
      case 'expired': {
        // Re-initializing drops the old session's streams and answers their requests with an error.
        const renewed = await this.host.sessionExpired(stream.generation, 'GET (resuming an SSE stream)');
        if (!stream.finished) this.drop(stream);
        if (renewed && stream.kind === 'standalone' && this.host.standaloneWanted) this.openStandalone(this.host.generation());
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
      headers = await this.host.headersFor('GET');
    } catch (e) {
      return { kind: 'failed', retryable: true, message: `the \`headers\` option failed for GET: ${messageOf(e)}` };
    }
    const sentSession = this.host.sessionId();
    headers.set('accept', 'text/event-stream');
    if (lastEventId !== undefined) headers.set('last-event-id', lastEventId);
    const controller = this.host.controller();
    let res: Response;
    try {
      res = await this.host.fetch(this.host.url, { method: 'GET', headers, signal: controller.signal });
    } catch (e) {
      this.host.release(controller);
      // Without a token the GET cannot succeed: not worth retrying.
      if (e instanceof AuthorizationError) return { kind: 'failed', retryable: false, message: `GET ${this.host.url.href}: authorization failed: ${e.message}` };
      return { kind: 'failed', retryable: true, message: `GET ${this.host.url.href} failed: ${messageOf(e)}` };
    }
    if (res.ok && mediaType(res) === 'text/event-stream' && res.body) return { kind: 'stream', body: res.body, controller };
    this.host.release(controller);
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
        message: `GET ${this.host.url.href} answered ${JSON.stringify(res.headers.get('content-type'))} instead of text/event-stream`,
      };
    }
    const snippet = await bodySnippet(res);
    const retryable = res.status >= 500 || res.status === 408 || res.status === 409 || res.status === 429;
    return { kind: 'failed', retryable, status: res.status, message: `GET ${this.host.url.href}: ${describeHttpFailure(res, snippet)}` };
  }

  /** A GET that opened after nobody wants it any more: let its connection go. */
  private async discard(outcome: Awaited<ReturnType<typeof this.getStream>>): Promise<void> {
    if (outcome.kind !== 'stream') return;
    this.host.release(outcome.controller);
    await outcome.body.cancel().catch(() => {});
  }

  /** Open the standalone GET stream (after initialization). 405 means the server offers none. */
  openStandalone(generation: number): void {
    if (this.standaloneUnsupported || this.standalone || this.host.ended()) return;
    const stream = this.create('standalone', undefined, generation, undefined);
    this.standalone = stream;
    void this.getStream(undefined).then(async (outcome) => {
      if (this.host.ended() || stream.finished) {
        await this.discard(outcome);
        return;
      }
      switch (outcome.kind) {
        case 'stream':
          stream.controller = outcome.controller;
          this.read(stream, outcome.body);
          return;
        case 'expired':
          this.drop(stream);
          if (await this.host.sessionExpired(generation, 'GET (opening the standalone SSE stream)')) this.openStandalone(this.host.generation());
          return;
        case 'failed':
          if (outcome.status === 405) {
            // The server offers no standalone stream: fine, it talks on request streams only.
            this.standaloneUnsupported = true;
            this.drop(stream);
            return;
          }
          if (!outcome.retryable) {
            this.host.details({ event: 'standalone-stream-refused', message: outcome.message, status: outcome.status });
            this.drop(stream);
            return;
          }
          this.resume(stream, outcome.message);
          return;
      }
    });
  }

  /** Done with a stream: stop its reconnects and forget it (its current read goes on, if any). */
  finish(stream: SseStream): void {
    stream.finished = true;
    if (stream.actor) {
      if (stream.actor.getSnapshot().status === 'active') stream.actor.send({ type: 'STOP' });
      stream.actor.stop();
      stream.actor = undefined;
    }
    if (stream.requestId !== undefined && this.byRequest.get(stream.requestId) === stream) this.byRequest.delete(stream.requestId);
    if (this.standalone === stream) this.standalone = undefined;
  }

  /** Finish a stream and stop reading it. */
  drop(stream: SseStream): void {
    this.finish(stream);
    stream.subscription?.unsubscribe();
    stream.subscription = undefined;
    if (stream.controller) {
      stream.controller.abort();
      this.host.release(stream.controller);
      stream.controller = undefined;
    }
  }

}
