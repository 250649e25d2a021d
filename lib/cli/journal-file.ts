/**
 * Reading a journal file for the CLI: the header checked first (format, version: a newer one says
 * to upgrade), then every line; a truncated last line (a recording cut off) or a corrupted line is
 * reported with its number and skipped, so what is readable is kept. `strict` makes them errors.
 */
import { readFileSync } from 'node:fs';
import { JOURNAL_FORMAT, MODERN_JOURNAL_VERSION, READABLE_JOURNAL_VERSIONS, type JournalEntry, type JournalHeader } from '../journal/entry.js';
import { Journal } from '../journal/journal.js';
import { CliError, ExitCode } from './exit-codes.js';
import type { ProxyRecorderInfo } from './recording.js';

export interface JournalFile {
  path: string;
  header: JournalHeader & { recorder?: ProxyRecorderInfo };
  entries: JournalEntry[];
  /** Lines that could not be read, with why (1-based line numbers). */
  problems: string[];
}

export function readJournalFile(path: string, strict = false): JournalFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new CliError(`Cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, ExitCode.BadInput);
  }
  return parseJournalText(text, path, strict);
}

export function parseJournalText(text: string, path: string, strict = false): JournalFile {
  const lines = text.split('\n');
  const endsClean = text.endsWith('\n');
  if (text.trim() === '') throw new CliError(`${path} is empty: a journal starts with a header line. Was the recording interrupted before it began?`, ExitCode.BadInput);
  const header = readHeaderLine(lines[0]!, path);
  const entries: JournalEntry[] = [];
  const problems: string[] = [];
  for (let i = 1; i < lines.length; i++) {
    const e = readEntryLine(lines[i]!, i + 1, i === lines.length - 1 && !endsClean);
    if (e === undefined) continue;
    if (typeof e === 'string') problems.push(e);
    else entries.push(e);
  }
  if (strict && problems.length) throw new CliError(`${path}: ${problems.join('; ')}`, ExitCode.BadInput);
  return { path, header, entries, problems };
}

/** The header line, checked: an mcp-actors journal in the format version this build reads. */
export function readHeaderLine(line: string, path: string): JournalFile['header'] {
  let header: JournalFile['header'];
  try {
    header = JSON.parse(line) as JournalFile['header'];
  } catch {
    throw new CliError(`${path} line 1 is not a journal header (not JSON). Is this an mcp-actors recording (record --out, or a session with journal: true)?`, ExitCode.BadInput);
  }
  if (header?.format !== JOURNAL_FORMAT) {
    throw new CliError(`${path} is not an mcp-actors journal (format ${JSON.stringify(header?.format)}, expected "${JOURNAL_FORMAT}")`, ExitCode.BadInput);
  }
  if (typeof header.version !== 'number' || header.version > MODERN_JOURNAL_VERSION) {
    throw new CliError(`${path} was written in journal format version ${String(header.version)}, newer than this mcp-actors reads (${MODERN_JOURNAL_VERSION}). Upgrade: npm install mcp-actors@latest`, ExitCode.BadInput);
  }
  if (!READABLE_JOURNAL_VERSIONS.includes(header.version)) {
    throw new CliError(`${path} has journal format version ${header.version}; this build reads versions ${READABLE_JOURNAL_VERSIONS.join(' and ')}`, ExitCode.BadInput);
  }
  return header;
}

/**
 * One entry line (`number` is 1-based, the header being line 1; `last`: the file's final line,
 * with no newline after it): the entry, what is wrong with the line, or undefined for a blank line.
 */
export function readEntryLine(line: string, number: number, last: boolean): JournalEntry | string | undefined {
  if (line.trim() === '') return undefined;
  let e: JournalEntry;
  try {
    e = JSON.parse(line) as JournalEntry;
  } catch {
    return last ? `line ${number} is truncated (the recording was cut off there); skipped` : `line ${number} is not JSON (corrupted); skipped`;
  }
  if (typeof e?.seq !== 'number' || typeof e.t !== 'number' || typeof e.kind !== 'string') return `line ${number} lacks seq, t or kind; skipped`;
  return e;
}

/** The library's Journal of a file (for replay --check). */
export function toJournal(file: JournalFile): Journal {
  const j = new Journal();
  j.role = file.header.role;
  j.revision = file.header.revision;
  j.startedAt = file.header.startedAt ?? 0;
  j.session = file.header.session;
  // The timers a server journal fires at their entries (replay holds them from the clock).
  if (Array.isArray(file.header.timers) && file.header.timers.every((p) => typeof p === 'string')) j.timers = file.header.timers;
  j.entries.push(...file.entries);
  return j;
}

/** Say what was skipped, on stderr. */
export function reportProblems(file: JournalFile, stderr: NodeJS.WritableStream, warn: (s: string) => string): void {
  for (const p of file.problems) stderr.write(`${warn('warning:')} ${file.path}: ${p}\n`);
}
