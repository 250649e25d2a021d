/**
 * A real `redis-server` (the Debian package) for tests and the cluster demo: started on a free
 * port of 127.0.0.1 in its own temporary directory, with persistence off, and stopped (directory
 * removed) by `stop()`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';

export interface RunningRedis {
  readonly url: string;
  readonly port: number;
  readonly pid: number;
  stop(): Promise<void>;
}

export async function startRedis(options: { binary?: string; readyTimeoutMs?: number; /** A port to reuse (a restart on the same address); default a free one. */ port?: number } = {}): Promise<RunningRedis> {
  const binary = options.binary ?? process.env.REDIS_SERVER ?? 'redis-server';
  const dir = mkdtempSync(join(tmpdir(), 'mcp-actors-redis-'));
  const port = options.port ?? (await freePort());
  const child = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    await waitReady(child, options.readyTimeoutMs ?? 10_000);
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

function waitReady(child: ChildProcess, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => finish(new Error(`redis-server was not ready within ${timeoutMs} ms:\n${output.slice(-2000)}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/Ready to accept connections/.test(output)) finish();
    };
    const onExit = (code: number | null) => finish(new Error(`redis-server exited (${code}) before it was ready:\n${output.slice(-2000)}`));
    const onError = (error: Error) =>
      finish(new Error(`could not start redis-server (${error.message}); install it with: apt-get install -y redis-server`));
    function finish(error?: Error) {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
      child.off('error', onError);
      // Keep draining so a chatty server never blocks on a full pipe.
      child.stdout?.resume();
      child.stderr?.resume();
      if (error) reject(error);
      else resolve();
    }
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
    child.once('error', onError);
  });
}
