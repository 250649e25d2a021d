/**
 * `mcp-actors serve`: a gateway. Mounts one or more MCP servers (stdio commands or URLs, either
 * era) and serves them as one dual-era server over stdio, Streamable HTTP or WebSocket, their
 * tools namespaced `<server>__<tool>`.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports
 */
import { resolve } from 'node:path';
import { int, list, parseCommand, str } from '../args.js';
import type { Command } from '../cli-context.js';
import { EXIT_CODES_HELP, ExitCode, UsageError } from '../exit-codes.js';
import { DEFAULT_UPSTREAM_NAME, resolveUpstreams } from './serve-upstreams.js';

const USAGE = `Usage: mcp-actors serve [--stdio | --http PORT | --ws PORT] -- SERVER_COMMAND [ARGS ...]
       mcp-actors serve [--stdio | --http PORT | --ws PORT] --url URL
       mcp-actors serve [--stdio | --http PORT | --ws PORT] --config mcpServers.json

Serves MCP servers through one gateway: the servers are spoken to in whichever protocol revision
they speak (2024-11-05 … 2026-07-28) and served in both eras, so a 2026-07-28 client reaches a
legacy stdio server and the other way round. Their tools are namespaced <server>__<tool>; an
upstream's elicitation and sampling requests are asked of the downstream caller whose call is in
flight, progress and cancellation are passed through. An upstream that dies is restarted; its
tools disappear and come back (list_changed tells clients).

Upstreams (combine --config with one of the others):
  -- CMD [ARGS]        a stdio server (named by --name, default "${DEFAULT_UPSTREAM_NAME}")
  --url URL            a remote server (Streamable HTTP, falling back to HTTP+SSE)
  --config FILE        the servers of an mcpServers file (Claude Desktop's format, .mcp.json)
  --name NAME          the namespace of the server given by -- or --url
  --env KEY=VALUE      extra environment variable for the -- server (repeatable)
  --header "K: V"      extra HTTP header for the --url server (repeatable)
  --tools-include P    mount only the tools of the -- or --url server named P (* matches
                       anything; repeatable)
  --tools-exclude P    do not mount its tools named P (repeatable)
  --tools-rename A=B   show its tool A as <server>__B (repeatable). In a --config file, give
                       "tools", "prompts" ({ include, exclude, rename }), "resources",
                       "templates" ({ include, exclude } by URI) in a server's entry
  --timeout MS         how long a call to an upstream may take (default 60000)
  --input-wait-ms MS   when an upstream asks a 2026-07-28 caller for input mid-call, how long
                       the upstream call waits for the caller's retry with the answer before
                       it is cancelled (default 60000; 1 to 2147483647; keep it within
                       --timeout)
  --record DIR         journal both sides of every bridged exchange into DIR (new or without
                       journals): a file per downstream session and per upstream client,
                       written as each ends; read them with mcp-actors inspect
  --upstreams shared|perSession
                       shared (default): one upstream serves every downstream session;
                       perSession: each downstream session gets its own (stateful servers),
                       started on its first call, closed when it ends (at most 32 at once);
                       a 2026-07-28 caller has no session: its unit is its authenticated
                       principal (closed after 5 idle minutes), an anonymous one shares

Served over (one of; default --stdio):
  --stdio              stdin/stdout: launch this command in place of the server
  --http PORT          Streamable HTTP at http://127.0.0.1:PORT/mcp, and the 2024-11-05
                       HTTP+SSE endpoints /sse and /messages (0: a free port; the URL is
                       printed on stderr)
  --ws PORT            WebSocket (subprotocol "mcp") at ws://127.0.0.1:PORT/mcp
  --host ADDR          interface to bind (default 127.0.0.1: nothing exposed beyond this machine)
  --allowed-host H     a Host header value to accept (repeatable). Default on loopback: only
                       localhost, 127.0.0.1, [::1] (DNS rebinding protection)
  --allowed-origin O   an Origin to accept (repeatable). Default on loopback: loopback
                       origins; elsewhere only the server's own
  -h, --help           this help

Ctrl-C (SIGINT/SIGTERM) stops the gateway and its upstreams; with --stdio, so does the end of stdin.

${EXIT_CODES_HELP}`;

const OPTIONS = {
  stdio: { type: 'boolean' },
  http: { type: 'string' },
  ws: { type: 'string' },
  host: { type: 'string' },
  'allowed-host': { type: 'string', multiple: true },
  'allowed-origin': { type: 'string', multiple: true },
  config: { type: 'string' },
  url: { type: 'string' },
  name: { type: 'string' },
  env: { type: 'string', multiple: true },
  header: { type: 'string', multiple: true },
  timeout: { type: 'string' },
  'input-wait-ms': { type: 'string' },
  upstreams: { type: 'string' },
  record: { type: 'string' },
  'tools-include': { type: 'string', multiple: true },
  'tools-exclude': { type: 'string', multiple: true },
  'tools-rename': { type: 'string', multiple: true },
} as const;

/** Resolves on SIGINT, SIGTERM or SIGHUP (each handler removed then). */
function signalled(): Promise<void> {
  return new Promise((done) => {
    const stop = () => {
      for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.off(s, stop);
      done();
    };
    for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(s, stop);
  });
}

export const serveCommand: Command = {
  name: 'serve',
  summary: 'serve MCP servers through one gateway over stdio, HTTP or WebSocket, in both eras',
  async run(argv, ctx) {
    const p = parseCommand({ name: 'serve', summary: '', usage: USAGE, options: OPTIONS, positionals: false }, argv);
    if (p.help) {
      ctx.stdout.write(USAGE + '\n');
      return ExitCode.Ok;
    }
    const modes = [p.values.stdio === true, str(p, 'http') !== undefined, str(p, 'ws') !== undefined].filter(Boolean).length;
    if (modes > 1) throw new UsageError('Serve over one of --stdio, --http PORT or --ws PORT', 'serve');
    const httpPort = int(p, 'http', 'serve');
    const wsPort = int(p, 'ws', 'serve');
    const timeout = int(p, 'timeout', 'serve');
    const inputWaitMs = int(p, 'input-wait-ms', 'serve');
    // As createGateway's `inputWaitMs` (not imported: --help and usage errors load no host): a timer past 2^31-1 ms fires at once.
    if (inputWaitMs !== undefined && !(inputWaitMs > 0 && inputWaitMs <= 2_147_483_647)) {
      throw new UsageError(`--input-wait-ms must be a positive number of ms, at most 2147483647; got ${String(inputWaitMs)}`, 'serve');
    }
    const host = str(p, 'host') ?? '127.0.0.1';
    const network = httpPort !== undefined || wsPort !== undefined;
    if (!network && (str(p, 'host') !== undefined || list(p, 'allowed-host').length > 0 || list(p, 'allowed-origin').length > 0)) {
      throw new UsageError('--host, --allowed-host and --allowed-origin are for --http or --ws', 'serve');
    }
    const upstreams = str(p, 'upstreams') ?? 'shared';
    if (upstreams !== 'shared' && upstreams !== 'perSession') throw new UsageError(`--upstreams must be shared or perSession; got ${JSON.stringify(upstreams)}`, 'serve');
    const servers = resolveUpstreams({ config: str(p, 'config'), command: p.rest, url: str(p, 'url'), name: str(p, 'name'), headers: list(p, 'header'), env: list(p, 'env'), cwd: ctx.cwd,
      tools: { include: list(p, 'tools-include'), exclude: list(p, 'tools-exclude'), rename: list(p, 'tools-rename') },
    });
    // Loaded only now: --help and usage errors do not pay for the host and the transports.
    const { runGateway } = await import('./serve-run.js');
    return runGateway(ctx, {
      servers,
      timeout,
      ...(inputWaitMs !== undefined && { inputWaitMs }),
      upstreams,
      ...(str(p, 'record') !== undefined && { record: resolve(ctx.cwd, str(p, 'record')!) }),
      stopped: signalled(),
      listen: httpPort !== undefined ? { kind: 'http', port: httpPort, host } : wsPort !== undefined ? { kind: 'ws', port: wsPort, host } : { kind: 'stdio' },
      allowedHosts: list(p, 'allowed-host'),
      allowedOrigins: list(p, 'allowed-origin'),
    });
  },
};
