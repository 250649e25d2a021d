/**
 * The exit codes of the `mcp-actors` command, the same for every subcommand, so scripts can rely
 * on them.
 */
export const ExitCode = {
  /** Done, nothing to report. */
  Ok: 0,
  /** A difference (replay verify, `--check`, cassette) or a tool result with `isError`. */
  Difference: 1,
  /** The command line is wrong (unknown option, missing argument): nothing was started. */
  Usage: 2,
  /** The server could not be started or reached, or the connection failed midway. */
  Connection: 3,
  /** The server answered with a JSON-RPC error. */
  ServerError: 4,
  /** A file could not be read or is not what it should be (journal, config, JSON). */
  BadInput: 5,
  /** Interrupted (Ctrl-C): the request in flight was cancelled. */
  Interrupted: 130,
} as const;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** A failure the command reports as one message and an exit code (no stack trace). */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCodeValue,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** A wrong command line: the message says what is wrong and which `--help` to read. */
export class UsageError extends CliError {
  constructor(message: string, command?: string) {
    super(`${message}\nRun \`mcp-actors ${command ? command + ' ' : ''}--help\` for usage.`, ExitCode.Usage);
    this.name = 'UsageError';
  }
}

export const EXIT_CODES_HELP = `Exit codes:
  0    ok
  1    a difference was found (replay, --check, cassette) or the tool reported isError
  2    usage error (bad option or argument; nothing was started)
  3    the server could not be started or reached, or the connection failed
  4    the server answered with a JSON-RPC error
  5    a file is unreadable or invalid (journal, config, JSON argument)
  70   internal error (a bug: please report it)
  130  interrupted with Ctrl-C (the request in flight was cancelled)`;
