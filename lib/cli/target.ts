/**
 * Which server a command talks to: `--stdio "cmd args"`, `--url` (Streamable HTTP, falling back to
 * HTTP+SSE), `--ws`, or `--server NAME` from an `mcpServers` JSON file (`--config`, default
 * `.mcp.json` in the current directory). Turned into a transport of `streams/`.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { resolveServerConfig, serverEntries } from '../host/config.js';
import { createStdioClientTransport } from '../../streams/stdio-client.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';
import { createWebSocketClientTransport } from '../../streams/websocket-client.js';
import type { Transport } from '../../streams/transport.js';
import { list, splitCommandLine, str, type Parsed } from './args.js';
import { CliError, ExitCode, UsageError } from './exit-codes.js';

export { TARGET_HELP, TARGET_OPTIONS } from './target-help.js';

export type Target =
  | { kind: 'stdio'; command: string; args: string[]; env: Record<string, string>; cwd?: string; label: string }
  | { kind: 'http'; url: string; headers: Record<string, string>; label: string }
  | { kind: 'ws'; url: string; headers: Record<string, string>; label: string };

function parseHeaders(values: string[], command: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of values) {
    const i = h.indexOf(':');
    if (i <= 0) throw new UsageError(`--header must look like "Name: value"; got ${JSON.stringify(h)}`, command);
    out[h.slice(0, i).trim()] = h.slice(i + 1).trim();
  }
  return out;
}

function parseEnv(values: string[], command: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const kv of values) {
    const i = kv.indexOf('=');
    if (i <= 0) throw new UsageError(`--env must look like KEY=VALUE; got ${JSON.stringify(kv)}`, command);
    out[kv.slice(0, i)] = kv.slice(i + 1);
  }
  return out;
}

function checkUrl(value: string, protocols: string[], option: string, command: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${option} needs a full URL such as ${protocols[0]}//127.0.0.1:3000/mcp; got ${JSON.stringify(value)}`, command);
  }
  if (!protocols.includes(url.protocol)) throw new UsageError(`${option} needs a ${protocols.join(' or ')} URL; got ${JSON.stringify(value)}`, command);
  return url.href;
}

/** The target the options name; exactly one is required. */
export function resolveTarget(p: Parsed, command: string): Target {
  const given = ['stdio', 'url', 'ws', 'server'].filter((k) => str(p, k) !== undefined);
  if (p.rest.length > 0) given.push('--');
  if (given.length === 0) throw new UsageError('Say which server to talk to: --stdio "CMD ARGS", --url URL, --ws URL, --server NAME, or -- CMD ARGS', command);
  if (given.length > 1) throw new UsageError(`Give one server, not several (got ${given.map((g) => (g === '--' ? '--' : `--${g}`)).join(', ')})`, command);
  const headers = parseHeaders(list(p, 'header'), command);
  const env = parseEnv(list(p, 'env'), command);
  const stdio = str(p, 'stdio');
  if (stdio !== undefined || p.rest.length > 0) {
    let words: string[];
    try {
      words = stdio !== undefined ? splitCommandLine(stdio) : p.rest;
    } catch (e) {
      throw new UsageError(`--stdio: ${(e as Error).message}`, command);
    }
    if (words.length === 0) throw new UsageError('--stdio needs a command', command);
    return { kind: 'stdio', command: words[0]!, args: words.slice(1), env, label: words.join(' ') };
  }
  const url = str(p, 'url');
  if (url !== undefined) return { kind: 'http', url: checkUrl(url, ['http:', 'https:'], '--url', command), headers, label: url };
  const ws = str(p, 'ws');
  if (ws !== undefined) return { kind: 'ws', url: checkUrl(ws, ['ws:', 'wss:'], '--ws', command), headers, label: ws };
  return fromConfig(str(p, 'server')!, str(p, 'config'), headers, env);
}

function fromConfig(name: string, configPath: string | undefined, headers: Record<string, string>, env: Record<string, string>): Target {
  const path = resolve(configPath ?? '.mcp.json');
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new CliError(`Cannot read the server configuration ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}. Pass --config FILE (an mcpServers JSON file).`, ExitCode.BadInput);
  }
  let config: unknown;
  try {
    config = JSON.parse(text);
  } catch (e) {
    throw new CliError(`${path} is not JSON: ${(e as Error).message}`, ExitCode.BadInput);
  }
  let entries: [string, unknown][];
  try {
    entries = serverEntries(config);
  } catch (e) {
    throw new CliError(`${path}: ${(e as Error).message}`, ExitCode.BadInput);
  }
  const entry = entries.find(([n]) => n === name);
  if (!entry) {
    throw new CliError(`No server "${name}" in ${path}; it has: ${entries.map(([n]) => n).join(', ') || '(none)'}`, ExitCode.BadInput);
  }
  let resolved;
  try {
    resolved = resolveServerConfig(name, entry[1], '\u0000');
  } catch (e) {
    throw new CliError(`${path}: ${(e as Error).message}`, ExitCode.BadInput);
  }
  if (resolved.kind === 'stdio') {
    return { kind: 'stdio', command: resolved.command, args: resolved.args, env: { ...resolved.env, ...env }, ...(resolved.cwd && { cwd: resolved.cwd }), label: name };
  }
  const fixed = typeof resolved.headers === 'object' && resolved.headers !== null ? (resolved.headers as Record<string, string>) : {};
  return { kind: 'http', url: resolved.url, headers: { ...fixed, ...headers }, label: name };
}

/**
 * A fresh transport for the target; a stdio server's stderr lines go to `stderr` when given (a
 * stream, or a function taking each line), else to ours.
 */
export function transportFor(target: Target, stderr?: NodeJS.WritableStream | ((line: string) => void)): Transport {
  switch (target.kind) {
    case 'stdio': {
      const t = createStdioClientTransport({ command: target.command, args: target.args, env: target.env, ...(target.cwd && { cwd: target.cwd }), stderr: stderr ? 'pipe' : 'inherit' });
      if (typeof stderr === 'function') t.stderr$.subscribe(stderr);
      else if (stderr) t.stderr$.subscribe((line) => stderr.write(line + '\n'));
      return t;
    }
    case 'http':
      return createStreamableHttpClientTransport(target.url, { headers: target.headers });
    case 'ws':
      return createWebSocketClientTransport(target.url, { headers: target.headers });
  }
}
