/**
 * Running `mcp-actors serve`: a gateway over the checked upstreams, served on the chosen
 * transport until a signal (or, over stdio, the end of stdin), upstream stderr and state changes
 * reported on our stderr.
 */
import type { ServerConfig } from '../../host/config.js';
import { createGateway } from '../../gateway/gateway.js';
import { listen } from '../../http/listen-port.js';
import { createStdioServerTransport } from '../../../streams/stdio-server.js';
import { createStreamableHttpHandler } from '../../server-bindings/streamable-http-server.js';
import { createWebSocketServer } from '../../server-bindings/websocket-server.js';
import type { CliContext } from '../cli-context.js';
import { CliError, ExitCode } from '../exit-codes.js';

export type ServeListen = { kind: 'stdio' } | { kind: 'http' | 'ws'; port: number; host: string };

export interface ServeRun {
  servers: Record<string, ServerConfig>;
  /** Per-call timeout towards the upstreams (ms). */
  timeout: number | undefined;
  upstreams: 'shared' | 'perSession';
  /** `--input-wait-ms`: how long an upstream call waits for a 2026-07-28 caller's retry with its input. */
  inputWaitMs?: number;
  /** `--record DIR` (absolute). */
  record?: string;
  listen: ServeListen;
  allowedHosts: string[];
  allowedOrigins: string[];
  /** Resolves when the gateway should stop (a signal). */
  stopped: Promise<void>;
}

const ALL_INTERFACES = new Set(['0.0.0.0', '::', '']);

export async function runGateway(ctx: CliContext, run: ServeRun): Promise<number> {
  const err = (line: string) => ctx.stderr.write(line + '\n');
  let gateway: ReturnType<typeof createGateway>;
  try {
    gateway = createGateway({ servers: run.servers, upstreams: run.upstreams, ...(run.inputWaitMs !== undefined && { inputWaitMs: run.inputWaitMs }), ...(run.record !== undefined && { record: run.record }), ...(run.timeout !== undefined ? { clientOptions: { timeout: run.timeout } } : {}) });
  } catch (e) {
    throw new CliError((e as Error).message, ExitCode.BadInput);
  }
  gateway.host.stderr$.subscribe(({ server, line }) => err(`[${server}] ${line}`));
  const phases = new Map<string, string>();
  gateway.host.state$.subscribe((all) => {
    for (const [name, s] of Object.entries(all)) {
      if (phases.get(name) === s.phase) continue;
      phases.set(name, s.phase);
      if (s.phase === 'ready' || s.phase === 'crashed' || s.phase === 'failed') err(`upstream "${name}": ${s.phase}${s.phase !== 'ready' && s.error ? ` (${s.error.message.split('\n')[0]})` : ''}`);
    }
  });
  await gateway.start();
  // Unset lists keep the transports' loopback defaults (DNS rebinding protection).
  const policy = {
    ...(run.allowedHosts.length > 0 ? { allowedHosts: run.allowedHosts } : {}),
    ...(run.allowedOrigins.length > 0 ? { allowedOrigins: run.allowedOrigins } : {}),
  };
  let close: () => Promise<void>;
  let ended: Promise<void> = run.stopped;
  try {
    if (run.listen.kind === 'stdio') {
      const session = await gateway.server.connect(createStdioServerTransport({ stdin: ctx.stdin as NodeJS.ReadStream, stdout: ctx.stdout as NodeJS.WriteStream }));
      ended = Promise.race([run.stopped, new Promise<void>((done) => session.state$.subscribe({ complete: done }))]);
      close = async () => undefined;
    } else {
      const { port, host } = run.listen;
      if (ALL_INTERFACES.has(host)) err(`warning: listening on all interfaces (${host}); anyone who can reach this machine can call the mounted servers`);
      try {
        if (run.listen.kind === 'http') {
          const web = await listen(createStreamableHttpHandler(gateway.server.server, { ...policy, legacySse: true }), { port, host, logger: false });
          err(`Serving ${gateway.host.serverNames.join(', ')} at ${web.url} (Ctrl-C stops)`);
          close = () => web.close();
        } else {
          const ws = await createWebSocketServer(gateway.server.server, { port, host, ...policy });
          err(`Serving ${gateway.host.serverNames.join(', ')} at ${ws.url} (Ctrl-C stops)`);
          close = () => ws.close();
        }
      } catch (e) {
        throw new CliError(`Cannot listen on ${host}:${port}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}. Choose another port.`, ExitCode.Connection);
      }
    }
  } catch (e) {
    await gateway.close();
    throw e;
  }
  await ended;
  await close();
  await gateway.close();
  if (run.record !== undefined) err(`Recorded ${gateway.recorded.length} journal(s) in ${run.record} (mcp-actors inspect FILE)`);
  return ExitCode.Ok;
}
