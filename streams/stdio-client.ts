/**
 * The client side of the stdio transport: spawn the MCP server, write frames to its stdin, read
 * frames from its stdout, and shut it down the way the spec asks (close stdin, SIGTERM, SIGKILL),
 * the process lifecycle being driven by `childProcessMachine`.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#stdio
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import process from 'node:process';
import { Observable, ReplaySubject, Subject } from 'rxjs';
import { createActor, type Actor, type SnapshotFrom } from 'xstate';
import { systemClock, type Clock } from '../lib/clock.js';
import { TransportError } from '../lib/errors.js';
import type { Frame } from '../lib/jsonrpc/message.js';
import { childProcessMachine } from '../machines/child-process.machine.js';
import { HotInbound, StateCell } from './memory.js';
import { ndjsonSplit } from './ndjson-split.js';
import { FrameWriter, fromReadable, guardErrors } from './stdio-server.js';
import { OversizeFrame, type RawFrame, type Transport, type TransportPeer, type TransportState } from './transport.js';

/**
 * Parent environment variables a server gets by default (the rest of the parent's environment,
 * which may hold secrets, is not passed on unless `inheritEnv` is set).
 */
export const DEFAULT_INHERITED_ENV_VARS: readonly string[] =
  process.platform === 'win32'
    ? ['APPDATA', 'HOMEDRIVE', 'HOMEPATH', 'LOCALAPPDATA', 'PATH', 'PROCESSOR_ARCHITECTURE',
        'SYSTEMDRIVE', 'SYSTEMROOT', 'TEMP', 'USERNAME', 'USERPROFILE', 'PROGRAMFILES']
    : ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER'];

/** The {@link DEFAULT_INHERITED_ENV_VARS} that are set in this process. */
export function defaultEnvironment(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of DEFAULT_INHERITED_ENV_VARS) {
    const value = process.env[key];
    // A value starting with "()" is an exported shell function (Shellshock vector): skip it.
    if (value !== undefined && !value.startsWith('()')) env[key] = value;
  }
  return env;
}

/** How many stderr lines are kept for error messages, and how long each may be. */
const STDERR_TAIL_LINES = 20;
const STDERR_TAIL_LINE_CHARS = 1000;
const STDERR_MAX_LINE_BYTES = 64 * 1024;

export type ChildProcessSnapshot = SnapshotFrom<typeof childProcessMachine>;

export interface StdioClientTransportOptions {
  /** The server executable (no shell is involved). */
  command: string;
  /**
   * What error messages call the server (its name in your configuration, e.g. "filesystem").
   * Default: the command line, with secret-looking arguments hidden.
   */
  name?: string;
  args?: string[];
  /** Added to (and overriding) the default environment. */
  env?: Record<string, string>;
  /** Pass the whole parent environment instead of the safe default set. Default false. */
  inheritEnv?: boolean;
  cwd?: string;
  /**
   * The server's stderr: 'inherit' (default) shares ours; 'pipe' captures it as `stderr$` lines
   * and for error messages; 'ignore' discards it.
   */
  stderr?: 'inherit' | 'pipe' | 'ignore';
  /** Longest accepted stdout line in bytes; longer ones arrive as `OversizeFrame` markers. */
  maxFrameBytes?: number;
  /** Milliseconds to wait for an exit after closing stdin, before SIGTERM. Default 2000. */
  closeTimeout?: number;
  /** Milliseconds to wait for an exit after SIGTERM, before SIGKILL. Default 2000. */
  termTimeout?: number;
  /** The session clock; escalation timers run on it (a SimulatedClock makes them testable). */
  clock?: Clock;
}

/** A {@link Transport} over a spawned server process. */
export interface StdioClientTransport extends Transport {
  /** The child's process id, once spawned. */
  readonly pid: number | undefined;
  /** The child's stderr, line by line (only with `stderr: 'pipe'`; hot, completes at the end). */
  readonly stderr$: Observable<string>;
  /** The last stderr lines (up to 20), with `stderr: 'pipe'`. */
  readonly stderrTail: readonly string[];
  /** Snapshots of the child-process machine (starting, running, closing.*, exited, crashed). */
  readonly machineState$: Observable<ChildProcessSnapshot>;
}

/** A stdio channel, as the OpenTelemetry conventions name it (`network.transport`). */
const STDIO_CLIENT_PEER: TransportPeer = Object.freeze({ transport: 'pipe' });

class StdioClient implements StdioClientTransport {
  readonly peerFacts = STDIO_CLIENT_PEER;
  private readonly inbound = new HotInbound<RawFrame>();
  private readonly state = new StateCell({ phase: 'connecting' });
  private readonly stderrLines = new Subject<string>();
  private readonly machineStates = new ReplaySubject<ChildProcessSnapshot>(1);
  private readonly tail: string[] = [];
  private actor: Actor<typeof childProcessMachine> | undefined;
  private child: ChildProcess | undefined;
  private writer: FrameWriter | undefined;
  private childClosed = false;
  private startPromise: Promise<void> | undefined;
  private settleStart: { resolve: () => void; reject: (e: Error) => void } | undefined;
  private closePromise: Promise<void> | undefined;
  private resolveClose: (() => void) | undefined;

  readonly inbound$ = this.inbound.observable;
  readonly state$ = this.state.observable;
  readonly stderr$ = this.stderrLines.asObservable();
  readonly machineState$ = this.machineStates.asObservable();

  constructor(private readonly opts: StdioClientTransportOptions) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get stderrTail(): readonly string[] {
    return this.tail;
  }

  start(): Promise<void> {
    if (this.startPromise) return this.startPromise;
    if (this.state.phase !== 'connecting') {
      return Promise.reject(new TransportError(`Cannot start: the stdio transport is ${this.state.phase}.`));
    }
    this.startPromise = new Promise((resolve, reject) => (this.settleStart = { resolve, reject }));
    const machine = childProcessMachine.provide({
      actions: {
        spawnProcess: () => this.spawnChild(),
        closeStdin: () => this.writer?.end(),
        sendSigterm: () => this.signal('SIGTERM'),
        sendSigkill: () => this.signal('SIGKILL'),
      },
    });
    this.actor = createActor(machine, {
      input: { closeTimeout: this.opts.closeTimeout, termTimeout: this.opts.termTimeout },
      clock: this.opts.clock ?? systemClock,
    });
    this.actor.subscribe((snapshot) => this.onMachine(snapshot));
    this.actor.start();
    return this.startPromise;
  }

  send(frame: Frame): void | Promise<void> {
    if (this.state.phase !== 'open' || this.writer === undefined) {
      throw new TransportError(`Cannot send: the stdio transport is ${this.state.phase}.`);
    }
    return this.writer.write(frame);
  }

  close(): Promise<void> {
    if (this.closePromise) return this.closePromise;
    if (this.state.terminal) return Promise.resolve();
    this.closePromise = new Promise((resolve) => (this.resolveClose = resolve));
    if (this.actor === undefined) {
      // Never started: nothing to shut down.
      this.finalize({ phase: 'closed' });
    } else {
      this.state.set({ phase: 'closing' });
      this.actor.send({ type: 'CLOSE' });
    }
    return this.closePromise;
  }

  /** Runs as the machine's `spawnProcess` action; reports back through machine events. */
  private spawnChild(): void {
    const opts = this.opts;
    const env = opts.inheritEnv ? { ...process.env, ...opts.env } : { ...defaultEnvironment(), ...opts.env };
    let child: ChildProcess;
    try {
      child = spawn(opts.command, opts.args ?? [], {
        env,
        cwd: opts.cwd,
        stdio: ['pipe', 'pipe', opts.stderr ?? 'inherit'],
        shell: false,
        windowsHide: true,
      });
    } catch (err) {
      // Invalid arguments throw synchronously; report like an async spawn error, outside this
      // action, since the machine is mid-transition.
      queueMicrotask(() => this.actor?.send({ type: 'SPAWN_FAILED', error: err as Error }));
      return;
    }
    this.child = child;
    let spawned = false;
    child.once('spawn', () => {
      spawned = true;
      this.actor?.send({ type: 'SPAWNED', pid: child.pid });
    });
    child.on('error', (err) => {
      // After a successful spawn, errors come from kill() or the pipes; the exit tells the story.
      if (!spawned) this.actor?.send({ type: 'SPAWN_FAILED', error: err });
    });
    child.once('exit', (code, signal) => this.actor?.send({ type: 'EXITED', code, signal }));
    // 'close' comes after 'exit' once stdout and stderr are drained: only then is the stderr
    // tail complete and every stdout line delivered.
    child.once('close', () => {
      this.childClosed = true;
      this.maybeFinalize();
    });

    const stdin = child.stdin!;
    const writer = new FrameWriter(stdin);
    this.writer = writer;
    // EPIPE when the child is gone: stop writing; its exit is reported by the machine.
    stdin.on('error', () => writer.abandon());

    const stdout = child.stdout!;
    guardErrors(stdout);
    fromReadable(stdout)
      .pipe(ndjsonSplit({ maxLineBytes: opts.maxFrameBytes }))
      // Non-JSON lines pass through as strings: the session's decoder deals with them.
      .subscribe({ next: (raw) => this.inbound.push(raw), error: () => {} });

    const stderr = child.stderr;
    if (stderr) {
      guardErrors(stderr);
      // Always read, subscribers or not: a child blocked on a full stderr pipe stops answering.
      fromReadable(stderr)
        .pipe(ndjsonSplit({ maxLineBytes: STDERR_MAX_LINE_BYTES }))
        .subscribe({ next: (line) => this.onStderrLine(line), error: () => {} });
    }
  }

  private onStderrLine(line: string | OversizeFrame): void {
    const text = line instanceof OversizeFrame ? `[stderr line of ${line.size}+ bytes omitted]` : line;
    if (this.tail.length === STDERR_TAIL_LINES) this.tail.shift();
    this.tail.push(text.length > STDERR_TAIL_LINE_CHARS ? text.slice(0, STDERR_TAIL_LINE_CHARS) + '…' : text);
    this.stderrLines.next(text);
  }

  private signal(sig: NodeJS.Signals): void {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    try {
      child.kill(sig);
    } catch {
      // The process may have gone in between; its exit event still arrives.
    }
  }

  private onMachine(snapshot: ChildProcessSnapshot): void {
    this.machineStates.next(snapshot);
    if (snapshot.value === 'running' && this.state.phase === 'connecting') {
      this.state.set({ phase: 'open' });
      this.settleStart?.resolve();
      this.settleStart = undefined;
    }
    if (snapshot.status === 'done') {
      this.machineStates.complete();
      this.maybeFinalize();
    }
  }

  private maybeFinalize(): void {
    const snapshot = this.actor?.getSnapshot();
    if (!snapshot || snapshot.status !== 'done') return;
    const { code, signal, spawnError } = snapshot.context;
    if (spawnError) {
      this.finalize({ phase: 'failed', error: this.spawnFailure(spawnError as NodeJS.ErrnoException) });
      return;
    }
    if (!this.childClosed) return;
    const details = { code, signal, stderrTail: this.tail.slice() };
    if (snapshot.value === 'exited') {
      this.finalize({ phase: 'closed', details });
    } else if (code === 0) {
      // The server may end the session itself by exiting (spec, lifecycle: shutdown).
      this.finalize({ phase: 'closed', details });
    } else {
      this.finalize({ phase: 'failed', error: this.exitFailure(code, signal), details });
    }
  }

  private finalize(final: TransportState): void {
    if (this.state.terminal) return;
    this.writer?.abandon();
    this.state.set(final);
    this.inbound.complete();
    this.stderrLines.complete();
    this.machineStates.complete();
    if (this.settleStart) {
      this.settleStart.reject(final.error ?? new TransportError('The stdio transport was closed before it opened.'));
      this.settleStart = undefined;
    }
    this.resolveClose?.();
  }

  private spawnFailure(err: NodeJS.ErrnoException): TransportError {
    const { command, cwd } = this.opts;
    const details = { command, args: this.opts.args ?? [], cwd, code: err.code };
    let message: string;
    if (err.code === 'ENOENT' && cwd !== undefined && !existsSync(cwd)) {
      message = `Could not start MCP server "${command}": its working directory "${cwd}" does not exist (ENOENT).`;
    } else if (err.code === 'ENOENT') {
      const path = this.opts.env?.PATH ?? (this.opts.inheritEnv ? process.env.PATH : defaultEnvironment().PATH);
      message =
        `Could not start MCP server "${command}": command not found (ENOENT). ` +
        `Check that it is installed and spelled right, and that it is on the PATH the server gets ` +
        `(${path ?? 'PATH is not set'}), or give its absolute path.`;
    } else if (err.code === 'EACCES') {
      message = `Could not start MCP server "${command}": permission denied (EACCES). Check that the file is executable.`;
    } else {
      message = `Could not start MCP server "${command}": ${err.message}`;
    }
    return new TransportError(message, details);
  }

  private exitFailure(code: number | null, signal: string | null): TransportError {
    const how = signal !== null ? `was killed by ${signal}` : `exited with code ${code}`;
    let message = `MCP server ${serverLabel(this.opts)} ${how} unexpectedly.`;
    if (this.tail.length > 0) message += ` Last stderr lines:\n${this.tail.join('\n')}`;
    else if (this.opts.stderr !== 'pipe') message += ` Use stderr: 'pipe' to see its last stderr lines here.`;
    else message += ' It wrote nothing to stderr.';
    return new TransportError(message, { code, signal, stderrTail: this.tail.slice() });
  }
}

/** Arguments whose value is hidden in messages: `--token x`, `--api-key=x`, `PASSWORD=x`... */
const SECRET_ARG = /(token|secret|password|passwd|api[-_]?key|auth|credential)/i;

/**
 * The server as error messages name it: `"name" (command line)` or `"command line"`. The command
 * line is `node server.js`, not just `/usr/bin/node`, so several servers run by one interpreter
 * can be told apart; the values of secret-looking arguments are hidden.
 */
export function serverLabel(opts: Pick<StdioClientTransportOptions, 'command' | 'args' | 'name'>): string {
  const shown: string[] = [];
  const args = opts.args ?? [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const eq = arg.indexOf('=');
    if (eq > 0 && SECRET_ARG.test(arg.slice(0, eq))) shown.push(`${arg.slice(0, eq)}=***`);
    else if (arg.startsWith('-') && eq < 0 && SECRET_ARG.test(arg) && i + 1 < args.length) {
      shown.push(arg, '***');
      i++;
    } else shown.push(arg);
  }
  let line = [opts.command, ...shown].join(' ');
  if (line.length > 200) line = `${line.slice(0, 197)}...`;
  return opts.name !== undefined ? `"${opts.name}" (${line})` : `"${line}"`;
}

/**
 * The stdio transport for an MCP client: spawns the server (no shell), writes one frame per line
 * to its stdin and reads lines from its stdout. The server gets only a safe subset of the parent
 * environment ({@link DEFAULT_INHERITED_ENV_VARS}) plus `env`, unless `inheritEnv` is set.
 * `close()` closes stdin, then after `closeTimeout` sends SIGTERM, then after `termTimeout`
 * SIGKILL (timers on `clock`). A spawn failure or an unexpected exit puts `state$` in 'failed'
 * with a {@link TransportError} (details `{ code, signal, stderrTail }`); a server exiting with
 * code 0 on its own ends the session as 'closed'. `inbound$` is hot and buffers lines until its
 * first subscriber; non-JSON lines are passed on as strings. `send()` returns a promise only while
 * the child's stdin is backed up: await it to respect backpressure.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#stdio
 */
export function createStdioClientTransport(opts: StdioClientTransportOptions): StdioClientTransport {
  return new StdioClient(opts);
}
