/**
 * A journal file read as lines, a chunk of bytes at a time: no string of the whole file and no
 * array of every line, so `replay --check` parses each entry just before it runs and drops it
 * after. Held whole, a 16 MB journal's 100,000 parsed entries survived every young-generation
 * collection and the garbage collector took more time than the replay.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { CliError, ExitCode } from './exit-codes.js';

const CHUNK = 1 << 20;
const NEWLINE = 10;

function cannotRead(path: string, e: unknown): CliError {
  return new CliError(`Cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, ExitCode.BadInput);
}

/**
 * Runs of whole lines (for {@link linesHolding}): `bytes` ends with a newline, except for the file's final piece (`last`),
 * a line with none after it. `bytes` is only valid until the next run is asked for.
 */
function* lineRuns(path: string): Generator<{ bytes: Buffer; last: boolean }> {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    throw cannotRead(path, e);
  }
  try {
    let buf = Buffer.allocUnsafe(CHUNK);
    let have = 0;
    for (;;) {
      if (have === buf.length) {
        // A line longer than the buffer (a large frame): make room for all of it.
        const bigger = Buffer.allocUnsafe(buf.length * 2);
        buf.copy(bigger, 0, 0, have);
        buf = bigger;
      }
      let got: number;
      try {
        got = readSync(fd, buf, have, buf.length - have, null);
      } catch (e) {
        throw cannotRead(path, e);
      }
      const filled = have + got;
      if (got === 0) {
        if (filled > 0) yield { bytes: buf.subarray(0, filled), last: true };
        return;
      }
      const end = buf.lastIndexOf(NEWLINE, filled - 1) + 1;
      if (end === 0) {
        have = filled;
        continue;
      }
      yield { bytes: buf.subarray(0, end), last: false };
      buf.copy(buf, 0, end, filled);
      have = filled - end;
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * The file's lines, in order, decoded as UTF-8 (as `readFileSync(path, 'utf8').split('\n')` gives
 * them), one per {@link LineReader.next} call. A plain method rather than a generator: resuming a
 * generator per line cost more than a quarter of the reading on a 100,000-line journal.
 */
export class LineReader {
  /** The current line, without its newline. */
  text = '';
  /** Its number (1-based). */
  number = 0;
  /** Whether it is the file's final line with no newline after it (a recording cut off mid-line). */
  last = false;
  private fd: number | undefined;
  private buf = Buffer.allocUnsafe(CHUNK);
  /** Unread bytes are buf[start, end). */
  private start = 0;
  private end = 0;

  constructor(private readonly path: string) {
    try {
      this.fd = openSync(path, 'r');
    } catch (e) {
      throw cannotRead(path, e);
    }
  }

  /** Move to the next line; false at the end of the file (which is then closed). */
  next(): boolean {
    for (;;) {
      const nl = this.start < this.end ? this.buf.indexOf(NEWLINE, this.start) : -1;
      if (nl !== -1 && nl < this.end) {
        this.text = this.buf.toString('utf8', this.start, nl);
        this.number++;
        this.start = nl + 1;
        return true;
      }
      if (this.fd === undefined) return false;
      if (this.fill() === 0) {
        this.close();
        if (this.start === this.end) return false;
        this.text = this.buf.toString('utf8', this.start, this.end);
        this.number++;
        this.last = true;
        this.start = this.end;
        return true;
      }
    }
  }

  /** Close the file (when stopping before its end). */
  close(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
  }

  /** Move the unread bytes to the front and read more after them; returns how many were read. */
  private fill(): number {
    const unread = this.end - this.start;
    if (unread === this.buf.length) {
      // A line longer than the buffer (a large frame): make room for all of it.
      const bigger = Buffer.allocUnsafe(this.buf.length * 2);
      this.buf.copy(bigger, 0, this.start, this.end);
      this.buf = bigger;
    } else if (this.start > 0) {
      this.buf.copy(this.buf, 0, this.start, this.end);
    }
    this.start = 0;
    this.end = unread;
    let got: number;
    try {
      got = readSync(this.fd!, this.buf, this.end, this.buf.length - this.end, null);
    } catch (e) {
      this.close();
      throw cannotRead(this.path, e);
    }
    this.end += got;
    return got;
  }
}

/**
 * The lines holding any of `needles` (as bytes), found without decoding the others: a scan of
 * the whole file costs a few milliseconds where parsing every line costs hundreds.
 */
export function* linesHolding(path: string, needles: readonly string[]): Generator<string> {
  const patterns = needles.map((n) => Buffer.from(n, 'utf8'));
  for (const { bytes } of lineRuns(path)) {
    // Where each line holding a needle starts (a line holding several is read once).
    const starts = new Set<number>();
    for (const pattern of patterns) {
      for (let at = bytes.indexOf(pattern); at !== -1; at = bytes.indexOf(pattern, at + 1)) starts.add(bytes.lastIndexOf(NEWLINE, at) + 1);
    }
    for (const start of [...starts].sort((a, b) => a - b)) {
      const end = bytes.indexOf(NEWLINE, start);
      yield bytes.toString('utf8', start, end === -1 ? bytes.length : end);
    }
  }
}
