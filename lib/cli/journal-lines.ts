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

/** One line of the file, without its newline. */
export interface Line {
  text: string;
  /** 1-based. */
  number: number;
  /** The file's final line, with no newline after it (a recording cut off mid-line). */
  last: boolean;
}

function cannotRead(path: string, e: unknown): CliError {
  return new CliError(`Cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, ExitCode.BadInput);
}

/**
 * Runs of whole lines: `bytes` ends with a newline, except for the file's final piece (`last`),
 * a line with none after it. `bytes` is only valid until the next run is asked for.
 */
export function* lineRuns(path: string): Generator<{ bytes: Buffer; last: boolean }> {
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

/** The file's lines, in order, decoded as UTF-8 (as `readFileSync(path, 'utf8').split('\n')` gives them). */
export function* lines(path: string): Generator<Line> {
  let number = 0;
  for (const { bytes, last } of lineRuns(path)) {
    if (last) {
      yield { text: bytes.toString('utf8'), number: number + 1, last: true };
      break;
    }
    let start = 0;
    for (;;) {
      const nl = bytes.indexOf(NEWLINE, start);
      if (nl === -1) break;
      yield { text: bytes.toString('utf8', start, nl), number: ++number, last: false };
      start = nl + 1;
    }
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
