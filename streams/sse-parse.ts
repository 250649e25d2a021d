/**
 * Server-Sent Events framing: bytes (or text) in, events out. Follows the WHATWG event stream
 * interpretation: `event:`, `data:` (several lines joined with LF), `id:` (a NUL makes it
 * ignored), `retry:` (digits only), comments (`:` lines), lines ending in CRLF, LF or CR, a
 * leading BOM, and chunk boundaries anywhere (inside a line, a UTF-8 sequence, or a CRLF).
 *
 * @see https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation
 */
import { Observable, type OperatorFunction } from 'rxjs';

/** A dispatched event. Blocks with a field but no `data` still come out (their `data` is ''). */
export interface SseEvent {
  type: 'event';
  /** The `event:` field, 'message' when absent. */
  event: string;
  /** The data lines joined with LF. */
  data: string;
  /** The stream's last event id after this event ('' when none was ever set). */
  lastEventId: string;
  /** Whether this event's block had an `id:` field of its own. */
  hasId: boolean;
}

/** The server set the reconnection time (`retry:` field), in ms. */
export interface SseRetry {
  type: 'retry';
  ms: number;
}

/** An event grew past the limit: its data was dropped. */
export interface SseOversize {
  type: 'oversize';
  /** Characters seen before giving up (a lower bound of the event's size). */
  size: number;
  limit: number;
}

export type SseItem = SseEvent | SseRetry | SseOversize;

export interface SseParseOptions {
  /** Largest event (data characters plus the line being read) kept; larger ones become `oversize`. */
  maxEventChars?: number;
}

const LF = 10;
const CR = 13;

/** Incremental SSE parser: `push` chunks, `end` at the end of the stream. */
export class SseParser {
  private readonly decoder = new TextDecoder('utf-8');
  private readonly limit: number;
  /** The incomplete line carried over from the previous chunk. */
  private partial = '';
  /** The previous chunk ended with CR: an LF at the start of the next one belongs to it. */
  private afterCR = false;
  private started = false;
  private data: string[] = [];
  private dataChars = 0;
  private eventType = '';
  private lastEventId = '';
  private hasId = false;
  private fieldSeen = false;
  /** The current event went over the limit: skip to its end. */
  private oversize = false;
  private oversizeChars = 0;

  constructor(
    private readonly emit: (item: SseItem) => void,
    options: SseParseOptions = {},
  ) {
    this.limit = options.maxEventChars ?? Infinity;
  }

  /** Feed a chunk: bytes (decoded as UTF-8, sequences may be split) or text. */
  push(chunk: Uint8Array | string): void {
    let text = typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
    if (!this.started && text.length > 0) {
      this.started = true;
      // The decoder already drops a BOM from bytes; text input may still carry one.
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (text.length > 0) this.feed(text);
  }

  /** The stream ended: an event without its closing blank line is discarded (as the standard says). */
  end(): void {
    const rest = this.decoder.decode();
    if (rest.length > 0) this.feed(rest);
    this.partial = '';
    this.resetEvent();
  }

  private feed(text: string): void {
    let i = 0;
    const n = text.length;
    if (this.afterCR) {
      this.afterCR = false;
      if (text.charCodeAt(0) === LF) i = 1;
    }
    // Positions of the next CR and LF at or after i (-1: none), recomputed only once passed.
    let nextLF = text.indexOf('\n', i);
    let nextCR = text.indexOf('\r', i);
    while (i < n) {
      if (nextLF !== -1 && nextLF < i) nextLF = text.indexOf('\n', i);
      if (nextCR !== -1 && nextCR < i) nextCR = text.indexOf('\r', i);
      const end = nextLF === -1 ? nextCR : nextCR === -1 ? nextLF : Math.min(nextLF, nextCR);
      if (end === -1) {
        this.keepPartial(text.slice(i));
        return;
      }
      let line = text.slice(i, end);
      if (this.partial.length > 0) {
        line = this.partial + line;
        this.partial = '';
      }
      if (text.charCodeAt(end) === CR) {
        if (end + 1 < n) i = text.charCodeAt(end + 1) === LF ? end + 2 : end + 1;
        else {
          this.afterCR = true;
          i = end + 1;
        }
      } else {
        i = end + 1;
      }
      this.line(line);
    }
  }

  private keepPartial(rest: string): void {
    if (this.oversize) {
      this.oversizeChars += rest.length;
      return;
    }
    const next = this.partial.length + rest.length;
    if (this.dataChars + next > this.limit) {
      this.goOversize(this.dataChars + next);
      return;
    }
    this.partial += rest;
  }

  private goOversize(size: number): void {
    this.oversize = true;
    this.oversizeChars = size;
    this.partial = '';
    this.data = [];
    this.dataChars = 0;
  }

  private line(line: string): void {
    if (line.length === 0) {
      this.dispatch();
      return;
    }
    if (this.oversize) {
      this.oversizeChars += line.length;
      return;
    }
    const first = line.charCodeAt(0);
    if (first === 0x3a /* : */) return; // comment (keep-alive)
    const colon = line.indexOf(':');
    let field: string;
    let value: string;
    if (colon === -1) {
      field = line;
      value = '';
    } else {
      field = line.slice(0, colon);
      value = line.charCodeAt(colon + 1) === 0x20 ? line.slice(colon + 2) : line.slice(colon + 1);
    }
    switch (field) {
      case 'data':
        this.fieldSeen = true;
        if (this.dataChars + value.length + 1 > this.limit) {
          this.goOversize(this.dataChars + value.length + 1);
          return;
        }
        this.data.push(value);
        this.dataChars += value.length + 1;
        break;
      case 'event':
        this.fieldSeen = true;
        this.eventType = value;
        break;
      case 'id':
        this.fieldSeen = true;
        if (!value.includes('\0')) {
          this.lastEventId = value;
          this.hasId = true;
        }
        break;
      case 'retry':
        if (/^[0-9]+$/.test(value)) this.emit({ type: 'retry', ms: Number(value) });
        break;
      default:
        // Unknown fields are ignored.
        break;
    }
  }

  private dispatch(): void {
    if (this.oversize) {
      const size = this.oversizeChars;
      this.resetEvent();
      this.emit({ type: 'oversize', size, limit: this.limit });
      return;
    }
    if (!this.fieldSeen) return;
    const event: SseEvent = {
      type: 'event',
      event: this.eventType === '' ? 'message' : this.eventType,
      data: this.data.length === 1 ? this.data[0]! : this.data.join('\n'),
      lastEventId: this.lastEventId,
      hasId: this.hasId,
    };
    this.resetEvent();
    this.emit(event);
  }

  private resetEvent(): void {
    this.data = [];
    this.dataChars = 0;
    this.eventType = '';
    this.hasId = false;
    this.fieldSeen = false;
    this.oversize = false;
    this.oversizeChars = 0;
  }
}

/**
 * RxJS operator: chunks of an event stream (bytes or text) in, {@link SseItem}s out. Completes
 * when the source completes (an unterminated last event is discarded), errors when it errors.
 */
export function sseParse(options: SseParseOptions = {}): OperatorFunction<Uint8Array | string, SseItem> {
  return (source) =>
    new Observable<SseItem>((subscriber) => {
      const parser = new SseParser((item) => subscriber.next(item), options);
      return source.subscribe({
        next: (chunk) => parser.push(chunk),
        error: (e: unknown) => subscriber.error(e),
        complete: () => {
          parser.end();
          subscriber.complete();
        },
      });
    });
}

/**
 * The chunks of a WHATWG `ReadableStream` (a fetch response body) as an observable. Unsubscribing
 * cancels the stream (which closes the HTTP response).
 */
export function fromWebStream<T>(stream: ReadableStream<T>): Observable<T> {
  return new Observable<T>((subscriber) => {
    const reader = stream.getReader();
    let done = false;
    const pump = (): void => {
      reader.read().then(
        (r) => {
          if (r.done) {
            done = true;
            subscriber.complete();
            return;
          }
          subscriber.next(r.value);
          if (!subscriber.closed) pump();
        },
        (e: unknown) => {
          done = true;
          subscriber.error(e);
        },
      );
    };
    pump();
    return () => {
      if (!done) reader.cancel().catch(() => {});
    };
  });
}
