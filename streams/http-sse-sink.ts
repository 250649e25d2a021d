/**
 * One open SSE response and the one keep-alive timer all of them share.
 *
 * A sink writes already encoded SSE text to a `HttpResponseOut`. While a resumed stream is being
 * replayed from the event store (which may answer asynchronously), live events wait in a backlog
 * and go out after the replay, minus those the replay already carried.
 */
import type { HttpHeadersOut, HttpResponseOut } from './http-shape.js';
import type { Clock } from '../lib/clock.js';
import type { StoredEvent } from './event-store.js';
import { SSE_KEEPALIVE, sseEvent } from './sse-encode.js';

/** The name keep-alive ticks carry on the clock. */
export const KEEPALIVE_TIMER_NAME = 'http:keepalive';

/** How much unsent text an SSE stream may hold before it is ended (1 MiB): see {@link SseSink}. */
export const DEFAULT_MAX_SSE_BUFFER_BYTES = 1_048_576;

/**
 * Writes an SSE comment on every open stream that sent nothing during the last interval: one
 * timer for the whole server, running only while streams are open.
 */
export class KeepAliveTicker {
  private readonly sinks = new Set<SseSink>();
  private timer: unknown;
  private readonly tickBound = (): void => this.tick();

  /**
   * @param maxBufferedBytes the most a stream may hold unsent (see {@link SseSink}); shared by
   *   every stream of the server, like the interval.
   */
  constructor(
    private readonly clock: Clock,
    private readonly intervalMs: number | undefined,
    readonly maxBufferedBytes: number = DEFAULT_MAX_SSE_BUFFER_BYTES,
  ) {
    if (!(maxBufferedBytes > 0)) throw new TypeError(`maxSseBufferBytes must be a positive number of bytes (or Infinity); got ${String(maxBufferedBytes)}`);
  }

  /** Streams open now. */
  get size(): number {
    return this.sinks.size;
  }

  add(sink: SseSink): void {
    this.sinks.add(sink);
    if (this.intervalMs !== undefined && this.timer === undefined) {
      this.timer = this.clock.setTimeout(this.tickBound, this.intervalMs, KEEPALIVE_TIMER_NAME);
    }
  }

  delete(sink: SseSink): void {
    this.sinks.delete(sink);
    if (this.sinks.size === 0 && this.timer !== undefined) {
      this.clock.clearTimeout(this.timer);
      this.timer = undefined;
    }
  }

  /** Every sink open now (for shutdown). */
  all(): SseSink[] {
    return [...this.sinks];
  }

  stop(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private tick(): void {
    this.timer = undefined;
    for (const sink of this.sinks) {
      if (!sink.wrote) sink.write(SSE_KEEPALIVE);
      sink.wrote = false;
    }
    if (this.sinks.size > 0 && this.intervalMs !== undefined) {
      this.timer = this.clock.setTimeout(this.tickBound, this.intervalMs, KEEPALIVE_TIMER_NAME);
    }
  }
}

/**
 * One SSE response. A client that does not read (or reads slower than events come) leaves what
 * is written in the response's buffers; past the ticker's `maxBufferedBytes` of unsent text
 * (node's `writableLength`, the socket's buffer included) the stream is ended at once, its
 * buffer dropped, as if the client had left: the events stay in the event store, so a resumable
 * stream is picked up again with `Last-Event-ID`, and memory stays bounded whatever the client does.
 */
export class SseSink {
  /** Something was written since the last keep-alive tick. */
  wrote = true;
  /** The response ended (by us or because the client went away). */
  closed = false;
  /** Ended because the client did not read what was sent (more than the limit waited unsent). */
  overflowed = false;
  private backlog: { seq: number; text: string }[] | undefined;
  private endAfterReplay = false;
  private readonly onResClose = (): void => this.gone();

  /**
   * @param onClosed called once when the stream ends, whether we ended it or the client left;
   *   `byClient` says which.
   */
  constructor(
    readonly res: HttpResponseOut,
    private readonly ticker: KeepAliveTicker,
    private readonly onClosed: (sink: SseSink, byClient: boolean) => void,
  ) {}

  /** Sends the status and headers and `first` (the stream start, may be empty). */
  open(headers: HttpHeadersOut, first: string): void {
    const res = this.res;
    res.writeHead(200, headers);
    if (first !== '') res.write(first);
    else res.flushHeaders();
    this.ticker.add(this);
    res.on('close', this.onResClose);
    // The client may have left already (while an authenticate hook was thinking, say): 'close'
    // will not come again.
    if (res.destroyed || res.socket?.destroyed === true) this.gone();
  }

  /** Writes raw SSE text. False when the stream is closed (or was just ended for a client that does not read). */
  write(text: string): boolean {
    if (this.closed) return false;
    this.wrote = true;
    // write() says false past the response's own high-water mark; only the total decides (a
    // reading client drains it), so that a burst is not cut while the client keeps up.
    if (this.res.write(text) === false && (this.res.writableLength ?? 0) > this.ticker.maxBufferedBytes) {
      this.cut();
      return false;
    }
    return true;
  }

  /** Writes one event of a stream, or holds it back while a replay is going on. */
  deliver(seq: number, text: string): void {
    if (this.backlog !== undefined) this.backlog.push({ seq, text });
    else this.write(text);
  }

  /** From now on live events wait until {@link replay} has written the stored ones. */
  startReplay(): void {
    this.backlog ??= [];
  }

  /** Writes stored events (ids are `idPrefix + seq`), then what waited, skipping duplicates. */
  replay(events: readonly StoredEvent[], idPrefix: string): void {
    let last = -1;
    for (const e of events) {
      this.write(sseEvent(e.data, idPrefix + e.seq));
      last = e.seq;
    }
    const waiting = this.backlog;
    this.backlog = undefined;
    if (waiting !== undefined) for (const w of waiting) if (w.seq > last) this.write(w.text);
    if (this.endAfterReplay) this.end();
  }

  /** Ends the stream (after a replay in progress, if any). Idempotent. */
  end(): void {
    if (this.closed) return;
    if (this.backlog !== undefined) {
      this.endAfterReplay = true;
      return;
    }
    this.closed = true;
    this.ticker.delete(this);
    this.res.off('close', this.onResClose);
    if (!this.res.writableEnded) this.res.end();
    this.onClosed(this, false);
  }

  /** The client does not read: drop the stream and what waits in its buffers. */
  private cut(): void {
    this.overflowed = true;
    this.res.off('close', this.onResClose);
    if (this.res.destroy !== undefined) this.res.destroy();
    else if (!this.res.writableEnded) this.res.end();
    this.gone();
  }

  private gone(): void {
    if (this.closed) return;
    this.closed = true;
    this.backlog = undefined;
    this.ticker.delete(this);
    this.onClosed(this, true);
  }
}
