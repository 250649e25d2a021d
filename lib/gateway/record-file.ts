/**
 * One journal written as it is recorded: the JSONL that `Journal.toJSONL()` would give at the end
 * (a header line, then one entry per line, secrets hidden alike), appended entry by entry so a
 * gateway that is killed leaves a journal `mcp-actors inspect` reads up to its last exchange.
 *
 * Each entry is written (`write(2)`, synchronously) when it is recorded, before the frame it
 * records is sent on, so what a peer has seen is in the file even if the process dies at once.
 * Durability beyond a process crash: `fsync` when the file is closed (its session ended, or the
 * gateway closed), not per entry; an OS crash or power loss can lose what was not yet synced.
 * The header is written once the journal knows its revision (a legacy session after
 * `initialize`); entries recorded before wait in memory until then. The file is created new
 * (`wx`, mode 0600): nothing is ever overwritten.
 *
 * The file is the record: once it is open, the journal stops keeping entries in memory (those it
 * kept are dropped, later ones not kept; its header stays), so a long-running gateway's
 * recording does not grow with its traffic. The same when the file cannot be written.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle
 */
import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs';
import type { JournalEntry } from '../journal/entry.js';
import type { Journal } from '../journal/journal.js';
import { Redactor } from '../shared/redactor.js';

export class JournalFile {
  private fd: number | undefined;
  /** Lines recorded before the header could be written (or before the first entry seen live: `firstSeq`). */
  private waiting: string[] = [];
  private firstSeq: number | undefined;
  private state: 'waiting' | 'open' | 'closed' | 'failed' = 'waiting';
  private readonly redactor: Redactor | undefined;

  constructor(
    readonly path: string,
    /** The journal whose header (and entries recorded before this file was made) is written. */
    private readonly journal: Journal,
    /** The file was created (once). */
    private readonly created: (path: string) => void,
  ) {
    this.redactor = journal.redacted ? new Redactor() : undefined;
  }

  /** An entry as it is recorded (from the session's `journal$`). */
  entry(entry: JournalEntry): void {
    if (this.state === 'closed' || this.state === 'failed') return;
    this.firstSeq ??= entry.seq;
    // Written now, not later: the live frame may be changed once it is sent on.
    const line = this.lineOf(entry);
    if (this.state === 'waiting') {
      this.waiting.push(line);
      if (this.journal.revision !== undefined) this.open();
      return;
    }
    this.write(line + '\n');
  }

  /** The journal ended (its session, or the gateway): write what waits, sync and close. */
  close(): void {
    if (this.state === 'waiting' && this.waiting.length > 0) this.open();
    if (this.state === 'open' && this.fd !== undefined) {
      try {
        fsyncSync(this.fd);
      } catch {
        // A file system without fsync (a pipe, some FUSE mounts): what was written stays written.
      }
      closeSync(this.fd);
    }
    this.fd = undefined;
    if (this.state !== 'failed') this.state = 'closed';
  }

  private open(): void {
    // Entries the journal kept before this file saw its first one (a session announced late).
    const earlier = this.firstSeq === undefined ? [] : this.journal.entries.filter((e) => e.seq < this.firstSeq!);
    let text = JSON.stringify(this.journal.header) + '\n';
    for (const e of earlier) text += JSON.stringify(e) + '\n';
    for (const line of this.waiting) text += line + '\n';
    this.waiting = [];
    try {
      this.fd = openSync(this.path, 'wx', 0o600);
    } catch (e) {
      this.fail(e);
      return;
    }
    this.state = 'open';
    this.created(this.path);
    this.write(text);
    this.release();
  }

  /** The journal keeps no entries from now on (its `push` only: recording sessions call nothing else). */
  private release(): void {
    this.journal.push = () => undefined;
    this.journal.entries.length = 0;
  }

  private write(text: string): void {
    try {
      writeSync(this.fd!, text);
    } catch (e) {
      this.fail(e);
    }
  }

  /** A full disk (or a taken name) must not take the gateway down: say so once, stop writing this file. */
  private fail(e: unknown): void {
    process.emitWarning(`record: cannot write ${this.path}: ${(e as Error).message}`);
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    this.state = 'failed';
    this.release();
  }

  /** The entry's JSON text, secrets hidden as the journal hides them (only walked when its text may hold one). */
  private lineOf(entry: JournalEntry): string {
    if (this.redactor === undefined) return JSON.stringify(entry);
    let text: string;
    try {
      text = JSON.stringify(entry);
    } catch {
      return JSON.stringify(this.redactor.value(entry));
    }
    return this.redactor.mayHoldSecrets(text) ? JSON.stringify(this.redactor.value(entry)) : text;
  }
}
