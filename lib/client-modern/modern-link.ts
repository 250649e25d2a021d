/**
 * The client's request engine in the modern era (2026-07-28): no session, no handshake; each
 * request carries its own `_meta` envelope and is answered on its own (the HTTP response of its
 * POST, or a line on stdio). Correlates responses by id, runs the timeouts and aborts of
 * `RequestRegistry`, routes progress, re-issues a request whose HTTP response stream broke (with
 * a new id), and shows every frame on `frames$`.
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic
 */
import { Subject, type Observable, type Subscription } from 'rxjs';
import type { Clock } from '../clock.js';
import { ConnectionClosedError, McpError } from '../errors.js';
import { DEFAULT_MAX_FRAME_DEPTH, nestsDeeperThan, textMayNestDeeperThan } from '../jsonrpc/depth.js';
import type { Frame, JsonObject, JsonRpcErrorObject, RequestId } from '../jsonrpc/message.js';
import { RequestRegistry, type RequestOptions, type ResultMapper } from '../session/request-registry.js';
import type { FrameEvent } from '../session/session.js';
import { DeepFrame, OversizeFrame, type RawFrame, type Transport } from '../../streams/transport.js';
import type { InvalidInbound } from '../../streams/inbound.js';
import { classifyMessage, deepInbound, invalidInbound, oversizeInbound } from '../jsonrpc/codec.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import type { JournalEntryInput } from '../journal/entry.js';
import { inEntryOf } from '../journal/in-entry.js';
import { requestTimeoutClock } from '../client-era/deadline-clock.js';
import { withProgressToken } from '../session/progress-token-params.js';
import { AnswerText } from './answer-text.js';

export interface ModernLinkOptions {
  clock: Clock;
  defaultTimeout: number;
  /** stdio sends `notifications/cancelled` for an aborted request; HTTP closes the response stream. */
  sendsCancelled: boolean;
  /**
   * The transport has response streams that can break (HTTP): such a request is re-issued. On a
   * byte stream nothing breaks one request alone, so its requests skip the re-issue step.
   */
  reissues?: boolean;
  /** Notifications other than progress (log messages, list changes...). */
  onNotification(method: string, params: JsonObject | undefined): void;
  /** Journal what the link sees: frames out and in as they pass, its timers as they fire (the client's `journal` option). */
  record?(entry: JournalEntryInput): void;
  /**
   * A frame that is not a JSON-RPC message (not JSON, nested too deep, too large, not an object):
   * skipped here, told as the session era tells it (the client's `invalid-frame` diagnostic).
   */
  invalid?(inbound: InvalidInbound): void;
}

/** Options of one request on the link. */
export interface LinkRequestOptions extends RequestOptions {
  /** Re-issue the request (new id) when its HTTP response stream breaks; default true. */
  reissue?: boolean;
}

/**
 * How many times a request whose response stream broke is sent again: the revision requires a
 * re-issue; a server that cuts every stream must not make the client loop.
 */
export const MAX_REISSUES = 2;

/** A transport's local error saying the response stream of the request broke before its answer. */
export function isStreamBroken(e: unknown): boolean {
  return e instanceof McpError && (e.data as { streamBroken?: unknown } | undefined)?.streamBroken === true;
}

export class ModernLink {
  private readonly registry: RequestRegistry;
  private readonly frames = new Subject<FrameEvent>();
  private subscription: Subscription | undefined;
  private nextId = 1;
  private seq = 0;
  private ended: Error | undefined;
  /** Reads the usual result line without parsing the tail every answer repeats. */
  private readonly answers = new AnswerText();

  constructor(
    private readonly transport: Transport,
    private readonly options: ModernLinkOptions,
  ) {
    this.registry = new RequestRegistry(
      // Over the system clock a request's timeout is a deadline in a queue, not a Node timer of its own.
      requestTimeoutClock(options.clock),
      {
        sendCancelled: (id, reason) => {
          if (!this.options.sendsCancelled) {
            (this.transport as { closeRequestStream?: (id: RequestId) => boolean }).closeRequestStream?.(id);
            return;
          }
          try {
            this.sendFrame({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason } });
          } catch {
            // The transport is gone (a stdio server that exited, its listen aborted as the
            // client tears down): there is no one left to tell, and the abort must not throw.
          }
        },
        timerFired: (name) => this.options.record?.({ kind: 'timer', name }),
      },
      options.defaultTimeout,
    );
    this.subscription = transport.inbound$.subscribe({
      next: (raw) => this.receive(raw),
      // The peer is gone (a stdio server exited): nothing pending will be answered.
      complete: () => this.end(new ConnectionClosedError('The server closed the connection')),
    });
  }

  get frames$(): Observable<FrameEvent> {
    return this.frames.asObservable();
  }

  /** Why the connection ended, once it did (the transport's inbound stream completed). */
  get endedWith(): Error | undefined {
    return this.ended;
  }

  /** A request id no request of this link has used (for a request whose id the caller must know). */
  allocateId(): RequestId {
    return this.nextId++;
  }

  /**
   * Send a request whose params already carry the envelope; resolves with its raw result, or with
   * what `settled` makes of it (see `RequestRegistry.register`). A request whose response stream
   * broke is sent again with a new id (up to {@link MAX_REISSUES}). `id` fixes the first attempt's
   * id (the era probe uses ids a later session cannot reuse).
   * @see https://modelcontextprotocol.io/specification/2026-07-28/changelog
   */
  request(method: string, params: JsonObject, options?: LinkRequestOptions, id?: RequestId, settled?: ResultMapper): Promise<JsonObject> {
    const first = this.once(method, params, options, id ?? this.nextId++, settled);
    if (options?.reissue === false || this.options.reissues !== true) return first;
    const again = (attempt: number) => (e: unknown): Promise<JsonObject> => {
      if (!isStreamBroken(e) || attempt > MAX_REISSUES || options?.signal?.aborted === true || this.ended) throw e;
      return this.once(method, params, options, this.nextId++, settled).catch(again(attempt + 1));
    };
    return first.catch(again(1));
  }

  private once(method: string, params: JsonObject, options: RequestOptions | undefined, id: RequestId, settled: ResultMapper | undefined): Promise<JsonObject> {
    if (this.ended) return Promise.reject(this.ended);
    let token: string | number | undefined;
    const meta = params._meta as JsonObject | undefined;
    if (meta?.progressToken !== undefined) token = meta.progressToken as string | number;
    else if (options?.onprogress !== undefined || options?.resetTimeoutOnProgress === true) {
      token = `p${id}`;
      params = withProgressToken(params, token);
    }
    options?.onRequestId?.(id);
    const promise = this.registry.register(id, method, options, token, undefined, settled);
    try {
      this.sendFrame({ jsonrpc: '2.0', id, method, params });
    } catch (e) {
      this.registry.closeOne(id, e as Error);
    }
    return promise;
  }

  /** Stop reading the transport (a legacy session takes it over) or end everything. */
  detach(error?: Error): void {
    this.subscription?.unsubscribe();
    this.subscription = undefined;
    if (error) this.registry.closeAll(error);
  }

  close(error: Error): void {
    this.ended ??= error;
    this.detach(error);
    this.frames.complete();
  }

  private end(error: Error): void {
    this.ended ??= error;
    this.registry.closeAll(error);
  }

  private sendFrame(frame: JsonObject): void {
    this.options.record?.({ kind: 'out', frame: frame as unknown as Frame });
    if (this.frames.observed) this.frames.next({ seq: this.seq++, t: this.options.clock.now(), direction: 'out', frame: frame as unknown as Frame });
    const sent = this.transport.send(frame as never);
    if (sent instanceof Promise) sent.catch(() => {});
  }

  private receive(raw: RawFrame): void {
    this.options.record?.(inEntryOf(raw));
    let value: unknown = raw;
    let invalid: InvalidInbound | undefined;
    if (typeof raw === 'string') {
      const result = this.answers.read(raw);
      // The line nests one level deeper than its result; one that may be too deep is parsed whole below.
      if (result !== undefined && !(textMayNestDeeperThan(raw, DEFAULT_MAX_FRAME_DEPTH) && nestsDeeperThan(result, DEFAULT_MAX_FRAME_DEPTH - 1))) {
        return this.answered(this.answers.id, result);
      }
      try {
        value = JSON.parse(raw);
      } catch (e) {
        value = undefined;
        invalid = invalidInbound(ErrorCode.ParseError, `Parse error: invalid JSON (${(e as Error).message})`);
      }
      // As on the session path: a frame nested deeper than the limit never reaches a handler.
      if (value !== undefined && textMayNestDeeperThan(raw, DEFAULT_MAX_FRAME_DEPTH) && nestsDeeperThan(value, DEFAULT_MAX_FRAME_DEPTH)) {
        value = undefined;
        invalid = deepInbound(DEFAULT_MAX_FRAME_DEPTH, null, false);
      }
    }
    if (this.frames.observed) this.frames.next({ seq: this.seq++, t: this.options.clock.now(), direction: 'in', frame: (value ?? raw) as FrameEvent['frame'] });
    if (value === null || typeof value !== 'object' || Array.isArray(value) || value instanceof OversizeFrame || value instanceof DeepFrame) {
      this.options.invalid?.(invalid ?? invalidOf(value));
      return;
    }
    const msg = value as { id?: RequestId; method?: unknown; params?: JsonObject; result?: JsonObject; error?: JsonRpcErrorObject };
    if (typeof msg.method === 'string') {
      if (msg.id !== undefined) return; // a server never sends requests in this era
      if (msg.method === 'notifications/progress') return this.progress(msg.params ?? {});
      if (msg.method === 'notifications/cancelled' && this.peerCancelled(msg.params)) return;
      this.options.onNotification(msg.method, msg.params);
      return;
    }
    if (msg.id === undefined || msg.id === null) return;
    if ('error' in msg && msg.error) this.registry.settle(msg.id, undefined, msg.error);
    else if ('result' in msg) {
      if (typeof raw === 'string' && msg.result !== null && typeof msg.result === 'object') this.answers.learn(raw, msg.result);
      this.registry.settle(msg.id, (msg.result ?? {}) as JsonObject, undefined);
    }
  }

  /** A result line `AnswerText` read: shown as the frame `JSON.parse` would have made, then settled. */
  private answered(id: number, result: JsonObject): void {
    if (this.frames.observed) this.frames.next({ seq: this.seq++, t: this.options.clock.now(), direction: 'in', frame: { jsonrpc: '2.0', id, result } as FrameEvent['frame'] });
    this.registry.settle(id, result, undefined);
  }

  private progress(p: JsonObject): void {
    const token = p.progressToken as string | number | undefined;
    if (token === undefined || typeof p.progress !== 'number') return;
    const progress: { progress: number; total?: number; message?: string } = { progress: p.progress };
    if (typeof p.total === 'number') progress.total = p.total;
    if (typeof p.message === 'string') progress.message = p.message;
    this.registry.progress(token, progress);
  }

  /**
   * The server tore down one of our requests (it does so for a `subscriptions/listen` it ends):
   * that request fails with the reason, so its owner can open it again.
   * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/cancellation
   */
  private peerCancelled(params: JsonObject | undefined): boolean {
    const id = params?.requestId as RequestId | undefined;
    if (id === undefined || !this.registry.has(id)) return false;
    const reason = typeof params?.reason === 'string' ? params.reason : 'no reason given';
    this.registry.closeOne(id, new ConnectionClosedError(`The server ended request ${JSON.stringify(id)}: ${reason}`));
    return true;
  }
}

/** Why a parsed frame (or a transport's marker for one it could not read) is not a message. */
function invalidOf(value: unknown): InvalidInbound {
  if (value instanceof OversizeFrame) return oversizeInbound(value.size, value.limit, value.head);
  if (value instanceof DeepFrame) return deepInbound(value.limit, value.id, false);
  return classifyMessage(value) as InvalidInbound;
}
