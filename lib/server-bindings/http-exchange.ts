/**
 * One POST carrying requests, from its body to the last response: a JSON answer, or an SSE stream
 * (closed early and resumed where the client asks). It works for the HTTP session that made it,
 * through what {@link ExchangeSession} names of it.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#sending-messages-to-the-server
 */
import { utf8ByteLength } from '../crypto/bytes.js';
import type { HttpHeadersOut, HttpResponseOut } from '../../streams/http-shape.js';
import { type Clock } from '../clock.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import type { Frame, JsonRpcMessage, RequestId } from '../jsonrpc/message.js';
import { writeError } from '../../streams/http-body.js';
import { KeepAliveTicker, SseSink } from '../../streams/http-sse-sink.js';
import { sseEvent, sseStreamStart } from '../../streams/sse-encode.js';
import { CLOSE_STREAM_TIMER_NAME, SESSION_HEADER } from './http-server-options.js';

/** What an exchange uses of the handler's core (through its session). @internal */
export interface ExchangeCore {
  readonly clock: Clock;
  readonly closeStreamAfterMs: number | undefined;
  readonly cluster: unknown;
  readonly responseMode: 'json' | 'sse' | 'auto';
  readonly retryMs: number | undefined;
  readonly ticker: KeepAliveTicker;
  report(error: unknown): void;
}

/** What an exchange uses of the HTTP session it belongs to (`HttpSession` has it all). @internal */
export interface ExchangeSession {
  readonly core: ExchangeCore;
  readonly id: string;
  readonly tag: string;
  nextStreamNo: number;
  readonly primes: boolean;
  readonly resumable: boolean;
  readonly exchanges: ReadonlyMap<RequestId, Exchange>;
  removeExchange(id: RequestId): void;
  exchangeOpened(): void;
  exchangeClosed(): void;
  deleted(): void;
  finishStateless(): void;
  sseHeaders(): HttpHeadersOut;
  keep(streamId: string, seq: number, data: string): Promise<void> | undefined;
  replayInto(sink: SseSink, streamId: string, seq: number, prefix: string): void;
  storeOpened(streamId: string, ids: RequestId | RequestId[]): Promise<void> | undefined;
  storeEnded(streamId: string, lastSeq: number): void;
  storeDone(streamId: string): void;
}

const PENDING = 0;
const JSON_MODE = 1;
const SSE_MODE = 2;
const DONE = 3;

/**
 * One POST carrying requests, from the body to the last response: a JSON answer, or an SSE
 * stream (which may be closed early and resumed, SEP-1699). Executes nothing per message beyond a
 * switch on its mode.
 * @internal
 */
export class Exchange {
  private mode: number;
  private sink: SseSink | undefined;
  /** This exchange's stream number when its events are kept (0: not resumable). */
  streamNo = 0;
  private seq = 0;
  private closeTimer: unknown;
  /** Requests still to be answered. */
  private remaining: number;
  /** Whether the response to initialize was a success (for the session id header). */
  private initOk = false;
  /**
   * With a shared store: what this stream writes goes out once the store has it, so a client never
   * holds an event id a killed process did not store (its resumption elsewhere finds everything).
   */
  private durable: Promise<void> | undefined;
  /** The sink `finish` ends once the durable writes before it are out. */
  private endingSink: SseSink | undefined;

  constructor(
    readonly session: ExchangeSession,
    private readonly res: HttpResponseOut,
    private readonly ids: RequestId | RequestId[],
    count: number,
    readonly initialize: boolean,
    /** The stream number a shared store reserved for this POST. */
    private readonly reservedStreamNo?: number,
  ) {
    this.remaining = count;
    const mode = session.core.responseMode;
    this.mode = mode === 'json' ? JSON_MODE : PENDING;
    session.exchangeOpened();
    // `sse` mode opens at once (a primed stream can be resumed even if nothing comes for a while);
    // initialize waits for its answer, which decides whether the session exists.
    if (mode === 'sse' && !initialize) this.openSse();
  }

  /** Messages other than responses go on this POST (not in JSON mode). */
  get takesMessages(): boolean {
    return this.mode !== JSON_MODE && this.mode !== DONE;
  }

  deliver(frame: Frame, reply: boolean): void {
    if (this.mode === DONE) return;
    if (this.mode === PENDING) {
      if (reply && this.session.core.responseMode !== 'sse') this.mode = JSON_MODE;
      else this.openSse();
    }
    if (this.mode === JSON_MODE) {
      if (reply) this.answerJson(frame);
      return;
    }
    if (Array.isArray(frame)) for (const m of frame) this.event(m);
    else this.event(frame);
    if (reply) {
      if (this.initialize) this.initOk = !Array.isArray(frame) && 'result' in frame;
      this.finish();
    }
  }

  private answerJson(frame: Frame): void {
    const session = this.session;
    const body = JSON.stringify(frame);
    if (this.initialize) this.initOk = !Array.isArray(frame) && 'result' in frame;
    const res = this.res;
    if (!res.destroyed && !res.headersSent) {
      const headers: HttpHeadersOut = { 'content-type': 'application/json', 'content-length': utf8ByteLength(body) };
      if (session.id !== '' && (!this.initialize || this.initOk)) headers[SESSION_HEADER] = session.id;
      res.writeHead(200, headers);
      res.end(body);
    }
    this.finish();
  }

  private openSse(): void {
    const session = this.session;
    this.mode = SSE_MODE;
    let first = '';
    if (session.resumable && !this.initialize) {
      this.streamNo = this.reservedStreamNo ?? session.nextStreamNo++;
      const opened = session.storeOpened(String(this.streamNo), this.ids);
      if (session.core.cluster !== undefined) this.durable = opened ?? Promise.resolve();
      if (session.primes) {
        first = sseStreamStart(`${session.tag}.${this.streamNo}.0`, session.core.retryMs);
        const after = session.core.closeStreamAfterMs;
        if (after !== undefined) this.closeTimer = session.core.clock.setTimeout(() => this.closeEarly(), after, CLOSE_STREAM_TIMER_NAME);
      } else {
        first = sseStreamStart(undefined, session.core.retryMs);
      }
    }
    if (this.res.destroyed) return;
    const sink = new SseSink(this.res, session.core.ticker, (s, byClient) => this.sinkClosed(s, byClient));
    this.sink = sink;
    if (this.durable === undefined) sink.open(session.sseHeaders(), first);
    else this.afterStored(() => !sink.closed && sink.open(session.sseHeaders(), first));
  }

  /** Run `step` once what was stored before it is stored (see {@link durable}). */
  private afterStored(step: () => void, kept?: Promise<void>): void {
    const run = () => {
      try {
        step();
      } catch (e) {
        this.session.core.report(e);
      }
    };
    this.durable = (kept === undefined ? this.durable! : Promise.all([this.durable, kept])).then(run);
  }

  private event(message: JsonRpcMessage): void {
    const data = JSON.stringify(message);
    let id: string | undefined;
    let seq = 0;
    if (this.streamNo !== 0) {
      seq = ++this.seq;
      id = `${this.session.tag}.${this.streamNo}.${seq}`;
      const kept = this.session.keep(String(this.streamNo), seq, data);
      if (this.durable !== undefined) {
        const text = sseEvent(data, id);
        this.afterStored(() => (this.sink ?? this.endingSink)?.deliver(seq, text), kept);
        return;
      }
    }
    this.sink?.deliver(seq, sseEvent(data, id));
  }

  private sinkClosed(sink: SseSink, _byClient: boolean): void {
    // The client went away or we closed early: the requests go on (a disconnection is not a
    // cancellation); a resumable stream keeps its events for a GET with Last-Event-ID.
    if (this.sink === sink) this.sink = undefined;
  }

  /** GET with Last-Event-ID of this live stream: replay, then continue on the new connection. */
  reattach(res: HttpResponseOut, start: string, afterSeq: number, prefix: string): void {
    this.sink?.end();
    const sink = new SseSink(res, this.session.core.ticker, (s, byClient) => this.sinkClosed(s, byClient));
    this.sink = sink;
    sink.startReplay();
    sink.open(this.session.sseHeaders(), start);
    this.session.replayInto(sink, String(this.streamNo), afterSeq, prefix);
  }

  /** Close the stream now, leaving the requests running (SEP-1699). */
  closeEarly(): boolean {
    if (this.closeTimer !== undefined) {
      this.session.core.clock.clearTimeout(this.closeTimer);
      this.closeTimer = undefined;
    }
    if (this.mode !== SSE_MODE || this.streamNo === 0 || this.sink === undefined) return false;
    this.sink.end();
    return true;
  }

  /** The client cancelled one of the requests: it will not be answered. */
  cancelled(_id: RequestId): void {
    if (this.mode === DONE) return;
    if (--this.remaining > 0) return;
    // Every request of this POST was cancelled: end it with an empty stream (no response follows).
    if (this.mode === PENDING || this.mode === JSON_MODE) {
      this.mode = SSE_MODE;
      if (!this.res.destroyed && !this.res.headersSent) {
        this.res.writeHead(200, this.session.sseHeaders());
        this.res.end();
      }
    }
    this.finish();
  }

  private finish(): void {
    if (this.mode === DONE) return;
    const wasSse = this.mode === SSE_MODE;
    this.mode = DONE;
    const session = this.session;
    if (this.closeTimer !== undefined) {
      session.core.clock.clearTimeout(this.closeTimer);
      this.closeTimer = undefined;
    }
    const ids = this.ids;
    if (Array.isArray(ids)) for (const id of ids) session.removeExchange(id);
    else session.removeExchange(ids);
    if (wasSse && this.streamNo !== 0) session.storeEnded(String(this.streamNo), this.seq);
    if (wasSse) {
      const sink = this.sink;
      this.sink = undefined;
      if (sink !== undefined) {
        const end = () => {
          this.endingSink = undefined;
          const open = !sink.closed;
          sink.end();
          // The last event reached an open connection: its stream will hardly be asked for again.
          if (this.streamNo !== 0 && open) session.storeDone(String(this.streamNo));
        };
        if (this.durable === undefined) end();
        else {
          this.endingSink = sink;
          this.afterStored(end);
        }
      }
    }
    if (this.initialize && !this.initOk && session.id !== '') {
      // A failed initialize leaves no session behind.
      session.deleted();
      return;
    }
    session.exchangeClosed();
    session.finishStateless();
  }

  /** The session ended under this POST. */
  abandon(): void {
    if (this.mode === DONE) return;
    const mode = this.mode;
    this.mode = DONE;
    if (this.closeTimer !== undefined) this.session.core.clock.clearTimeout(this.closeTimer);
    if (mode === SSE_MODE) {
      this.sink?.end();
      this.sink = undefined;
    } else if (!this.res.destroyed) {
      writeError(this.res, 404, ErrorCode.InvalidRequest, 'Not Found: the session was terminated before this request was answered');
    }
  }
}
