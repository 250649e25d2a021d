/**
 * Follows one SSE stream kept in Redis: subscribes to its news channel first, then reads what is
 * stored after the client's last event, then delivers live events in order without duplicates
 * (an event both stored and announced is delivered once; a hole in what was announced, after a
 * lost subscriber connection, is read back from the stream). A request stream ends with its last
 * event.
 */
import type { StoredEvent } from '../../streams/event-store.js';
import type { Follow, FollowHandlers } from '../server-bindings/http-cluster.js';

export interface FollowerSource {
  /** Events with a seq in (afterSeq, toSeq]. */
  range(afterSeq: number, toSeq?: number): Promise<StoredEvent[]>;
  onError(error: Error): void;
}

export class StreamFollower implements Follow {
  backlog: readonly StoredEvent[] = [];
  ended = false;
  /** The last seq delivered (or in the backlog). */
  private last: number;
  /** The stream's last seq, once known. */
  private endAt: number | undefined;
  /** Announced events not delivered yet, by seq. */
  private readonly pending = new Map<number, string>();
  private handlers: FollowHandlers | undefined;
  private reading = false;
  private closed = false;
  private stop: (() => void) | undefined;
  /** Called once when the follower closes (the owner's bookkeeping). */
  onClose: (() => void) | undefined;

  constructor(
    private readonly source: FollowerSource,
    afterSeq: number,
  ) {
    this.last = afterSeq;
  }

  /** The stream's news channel is subscribed: `stop` unsubscribes. */
  listening(stop: () => void): void {
    if (this.closed) stop();
    else this.stop = stop;
  }

  /** What is stored now, and where the stream ended if it did (read after subscribing). */
  caughtUp(events: readonly StoredEvent[], endAt: number | undefined): void {
    this.backlog = events;
    if (events.length > 0) this.last = Math.max(this.last, events[events.length - 1]!.seq);
    if (endAt !== undefined) this.endAt = endAt;
    this.ended = this.endAt !== undefined && this.last >= this.endAt;
  }

  /** A news message: `<seq> <data>` or `end <seq>`. */
  message(text: string): void {
    if (this.closed) return;
    const space = text.indexOf(' ');
    if (space < 0) return;
    const head = text.slice(0, space);
    if (head === 'end') {
      this.endAt = Number(text.slice(space + 1));
    } else {
      const seq = Number(head);
      if (!Number.isSafeInteger(seq) || seq <= this.last) return;
      this.pending.set(seq, text.slice(space + 1));
    }
    this.drain();
  }

  /** Read back whatever was stored after the last delivered event (after a lost connection). */
  resync(): void {
    if (this.closed || this.handlers === undefined || this.reading) return;
    this.readUpTo(undefined);
  }

  get live(): boolean {
    return !this.closed && !this.ended;
  }

  start(handlers: FollowHandlers): void {
    if (this.closed) return;
    this.handlers = handlers;
    this.drain();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.pending.clear();
    this.stop?.();
    this.stop = undefined;
    this.onClose?.();
  }

  private drain(): void {
    const h = this.handlers;
    if (h === undefined || this.reading || this.closed) return;
    for (;;) {
      const next = this.pending.get(this.last + 1);
      if (next !== undefined) {
        this.pending.delete(this.last + 1);
        this.last++;
        h.event(this.last, next);
        if (this.closed) return;
        continue;
      }
      for (const seq of this.pending.keys()) if (seq <= this.last) this.pending.delete(seq);
      if (this.pending.size > 0) {
        // A hole: read it back from the stream, then go on.
        this.readUpTo(Math.min(...this.pending.keys()) - 1);
        return;
      }
      break;
    }
    if (this.endAt !== undefined && this.last >= this.endAt) {
      this.ended = true;
      h.end();
      this.close();
    } else if (this.endAt !== undefined && this.pending.size === 0 && !this.reading) {
      // The end was announced but events before it were not: read them.
      this.readUpTo(this.endAt);
    }
  }

  private readUpTo(toSeq: number | undefined): void {
    this.reading = true;
    this.source.range(this.last, toSeq).then(
      (events) => {
        this.reading = false;
        if (this.closed) return;
        for (const e of events) {
          if (e.seq <= this.last) continue;
          this.last = e.seq;
          this.handlers?.event(e.seq, e.data);
          if (this.closed) return;
        }
        // Events trimmed away for good: skip past them rather than wait for ever.
        if (toSeq !== undefined && this.last < toSeq) this.last = toSeq;
        this.drain();
      },
      (e: unknown) => {
        this.reading = false;
        this.source.onError(e as Error);
      },
    );
  }
}
