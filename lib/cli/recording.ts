/**
 * Writing a recording as it happens: the journal's JSONL (a header, then one entry per line) with
 * both directions of a proxied session, each frame stamped with the milliseconds since the start.
 * Every line is redacted before it is written and appended at once, so a recording survives a
 * server that dies (or a proxy that is killed) midway.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { JOURNAL_FORMAT, JOURNAL_VERSION } from '../journal/entry.js';
import { isJsonObjectText } from './json-check.js';
import { plainObjectLine } from './frame-scan.js';
import { JournalOut } from './journal-out.js';

export { stampText } from './journal-out.js';
import type { Redactor } from '../shared/redactor.js';

/** The header fields a proxy recording adds to the journal header. */
export interface ProxyRecorderInfo {
  kind: 'proxy';
  transport: 'stdio' | 'http';
  /** What was proxied: the command line or the target URL (redacted). */
  target: string;
  /** How: a process between client and server (default), or inside the server's process (`record --in-process`). */
  inProcess?: boolean;
  /** Wall-clock start (ISO 8601), for people. */
  startedAtIso: string;
}

/** Who sent a frame: the client (`in`, towards the server) or the server (`out`). */
export type Side = 'client' | 'server';

/** How a recording file is made. */
export interface RecordingOptions {
  /** Fail if the file exists (a recorder claiming it among several processes). */
  exclusive?: boolean;
  /** When the recording started, in ms since the epoch: entries are stamped from it (default: now). */
  startedAt?: number;
  /** A file already opened for writing (by a process that claimed it): written and closed instead of opening `path`. */
  fd?: number;
}

/** Pending journal bytes are written once there are this many (a batch of 100 ms can be half a megabyte). */
const WRITE_AT = 64 * 1024;
/** What follows an entry's time stamp up to its frame, by direction. */
const IN_PREFIX = ',"kind":"in","frame":';
const OUT_PREFIX = ',"kind":"out","frame":';

export class RecordingWriter {
  private readonly fd: number;
  /** The start, on this process's performance.now() clock. */
  private readonly start: number;
  private seq = 0;
  private readonly out = new JournalOut();
  private scheduled = false;
  /**
   * What waits to be journaled, in order, as three parallel lists (no object per item on the hot
   * path): who (0 client bytes, 1 server bytes, 2 deferred work), when (performance.now()), what
   * (the chunk, or the work).
   */
  private queueWho: number[] = [];
  private queueAt: number[] = [];
  private queueWhat: unknown[] = [];
  private deferTimer: NodeJS.Timeout | undefined;
  /** The time stamp of the deferred work running now. */
  private stamp: number | undefined;
  private closed = false;
  private readonly splitters = [new LineSplitter((line) => this.line('client', line)), new LineSplitter((line) => this.line('server', line))];
  /** Entries written. */
  entries = 0;

  constructor(
    path: string,
    info: Omit<ProxyRecorderInfo, 'kind' | 'startedAtIso'>,
    private readonly redactor: Redactor,
    options: RecordingOptions = {},
  ) {
    this.start = options.startedAt === undefined ? performance.now() : options.startedAt - performance.timeOrigin;
    this.fd = options.fd ?? openSync(path, options.exclusive ? 'wx' : 'w');
    const header = {
      format: JOURNAL_FORMAT,
      version: JOURNAL_VERSION,
      role: 'server',
      startedAt: 0,
      recorder: {
        kind: 'proxy',
        ...info,
        target: String(redactor.value(info.target)),
        startedAtIso: new Date(options.startedAt ?? Date.now()).toISOString(),
      } satisfies ProxyRecorderInfo,
    };
    writeSync(this.fd, JSON.stringify(header) + '\n');
  }

  /** Milliseconds since the recording started (three decimals). */
  now(): number {
    return this.stamp ?? this.since(performance.now());
  }

  private since(at: number): number {
    return Math.round((at - this.start) * 1000) / 1000;
  }

  /**
   * A chunk of bytes (or text) one side sent, as it arrived: kept as it is with the time now, and
   * split into lines, parsed, redacted and written a little later in a batch (every 20 ms), off
   * the round trip. The caller must not change the chunk afterwards.
   */
  capture(side: Side, chunk: Uint8Array | string): void {
    if (this.closed) return;
    this.queueWho.push(side === 'client' ? 0 : 1);
    this.queueAt.push(performance.now());
    this.queueWhat.push(chunk);
    this.deferTimer ??= setTimeout(() => this.runDeferred(), 20);
  }

  /**
   * A chunk one side sent at `t` (ms since the recording started), journaled now: for a caller
   * that batches captures itself and stamps them where they happened (record-tap's worker thread).
   */
  recordAt(side: Side, chunk: Uint8Array | string, t: number): void {
    this.at(t, () => this.splitters[side === 'client' ? 0 : 1]!.push(chunk));
  }

  /**
   * `recordAt` for bytes `start`…`end` of `bytes`, without decoding them when they are whole lines:
   * each line is looked at once on its bytes (frame-scan.ts: one JSON object, valid UTF-8, nothing
   * to redact) and copied into the journal as it came. Anything else (a partial line, a line that
   * is not a JSON object or may hold a secret) takes the decoding path, so the journal says the
   * same either way.
   */
  recordBytesAt(side: Side, bytes: Buffer, start: number, end: number, t: number): void {
    if (this.closed || end <= start) return;
    const splitter = this.splitters[side === 'client' ? 0 : 1]!;
    if (!splitter.whole || bytes[end - 1] !== 10) {
      this.recordAt(side, bytes.subarray(start, end), t);
      return;
    }
    const extra = this.redactor.extraKeys;
    const prefix = side === 'client' ? IN_PREFIX : OUT_PREFIX;
    let from = start;
    while (from < end) {
      let lf = plainObjectLine(bytes, from, end, extra);
      if (lf >= 0) {
        this.out.prefix(this.seq++, t, prefix);
        this.out.bytes(bytes, from, lf > from && bytes[lf - 1] === 13 ? lf - 1 : lf);
        this.out.ascii('}\n');
        this.entries++;
        // Written in slices, so the pending bytes stay in the processor's cache (a whole batch did not).
        if (this.out.length >= WRITE_AT) this.out.writeTo(this.fd);
      } else {
        lf = bytes.indexOf(10, from);
        const decoded = bytes.toString('utf8', from, lf);
        this.stamp = t;
        try {
          if (decoded.trim() !== '') this.line(side, decoded.endsWith('\r') ? decoded.slice(0, -1) : decoded);
        } finally {
          this.stamp = undefined;
        }
      }
      from = lf + 1;
    }
    this.scheduleFlush();
  }

  /** Journal something now, stamped `t` (ms since the recording started). */
  at(t: number, work: () => void): void {
    if (this.closed) return;
    this.stamp = t;
    try {
      work();
    } finally {
      this.stamp = undefined;
    }
  }

  /** A side's byte stream ended: its last line, if it had no newline, is journaled (after what was captured before). */
  endCapture(side: Side): void {
    this.later(() => this.endNow(side));
  }

  /** A side's byte stream ended: its last line, if it had no newline, is journaled now. */
  endNow(side: Side): void {
    this.splitters[side === 'client' ? 0 : 1]!.end();
  }

  /** Journal something a little later, stamped with the time now, after what was captured before it. */
  later(work: () => void): void {
    if (this.closed) return;
    this.queueWho.push(2);
    this.queueAt.push(performance.now());
    this.queueWhat.push(work);
    this.deferTimer ??= setTimeout(() => this.runDeferred(), 20);
  }

  private runDeferred(): void {
    this.deferTimer = undefined;
    const who = this.queueWho;
    const at = this.queueAt;
    const what = this.queueWhat;
    this.queueWho = [];
    this.queueAt = [];
    this.queueWhat = [];
    for (let i = 0; i < who.length; i++) {
      this.stamp = this.since(at[i]!);
      try {
        if (who[i] === 2) (what[i] as () => void)();
        else this.splitters[who[i]!]!.push(what[i] as Uint8Array | string);
      } finally {
        this.stamp = undefined;
      }
    }
    this.flush();
  }

  /** One line from a side: journaled as its parsed frame, or as text when it is not JSON. */
  line(side: Side, text: string, extra?: Record<string, unknown>): void {
    if (extra === undefined && isJsonObjectText(text) && !this.redactor.mayHoldSecrets(text)) {
      // Valid, nothing to hide: the line goes into the journal as it came (nothing parsed or built).
      this.rawEntry(side === 'client' ? 'in' : 'out', text);
      return;
    }
    let frame: unknown;
    try {
      frame = JSON.parse(text);
      if (extra === undefined && !this.redactor.mayHoldSecrets(text) && frame !== null && typeof frame === 'object') {
        // Nothing to hide: the checked line goes into the journal as it came (no walk, no stringify).
        this.rawEntry(side === 'client' ? 'in' : 'out', text);
        return;
      }
    } catch {
      this.entry(side === 'client' ? { kind: 'in', text: String(this.redactor.value(text)) } : { kind: 'note', note: 'ignored', detail: { from: 'server', text: String(this.redactor.value(text)) } }, extra);
      return;
    }
    this.frame(side, frame, extra);
  }

  frame(side: Side, frame: unknown, extra?: Record<string, unknown>): void {
    this.entry({ kind: side === 'client' ? 'in' : 'out', frame: this.redactor.value(frame) }, extra);
  }

  /** Request headers as they may be recorded (credentials hidden). */
  redactHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
    return this.redactor.headers(headers);
  }

  transport(phase: 'open' | 'closed' | 'failed', error?: string): void {
    this.entry(error ? { kind: 'transport', phase, error } : { kind: 'transport', phase });
  }

  note(detail: Record<string, unknown>): void {
    this.entry({ kind: 'note', note: 'ignored', detail: this.redactor.value(detail) });
  }

  /** Whether entries must wait behind captured chunks (to keep the order). */
  private mustWait(): boolean {
    return this.stamp === undefined && this.queueWho.length > 0;
  }

  private rawEntry(kind: 'in' | 'out', frameText: string): void {
    if (this.closed) return;
    if (this.mustWait()) {
      this.later(() => this.rawEntry(kind, frameText));
      return;
    }
    this.out.prefix(this.seq++, this.now(), kind === 'in' ? IN_PREFIX : OUT_PREFIX);
    this.out.text(frameText);
    this.out.ascii('}\n');
    this.entries++;
    this.scheduleFlush();
  }

  private entry(body: Record<string, unknown>, extra?: Record<string, unknown>): void {
    if (this.closed) return;
    if (this.mustWait()) {
      // Keep the order: this comes after frames still waiting to be journaled.
      this.later(() => this.entry(body, extra));
      return;
    }
    const e = { seq: this.seq++, t: this.now(), ...body, ...(extra && (this.redactor.value(extra) as object)) };
    this.out.text(JSON.stringify(e) + '\n');
    this.entries++;
    this.scheduleFlush();
  }

  /** One write per tick: cheap for bursts, and never more than a tick behind the wire. */
  private scheduleFlush(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  flush(): void {
    this.scheduled = false;
    if (this.out.length === 0 || this.closed) return;
    this.out.writeTo(this.fd);
  }

  close(): void {
    if (this.closed) return;
    if (this.deferTimer) clearTimeout(this.deferTimer);
    this.runDeferred();
    this.closed = true;
    closeSync(this.fd);
  }
}

/** Splits a byte stream (or text) into lines (UTF-8 safe), for journaling a copy of what is forwarded. */
export class LineSplitter {
  private rest = '';
  private readonly decoder = new TextDecoder();
  /** The last chunk ended with a newline: no partial line, no partial character waiting. */
  private clean = true;
  constructor(private readonly onLine: (line: string) => void) {}
  /** Nothing is waiting: the next chunk starts a line. */
  get whole(): boolean {
    return this.clean;
  }
  push(chunk: Uint8Array | string): void {
    let text: string;
    if (typeof chunk === 'string') {
      if (!this.clean) text = this.rest + this.decoder.decode() + chunk;
      else text = chunk;
      this.clean = chunk.endsWith('\n');
    } else if (this.clean && chunk[chunk.length - 1] === 10) {
      // The common case, one or more whole lines: no decoder state to carry.
      text = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('utf8');
    } else {
      text = this.rest + this.decoder.decode(chunk, { stream: true });
      this.clean = chunk[chunk.length - 1] === 10;
    }
    let start = 0;
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', start)) {
      const line = text.charCodeAt(i - 1) === 13 ? text.slice(start, i - 1) : text.slice(start, i);
      if (line.trim() !== '') this.onLine(line);
      start = i + 1;
    }
    this.rest = text.slice(start);
  }
  end(): void {
    const last = this.rest + this.decoder.decode();
    this.rest = '';
    this.clean = true;
    if (last.trim() !== '') this.onLine(last);
  }
}
