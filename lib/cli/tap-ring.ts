/**
 * What `record --in-process` moves off the server's thread: the server's thread only copies each
 * chunk it reads from stdin or writes to stdout, with a time stamp, into a ring of shared memory
 * (no allocation, no message, no wake-up of another thread), and the recorder's thread reads the
 * ring on its own clock and journals what it finds (`journalRing`). Splitting, checks, redaction
 * and the journal's writes all happen on that side.
 *
 * One writer, one reader. The positions only grow (modulo twice the ring's size, so a full ring
 * and an empty one differ); a record is a 16-byte header (who, length, time) and its bytes padded
 * to 16, so a header never wraps around the end (its bytes may) and is read and written as words. A chunk bigger than the free space is split into records of the same
 * side and time; when the ring is full, the writer waits for the reader (bounded), since losing
 * frames silently is worse than a pause.
 */
import type { RecordingWriter, Side } from './recording.js';

/** Something other than bytes that happened, in order with the bytes. */
export type TapEvent =
  | { kind: 'transport'; phase: 'open' | 'closed' | 'failed'; error?: string }
  /** A side's byte stream ended (its last line, if it had no newline, is journaled). */
  | { kind: 'end'; side: Side }
  | { kind: 'note'; detail: Record<string, unknown> };

/** The ring's default size: what the recorder may trail the wire by before the server waits. */
export const RING_BYTES = 8 << 20;
const HEADER = 16;
const CONTROL = 128; // bytes of control words before the data
/** Control words (Int32): */
const WRITE = 0; // where the next record goes
// Where the reader is: on a cache line of its own (64 bytes on), so the reader moving on does not
// take from the capturing thread the line it reads and writes WRITE on with every capture.
const READ = 16;
/** Who journals: 0 not decided, 1 the worker thread, 2 the capturing thread. */
export const OWNER = 2;
/** Set to 1 (and notified) once the journal is complete and closed. */
export const DONE = 3;
const WHO_EVENT = 2;
/** A memory page (the smallest on the platforms Node runs on). */
const PAGE = 4096;
/** A record's bytes take a multiple of 16 (the next header starts aligned). */
const padded = (n: number) => (n + 15) & ~15;

type Utf8Write = (this: Buffer, text: string, offset: number, length: number) => number;
const utf8Write: Utf8Write =
  (Buffer.prototype as unknown as { utf8Write?: Utf8Write }).utf8Write ??
  function (this: Buffer, text: string, offset: number, length: number) {
    return this.write(text, offset, length);
  };

export class TapRing {
  /** The control words, shared. */
  readonly control: Int32Array;
  private readonly data: Buffer;
  /** The data as words, for the headers. */
  private readonly words: Int32Array;
  private readonly stamps: Float64Array;
  private readonly size: number;

  /** A new ring (`size` a power of two), or one shared by another thread (`shared`). */
  constructor(readonly shared: SharedArrayBuffer = new SharedArrayBuffer(CONTROL + RING_BYTES)) {
    this.size = shared.byteLength - CONTROL;
    if (this.size <= HEADER || (this.size & (this.size - 1)) !== 0) throw new RangeError('a tap ring is a power of two bytes long');
    this.control = new Int32Array(shared, 0, CONTROL / 4);
    this.data = Buffer.from(shared, CONTROL, this.size);
    this.words = new Int32Array(shared, CONTROL, this.size / 4);
    this.stamps = new Float64Array(shared, CONTROL, this.size / 8);
  }

  /** A ring of `size` bytes (a power of two): for tests. */
  static ofSize(size: number): TapRing {
    return new TapRing(new SharedArrayBuffer(CONTROL + size));
  }

  /** How many bytes the ring holds. */
  get capacity(): number {
    return this.size;
  }

  /** The writer's side: sleeps until the reader has moved on from where it is now, or `ms` have passed. */
  waitForReader(ms: number): void {
    Atomics.wait(this.control, READ, Atomics.load(this.control, READ), ms);
  }

  /** Bytes written and not yet read. */
  get used(): number {
    return (Atomics.load(this.control, WRITE) - Atomics.load(this.control, READ) + 2 * this.size) % (2 * this.size);
  }

  // The writer's side (the capturing thread).

  /**
   * One chunk a side read or wrote, stamped `t` (ms). `wait` is called, with the bytes needed,
   * while the ring is too full; it returns false to give up (what of the chunk was not written yet
   * is then dropped, and false returned).
   */
  capture(who: 0 | 1, chunk: string | Uint8Array, t: number, wait: (needed: number) => boolean): boolean {
    if (typeof chunk === 'string') {
      // Encoded straight into the ring when it fits before the end (the common case)…
      const max = chunk.length * 3;
      const at = Atomics.load(this.control, WRITE);
      if (this.free(at) >= HEADER + max + 15) {
        const start = (at + HEADER) % this.size;
        if (start + max <= this.size) {
          const n = utf8Write.call(this.data, chunk, start, max);
          this.publish(at, who, n, t);
          return true;
        }
      }
      // …and through a copy otherwise.
      chunk = Buffer.from(chunk, 'utf8');
    }
    let from = 0;
    do {
      const at = Atomics.load(this.control, WRITE);
      const room = this.free(at) - HEADER; // a multiple of 16, as every position is
      if (room <= 0) {
        if (!wait(Math.min(HEADER + chunk.byteLength - from, this.size))) return false;
        continue;
      }
      const n = Math.min(room, chunk.byteLength - from);
      this.copyIn((at + HEADER) % (2 * this.size), chunk, from, from + n);
      this.publish(at, who, n, t);
      from += n;
    } while (from < chunk.byteLength);
    return true;
  }

  /** Something that happened, in order with the bytes. */
  event(e: TapEvent, t: number, wait: (needed: number) => boolean): boolean {
    const bytes = Buffer.from(JSON.stringify(e), 'utf8');
    for (;;) {
      const at = Atomics.load(this.control, WRITE);
      if (this.free(at) >= HEADER + padded(bytes.byteLength)) {
        this.copyIn((at + HEADER) % (2 * this.size), bytes, 0, bytes.byteLength);
        this.publish(at, WHO_EVENT, bytes.byteLength, t);
        return true;
      }
      if (!wait(HEADER + padded(bytes.byteLength))) return false;
    }
  }

  private free(at: number): number {
    return this.size - ((at - Atomics.load(this.control, READ) + 2 * this.size) % (2 * this.size));
  }

  /** Writes the header of the record at `at` (its bytes are in place) and makes it visible. */
  private publish(at: number, who: number, length: number, t: number): void {
    const h = at % this.size;
    this.words[h >> 2] = who;
    this.words[(h >> 2) + 1] = length;
    this.stamps[(h >> 3) + 1] = t;
    Atomics.store(this.control, WRITE, (at + HEADER + padded(length)) % (2 * this.size));
  }

  private copyIn(pos: number, src: Uint8Array, from: number, to: number): void {
    const start = pos % this.size;
    const first = Math.min(to - from, this.size - start);
    this.data.set(first === to - from && from === 0 && to === src.byteLength ? src : src.subarray(from, from + first), start);
    if (first < to - from) this.data.set(src.subarray(from + first, to), 0);
  }

  /**
   * Touches every page of the ring once, from the reader's thread, so that the capturing thread
   * never takes a page fault: the first write to a fresh page of shared memory costs ~20 µs on a
   * virtual machine (the host backs it then), about a tenth of a stdio round trip, once per 4 KB,
   * for the first 8 MB a session captures. An atomic add of 0 writes nothing new, so it is safe
   * while the capturing thread writes the same words.
   */
  prefault(): void {
    for (let i = 0; i < this.words.length; i += PAGE / 4) Atomics.add(this.words, i, 0);
  }

  // The reader's side (the recorder's thread).

  /**
   * Every record written so far, in order: `onBytes` gets a view of a chunk's bytes (valid only
   * during the call), `onEvent` an event. Returns how many records were read.
   */
  read(onBytes: (who: 0 | 1, bytes: Buffer, start: number, end: number, t: number) => void, onEvent: (e: TapEvent, t: number) => void): number {
    const end = Atomics.load(this.control, WRITE);
    let at = Atomics.load(this.control, READ);
    let count = 0;
    try {
      while (at !== end) {
        const h = at % this.size;
        const who = this.words[h >> 2]!;
        const length = this.words[(h >> 2) + 1]!;
        const t = this.stamps[(h >> 3) + 1]!;
        const start = (h + HEADER) % this.size;
        let bytes = this.data;
        let from = start;
        if (start + length > this.size) {
          // Wrapped around the end: put together in a copy.
          bytes = Buffer.allocUnsafe(length);
          this.copyOut((at + HEADER) % (2 * this.size), bytes, length);
          from = 0;
        }
        at = (at + HEADER + padded(length)) % (2 * this.size);
        count++;
        if (who === WHO_EVENT) onEvent(JSON.parse(bytes.toString('utf8', from, from + length)) as TapEvent, t);
        else onBytes(who as 0 | 1, bytes, from, from + length, t);
        // Frees the space every 64 records, and at the end (a writer waiting for room looks again at least every 50 ms).
        if (count % 64 === 0) Atomics.store(this.control, READ, at);
        if (count % 1024 === 0) Atomics.notify(this.control, READ);
      }
    } finally {
      // Also when a record's journaling threw: it is not read again.
      if (count > 0) {
        Atomics.store(this.control, READ, at);
        Atomics.notify(this.control, READ);
      }
    }
    return count;
  }

  private copyOut(pos: number, dst: Buffer, length: number): void {
    const start = pos % this.size;
    const first = Math.min(length, this.size - start);
    this.data.copy(dst, 0, start, start + first);
    if (first < length) this.data.copy(dst, first, 0, length - first);
  }
}

/** Journals every record in the ring: each chunk split into lines, checked, redacted and written, stamped when it was captured. */
export function journalRing(writer: RecordingWriter, ring: TapRing): void {
  const n = ring.read(
    (who, bytes, start, end, t) => writer.recordBytesAt(who === 0 ? 'client' : 'server', bytes, start, end, Math.round(t * 1000) / 1000),
    (e, t) =>
      writer.at(Math.round(t * 1000) / 1000, () => {
        if (e.kind === 'transport') writer.transport(e.phase, e.error);
        else if (e.kind === 'end') writer.endNow(e.side);
        else writer.note(e.detail);
      }),
  );
  if (n > 0) writer.flush();
}
