/**
 * The options that name a server and their help text, apart from target.ts so that a command can
 * parse its arguments without loading every transport (`replay --check` talks to no server).
 */
import type { OptionSpec } from './args.js';

export const TARGET_OPTIONS = {
  stdio: { type: 'string' },
  url: { type: 'string' },
  ws: { type: 'string' },
  server: { type: 'string' },
  config: { type: 'string' },
  header: { type: 'string', multiple: true },
  env: { type: 'string', multiple: true },
} as const satisfies OptionSpec;

export const TARGET_HELP = `Server (one of):
  --stdio "CMD ARGS"   spawn CMD and speak over its stdin/stdout (or put the command after --)
  --url URL            Streamable HTTP (falls back to HTTP+SSE for older servers)
  --ws URL             WebSocket (subprotocol "mcp")
  --server NAME        a server of an mcpServers JSON file (--config FILE, default ./.mcp.json)
  --header "K: V"      extra HTTP/WebSocket header (repeatable)
  --env KEY=VALUE      extra environment variable for a stdio server (repeatable)`;
