/**
 * The configuration of a multi-server host, in the common `mcpServers` shape (Claude Desktop's
 * `claude_desktop_config.json`, `.mcp.json`, Cursor, VS Code): each server is a command to spawn
 * (stdio) or a URL (Streamable HTTP, falling back to HTTP+SSE), optionally with a `type` hint.
 */
import type { HeadersOption } from '../../streams/http-client-common.js';

/** A server spawned as a child process, spoken to over stdio. */
export interface StdioServerConfig {
  type?: 'stdio';
  command: string;
  args?: string[];
  /** Added to the safe default environment (see `DEFAULT_INHERITED_ENV_VARS`). */
  env?: Record<string, string>;
  cwd?: string;
}

/** A server at a URL, spoken to over Streamable HTTP (HTTP+SSE for old servers). */
export interface HttpServerConfig {
  type?: 'http' | 'streamable-http' | 'sse';
  url: string;
  headers?: HeadersOption;
}

export type ServerConfig = StdioServerConfig | HttpServerConfig;

/** `{ name: config }`, or the whole `{ mcpServers: { name: config } }` file. */
export type ServersConfig = Record<string, ServerConfig> | { mcpServers: Record<string, ServerConfig> };

/** A checked server configuration, its kind made explicit. */
export type ResolvedServerConfig =
  | { kind: 'stdio'; command: string; args: string[]; env: Record<string, string> | undefined; cwd: string | undefined }
  | { kind: 'http'; url: string; headers: HeadersOption | undefined };

const STDIO_TYPES = new Set(['stdio']);
const HTTP_TYPES = new Set(['http', 'streamable-http', 'streamableHttp', 'sse']);

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The servers of a configuration, unwrapping `{ mcpServers }`. */
export function serverEntries(config: unknown): [string, unknown][] {
  if (!isRecord(config)) throw new TypeError('servers must be an object of { name: { command, args?, env?, cwd? } | { url, headers? } }');
  const inner = 'mcpServers' in config && isRecord(config.mcpServers) && Object.keys(config).length === 1 ? config.mcpServers : config;
  return Object.entries(inner);
}

/** Check one server's configuration and say which transport it needs. Throws a TypeError naming the server. */
export function resolveServerConfig(name: string, config: unknown, separator: string): ResolvedServerConfig {
  const where = `MCP server "${name}"`;
  if (name === '') throw new TypeError('An MCP server name must not be empty');
  if (name.includes(separator)) {
    throw new TypeError(`${where}: the name must not contain the namespace separator "${separator}" (tool names would be ambiguous)`);
  }
  if (!isRecord(config)) throw new TypeError(`${where}: expected { command, args?, env?, cwd? } or { url, headers? }`);
  const type = config.type;
  if (type !== undefined && (typeof type !== 'string' || (!STDIO_TYPES.has(type) && !HTTP_TYPES.has(type)))) {
    throw new TypeError(`${where}: unknown type ${JSON.stringify(type)}; expected "stdio" or "http"`);
  }
  const hasCommand = config.command !== undefined;
  const hasUrl = config.url !== undefined;
  const kind = type !== undefined ? (STDIO_TYPES.has(type as string) ? 'stdio' : 'http') : hasCommand && !hasUrl ? 'stdio' : hasUrl && !hasCommand ? 'http' : undefined;
  if (kind === undefined) {
    throw new TypeError(hasCommand ? `${where}: has both "command" and "url"; say which with "type"` : `${where}: needs a "command" (stdio) or a "url" (http)`);
  }
  if (kind === 'stdio') {
    if (typeof config.command !== 'string' || config.command === '') throw new TypeError(`${where}: "command" must be a non-empty string`);
    const args = config.args ?? [];
    if (!Array.isArray(args) || !args.every((a) => typeof a === 'string')) throw new TypeError(`${where}: "args" must be an array of strings`);
    const env = config.env;
    if (env !== undefined && (!isRecord(env) || !Object.values(env).every((v) => typeof v === 'string'))) {
      throw new TypeError(`${where}: "env" must be an object of strings`);
    }
    if (config.cwd !== undefined && typeof config.cwd !== 'string') throw new TypeError(`${where}: "cwd" must be a string`);
    return { kind, command: config.command, args: args as string[], env: env as Record<string, string> | undefined, cwd: config.cwd };
  }
  if (typeof config.url !== 'string') throw new TypeError(`${where}: "url" must be a string`);
  try {
    const url = new URL(config.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError('not http(s)');
  } catch {
    throw new TypeError(`${where}: "url" must be an http(s) URL; got ${JSON.stringify(config.url)}`);
  }
  const headers = config.headers;
  if (headers !== undefined && typeof headers !== 'function' && (typeof headers !== 'object' || headers === null)) {
    throw new TypeError(`${where}: "headers" must be an object of header values`);
  }
  return { kind, url: config.url, headers: headers as HeadersOption | undefined };
}
