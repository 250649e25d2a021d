/** `mcp-actors inspect FILE`: the timeline in the terminal, `--at N`, `--html out.html`, `--serve`. */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { int, parseCommand, str } from '../args.js';
import type { Command } from '../cli-context.js';
import { CliError, EXIT_CODES_HELP, ExitCode, UsageError } from '../exit-codes.js';
import { readJournalFile, reportProblems } from '../journal-file.js';
import { NO_SESSION, trackStates } from '../session-states.js';
import { formatRow, rowOf } from '../timeline.js';
import { renderViewer } from '../viewer/page.js';
import { serveLive } from '../viewer/live.js';
import { printable } from '../printable.js';

const USAGE = `Usage: mcp-actors inspect FILE [--at N] [--html OUT.html] [--serve [--port N]] [--json]

The timeline of a recording: who sent what, when, request durations, errors, and the session
machine's state changes.
  --at N          the state of every machine after entry N (the session, each request in flight)
                  and the frame at N
  --html FILE     write a self-contained page (no network needed) with the timeline, a scrubber,
                  the frame at each point and the machines drawn as statecharts, the active
                  state highlighted
  --serve         serve that page on 127.0.0.1 (--port N, default a free one) and follow FILE as
                  it grows (a session being recorded): new frames and states appear as they happen
  --json          rows (or --at states) as JSON
  --limit N       print at most N rows (default all)
  -h, --help      this help

Example: mcp-actors inspect session.jsonl --html session.html

${EXIT_CODES_HELP}`;

export const inspectCommand: Command = {
  name: 'inspect',
  summary: 'show a recording: timeline, machine states at an entry, an HTML viewer, live',
  async run(argv, ctx) {
    const p = parseCommand(
      { name: 'inspect', summary: '', usage: USAGE, options: { at: { type: 'string' }, html: { type: 'string' }, serve: { type: 'boolean' }, port: { type: 'string' }, json: { type: 'boolean' }, limit: { type: 'string' }, strict: { type: 'boolean' }, 'no-color': { type: 'boolean' } } },
      argv,
    );
    if (p.help) {
      ctx.stdout.write(USAGE + '\n');
      return ExitCode.Ok;
    }
    const fileArg = p.positionals[0];
    if (!fileArg) throw new UsageError('Give the recording: mcp-actors inspect FILE', 'inspect');
    const path = resolve(ctx.cwd, fileArg);
    if (p.values.serve) return serveLive(path, int(p, 'port', 'inspect') ?? 0, ctx);
    const file = readJournalFile(path, p.values.strict === true);
    reportProblems(file, ctx.stderr, ctx.errStyle.yellow);
    const tracker = trackStates(file.header, file.entries);
    const html = str(p, 'html');
    if (html !== undefined) {
      const out = resolve(ctx.cwd, html);
      try {
        writeFileSync(out, renderViewer(file, tracker));
      } catch (e) {
        throw new CliError(`Cannot write ${out}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, ExitCode.BadInput);
      }
      ctx.stderr.write(`Wrote ${out} (${file.entries.length} entries); open it in a browser.\n`);
      return ExitCode.Ok;
    }
    const s = ctx.style;
    const at = int(p, 'at', 'inspect');
    if (at !== undefined) {
      const index = file.entries.findIndex((e) => e.seq === at);
      if (index < 0) throw new UsageError(`No entry #${at}: the recording has entries #${file.entries[0]?.seq ?? 0} to #${file.entries.at(-1)?.seq ?? 0}`, 'inspect');
      const states = tracker.at(index);
      if (p.values.json) {
        ctx.stdout.write(printable({ seq: at, entry: file.entries[index], ...states }, 2) + '\n');
        return ExitCode.Ok;
      }
      ctx.stdout.write(`${s.bold(`After entry #${at}`)}\n  session machine: ${s.magenta(states.session)}\n`);
      ctx.stdout.write(`  request machines in flight: ${states.requests.length ? '' : s.dim('none')}\n`);
      for (const r of states.requests) ctx.stdout.write(`    ${r.from} ${r.method} #${r.id}: ${s.magenta(r.state)}${r.rounds ? `, input rounds: ${s.magenta(r.rounds)}` : ''}\n`);
      ctx.stdout.write(`  ${s.bold('frame')}: ${printable(file.entries[index], 2).replace(/\n/g, '\n  ')}\n`);
      return ExitCode.Ok;
    }
    const clientKind = file.header.role === 'server' ? 'in' : 'out';
    const limit = int(p, 'limit', 'inspect') ?? Infinity;
    // Times from the start of the recording, not the clock's epoch (a library journal's entries carry that).
    const start = file.header.startedAt ?? 0;
    const rows = file.entries.slice(0, limit).map((e, i) => rowOf(e, i, clientKind, tracker, start));
    if (p.values.json) {
      ctx.stdout.write(printable({ header: file.header, rows, session: tracker.session }, 2) + '\n');
      return ExitCode.Ok;
    }
    const rec = file.header.recorder;
    ctx.stdout.write(s.bold(`${file.path}`) + s.dim(` · ${file.entries.length} entries · ${rec ? `${rec.transport} proxy recording of ${rec.target}` : file.header.era === 'modern' ? `${file.header.role} journal (2026-07-28 requests)` : `${file.header.role} session journal`}${file.header.revision ? ` · revision ${file.header.revision}` : ''}`) + '\n');
    // A 2026-07-28 recording has no session: its requests' input rounds are the machines to follow.
    const changes = tracker.sessionless ? [] : tracker.session.slice(1);
    ctx.stdout.write(s.magenta(`                 session machine: ${tracker.sessionless ? NO_SESSION : tracker.session[0]![1]}`) + '\n');
    const rounds = new Map<number, string[]>();
    for (const r of tracker.requests) {
      if (!r.chain || r.chain.states[0]![0] !== r.start) continue; // each multi round-trip request once, on its first round
      for (const [at, state] of r.chain.states) rounds.set(at, [...(rounds.get(at) ?? []), `input rounds of ${r.method} #${r.id} → ${state}`]);
    }
    let next = 0;
    for (let i = 0; i < rows.length; i++) {
      ctx.stdout.write(formatRow(rows[i]!, s) + '\n');
      while (next < changes.length && changes[next]![0] <= i) ctx.stdout.write(s.magenta(`                 session machine → ${changes[next++]![1]}`) + '\n');
      for (const line of rounds.get(i) ?? []) ctx.stdout.write(s.magenta(`                 ${line}`) + '\n');
    }
    const failed = tracker.requests.filter((r) => r.error).length;
    const open = tracker.requests.filter((r) => r.end === undefined).length;
    ctx.stdout.write(s.dim(`${tracker.requests.length} requests, ${failed} answered with an error, ${open} never answered`) + '\n');
    return ExitCode.Ok;
  },
};
