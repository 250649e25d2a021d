/**
 * What `list`, `call`, `read`, `get` and `complete` share: the server options, `--json`,
 * `--timeout`, connecting, one action, closing, and the exit code.
 */
import { int, parseCommand, str, type CommandSpec, type OptionSpec, type Parsed } from '../args.js';
import { connect, type CliConnection } from '../cli-connection.js';
import type { CliContext, Command } from '../cli-context.js';
import { EXIT_CODES_HELP, ExitCode, UsageError } from '../exit-codes.js';
import { resolveTarget, TARGET_HELP, TARGET_OPTIONS } from '../target.js';

export const COMMON_OPTIONS = {
  ...TARGET_OPTIONS,
  json: { type: 'boolean' },
  timeout: { type: 'string' },
  era: { type: 'string' },
  'no-color': { type: 'boolean' },
} as const satisfies OptionSpec;

export const COMMON_HELP = `${TARGET_HELP}
Output:
  --json               print the raw JSON result (for scripts)
  --timeout MS         request timeout (default 60000); also how long the era probe
                       waits for a server that answers nothing (default 30000)
  --era auto|legacy|modern
                       auto: offer revision 2026-07-28 first (server/discover), fall back to
                       initialize for older servers; legacy: initialize and a session
                       (2024-11-05 … 2025-11-25); modern: 2026-07-28 only.
                       Default: our Client's default era (auto)
  --no-color           no colours (also NO_COLOR=1)
  -h, --help           this help

Elicitation and sampling requests from the server are asked at the terminal when stdin is one.
Ctrl-C cancels the request in flight and exits 130: the server gets notifications/cancelled
(in the 2026-07-28 era over HTTP, the request's response stream is closed instead).
Speaks protocol revisions 2024-11-05 to 2026-07-28.`;

export interface TalkAction {
  (conn: CliConnection, p: Parsed, ctx: CliContext): Promise<number>;
}

export function talkCommand<O extends OptionSpec>(spec: CommandSpec<O>, action: TalkAction, check?: (p: Parsed) => void, capabilities?: Record<string, unknown>): Command {
  return {
    name: spec.name,
    summary: spec.summary,
    async run(argv, ctx) {
      const fullSpec = { ...spec, options: { ...COMMON_OPTIONS, ...spec.options } };
      const p = parseCommand(fullSpec, argv);
      if (p.help) {
        ctx.stdout.write(`${spec.usage}\n\n${COMMON_HELP}\n\n${EXIT_CODES_HELP}\n`);
        return ExitCode.Ok;
      }
      check?.(p);
      const target = resolveTarget(p, spec.name);
      const timeout = int(p, 'timeout', spec.name);
      // Without --era the Client's own default applies: the command speaks as the library does.
      const era = str(p, 'era');
      if (era !== undefined && era !== 'auto' && era !== 'legacy' && era !== 'modern') throw new UsageError(`--era must be auto, legacy or modern; got ${JSON.stringify(era)}`, spec.name);
      const conn = await connect(target, {
        style: ctx.errStyle,
        terminal: ctx.stdin.isTTY ? { input: ctx.stdin, output: ctx.stderr, style: ctx.errStyle, onInterrupt: () => undefined } : undefined,
        timeout,
        era,
        stderr: ctx.stderr,
        capabilities,
      });
      try {
        return await action(conn, p, ctx);
      } finally {
        await conn.close();
      }
    },
  };
}
