/**
 * A real `redis-server` (the Debian package) for tests and the cluster demo: started on a free
 * port of 127.0.0.1 in its own temporary directory, with persistence off, and stopped (directory
 * removed) by `stop()`.
 *
 * redis-server cannot listen on port 0 (`--port 0` means "no TCP"), so its port is picked first,
 * and another process may take it before redis-server binds it. It then logs "bind: Address
 * already in use" and exits with code 1: that start is retried on new ports (up to `tries`).
 * A given `port` (a restart on the same address) is kept: taken, the start fails with a
 * {@link PortTaken} that names it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PortTaken, startOnFreePort, type StartOnFreePortsOptions } from './free-port.js';

export interface RunningRedis {
  readonly url: string;
  readonly port: number;
  readonly pid: number;
  stop(): Promise<void>;
}

export interface RedisOptions {
  binary?: string;
  readyTimeoutMs?: number;
  /** A port to reuse (a restart on the same address), never another; default a free one. */
  port?: number;
  /** How many free ports to try when one is taken before redis-server binds it (default 5). */
  tries?: number;
  /** Picks the ports tried (default: free ones); a spec injects one to hand out a taken port. */
  pickPorts?: StartOnFreePortsOptions['pick'];
}

export function startRedis(options: RedisOptions = {}): Promise<RunningRedis> {
  if (options.port !== undefined) return startRedisOn(options.port, true, options);
  return startOnFreePort((port) => startRedisOn(port, false, options), { ...(options.tries !== undefined && { tries: options.tries }), ...(options.pickPorts && { pick: options.pickPorts }) });
}

async function startRedisOn(port: number, given: boolean, options: RedisOptions): Promise<RunningRedis> {
  const binary = options.binary ?? process.env.REDIS_SERVER ?? 'redis-server';
  const dir = mkdtempSync(join(tmpdir(), 'mcp-actors-redis-'));
  const child = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    await waitReady(child, port, given, options.readyTimeoutMs ?? 10_000);
  } catch (error) {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  let stopped: Promise<void> | undefined;
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    pid: child.pid ?? 0,
    stop: () =>
      (stopped ??= new Promise<void>((resolve) => {
        const done = () => {
          rmSync(dir, { recursive: true, force: true });
          resolve();
        };
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.once('exit', done);
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 3000).unref();
      })),
  };
}

/** How redis-server logs a failed bind before it exits (code 1): "Could not create server TCP listening socket 127.0.0.1:6379: bind: Address already in use". */
const BIND_FAILED = /[^\n#*]*Address already in use/;

function waitReady(child: ChildProcess, port: number, given: boolean, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => finish(new Error(`redis-server was not ready within ${timeoutMs} ms:\n${output.slice(-2000)}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/Ready to accept connections/.test(output)) finish();
    };
    const onExit = (code: number | null) => {
      const bind = BIND_FAILED.exec(output);
      if (bind) return finish(new PortTaken(port, `redis-server exited (${code}): ${bind[0].trim()}`, given));
      finish(new Error(`redis-server exited (${code}) before it was ready:\n${output.slice(-2000)}`));
    };
    const onError = (error: Error) =>
      finish(new Error(`could not start redis-server (${error.message}); install it with: apt-get install -y redis-server`));
    function finish(error?: Error) {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
      child.off('close', onExit);
      child.off('error', onError);
      // Keep draining so a chatty server never blocks on a full pipe.
      child.stdout?.resume();
      child.stderr?.resume();
      if (error) reject(error);
      else resolve();
    }
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    // 'close', not 'exit': its last lines (why it exited) are read by then.
    child.once('close', onExit);
    child.once('error', onError);
  });
}
