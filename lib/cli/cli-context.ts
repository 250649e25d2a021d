/**
 * What every subcommand gets: the standard streams, the environment, colours, and the process
 * facts it must not reach for globally (so specs can run commands in-process).
 */
import type { Style } from './style.js';

export interface CliContext {
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Colours for stdout. */
  style: Style;
  /** Colours for stderr. */
  errStyle: Style;
}

/** A subcommand: its name, a one-line summary for the overview, and its runner (returns the exit code). */
export interface Command {
  name: string;
  summary: string;
  run(argv: string[], ctx: CliContext): Promise<number>;
}
