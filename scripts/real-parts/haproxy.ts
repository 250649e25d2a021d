/**
 * A real HAProxy (the Debian package) in front of server processes: round-robin per request,
 * no stickiness (each request of a keep-alive connection is balanced on its own), health checks
 * every 200 ms so a killed backend leaves the rotation within half a second, and a request a dead
 * backend refused or dropped unanswered redispatched to a live one. Long tunnel timeouts keep SSE streams open.
 * Each answer says which backend served it (`X-Served-By: s1`, `s2`, ... in the order of
 * `backends`), so a test can tell that two requests went to different processes.
 *
 * Its front port is picked before it starts (it is in the config), and another process may take
 * it first: HAProxy then says "cannot bind socket (Address already in use)" and exits with code
 * 1, and the start is retried on new ports (up to `tries`). It binds without SO_REUSEPORT
 * (`noreuseport`), so a second HAProxy on the same port fails the same way instead of sharing it
 * silently; and it counts as started once its own process holds the listener, not when a connect
 * succeeds (that could reach whoever took the port). A given `port` (a restart on the same
 * address) is kept: taken, the start fails with a {@link PortTaken} that names it.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PortTaken, startOnFreePort, type StartOnFreePortsOptions } from './free-port.js';
import { listensOn } from './listens-on.js';

export interface HaproxyOptions {
  /** Ports of the backends on 127.0.0.1. */
  backends: readonly number[];
  /** The front's port, kept as given (a restart on the same address); a free one when absent. */
  port?: number;
  /** How many free ports to try when one is taken before HAProxy binds it (default 5). */
  tries?: number;
  /** Picks the front ports tried (default: free ones); a spec injects one to hand out a taken port. */
  pickPorts?: StartOnFreePortsOptions['pick'];
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
    // A port another HAProxy holds is refused, not shared with it (SO_REUSEPORT is HAProxy's default).
    '  noreuseport',
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

export function startHaproxy(options: HaproxyOptions): Promise<RunningHaproxy> {
  if (options.port !== undefined) return startHaproxyOn(options.port, true, options);
  return startOnFreePort((port) => startHaproxyOn(port, false, options), { ...(options.tries !== undefined && { tries: options.tries }), ...(options.pickPorts && { pick: options.pickPorts }) });
}

async function startHaproxyOn(port: number, given: boolean, options: HaproxyOptions): Promise<RunningHaproxy> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-actors-haproxy-'));
  const file = join(dir, 'haproxy.cfg');
  writeFileSync(file, haproxyConfig(port, options.backends, options.checkPath, options.maxConnections));
  const child = spawn(options.binary ?? process.env.HAPROXY ?? 'haproxy', ['-db', '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  // 'close', not 'exit': its last lines (why it exited) are read by then.
  let exited = false;
  child.once('close', () => (exited = true));
  const spawnError = new Promise<never>((_, reject) =>
    child.once('error', (e) => reject(new Error(`could not start haproxy (${e.message}); install it with: apt-get install -y haproxy`))),
  );
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  try {
    await Promise.race([waitListening(child.pid ?? 0, port, given, 10_000, () => exited, () => output), spawnError]);
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

/** How HAProxy says its front could not bind, then exits with code 1: "... cannot bind socket (Address already in use) for [127.0.0.1:8080]". */
const BIND_FAILED = /[^\n:]*\(Address already in use\)[^\n]*/;

async function waitListening(pid: number, port: number, given: boolean, timeoutMs: number, exited: () => boolean, output: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exited()) {
      const bind = BIND_FAILED.exec(output());
      if (bind) throw new PortTaken(port, `haproxy exited: ${bind[0].trim()}`, given);
      throw new Error(`haproxy exited before it listened:\n${output().slice(-2000)}`);
    }
    // Its own listener; where /proc cannot tell, any answer on the port.
    if (listensOn(pid, port) ?? (await canConnect(port))) return;
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
