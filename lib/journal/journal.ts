/**
 * An in-memory journal with a versioned JSONL form: a header line, then one entry per line.
 */
import { Redactor } from '../shared/redactor.js';
import { EntryStore } from './entry-store.js';
import { JOURNAL_FORMAT, JOURNAL_VERSION, MODERN_JOURNAL_VERSION, READABLE_JOURNAL_VERSIONS, type JournalEntry, type JournalEntryInput, type JournalHeader, type RecordedLink, type RecordedSessionOptions } from './entry.js';

/**
 * What a session recorded with `journal: true`: its external inputs (frames in, the calls made on
 * it, timer firings, transport changes) and its outbound frames, in order, each with a sequence
 * number and the session clock's time. `toJSONL()` saves it (a versioned header line, then one
 * entry per line); `Journal.parse(text)` reads it back; {@link replay} runs it again.
 * A client of the 2026-07-28 request era records its requests instead of a session (header
 * `era: 'modern'`, format version 2; see `entry.ts` for what each entry means).
 * Nothing sensitive is kept by default: each entry is written with secrets hidden, by the rules
 * the CLI recorder uses (values of keys like password, token, secret, api key, authorization, at
 * any depth and inside strings that hold JSON; `Bearer`/`Basic` credentials in text), before it
 * reaches `entries` or the JSONL. `journal: { redact: false }` records frames as they came.
 * Entries are kept by reference until then (what a session records is never changed afterwards):
 * recording costs an array push, the writing is paid when the journal is read or saved.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/logging#security
 */
export class Journal {
  /** Entries as objects (those read, parsed or pushed unredacted). */
  private readonly parsed: JournalEntry[] = [];
  /**
   * Entries pushed since `entries` was last read, as they were pushed (by reference): a sent or
   * received frame is never changed afterwards, so its JSON text (and the redaction that walks
   * it) is made only when the journal is read or saved, not on the path of every frame (the
   * budget is 1 µs per entry). Most journals are saved once, and many never. Kept without their
   * entry objects where their shape allows (`entry-store.ts`): fewer objects for the collector.
   */
  private readonly pending = new EntryStore();
  role: 'client' | 'server' = 'client';
  revision: string | undefined;
  startedAt = 0;
  session: RecordedSessionOptions | undefined;
  /** `modern` for a client of the 2026-07-28 request era (see {@link JournalHeader.era}). */
  era: 'modern' | undefined;
  /** The modern era's transport kind and probe id (see {@link JournalHeader.link}). */
  link: RecordedLink | undefined;
  /** The timers whose firings are entries (see {@link JournalHeader.timers}). */
  timers: string[] | undefined;
  /** Whether the entries have their secrets hidden (a replay then hides them alike in what it compares). */
  redacted = false;
  /** Hides secrets in each entry as it is pushed (a journal a session records, unless redaction is off). */
  private readonly redactor: Redactor | undefined;

  /** `redact`: hide secrets in every entry pushed from now on (what a recording session asks for). */
  constructor(options: { redact?: boolean } = {}) {
    if (options.redact === true) {
      this.redactor = new Redactor();
      this.redacted = true;
    }
  }

  get header(): JournalHeader {
    const h: JournalHeader = { format: JOURNAL_FORMAT, version: this.era === 'modern' ? MODERN_JOURNAL_VERSION : JOURNAL_VERSION, role: this.role, startedAt: this.startedAt };
    if (this.revision !== undefined) h.revision = this.revision;
    if (this.session !== undefined) h.session = this.session;
    if (this.era !== undefined) h.era = this.era;
    if (this.link !== undefined) h.link = this.link;
    if (this.redacted) h.redacted = true;
    if (this.timers !== undefined) h.timers = this.timers;
    return h;
  }

  /** How many entries it holds (without writing those kept as recorded, as reading `entries` would). */
  get size(): number {
    return this.parsed.length + this.pending.size;
  }

  /** The entries, in order (an array you may change: `toJSONL` writes what it holds). */
  get entries(): JournalEntry[] {
    const pending = this.pending;
    if (pending.size > 0) {
      // A copy with the secrets hidden: nothing that reads `entries` sees them, nor the live frames.
      for (let i = 0; i < pending.size; i++) this.parsed.push(JSON.parse(redactedText(this.redactor!, pending.at(i))) as JournalEntry);
      pending.clear();
    }
    return this.parsed;
  }

  /**
   * Keep `entry` (by reference: it, and the frame in it, must not change afterwards; what the
   * runtime records never does). Redacted, when the journal redacts, as it is read or saved.
   */
  push(entry: JournalEntry): void {
    if (this.redactor === undefined) this.parsed.push(entry);
    else this.pending.push(entry);
  }

  /**
   * Keep `entry` stamped with `seq` and `t`: what {@link push} of the stamped entry keeps. For a
   * recorder whose entries nobody else sees (no `journal$` watcher): an entry of a shape kept as
   * values is then never stamped (no properties added to an object that dies young).
   */
  keep(entry: JournalEntryInput, seq: number, t: number): void {
    if (this.redactor !== undefined) {
      this.pending.keep(entry, seq, t);
      return;
    }
    const stamped = entry as JournalEntry;
    stamped.seq = seq;
    stamped.t = t;
    this.parsed.push(stamped);
  }

  /**
   * Keep a request journal's `in`/`out` (`frame`) or `state` entry from its values: what
   * {@link push} of `{ kind, rq, frame | state, seq, t }` keeps, with no entry object made.
   */
  keepRequestEntry(kind: 'in' | 'out' | 'state', rq: number, value: unknown, seq: number, t: number): void {
    if (this.redactor !== undefined) this.pending.pushRequestEntry(kind, rq, value, seq, t);
    else this.parsed.push((kind === 'state' ? { kind, rq, state: value, seq, t } : { kind, rq, frame: value, seq, t }) as JournalEntry);
  }

  /** The journal as JSONL text (header first). */
  toJSONL(): string {
    let out = JSON.stringify(this.header) + '\n';
    for (const e of this.parsed) out += JSON.stringify(e) + '\n';
    for (let i = 0; i < this.pending.size; i++) out += redactedText(this.redactor!, this.pending.at(i)) + '\n';
    return out;
  }

  /** Read a JSONL journal; throws with the line number when a line is not a journal line. */
  static parse(text: string): Journal {
    const lines = text.split('\n').filter((l) => l.trim() !== '');
    if (lines.length === 0) throw new Error('Empty journal: expected a header line');
    const header = JSON.parse(lines[0]!) as Partial<JournalHeader>;
    if (header.format !== JOURNAL_FORMAT) throw new Error(`Not an mcp-actors journal (format ${String(header.format)})`);
    if (typeof header.version !== 'number' || !READABLE_JOURNAL_VERSIONS.includes(header.version)) {
      throw new Error(`Unsupported journal version ${String(header.version)}; this build reads versions ${READABLE_JOURNAL_VERSIONS.join(' and ')}`);
    }
    const j = new Journal();
    j.role = header.role === 'server' ? 'server' : 'client';
    j.revision = header.revision;
    j.startedAt = header.startedAt ?? 0;
    j.session = header.session;
    if (header.era === 'modern') j.era = 'modern';
    if (header.link !== undefined) j.link = header.link;
    if (header.redacted === true) j.redacted = true;
    if (Array.isArray(header.timers) && header.timers.every((p) => typeof p === 'string')) j.timers = header.timers;
    for (let i = 1; i < lines.length; i++) {
      let e: JournalEntry;
      try {
        e = JSON.parse(lines[i]!) as JournalEntry;
      } catch (err) {
        throw new Error(`Journal line ${i + 1} is not JSON: ${(err as Error).message}`, { cause: err });
      }
      if (typeof e.seq !== 'number' || typeof e.t !== 'number' || typeof e.kind !== 'string') {
        throw new Error(`Journal line ${i + 1} lacks seq, t or kind`);
      }
      j.parsed.push(e);
    }
    return j;
  }
}

/**
 * An entry's JSON text with its secrets hidden. Most entries hold nothing a secret could be in:
 * their text, tested once, is kept as it is (the check is the Redactor's, which every secret key
 * and credential matches); the rest are walked and written again.
 */
function redactedText(redactor: Redactor, entry: JournalEntry): string {
  let text: string;
  try {
    text = JSON.stringify(entry);
  } catch {
    // Too deep to write (or a cycle): the walk replaces what it cannot look through.
    return JSON.stringify(redactor.value(entry));
  }
  return redactor.mayHoldSecrets(text) ? JSON.stringify(redactor.value(entry)) : text;
}
