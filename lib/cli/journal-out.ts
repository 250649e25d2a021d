/**
 * The journal's pending output as bytes: entries are appended (text encoded once, frames' bytes
 * copied as they came) into one reused buffer that is written with one system call per batch, so a
 * recorded frame is never decoded to a string and encoded back, and nothing is left for the
 * garbage collector per frame.
 */
import { writeSync } from 'node:fs';

type Utf8Write = (this: Buffer, text: string, offset: number) => number;
/** Node's own UTF-8 encoder into a Buffer, without `write()`'s argument checks; `write` where it is missing. */
const utf8Write: Utf8Write =
  (Buffer.prototype as unknown as { utf8Write?: Utf8Write }).utf8Write ??
  function (this: Buffer, text: string, offset: number) {
    return this.write(text, offset);
  };

/** Thousandths as JSON prints them after the point: "5" for 500, "05" for 50, "005" for 5. */
const THOUSANDTHS = Array.from({ length: 1000 }, (_v, i) => String(i).padStart(3, '0').replace(/0+$/, ''));

/**
 * `String(t)` for a time stamp rounded to thousandths of a millisecond, put together from two
 * integers: printing a double is most of what a journal line's prefix costs. The same text
 * (the shortest decimal that reads back as `t`, which has at most three decimals here).
 */
export function stampText(t: number): string {
  const k = Math.round(t * 1000);
  if (!(k >= 0 && k < 1e15)) return String(t);
  const whole = Math.floor(k / 1000);
  const frac = k - whole * 1000;
  return frac === 0 ? String(whole) : `${whole}.${THOUSANDTHS[frac]}`;
}

/** Kept between writes up to this size; a bigger one (a burst) is dropped once written. */
const KEEP = 1 << 20;

export class JournalOut {
  private buf = Buffer.allocUnsafeSlow(64 * 1024);
  private used = 0;

  /** Bytes waiting to be written. */
  get length(): number {
    return this.used;
  }

  text(s: string): void {
    this.room(s.length * 3); // a UTF-16 code unit is at most 3 UTF-8 bytes
    this.used += utf8Write.call(this.buf, s, this.used);
  }

  /** ASCII text (a line's prefix: no call into the encoder for a few dozen characters). */
  ascii(s: string): void {
    this.room(s.length);
    const buf = this.buf;
    let at = this.used;
    for (let i = 0; i < s.length; i++) buf[at++] = s.charCodeAt(i);
    this.used = at;
  }

  /**
   * An entry's opening up to its frame: `{"seq":N,"t":T` and `rest`, the numbers written digit by
   * digit (T is a time stamp rounded to thousandths, printed as JSON prints it).
   */
  prefix(seq: number, t: number, rest: string): void {
    const k = Math.round(t * 1000);
    if (!(k >= 0 && k < 1e15) || !(seq >= 0 && seq < 1e15)) {
      this.ascii(`{"seq":${seq},"t":${stampText(Math.round(t * 1000) / 1000)}${rest}`);
      return;
    }
    this.ascii('{"seq":');
    this.digits(seq);
    this.ascii(',"t":');
    const whole = Math.floor(k / 1000);
    const frac = k - whole * 1000;
    this.digits(whole);
    if (frac !== 0) {
      this.ascii('.');
      this.ascii(THOUSANDTHS[frac]!);
    }
    this.ascii(rest);
  }

  /** A text whose every char is one byte (a Latin-1 view of bytes): written back byte for byte. */
  latin1(s: string): void {
    this.room(s.length);
    this.used += this.buf.write(s, this.used, s.length, 'latin1');
  }

  bytes(src: Buffer, start: number, end: number): void {
    const n = end - start;
    this.room(n);
    if (n > 256) {
      this.used += src.copy(this.buf, this.used, start, end);
      return;
    }
    // A frame of a few hundred bytes copies faster here than through `copy()`'s checks and call.
    const buf = this.buf;
    let at = this.used;
    for (let i = start; i < end; i++) buf[at++] = src[i]!;
    this.used = at;
  }

  /** What is pending, as a copy, and nothing is pending after (for tests). */
  take(): Buffer {
    const copy = Buffer.from(this.buf.subarray(0, this.used));
    this.used = 0;
    return copy;
  }

  /** Writes what is pending (all of it: a pipe or a full disk that takes part is retried). */
  writeTo(fd: number): void {
    let at = 0;
    while (at < this.used) at += writeSync(fd, this.buf, at, this.used - at);
    this.used = 0;
    if (this.buf.length > KEEP) this.buf = Buffer.allocUnsafeSlow(KEEP);
  }

  /** A non-negative integer below 1e15, in decimal. */
  private digits(n: number): void {
    this.room(16);
    const buf = this.buf;
    if (n < 10) {
      buf[this.used++] = 0x30 + n;
      return;
    }
    let width = 1;
    for (let p = 10; p <= n; p *= 10) width++;
    let at = this.used + width;
    this.used = at;
    do {
      const q = Math.floor(n / 10);
      buf[--at] = 0x30 + (n - q * 10);
      n = q;
    } while (n > 0);
  }

  private room(n: number): void {
    if (this.used + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.used + n) size *= 2;
    const bigger = Buffer.allocUnsafeSlow(size);
    this.buf.copy(bigger, 0, 0, this.used);
    this.buf = bigger;
  }
}
