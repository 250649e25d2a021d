/**
 * A real HAProxy (the Debian package) in front of server processes: round-robin per request,
 * no stickiness (each request of a keep-alive connection is balanced on its own), health checks
 * every 200 ms so a killed backend leaves the rotation within half a second, and a request a dead
 * backend refused or dropped unanswered redispatched to a live one. Long tunnel timeouts keep SSE streams open.
 * Each answer says which backend served it (`X-Served-By: s1`, `s2`, ... in the order of
 * `backends`), so a test can tell that two requests went to different processes.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';

export interface HaproxyOptions {
  /** Ports of the backends on 127.0.0.1. */
  backends: readonly number[];
  /** The front's port; a free one when absent. */
  port?: number;
  /** Path the health check GETs; any HTTP answer (even 4xx) counts as alive. Default `/mcp`. */
  checkPath?: string;
  /** HAProxy's `maxconn` (it reserves about two descriptors per connection). Default 1000. */
  maxConnections?: number;
  binary?: string;
}

export interface RunningHaproxy {
  readonly url: string;
  readonly port: number;
  readonly pid: number;
  /** What HAProxy printed (its log goes to stderr): for a test's failure message. */
  output(): string;
  stop(): Promise<void>;
}

export function haproxyConfig(port: number, backends: readonly number[], checkPath = '/mcp', maxConnections = 1000): string {
  return [
    'global',
    `  maxconn ${maxConnections}`,
    'defaults',
    '  mode http',
    // Small writes (an SSE event) go out at once, not after a delayed ACK (~200 ms per event otherwise).
    '  option http-no-delay',
    '  timeout connect 2s',
    '  timeout client 1h',
    '  timeout server 1h',
    '  timeout tunnel 1h',
    '  timeout http-keep-alive 10s',
    '  retries 3',
    // A request sent in the moment a backend dies (on a connection HAProxy reused, or one the
    // dying process's kernel still accepted) gets no answer at all: without this HAProxy closes
    // the client's connection, and a client that does not retry POSTs (undici, so both SDKs) fails
    // the call with "other side closed". Resent only when nothing came back: our server sends an
    // SSE response's headers and priming event before running a tool, so a request a process
    // really started is never run twice by this (a JSON-mode tool call cut mid-way would be).
    '  retry-on conn-failure empty-response',
    '  option redispatch 1',
    'frontend mcp',
    `  bind 127.0.0.1:${port}`,
    '  default_backend servers',
    'backend servers',
    '  balance roundrobin',
    '  http-response set-header X-Served-By %s',
    // Any status means the process is alive; a refused connection means it is not.
    `  option httpchk GET ${checkPath}`,
    '  http-check expect rstatus ^[1-5]',
    // A refused check fails at once; two in a row take a dead backend out (a slow answer on a
    // loaded machine is not a death: a check may take up to a second).
    '  timeout check 1s',
    ...backends.map((p, i) => `  server s${i + 1} 127.0.0.1:${p} check inter 200ms fall 2 rise 1`),
    '',
  ].join('\n');
}

export async function startHaproxy(options: HaproxyOptions): Promise<RunningHaproxy> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-actors-haproxy-'));
  const port = options.port ?? (await freePort());
  const file = join(dir, 'haproxy.cfg');
  writeFileSync(file, haproxyConfig(port, options.backends, options.checkPath, options.maxConnections));
  const child = spawn(options.binary ?? process.env.HAPROXY ?? 'haproxy', ['-db', '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let exited = false;
  child.once('exit', () => (exited = true));
  const spawnError = new Promise<never>((_, reject) =>
    child.once('error', (e) => reject(new Error(`could not start haproxy (${e.message}); install it with: apt-get install -y haproxy`))),
  );
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  try {
    await Promise.race([waitListening(port, 10_000, () => exited, () => output), spawnError]);
  } catch (error) {
    child.kill('SIGKILL');
    cleanup();
    throw error;
  }
  let stopped: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    pid: child.pid ?? 0,
    output: () => output,
    stop: () =>
      (stopped ??= new Promise<void>((resolve) => {
        const done = () => {
          cleanup();
          resolve();
        };
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.once('exit', done);
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 3000).unref();
      })),
  };
}

async function waitListening(port: number, timeoutMs: number, exited: () => boolean, output: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exited()) throw new Error(`haproxy exited before it listened:\n${output().slice(-2000)}`);
    if (await canConnect(port)) return;
    if (Date.now() > deadline) throw new Error(`haproxy did not listen on ${port} within ${timeoutMs} ms:\n${output().slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
