/**
 * What `record --in-process` moves off the server's thread: the server process only copies each
 * chunk it reads from stdin or writes to stdout into a batch (bytes and a time stamp, well under a
 * microsecond), and hands the batch over every few milliseconds; splitting, parsing, redaction and
 * the journal's writes happen on the other side (record-tap's worker thread), so a recording adds
 * almost nothing to a round trip.
 */
import type { RecordingWriter, Side } from './recording.js';

/** Something other than bytes that happened, in order with the bytes. */
export type TapEvent =
  | { kind: 'transport'; phase: 'open' | 'closed' | 'failed'; error?: string }
  /** A side's byte stream ended (its last line, if it had no newline, is journaled). */
  | { kind: 'end'; side: Side }
  | { kind: 'note'; detail: Record<string, unknown> };

/** One batch as it crosses to the worker (its byte buffer is transferred, not copied). */
export interface TapBatchData {
  /** The chunks' bytes, back to back. */
  bytes: Uint8Array;
  /** Per item: 0 the client's bytes (stdin), 1 the server's bytes (stdout), 2 an event. */
  who: Uint8Array;
  /** Per item: ms since the recording started. */
  t: Float64Array;
  /** Per item: where its bytes end in `bytes` (an event's is its predecessor's). */
  ends: Uint32Array;
  /** The events, in order. */
  events: TapEvent[];
}

const INITIAL = 64 * 1024;
type Utf8Write = (this: Buffer, text: string, offset: number) => number;
/** Node's own UTF-8 encoder into a Buffer, without `write()`'s argument juggling (a third of a capture's cost); `write` where it is missing. */
const utf8Write: Utf8Write = (Buffer.prototype as unknown as { utf8Write?: Utf8Write }).utf8Write ?? function (this: Buffer, text: string, offset: number) {
  return this.write(text, offset);
};
/** Batches this big are handed over at once (bounds the memory a burst takes on the server's side). */
export const FULL_BATCH = 1 << 20;

/** Fresh bytes for a batch: not zeroed (every byte handed over is written first), not from Buffer's shared pool (the buffer is transferred). */
const fresh = (size: number) => Buffer.allocUnsafeSlow(size);

/** Collects captures on the server's thread; `take()` hands over what was collected. */
export class TapBatch {
  private bytes: Buffer = fresh(INITIAL);
  private filled = 0;
  private who: number[] = [];
  private t: number[] = [];
  private ends: number[] = [];
  private events: TapEvent[] = [];

  /** `start` is when the recording started, on this thread's performance.now() clock. */
  constructor(private readonly start: number) {}

  /** Bytes collected. */
  get used(): number {
    return this.filled;
  }

  capture(side: 0 | 1, chunk: string | Uint8Array): void {
    if (typeof chunk === 'string') {
      this.room(chunk.length * 3); // UTF-16 code unit → at most 3 UTF-8 bytes
      this.filled += utf8Write.call(this.bytes, chunk, this.filled);
    } else {
      this.room(chunk.byteLength);
      this.bytes.set(chunk, this.filled); // a copy: the caller may reuse its buffer
      this.filled += chunk.byteLength;
    }
    this.push(side);
  }

  event(e: TapEvent): void {
    this.events.push(e);
    this.push(2);
  }

  private push(who: number): void {
    this.who.push(who);
    this.t.push(performance.now() - this.start);
    this.ends.push(this.filled);
  }

  private room(n: number): void {
    if (this.filled + n <= this.bytes.length) return;
    let size = this.bytes.length * 2;
    while (size < this.filled + n) size *= 2;
    const bigger = fresh(size);
    this.bytes.copy(bigger, 0, 0, this.filled);
    this.bytes = bigger;
  }

  /** What was collected (undefined when nothing was); the batch starts over empty. */
  take(): TapBatchData | undefined {
    if (this.who.length === 0) return undefined;
    const data: TapBatchData = { bytes: this.bytes.subarray(0, this.filled), who: Uint8Array.from(this.who), t: Float64Array.from(this.t), ends: Uint32Array.from(this.ends), events: this.events };
    this.bytes = fresh(Math.min(this.bytes.length, FULL_BATCH));
    this.filled = 0;
    this.who = [];
    this.t = [];
    this.ends = [];
    this.events = [];
    return data;
  }
}

/** Journals a batch: each chunk split into lines, parsed, redacted and written, each stamped where it happened. */
export function applyBatch(writer: RecordingWriter, batch: TapBatchData): void {
  let start = 0;
  let event = 0;
  for (let i = 0; i < batch.who.length; i++) {
    const who = batch.who[i]!;
    const end = batch.ends[i]!;
    const t = Math.round(batch.t[i]! * 1000) / 1000;
    if (who === 2) {
      const e = batch.events[event++]!;
      writer.at(t, () => {
        if (e.kind === 'transport') writer.transport(e.phase, e.error);
        else if (e.kind === 'end') writer.endNow(e.side);
        else writer.note(e.detail);
      });
    } else writer.recordAt(who === 0 ? 'client' : 'server', batch.bytes.subarray(start, end), t);
    start = end;
  }
  writer.flush();
}
