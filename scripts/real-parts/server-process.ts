/**
 * A server script of this repository as a real process on 127.0.0.1 (the demo server
 * `examples/everything.ts` by default), for the cluster spec, the cluster demo and the cluster
 * figures: started with `--redis <url>` so that it shares its sessions, on a free port (or the
 * one given), ready once it printed its MCP URL. Its output is kept (the last 50,000
 * characters) for failure messages.
 *
 * It listens on port 0 and says its port, so nothing is probed first. A given `port` (a restart
 * on the same address, as failover specs do) is kept: when another process holds it, the child
 * exits with EADDRINUSE and the start fails with a {@link PortTaken} that names the port.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { PortTaken } from './free-port.js';

export interface ServerProcess {
  readonly pid: number;
  readonly port: number;
  /** The MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  /** Its id in the deployment (the `process` it printed), when it shares sessions. */
  readonly processId: string | undefined;
  readonly child: ChildProcess;
  output(): string;
  /** Ends when the process has exited. */
  readonly exited: Promise<void>;
  /** SIGTERM (it stops gracefully), SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
  /** SIGKILL: no goodbye, its lease left to run out. */
  kill(): Promise<void>;
}

export interface ServerProcessOptions {
  /** The script, relative to the repository (default `examples/everything.ts`). */
  script?: string;
  redisUrl?: string;
  /** Default 0 (a free port). */
  port?: number;
  /** Run the built `dist/<script>.js` (default: the TypeScript source through tsx). */
  built?: boolean;
  /** The node arguments that run the script, in place of the two above (specs pass their compiled copy's). */
  launch?: readonly string[];
  env?: NodeJS.ProcessEnv;
  readyTimeoutMs?: number;
  /** Receives each chunk of output as it comes (the demo prints it). */
  onOutput?: (text: string) => void;
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The demo server, `examples/everything.ts`. */
export function startEverything(options: Omit<ServerProcessOptions, 'script'> = {}): Promise<ServerProcess> {
  return startServerProcess(options);
}

export async function startServerProcess(options: ServerProcessOptions = {}): Promise<ServerProcess> {
  const script = options.script ?? 'examples/everything.ts';
  const args = options.launch ? [...options.launch] : options.built ? [`${ROOT}dist/${script.replace(/\.ts$/, '.js')}`] : ['--import', 'tsx', `${ROOT}${script}`];
  if (options.redisUrl !== undefined) args.push('--redis', options.redisUrl);
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...options.env, PORT: String(options.port ?? 0) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    const text = chunk.toString();
    output = (output + text).slice(-50_000);
    options.onOutput?.(text);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  const ready = await new Promise<{ port: number; processId: string | undefined }>((resolve, reject) => {
    const timeoutMs = options.readyTimeoutMs ?? 30_000;
    const timer = setTimeout(() => fail(new Error(`${script} did not print its URL within ${timeoutMs} ms:\n${output.slice(-2000)}`)), timeoutMs);
    const check = () => {
      const m = /http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(output);
      if (m === null) return;
      const p = /\(id ([0-9a-z]{8})\)|process ([0-9a-z]{8})\)/.exec(output);
      // Sharing on Redis, it says its id (on the next line).
      if (p === null && options.redisUrl !== undefined) return;
      done();
      resolve({ port: Number(m[1]), processId: p?.[1] ?? p?.[2] });
    };
    const onExit = (code: number | null) => {
      const bind = /EADDRINUSE[^\n]*/.exec(output);
      if (bind && options.port) return fail(new PortTaken(options.port, `${script} exited (${code}): ${bind[0]}`, true));
      fail(new Error(`${script} exited (${code}) before it was ready:\n${output.slice(-2000)}`));
    };
    const fail = (e: Error) => {
      done();
      child.kill('SIGKILL');
      reject(e);
    };
    function done() {
      clearTimeout(timer);
      child.stdout!.off('data', check);
      child.off('close', onExit);
    }
    child.stdout!.on('data', check);
    // 'close', not 'exit': its last lines (why it exited) are read by then.
    child.once('close', onExit);
    check();
  });
  const signal = (sig: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(sig);
  };
  return {
    pid: child.pid ?? 0,
    port: ready.port,
    url: `http://127.0.0.1:${ready.port}/mcp`,
    processId: ready.processId,
    child,
    output: () => output,
    exited,
    stop: async (graceMs = 3000) => {
      signal('SIGTERM');
      const t = setTimeout(() => signal('SIGKILL'), graceMs);
      await exited;
      clearTimeout(t);
    },
    kill: async () => {
      signal('SIGKILL');
      await exited;
    },
  };
}
