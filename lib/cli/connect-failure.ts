/**
 * What the CLI says when connecting fails: in the user's terms (the command line and its options,
 * not the library's), without repeating the server's stderr already shown above, and naming the
 * lines it wrote on stdout that are not JSON-RPC, the usual reason a stdio server "never answers".
 */
import { ConnectionClosedError, McpError, RequestTimeoutError, TransportError } from '../errors.js';
import { CliError, ExitCode } from './exit-codes.js';
import type { Target } from './target.js';

/** What the CLI saw of the server while connecting. */
export interface ConnectNotes {
  /** Lines the server wrote on stdout that are not JSON (the first few). */
  junk: string[];
  /** How many such lines in all. */
  junkCount: number;
  /** Whether the server's stderr lines were echoed on ours as they came. */
  stderrShown: boolean;
  /** The `--timeout` given, if any. */
  timeout?: number | undefined;
}

/** The first not-JSON line, quoted and cut, for a message. */
export function quoteLine(line: string): string {
  const cut = line.length > 80 ? line.slice(0, 80) + '…' : line;
  return JSON.stringify(cut);
}

function junkNote(notes: ConnectNotes): string {
  if (notes.junkCount === 0) return '';
  const lines = notes.junkCount === 1 ? 'a line' : `${notes.junkCount} lines`;
  return ` It wrote ${lines} on stdout that ${notes.junkCount === 1 ? 'is' : 'are'} not JSON-RPC (first: ${quoteLine(notes.junk[0] ?? '')}): over stdio a server must write only MCP messages on stdout, and its logs on stderr.`;
}

/** Ends with one full stop (the transports' messages may end with one, or a question mark). */
function sentence(text: string): string {
  return /[.?!]$/.test(text) ? text : text + '.';
}

/** Turn a failure to connect into the CLI's message and exit code. */
export function connectFailure(e: unknown, target: Target, notes: ConnectNotes): CliError {
  if (e instanceof CliError) return e;
  const err = e as NodeJS.ErrnoException;
  if (err?.code === 'ENOENT') return new CliError(`Cannot start ${target.label}: command not found. Check the command and your PATH.`, ExitCode.Connection);
  if (e instanceof RequestTimeoutError) {
    const option = notes.timeout !== undefined ? ' (--timeout)' : '; raise it with --timeout MS';
    return new CliError(`${target.label} did not answer ${e.method} within ${e.elapsedMs} ms${option}.${junkNote(notes)}`, ExitCode.Connection);
  }
  if (e instanceof TransportError && target.kind === 'stdio') {
    const details = (e.details ?? {}) as { code?: unknown; signal?: unknown; stderrTail?: unknown };
    if (details.code !== undefined || details.signal !== undefined) {
      const how = typeof details.signal === 'string' ? `was killed by ${details.signal}` : `exited with code ${String(details.code)}`;
      const tail = Array.isArray(details.stderrTail) ? (details.stderrTail as string[]) : [];
      const stderr = tail.length === 0 ? ' It wrote nothing on stderr.' : notes.stderrShown ? ' Its stderr is above.' : `\n${tail.join('\n')}`;
      return new CliError(`${target.label} ${how} before the connection was made.${stderr}${junkNote(notes)}`, ExitCode.Connection);
    }
  }
  if (e instanceof TransportError || e instanceof ConnectionClosedError) {
    const hint = target.kind === 'stdio' ? ' Check that the server starts and speaks MCP (run it by hand to see its errors).' : ' Check the URL and that an MCP server listens there.';
    return new CliError(`Connection to ${target.label} failed: ${sentence(e.message)}${hint}${junkNote(notes)}`, ExitCode.Connection);
  }
  if (e instanceof McpError) return new CliError(`The server answered error ${e.code}: ${e.message}`, ExitCode.ServerError);
  return new CliError(`Connection to ${target.label} failed: ${sentence(err?.message ?? String(e))}${junkNote(notes)}`, ExitCode.Connection);
}
