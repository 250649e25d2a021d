/**
 * Argument parsing for the subcommands on Node's `util.parseArgs`: strict options, `--help` on
 * every subcommand, and usage errors that name the subcommand.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './exit-codes.js';

export type OptionSpec = NonNullable<ParseArgsConfig['options']>;

/** What a subcommand declares: its name, its help text and its options. */
export interface CommandSpec<O extends OptionSpec> {
  name: string;
  summary: string;
  usage: string;
  options: O;
  /** Accept positionals (default true). */
  positionals?: boolean;
}

export interface Parsed {
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
  /** Everything after a lone `--` (a server command), untouched. */
  rest: string[];
  help: boolean;
}

/** Split `argv` at the first lone `--`: options before it, a command after it. */
export function splitAtDoubleDash(argv: readonly string[]): [string[], string[]] {
  const i = argv.indexOf('--');
  return i < 0 ? [[...argv], []] : [argv.slice(0, i), argv.slice(i + 1)];
}

/** Parse `argv` for `spec`; throws {@link UsageError} with the subcommand named. */
export function parseCommand<O extends OptionSpec>(spec: CommandSpec<O>, argv: readonly string[]): Parsed {
  const [before, rest] = splitAtDoubleDash(argv);
  try {
    const { values, positionals } = parseArgs({
      args: before,
      options: { ...spec.options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: spec.positionals !== false,
      strict: true,
    });
    const { help, ...others } = values as Record<string, string | boolean | string[] | undefined>;
    return { values: others, positionals, rest, help: help === true };
  } catch (e) {
    const message = (e as Error).message.replace(/\. To specify a positional argument.*$/s, '');
    throw new UsageError(message, spec.name);
  }
}

/** `--name` as a string, or undefined. */
export function str(p: Parsed, name: string): string | undefined {
  const v = p.values[name];
  return typeof v === 'string' ? v : undefined;
}

/** `--name` as a list (options with `multiple: true`). */
export function list(p: Parsed, name: string): string[] {
  const v = p.values[name];
  return Array.isArray(v) ? v : typeof v === 'string' ? [v] : [];
}

/** `--name` as a non-negative integer. */
export function int(p: Parsed, name: string, command: string): number | undefined {
  const v = str(p, name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`--${name} must be a whole number; got ${JSON.stringify(v)}`, command);
  return n;
}

/** Split a command line like a shell would for the simple cases: spaces, single and double quotes, backslash escapes. */
export function splitCommandLine(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quote: '"' | "'" | undefined;
  let has = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === '\\' && quote === '"' && i + 1 < line.length) cur += line[++i];
      else cur += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      has = true;
    } else if (c === '\\' && i + 1 < line.length) {
      cur += line[++i];
      has = true;
    } else if (/\s/.test(c)) {
      if (has || cur) out.push(cur);
      cur = '';
      has = false;
    } else {
      cur += c;
    }
  }
  if (quote) throw new Error(`Unclosed ${quote} quote in ${JSON.stringify(line)}`);
  if (has || cur) out.push(cur);
  return out;
}
