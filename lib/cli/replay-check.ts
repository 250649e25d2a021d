/**
 * `mcp-actors replay FILE --check`: re-execute a session journal through our machines on the
 * simulated clock and print the first divergent frame, or, for a proxy recording, run its frames
 * through the session and request machines. The session journal is read as it replays, a line
 * at a time (see journal-lines.ts); only what this needs is loaded.
 */
import type { RequestId } from '../jsonrpc/message.js';
import type { JournalEntry } from '../journal/entry.js';
import type { Session } from '../session/session.js';
import { abortedIn, replayEntries, replaySetup, type ReplayHeader, type ReplayResult } from '../journal/replay-run.js';
import { str, type Parsed } from './args.js';
import type { CliContext } from './cli-context.js';
import { CliError, ExitCode, UsageError } from './exit-codes.js';
import { readEntryLine, readHeaderLine, readJournalFile, reportProblems, toJournal, type JournalFile } from './journal-file.js';
import type { ServerFactory } from '../journal/replay-server.js';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LineReader, linesHolding } from './journal-lines.js';
import { differences } from './normalize.js';
import { short } from './format.js';

/** Check the journal at `path` (resolved); resolves with the exit code. */
export async function checkJournal(path: string, p: Parsed, ctx: CliContext): Promise<number> {
  // --strict refuses a damaged file before running anything: it is read whole first.
  if (p.values.strict === true) return checkWhole(readJournalFile(path, true), p, ctx);
  const reader = new LineReader(path);
  // A blank first line or an empty file: the whole-file reader says which, as it always has.
  if (!reader.next() || reader.text.trim() === '') {
    reader.close();
    return checkWhole(readJournalFile(path, false), p, ctx);
  }
  let header: JournalFile['header'];
  try {
    header = readHeaderLine(reader.text, path);
  } catch (e) {
    reader.close();
    throw e;
  }
  // A 2026-07-28 client's journal (no session: its requests) is replayed whole by a modern client;
  // a server session's with --factory, whole through a session of the user's server.
  if (!header.session || header.era === 'modern' || (header.role === 'server' && str(p, 'factory') !== undefined)) {
    reader.close();
    return checkWhole(readJournalFile(path, false), p, ctx);
  }
  let count = 0;
  const warn = ctx.errStyle.yellow('warning:');
  // An iterator by hand, its result object reused: no generator to resume per entry.
  const step = { value: undefined as unknown as JournalEntry, done: false };
  const entries: Iterable<JournalEntry> = {
    [Symbol.iterator]: () => ({
      next: () => {
        while (reader.next()) {
          const e = readEntryLine(reader.text, reader.number, reader.last);
          if (e === undefined) continue;
          if (typeof e === 'string') {
            // What reportProblems says, as each damaged line is met.
            ctx.stderr.write(`${warn} ${path}: ${e}\n`);
            continue;
          }
          count++;
          step.value = e;
          return step;
        }
        step.done = true;
        return step;
      },
    }),
  };
  let result: ReplayResult;
  let ms: number;
  try {
    const { session, clock } = await sessionFor(header);
    // Reading and parsing the file are part of the re-execution here (the entries stream in).
    const start = performance.now();
    result = await replayEntries(session, clock, entries, abortedInFile(path), { keepFrames: false });
    ms = performance.now() - start;
  } finally {
    reader.close();
  }
  done(result);
  return report(count, ms, result, p, ctx, undefined, header.role === 'server');
}

/**
 * The fresh session of the recorded role, as `replay()` makes it, loading only that role's module
 * (a client journal needs no server code).
 */
async function sessionFor(header: ReplayHeader): Promise<{ session: Session; clock: ReturnType<typeof replaySetup>['clock'] }> {
  const { clock, sessionOptions } = replaySetup(header);
  const session: Session = header.role === 'client' ? new (await import('../client.js')).Client({ ...sessionOptions, era: 'legacy' }) : new (await import('../server.js')).ServerSession(sessionOptions);
  return { session, clock };
}

/**
 * The ids of the requests the journal's calls abort, from the only lines that can hold an abort:
 * those with the word in them, or with a \u escape (which could spell it).
 */
function abortedInFile(path: string): Set<RequestId> {
  const aborted = new Set<RequestId>();
  for (const text of linesHolding(path, ['abort', '\\u'])) {
    const e = readEntryLine(text, 0, false);
    if (typeof e === 'object' && e.kind === 'call' && e.op === 'abort') aborted.add(e.id);
  }
  return aborted;
}

/** A file read whole (with --strict, or a proxy recording). */
async function checkWhole(file: JournalFile, p: Parsed, ctx: CliContext): Promise<number> {
  reportProblems(file, ctx.stderr, ctx.errStyle.yellow);
  if (!file.header.session) return (await import('./replay-lifecycle.js')).checkLifecycle(file, p, ctx);
  if (file.header.era === 'modern' && file.header.role === 'server') return checkServer(file, p, ctx);
  if (file.header.role === 'server' && str(p, 'factory') !== undefined) return checkServerSession(file, p, ctx);
  if (file.header.era === 'modern') {
    const { replayModern } = await import('../journal/replay-modern.js');
    const start = performance.now();
    const result = await replayModern(file.header, file.entries, { keepFrames: false });
    const ms = performance.now() - start;
    done(result);
    return report(file.entries.length, ms, result, p, ctx);
  }
  const { session, clock } = await sessionFor(file.header);
  const start = performance.now();
  const result = await replayEntries(session, clock, file.entries, abortedIn(file.entries), { keepFrames: false });
  const ms = performance.now() - start;
  done(result);
  return report(file.entries.length, ms, result, p, ctx, undefined, file.header.role === 'server');
}

/**
 * A server's journal of 2026-07-28 requests: replayed through the user's server, which the module
 * `--factory` names builds (its default export, `({ clock }) => server`, as `replay()` takes it).
 */
async function checkServer(file: JournalFile, p: Parsed, ctx: CliContext): Promise<number> {
  const module = str(p, 'factory');
  if (module === undefined) {
    throw new UsageError('This is a server journal of 2026-07-28 requests: it replays through your server. Give --factory MODULE, a module whose default export builds it on the given clock: export default ({ clock }) => createMcpServer({ ..., clock })', 'replay');
  }
  const factory = await loadFactory(module, ctx);
  const journal = toJournal(file);
  journal.era = 'modern';
  if (file.header.redacted === true) journal.redacted = true;
  const { replayServer } = await import('../journal/replay-server.js');
  const start = performance.now();
  const result = await replayServer(journal, { server: factory, keepFrames: false });
  const ms = performance.now() - start;
  void result.server.close().catch(() => undefined);
  return report(file.entries.length, ms, result, p, ctx);
}

/**
 * A server's session journal (legacy era) with `--factory`: replayed through a session of the
 * user's server, its handlers run again (what they ask the client is answered as recorded), as
 * `replay(journal, { server })` does. Without it, a bare session gives the recorded answers.
 */
async function checkServerSession(file: JournalFile, p: Parsed, ctx: CliContext): Promise<number> {
  const factory = await loadFactory(str(p, 'factory')!, ctx);
  const journal = toJournal(file);
  if (file.header.redacted === true) journal.redacted = true;
  const { replay } = await import('../journal/replay.js');
  const start = performance.now();
  const result = await replay(journal, { server: factory, keepFrames: false });
  const ms = performance.now() - start;
  void result.server.close().catch(() => undefined);
  return report(file.entries.length, ms, result, p, ctx, 'frames');
}

/** The server factory a `--factory` module exports (its default export, `({ clock }) => server`). */
async function loadFactory(module: string, ctx: CliContext): Promise<ServerFactory> {
  let factory: unknown;
  try {
    factory = ((await import(pathToFileURL(resolve(ctx.cwd, module)).href)) as { default?: unknown }).default;
  } catch (e) {
    throw new CliError(`Could not load --factory ${module}: ${(e as Error).message}`, ExitCode.BadInput);
  }
  if (typeof factory !== 'function') throw new CliError(`--factory ${module} has no default export that builds the server: export default ({ clock }) => createMcpServer({ ..., clock })`, ExitCode.BadInput);
  return factory as ServerFactory;
}

/**
 * Close the replayed session without waiting for it: its transport closes when the journal says
 * so, and a journal cut off before that line (a truncated recording) would wait forever (the
 * command used to hang there, or exit 13 with nothing printed).
 */
function done(result: ReplayResult): void {
  result.session.close().catch(() => undefined);
}

/** Whether a replay ran a modern client (its session has no `initialize` era). */
function isModern(result: Reported): boolean {
  return (result.session as { era?: string } | undefined)?.era === 'modern';
}

/** A replay's result: of a session or a client, or (no session) of a server's requests. */
type Reported = Omit<ReplayResult, 'session'> & { session?: ReplayResult['session'] };

/**
 * `compared`: what the replay compared, when not what the result says; `bareServer`: a server
 * session replayed without its handlers (no --factory), whose difference may be only that.
 */
function report(entries: number, ms: number, result: Reported, p: Parsed, ctx: CliContext, compared?: string, bareServer = false): number {
  const rate = Math.round(entries / (ms / 1000));
  const s = ctx.style;
  if (p.values.json) {
    ctx.stdout.write(JSON.stringify({ entries, ms: Math.round(ms), entriesPerSecond: rate, matches: result.matches, firstDifference: result.firstDifference ?? null }, null, 2) + '\n');
  } else if (result.matches) {
    const what = compared !== undefined ? compared : result.session === undefined ? 'frames and request states' : result.firstDifference === undefined && isModern(result) ? 'frames, input-round moves and call outcomes' : 'frames';
    ctx.stdout.write(`${s.green('✓')} ${entries} entries re-executed on a simulated clock in ${ms.toFixed(0)} ms (${rate} entries/s): all ${result.compared} ${what} identical\n`);
  } else {
    const d = result.firstDifference!;
    if (d.stream !== undefined) {
      // The request era: frames, input rounds and call outcomes are compared; say which, and where in the file.
      const kind = d.stream === 'frame' ? 'frame sent' : d.stream === 'round' ? 'input-round move' : 'call outcome';
      ctx.stdout.write(`${s.red('✗')} first divergent ${kind}: #${d.index}${d.seq !== undefined ? `, recorded entry #${d.seq}` : ''}${d.after !== undefined ? `, after input entry #${d.after}` : ''}\n  recorded: ${short(d.recorded)}\n  replayed: ${short(d.replayed)}\n`);
    } else ctx.stdout.write(`${s.red('✗')} first divergent frame: #${d.index} of ${result.compared} sent\n  recorded: ${short(d.recorded)}\n  replayed: ${short(d.replayed)}\n`);
    for (const x of differences(d.recorded, d.replayed)) ctx.stdout.write(`    ${s.bold(x.path)}: ${short(x.recorded)} → ${short(x.live)}\n`);
    // What a server's handlers send of themselves (requests to the client, a task's status) needs them.
    if (bareServer) ctx.stdout.write('  (replayed without the server\'s handlers, which gave their recorded answers: give --factory MODULE, whose default export builds your server on the given clock, to run them again)\n');
  }
  return result.matches ? ExitCode.Ok : ExitCode.Difference;
}
