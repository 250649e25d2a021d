/**
 * Which servers `mcp-actors serve` mounts, from its command line: the servers of an `mcpServers`
 * file (`--config`), a stdio command after `--`, a remote server (`--url`), or several of these.
 * Every entry is checked here, before anything starts, so a bad file is a clear error naming the
 * server rather than a failure at start-up.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { resolveServerConfig, serverEntries, type ServerConfig } from '../../host/config.js';
import { DEFAULT_NAMESPACE_SEPARATOR } from '../../host/host.js';
import { compileView, viewOfEntry, type NameRules } from '../../gateway/server-views.js';
import { CliError, ExitCode, UsageError } from '../exit-codes.js';

export interface UpstreamArgs {
  /** `--config FILE` (resolved against `cwd`). */
  config?: string;
  /** The stdio command after `--`. */
  command: readonly string[];
  /** `--url URL`. */
  url?: string;
  /** `--name NAME`: the namespace of the server given by `--` or `--url`. */
  name?: string;
  /** `--header "K: V"` for `--url`. */
  headers: readonly string[];
  /** `--env KEY=VALUE` for the `--` command. */
  env: readonly string[];
  /** `--tools-include`, `--tools-exclude`, `--tools-rename OLD=NEW`: the view of the `--`/`--url` server's tools. */
  tools?: { include: readonly string[]; exclude: readonly string[]; rename: readonly string[] };
  cwd: string;
}

/** The default namespace of the one server given by `--` or `--url`. */
export const DEFAULT_UPSTREAM_NAME = 'upstream';

function pairs(items: readonly string[], split: string, what: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of items) {
    const at = item.indexOf(split);
    if (at <= 0) throw new UsageError(`${what} must look like ${split === '=' ? 'KEY=VALUE' : '"Name: value"'}; got ${JSON.stringify(item)}`, 'serve');
    out[item.slice(0, at).trim()] = item.slice(at + split.length).trim();
  }
  return out;
}

function readConfig(path: string): [string, unknown][] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new CliError(`Cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, ExitCode.BadInput);
  }
  try {
    return serverEntries(JSON.parse(text));
  } catch (e) {
    throw new CliError(`${path}: ${(e as Error).message}`, ExitCode.BadInput);
  }
}

/** The servers to mount, `{ name: config }`, every one checked; throws a CliError saying what is wrong. */
export function resolveUpstreams(args: UpstreamArgs): Record<string, ServerConfig> {
  if (args.command.length > 0 && args.url !== undefined) throw new UsageError('Give a server command after -- or --url URL, not both (use --config for several servers)', 'serve');
  const servers: Record<string, ServerConfig> = {};
  const where: Record<string, string> = {};
  if (args.config !== undefined) {
    const path = resolve(args.cwd, args.config);
    for (const [name, config] of readConfig(path)) {
      servers[name] = config as ServerConfig;
      where[name] = path;
    }
  }
  const single = args.command.length > 0 || args.url !== undefined;
  if (!single && args.name !== undefined) throw new UsageError('--name names the server given after -- or with --url', 'serve');
  if (args.command.length === 0 && args.env.length > 0) throw new UsageError('--env is for a server command given after --', 'serve');
  if (args.url === undefined && args.headers.length > 0) throw new UsageError('--header is for a server given with --url', 'serve');
  const toolFlags = args.tools ?? { include: [], exclude: [], rename: [] };
  const anyToolFlag = toolFlags.include.length + toolFlags.exclude.length + toolFlags.rename.length > 0;
  if (!single && anyToolFlag) throw new UsageError('--tools-include, --tools-exclude and --tools-rename are for the server given after -- or with --url (in a --config file, give "tools" in its entry)', 'serve');
  if (single) {
    const name = args.name ?? DEFAULT_UPSTREAM_NAME;
    if (name in servers) throw new UsageError(`--name ${JSON.stringify(name)} is also a server of ${where[name]}; choose another --name`, 'serve');
    servers[name] =
      args.url !== undefined
        ? { url: args.url, ...(args.headers.length > 0 ? { headers: pairs(args.headers, ':', '--header') } : {}) }
        : { command: args.command[0]!, args: args.command.slice(1), ...(args.env.length > 0 ? { env: pairs(args.env, '=', '--env') } : {}) };
    if (anyToolFlag) {
      const tools: NameRules = {
        ...(toolFlags.include.length > 0 && { include: [...toolFlags.include] }),
        ...(toolFlags.exclude.length > 0 && { exclude: [...toolFlags.exclude] }),
        ...(toolFlags.rename.length > 0 && { rename: pairs(toolFlags.rename, '=', '--tools-rename') }),
      };
      Object.assign(servers[name], { tools });
    }
    where[name] = args.url !== undefined ? '--url' : 'the command after --';
  }
  if (Object.keys(servers).length === 0) throw new UsageError('Give the server(s) to serve: -- SERVER_COMMAND [ARGS], --url URL, or --config mcpServers.json', 'serve');
  for (const [name, config] of Object.entries(servers)) {
    try {
      resolveServerConfig(name, config, DEFAULT_NAMESPACE_SEPARATOR);
      compileView(name, viewOfEntry(config));
    } catch (e) {
      throw where[name] === '--url' || where[name] === 'the command after --' ? new UsageError((e as Error).message, 'serve') : new CliError(`${where[name]}: ${(e as Error).message}`, ExitCode.BadInput);
    }
  }
  return servers;
}
