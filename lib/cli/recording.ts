/**
 * Writing a recording as it happens: the journal's JSONL (a header, then one entry per line) with
 * both directions of a proxied session, each frame stamped with the milliseconds since the start.
 * Every line is redacted before it is written and appended at once, so a recording survives a
 * server that dies (or a proxy that is killed) midway.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { JOURNAL_FORMAT, JOURNAL_VERSION } from '../journal/entry.js';
import type { Redactor } from './redact.js';

/** The header fields a proxy recording adds to the journal header. */
export interface ProxyRecorderInfo {
  kind: 'proxy';
  transport: 'stdio' | 'http';
  /** What was proxied: the command line or the target URL (redacted). */
  target: string;
  /** Wall-clock start (ISO 8601), for people. */
  startedAtIso: string;
}

/** Who sent a frame: the client (`in`, towards the server) or the server (`out`). */
export type Side = 'client' | 'server';

export class RecordingWriter {
  private readonly fd: number;
  private readonly start = performance.now();
  private seq = 0;
  private buffer = '';
  private scheduled = false;
  private readonly deferred: { t: number; work: () => void }[] = [];
  private deferTimer: NodeJS.Timeout | undefined;
  /** The time stamp of the deferred work running now. */
  private stamp: number | undefined;
  private closed = false;
  /** Entries written. */
  entries = 0;

  constructor(
    path: string,
    info: Omit<ProxyRecorderInfo, 'kind' | 'startedAtIso'>,
    private readonly redactor: Redactor,
  ) {
    this.fd = openSync(path, 'w');
    const header = {
      format: JOURNAL_FORMAT,
      version: JOURNAL_VERSION,
      role: 'server',
      startedAt: 0,
      recorder: { kind: 'proxy', ...info, target: String(redactor.value(info.target)), startedAtIso: new Date().toISOString() } satisfies ProxyRecorderInfo,
    };
    writeSync(this.fd, JSON.stringify(header) + '\n');
  }

  /** Milliseconds since the recording started (three decimals). */
  now(): number {
    return this.stamp ?? Math.round((performance.now() - this.start) * 1000) / 1000;
  }

  /**
   * Journal something a little later, stamped with the time now: the proxy forwards bytes first
   * and parses, redacts and writes its copy in batches (every 20 ms), off the round trip.
   */
  later(work: () => void): void {
    this.deferred.push({ t: this.now(), work });
    this.deferTimer ??= setTimeout(() => this.runDeferred(), 20);
  }

  private runDeferred(): void {
    this.deferTimer = undefined;
    for (const d of this.deferred.splice(0)) {
      this.stamp = d.t;
      try {
        d.work();
      } finally {
        this.stamp = undefined;
      }
    }
    this.flush();
  }

  /** One line from a side: journaled as its parsed frame, or as text when it is not JSON. */
  line(side: Side, text: string, extra?: Record<string, unknown>): void {
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

  private rawEntry(kind: 'in' | 'out', frameText: string): void {
    if (this.closed) return;
    if (this.stamp === undefined && this.deferred.length > 0) {
      this.later(() => this.rawEntry(kind, frameText));
      return;
    }
    this.buffer += `{"seq":${this.seq++},"t":${this.now()},"kind":"${kind}","frame":${frameText}}\n`;
    this.entries++;
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  private entry(body: Record<string, unknown>, extra?: Record<string, unknown>): void {
    if (this.closed) return;
    if (this.stamp === undefined && this.deferred.length > 0) {
      // Keep the order: this comes after frames still waiting to be journaled.
      this.later(() => this.entry(body, extra));
      return;
    }
    const e = { seq: this.seq++, t: this.now(), ...body, ...(extra && (this.redactor.value(extra) as object)) };
    this.buffer += JSON.stringify(e) + '\n';
    this.entries++;
    // One write per tick: cheap for bursts, and never more than a tick behind the wire.
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  flush(): void {
    this.scheduled = false;
    if (this.buffer === '' || this.closed) return;
    const text = this.buffer;
    this.buffer = '';
    writeSync(this.fd, text);
  }

  close(): void {
    if (this.closed) return;
    if (this.deferTimer) clearTimeout(this.deferTimer);
    this.runDeferred();
    this.closed = true;
    closeSync(this.fd);
  }
}

/** Splits a byte stream into lines (UTF-8 safe), for journaling a copy of what is forwarded. */
export class LineSplitter {
  private rest = '';
  private readonly decoder = new TextDecoder();
  constructor(private readonly onLine: (line: string) => void) {}
  push(chunk: Uint8Array): void {
    const text = this.rest + this.decoder.decode(chunk, { stream: true });
    let start = 0;
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', start)) {
      const line = text.slice(start, i).replace(/\r$/, '');
      if (line.trim() !== '') this.onLine(line);
      start = i + 1;
    }
    this.rest = text.slice(start);
  }
  end(): void {
    const last = this.rest + this.decoder.decode();
    this.rest = '';
    if (last.trim() !== '') this.onLine(last);
  }
}
