/** `mcp-actors replay FILE`: serve a recording (--as server), verify a live server (--as client), or re-execute it (--check). */
import { resolve } from 'node:path';
import { list, parseCommand, str } from '../args.js';
import type { Command } from '../cli-context.js';
import { EXIT_CODES_HELP, ExitCode, UsageError } from '../exit-codes.js';
import { readJournalFile, reportProblems } from '../journal-file.js';
import { Normalizer } from '../normalize.js';
import { TARGET_HELP, TARGET_OPTIONS } from '../target-help.js';

const USAGE = `Usage: mcp-actors replay FILE --as server [--port N]
       mcp-actors replay FILE --as client (-- SERVER_COMMAND | --stdio "CMD" | --url URL | --ws URL)
       mcp-actors replay FILE --check [--factory MODULE]

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
              unknown or reused id, progress for no request) is the divergence. A server's
              journal of 2026-07-28 requests (Server.journal) replays through your server:
              --factory MODULE names a module whose default export builds it on the clock it is
              given, export default ({ clock }) => createMcpServer({ ..., clock }). A server's
              session journal runs its handlers again with --factory (without, a bare session
              gives the recorded answers, and what the handlers sent of themselves differs).

Normalization: JSON-RPC ids, progress tokens, timestamps (ISO 8601 strings and time-named keys),
session, task and elicitation ids are placeholders; --ignore PATH drops more (repeatable), e.g.
--ignore 'result.content[*].text' --ignore '*.requestId'.

Options:
  --ignore PATH   a JSON path to leave out of matching and comparing (repeatable)
  --port N        (--as server) serve over HTTP on this port instead of stdio
  --fast          (--as server) answer at once instead of at the recorded pace (by default
                  progress, notifications and answers come as far apart as recorded;
                  --realtime, which asked for that before, is still accepted)
  --timeout MS    (--as client) how long to wait for each response (default 30000)
  --json          (--as client, --check) the report as JSON
  --strict        a corrupted or truncated line is an error (default: skipped with a warning)
  --factory MODULE  (--check) the module that builds the server a server journal replays through
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
        options: { ...TARGET_OPTIONS, as: { type: 'string' }, check: { type: 'boolean' }, ignore: { type: 'string', multiple: true }, port: { type: 'string' }, realtime: { type: 'boolean' }, fast: { type: 'boolean' }, timeout: { type: 'string' }, json: { type: 'boolean' }, strict: { type: 'boolean' }, factory: { type: 'string' }, 'no-color': { type: 'boolean' } },
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
    const path = resolve(ctx.cwd, fileArg);
    const normalizer = new Normalizer({ ignore: list(p, 'ignore') });
    // Each mode loads only what it runs: --check needs neither servers nor transports.
    if (p.values.check) return (await import('../replay-check.js')).checkJournal(path, p, ctx);
    const file = readJournalFile(path, p.values.strict === true);
    reportProblems(file, ctx.stderr, ctx.errStyle.yellow);
    const live = await import('../replay-live.js');
    if (as === 'server') return live.serve(file, normalizer, p, ctx);
    return live.verifyLive(file, normalizer, p, ctx);
  },
};
