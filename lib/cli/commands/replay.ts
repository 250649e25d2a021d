/** `mcp-actors replay FILE`: serve a recording (--as server), verify a live server (--as client), or re-execute it (--check). */
import { resolve } from 'node:path';
import { replay } from '../../journal/replay.js';
import { listen } from '../../http/listen.js';
import { createStdioServerTransport } from '../../../streams/stdio-server.js';
import { createStreamableHttpHandler } from '../../../streams/streamable-http-server.js';
import { int, list, parseCommand, str, type Parsed } from '../args.js';
import type { CliContext, Command } from '../context.js';
import { CliError, EXIT_CODES_HELP, ExitCode, UsageError } from '../exit-codes.js';
import { readJournalFile, reportProblems, toJournal, type JournalFile } from '../journal-file.js';
import { createMockServer } from '../mock-server.js';
import { differences, Normalizer } from '../normalize.js';
import { readExchanges } from '../recorded-exchanges.js';
import { trackStates } from '../session-states.js';
import { resolveTarget, TARGET_HELP, TARGET_OPTIONS, transportFor } from '../target.js';
import { verify } from '../verify.js';

const USAGE = `Usage: mcp-actors replay FILE --as server [--port N]
       mcp-actors replay FILE --as client (-- SERVER_COMMAND | --stdio "CMD" | --url URL | --ws URL)
       mcp-actors replay FILE --check

--as server   serve the recording as a mock server: over stdio (launch it in place of the real
              server), or over Streamable HTTP on 127.0.0.1 with --port N (0: a free one). Requests
              are matched by method and normalized params; one the recording does not hold is
              answered with an error saying what it does hold.
--as client   verify: send the recorded requests to a live server and compare every response with
              the recorded one after normalization; exit 1 on any difference.
--check       re-execute a session journal (recorded with the journal: true option) through our
              machines on a simulated clock and print the first divergent frame; exit 1 if any.
              A proxy recording (no session options) goes through the session and request
              machines instead: the first frame they would refuse (out of lifecycle order, an
              unknown or reused id, progress for no request) is the divergence.

Normalization: JSON-RPC ids, progress tokens, timestamps (ISO 8601 strings and time-named keys),
session, task and elicitation ids are placeholders; --ignore PATH drops more (repeatable), e.g.
--ignore 'result.content[*].text' --ignore '*.requestId'.

Options:
  --ignore PATH   a JSON path to leave out of matching and comparing (repeatable)
  --port N        (--as server) serve over HTTP on this port instead of stdio
  --realtime      (--as server) reproduce the recorded delays
  --timeout MS    (--as client) how long to wait for each response (default 30000)
  --json          (--as client, --check) the report as JSON
  --strict        a corrupted or truncated line is an error (default: skipped with a warning)
  -h, --help      this help

${TARGET_HELP}

${EXIT_CODES_HELP}`;

export const replayCommand: Command = {
  name: 'replay',
  summary: 'serve a recording as a mock server, verify a live server against it, or --check it',
  async run(argv, ctx) {
    const p = parseCommand(
      {
        name: 'replay',
        summary: '',
        usage: USAGE,
        options: { ...TARGET_OPTIONS, as: { type: 'string' }, check: { type: 'boolean' }, ignore: { type: 'string', multiple: true }, port: { type: 'string' }, realtime: { type: 'boolean' }, timeout: { type: 'string' }, json: { type: 'boolean' }, strict: { type: 'boolean' }, 'no-color': { type: 'boolean' } },
      },
      argv,
    );
    if (p.help) {
      ctx.stdout.write(USAGE + '\n');
      return ExitCode.Ok;
    }
    const fileArg = p.positionals[0];
    if (!fileArg) throw new UsageError('Give the recording: mcp-actors replay FILE ...', 'replay');
    const as = str(p, 'as');
    if (!p.values.check && as !== 'server' && as !== 'client') throw new UsageError('Say what to do: --as server, --as client, or --check', 'replay');
    const file = readJournalFile(resolve(ctx.cwd, fileArg), p.values.strict === true);
    reportProblems(file, ctx.stderr, ctx.errStyle.yellow);
    const normalizer = new Normalizer({ ignore: list(p, 'ignore') });
    if (p.values.check) return check(file, p, ctx);
    if (as === 'server') return serve(file, normalizer, p, ctx);
    return verifyLive(file, normalizer, p, ctx);
  },
};

async function serve(file: JournalFile, normalizer: Normalizer, p: Parsed, ctx: CliContext): Promise<number> {
  let server;
  try {
    server = createMockServer(readExchanges(file), normalizer, { realtime: p.values.realtime === true, onRequest: (method, matched) => !matched && ctx.stderr.write(`${ctx.errStyle.yellow('not recorded:')} ${method}\n`) });
  } catch (e) {
    throw new CliError(`${file.path}: ${(e as Error).message}`, ExitCode.BadInput);
  }
  const port = int(p, 'port', 'replay');
  const stopped = new Promise<void>((done) => {
    const stop = () => {
      for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.off(s, stop);
      done();
    };
    for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(s, stop);
  });
  if (port === undefined) {
    const session = await server.connect(createStdioServerTransport({ stdin: ctx.stdin as NodeJS.ReadStream, stdout: ctx.stdout as NodeJS.WriteStream }));
    await Promise.race([stopped, new Promise<void>((done) => session.state$.subscribe({ complete: done }))]);
    await server.close();
    return ExitCode.Ok;
  }
  const handler = createStreamableHttpHandler(server);
  let listening;
  try {
    listening = await listen(handler, { port, logger: false });
  } catch (e) {
    throw new CliError(`Cannot listen on port ${port}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}. Choose another --port.`, ExitCode.Connection);
  }
  ctx.stderr.write(`Serving ${file.path} as a mock server at ${listening.url} (Ctrl-C stops)\n`);
  await stopped;
  await listening.close();
  return ExitCode.Ok;
}

async function verifyLive(file: JournalFile, normalizer: Normalizer, p: Parsed, ctx: CliContext): Promise<number> {
  const target = resolveTarget(p, 'replay');
  const s = ctx.style;
  const json = p.values.json === true;
  const report = await verify(readExchanges(file), transportFor(target, ctx.stderr), normalizer, {
    timeoutMs: int(p, 'timeout', 'replay') ?? 30000,
    onResult: (seq, method, diffs) => {
      if (json) return;
      ctx.stdout.write(`${diffs.length ? s.red('✗') : s.green('✓')} #${seq} ${method}\n`);
      for (const d of diffs) ctx.stdout.write(`    ${s.bold(d.path)}\n      recorded: ${s.dim(short(d.recorded))}\n      live:     ${short(d.live)}\n`);
    },
  }).catch((e: Error) => {
    throw new CliError(`Verifying against ${target.label} failed: ${e.message}`, ExitCode.Connection);
  });
  if (json) ctx.stdout.write(JSON.stringify(report, null, 2) + '\n');
  else {
    const extra = report.different.filter((d) => d.seq < 0);
    for (const d of extra) ctx.stdout.write(`${s.red('✗')} the live server sent ${d.method}, which the recording does not answer\n`);
    const n = report.different.length;
    ctx.stdout.write(n ? s.red(`${n} difference${n === 1 ? '' : 's'} in ${report.requests} requests\n`) : s.green(`${report.requests} requests, no differences after normalization\n`));
  }
  return report.different.length ? ExitCode.Difference : ExitCode.Ok;
}

function short(v: unknown): string {
  const t = typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v);
  return t === undefined ? 'undefined' : t.length > 300 ? t.slice(0, 299) + '…' : t;
}

async function check(file: JournalFile, p: Parsed, ctx: CliContext): Promise<number> {
  if (!file.header.session) return checkLifecycle(file, p, ctx);
  const start = performance.now();
  const result = await replay(toJournal(file), { keepFrames: false });
  const ms = performance.now() - start;
  await result.session.close().catch(() => undefined);
  const rate = Math.round(file.entries.length / (ms / 1000));
  const s = ctx.style;
  if (p.values.json) {
    ctx.stdout.write(JSON.stringify({ entries: file.entries.length, ms: Math.round(ms), entriesPerSecond: rate, matches: result.matches, firstDifference: result.firstDifference ?? null }, null, 2) + '\n');
  } else if (result.matches) {
    ctx.stdout.write(`${s.green('✓')} ${file.entries.length} entries re-executed on a simulated clock in ${ms.toFixed(0)} ms (${rate} entries/s): all ${result.compared} frames identical\n`);
  } else {
    const d = result.firstDifference!;
    ctx.stdout.write(`${s.red('✗')} first divergent frame: #${d.index} of ${result.compared} sent\n  recorded: ${short(d.recorded)}\n  replayed: ${short(d.replayed)}\n`);
    for (const x of differences(d.recorded, d.replayed)) ctx.stdout.write(`    ${s.bold(x.path)}: ${short(x.recorded)} → ${short(x.live)}\n`);
  }
  return result.matches ? ExitCode.Ok : ExitCode.Difference;
}

/**
 * A proxy recording has no session options to rebuild its sessions from: its frames go through
 * the session and request machines (as the recording side's session would run them) and the
 * first frame they would not let through is the divergence.
 */
function checkLifecycle(file: JournalFile, p: Parsed, ctx: CliContext): number {
  const start = performance.now();
  const tracker = trackStates(file.header, file.entries);
  const ms = performance.now() - start;
  const rate = Math.round(file.entries.length / (ms / 1000));
  const first = tracker.problems[0];
  const s = ctx.style;
  if (p.values.json) {
    ctx.stdout.write(JSON.stringify({ entries: file.entries.length, ms: Math.round(ms), entriesPerSecond: rate, matches: !first, problems: tracker.problems.map((x) => ({ seq: file.entries[x.index]!.seq, message: x.message })) }, null, 2) + '\n');
  } else if (!first) {
    ctx.stdout.write(`${s.green('✓')} ${file.entries.length} entries through the session and request machines in ${ms.toFixed(0)} ms (${rate} entries/s): every frame allowed (lifecycle, ids, progress)\n`);
  } else {
    const e = file.entries[first.index]!;
    ctx.stdout.write(`${s.red('✗')} first divergent frame: #${e.seq}: ${first.message}\n  ${short(e)}\n`);
    if (tracker.problems.length > 1) ctx.stdout.write(s.dim(`  (${tracker.problems.length - 1} more)\n`));
  }
  return first ? ExitCode.Difference : ExitCode.Ok;
}
