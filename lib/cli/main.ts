#!/usr/bin/env node
/**
 * The `mcp-actors` command: talk to any MCP server, record sessions through a proxy, replay them
 * as a mock server or against a live one, and inspect them. `mcp-actors --help` lists the
 * subcommands; each has `--help`.
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { CliContext, Command } from './cli-context.js';
import { CliError, EXIT_CODES_HELP, ExitCode } from './exit-codes.js';
import { colorsWanted, makeStyle } from './style.js';
import { commands } from './commands/index.js';

function overview(all: readonly Command[]): string {
  const width = Math.max(...all.map((c) => c.name.length));
  return `mcp-actors: talk to MCP servers, record, replay and inspect sessions.

Usage: mcp-actors <command> [options]

Commands:
${all.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join('\n')}

Run \`mcp-actors <command> --help\` for a command's options and an example.

${EXIT_CODES_HELP}
`;
}

/** Run the command line `argv` (without node and the script); resolves with the exit code. */
export async function runCli(argv: readonly string[], partial: Partial<CliContext> = {}): Promise<number> {
  const stdout = partial.stdout ?? process.stdout;
  const stderr = partial.stderr ?? process.stderr;
  const env = partial.env ?? process.env;
  const noColor = argv.includes('--no-color');
  const ctx: CliContext = {
    stdout,
    stderr,
    stdin: partial.stdin ?? process.stdin,
    env,
    cwd: partial.cwd ?? process.cwd(),
    style: partial.style ?? makeStyle(colorsWanted(stdout, env, noColor)),
    errStyle: partial.errStyle ?? makeStyle(colorsWanted(stderr, env, noColor)),
  };
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    (name === undefined ? stderr : stdout).write(overview(commands));
    return name === undefined ? ExitCode.Usage : ExitCode.Ok;
  }
  if (name === '--version') {
    stdout.write('0.1.0\n');
    return ExitCode.Ok;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    stderr.write(`Unknown command ${JSON.stringify(name)}. Commands: ${commands.map((c) => c.name).join(', ')}.\nRun \`mcp-actors --help\` for usage.\n`);
    return ExitCode.Usage;
  }
  try {
    return await command.run(rest, ctx);
  } catch (e) {
    if (e instanceof CliError) {
      stderr.write(`${ctx.errStyle.red('error:')} ${e.message}\n`);
      return e.exitCode;
    }
    stderr.write(`${ctx.errStyle.red('internal error:')} ${(e as Error)?.stack ?? String(e)}\nThis is a bug in mcp-actors; please report it with the command line.\n`);
    return 70;
  }
}

function isMain(): boolean {
  if (!process.argv[1]) return false;
  try {
    return realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isMain()) {
  // Output piped into `head` and the like: a closed pipe ends the command quietly.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw e;
    });
  }
  const code = await runCli(process.argv.slice(2));
  // Let pending writes flush, then leave even if a server or socket still holds the loop.
  process.exitCode = code;
  setTimeout(() => process.exit(code), 50).unref();
}
