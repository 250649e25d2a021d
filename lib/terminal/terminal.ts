/**
 * One terminal: a shell in a pseudo-terminal (node-pty), its screen rendered by a headless
 * terminal emulator (@xterm/headless), its output an RxJS stream with a bounded history, and its
 * lifecycle `machines/terminal.machine.ts` run as an actor on the server's clock.
 *
 * `run(command)` types the command followed by a marker (`printf` of a nonce and `$?`) and
 * resolves when the marker comes back, with the exit status and the output in between.
 * Cancelling it interrupts (Ctrl-C), then after the grace period sends SIGTERM, then SIGKILL, to
 * the shell's foreground jobs (on Linux, found through /proc; elsewhere to the shell itself).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { BehaviorSubject, Subject, type Observable } from 'rxjs';
import { createActor, type Actor, type SnapshotFrom } from 'xstate';
import { terminalMachine } from '../../machines/terminal.machine.js';
import { systemClock, type Clock } from '../clock.js';
import { loadTerminalModules, type HeadlessTerminal, type PtyProcess } from './modules.js';

export type TerminalSnapshot = SnapshotFrom<typeof terminalMachine>;

/** How to start one terminal. */
export interface TerminalSpawn {
  id: string;
  file: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  cols?: number;
  rows?: number;
  /** Ctrl-C → SIGTERM → SIGKILL spacing, ms on `clock` (default 2,000). */
  graceMs?: number;
  /** Output kept for `history`, in characters (default 256 Ki). */
  historyChars?: number;
  clock?: Clock;
}

/** What a finished `run` gives back. */
export interface CommandResult {
  exitCode: number;
  /** Output between the command line and the marker, escape sequences removed. */
  output: string;
  cancelled: boolean;
  /** Characters left out of the start of `output` (it keeps the end, `maxOutputChars`). */
  truncatedChars?: number;
}

/** Thrown for input to a terminal that has exited (or a run while another is in progress). */
export class TerminalStateError extends Error {
  override readonly name = 'TerminalStateError';
}

/** Named keys for `key()`. */
export const KEYS: Readonly<Record<string, string>> = {
  'ctrl-c': '\x03',
  'ctrl-d': '\x04',
  'ctrl-z': '\x1a',
  'ctrl-l': '\x0c',
  enter: '\r',
  tab: '\t',
  escape: '\x1b',
  backspace: '\x7f',
  up: '\x1b[A',
  down: '\x1b[B',
  right: '\x1b[C',
  left: '\x1b[D',
};

/** How far back a marker is looked for: it may arrive cut between two chunks. */
const MARKER_WINDOW = 64;

// CSI, OSC and two-character escapes: what `output` leaves out.
// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]|\r/g;

/** Text without terminal escape sequences or carriage returns. */
export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

export class Terminal {
  readonly id: string;
  private readonly actor: Actor<typeof terminalMachine>;
  private readonly outputSubject = new Subject<string>();
  private readonly stateSubject: BehaviorSubject<TerminalSnapshot>;
  /** Output chunks, newest last, at most `historyChars` characters in all (joined on read). */
  private readonly historyChunks: string[] = [];
  private historyLength = 0;
  private readonly historyChars: number;
  private pending: Promise<void> = Promise.resolve();
  private running:
    | {
        nonce: string;
        start: string;
        marker: RegExp;
        /** Output since the start marker (its end only, past `keep`); before it, a short tail. */
        collected: string;
        started: number;
        keep: number;
        truncated: number;
        onOutput: ((chunk: string) => void) | undefined;
        resolve: (r: CommandResult) => void;
        cancelled: boolean;
      }
    | undefined;

  private constructor(
    spawn: TerminalSpawn,
    private readonly pty: PtyProcess,
    private readonly screenTerm: HeadlessTerminal,
    clock: Clock,
  ) {
    this.id = spawn.id;
    this.historyChars = spawn.historyChars ?? 256 * 1024;
    const machine = terminalMachine.provide({
      actions: {
        writeCommand: ({ event }) => {
          if (event.type === 'RUN') this.pty.write(event.command);
        },
        sendInterrupt: () => this.interrupt('\x03'),
        sendTerm: () => this.signalJobs('SIGTERM'),
        sendKill: () => this.signalJobs('SIGKILL'),
        reportExit: () => this.finishRun(-1, false),
      },
    });
    this.actor = createActor(machine, { input: { id: spawn.id, graceMs: spawn.graceMs ?? 2_000 }, clock });
    this.stateSubject = new BehaviorSubject(this.actor.getSnapshot());
    this.actor.subscribe((s) => this.stateSubject.next(s));
    this.actor.start();
    pty.onData((data) => this.onData(data));
    pty.onExit(({ exitCode, signal }) => {
      this.actor.send(signal ? { type: 'EXITED', exitCode, signal } : { type: 'EXITED', exitCode });
      this.outputSubject.complete();
      this.stateSubject.complete();
    });
    this.actor.send({ type: 'SPAWNED' });
  }

  /** Spawn a terminal (loads node-pty and @xterm/headless on first use). */
  static async open(spawn: TerminalSpawn): Promise<Terminal> {
    const { pty, Terminal: Screen } = await loadTerminalModules();
    const cols = spawn.cols ?? 100;
    const rows = spawn.rows ?? 30;
    const proc = pty.spawn(spawn.file, spawn.args, { name: 'xterm-256color', cols, rows, cwd: spawn.cwd, env: spawn.env });
    const screen = new Screen({ cols, rows, scrollback: 1000, allowProposedApi: true });
    return new Terminal(spawn, proc, screen, spawn.clock ?? systemClock);
  }

  /** The machine's snapshots: spawning, ready, busy (running, interrupting, terminating, killing), exited. */
  get state$(): Observable<TerminalSnapshot> {
    return this.stateSubject.asObservable();
  }

  get state(): TerminalSnapshot {
    return this.actor.getSnapshot();
  }

  get exited(): boolean {
    return this.actor.getSnapshot().status === 'done';
  }

  /** Output as it arrives (escape sequences included); completes when the shell exits. */
  get output$(): Observable<string> {
    return this.outputSubject.asObservable();
  }

  /** The latest output, at most `historyChars` characters. */
  get history(): string {
    const all = this.historyChunks.join('');
    return all.length > this.historyChars ? all.slice(-this.historyChars) : all;
  }

  get pid(): number {
    return this.pty.pid;
  }

  /** Type text into the terminal. */
  write(text: string): void {
    this.assertAlive();
    this.pty.write(text);
  }

  /** Press a named key (see {@link KEYS}). */
  key(name: string): void {
    const seq = KEYS[name.toLowerCase()];
    if (seq === undefined) throw new TypeError(`Unknown key "${name}"; known keys: ${Object.keys(KEYS).join(', ')}`);
    this.write(seq);
  }

  resize(cols: number, rows: number): void {
    this.assertAlive();
    if (!(Number.isInteger(cols) && cols > 0 && cols <= 1000 && Number.isInteger(rows) && rows > 0 && rows <= 1000)) {
      throw new RangeError(`A terminal is 1-1000 columns by 1-1000 rows; got ${cols}x${rows}`);
    }
    this.pty.resize(cols, rows);
    this.screenTerm.resize(cols, rows);
  }

  /** The screen as a person would see it now: one line per row, trailing spaces trimmed. */
  async screen(): Promise<string> {
    await this.pending;
    const buffer = this.screenTerm.buffer.active;
    const lines: string[] = [];
    for (let y = buffer.viewportY; y < buffer.viewportY + this.screenTerm.rows; y++) lines.push(buffer.getLine(y)?.translateToString(true) ?? '');
    while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
    return lines.join('\n');
  }

  /**
   * Run a command and wait for it. `signal` cancels it (Ctrl-C, then SIGTERM, then SIGKILL,
   * spaced by the grace period); `onOutput` sees its output as it comes.
   */
  run(command: string, options: { signal?: AbortSignal; onOutput?: (chunk: string) => void; maxOutputChars?: number } = {}): Promise<CommandResult> {
    this.assertAlive();
    if (this.running || !this.actor.getSnapshot().matches('ready')) throw new TerminalStateError(`Terminal ${this.id} is busy with another command`);
    if (/[\r\n]/.test(command)) throw new TypeError('A command is one line: no carriage return or newline');
    // Cancelled before it started: never typed.
    if (options.signal?.aborted) return Promise.resolve({ exitCode: 130, output: '', cancelled: true });
    const nonce = randomBytes(6).toString('hex');
    return new Promise<CommandResult>((resolve) => {
      const marker = new RegExp(`__MCP_DONE_${nonce}_(\\d+)__`);
      this.running = {
        nonce,
        start: `__MCP_START_${nonce}__`,
        marker,
        collected: '',
        started: -1,
        keep: options.maxOutputChars ?? 64 * 1024,
        truncated: 0,
        onOutput: options.onOutput,
        resolve,
        cancelled: false,
      };
      const signal = options.signal;
      const onAbort = () => {
        if (this.running?.nonce !== nonce) return;
        this.running.cancelled = true;
        this.actor.send({ type: 'CANCEL' });
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const wrapped = resolve;
      this.running.resolve = (r) => {
        signal?.removeEventListener('abort', onAbort);
        wrapped(r);
      };
      // The markers are printf output: the echoed line shows their format (`%s`), never the text.
      this.actor.send({ type: 'RUN', command: `printf '__MCP_START_%s__\\n' ${nonce}; ${command}; ${this.markerCommand(nonce)}\r` });
    });
  }

  /** Kill the shell (SIGKILL to its jobs and itself) and release the screen. */
  close(): void {
    if (this.exited) return;
    this.actor.send({ type: 'CLOSE' });
    try {
      this.pty.kill('SIGKILL');
    } catch {
      // Already gone.
    }
  }

  private markerCommand(nonce: string): string {
    return `printf '\\n__MCP_DONE_${nonce}_%s__\\n' "$?"`;
  }

  private onData(data: string): void {
    this.historyChunks.push(data);
    this.historyLength += data.length;
    while (this.historyLength - this.historyChunks[0]!.length >= this.historyChars) this.historyLength -= this.historyChunks.shift()!.length;
    this.pending = new Promise<void>((resolve) => this.screenTerm.write(data, resolve));
    this.outputSubject.next(data);
    const run = this.running;
    if (!run) return;
    // Only the new chunk and a few characters before it are searched: the markers are short.
    let before = run.collected.length;
    run.collected += data;
    if (run.started < 0) {
      const at = run.collected.indexOf(run.start, Math.max(0, before - run.start.length));
      const eol = at < 0 ? -1 : run.collected.indexOf('\n', at);
      if (eol < 0) {
        if (at < 0) run.collected = run.collected.slice(-run.start.length);
        return;
      }
      run.collected = run.collected.slice(eol + 1);
      run.started = 0;
      before = 0;
    }
    const from = Math.max(run.started, before - MARKER_WINDOW);
    run.marker.lastIndex = 0;
    const m = run.marker.exec(run.collected.slice(from));
    const end = m ? from + m.index : run.collected.length;
    if (run.onOutput && end > Math.max(before, run.started)) run.onOutput(run.collected.slice(Math.max(before, run.started), end));
    if (m) {
      run.collected = run.collected.slice(0, end);
      this.finishRun(Number(m[1]), run.cancelled);
      return;
    }
    // Keep what `output` may return (its end), plus room to find a marker cut in two.
    if (run.collected.length > run.keep + MARKER_WINDOW) {
      const cut = run.collected.length - run.keep;
      run.collected = run.collected.slice(cut);
      run.truncated += cut;
      run.started = 0;
    }
  }

  private finishRun(exitCode: number, cancelled: boolean): void {
    const run = this.running;
    if (!run) return;
    this.running = undefined;
    const raw = run.started < 0 ? '' : run.collected.slice(run.started);
    // The marker's printf starts with a newline of its own.
    let text = raw.replace(ANSI, '').replace(/\n{1,2}$/, '');
    if (text.length > run.keep) {
      run.truncated += text.length - run.keep;
      text = text.slice(-run.keep);
    }
    if (!this.exited) this.actor.send({ type: 'COMMAND_DONE' });
    const result: CommandResult = { exitCode, output: text, cancelled: cancelled || run.cancelled };
    if (run.truncated > 0) result.truncatedChars = run.truncated;
    run.resolve(result);
  }

  /** Ctrl-C, then the marker again: after an interrupt the shell drops the rest of the line. */
  private interrupt(key: string): void {
    if (this.exited) return;
    this.pty.write(key);
    if (this.running) this.pty.write(`${this.markerCommand(this.running.nonce)}\r`);
  }

  /** Signal the shell's jobs (its children's process groups); the shell itself if it has none. */
  private signalJobs(signal: 'SIGTERM' | 'SIGKILL'): void {
    if (this.exited) return;
    const pid = this.pty.pid;
    let children: number[] = [];
    try {
      children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    } catch {
      // No /proc (not Linux): the shell itself.
    }
    if (children.length === 0) {
      // Nothing runs in the foreground: only a kill of the whole terminal reaches the shell.
      if (signal === 'SIGKILL') this.pty.kill(signal);
      return;
    }
    for (const child of children) {
      try {
        process.kill(-child, signal);
      } catch {
        try {
          process.kill(child, signal);
        } catch {
          // Gone meanwhile.
        }
      }
    }
    if (this.running) this.pty.write(`${this.markerCommand(this.running.nonce)}\r`);
  }

  private assertAlive(): void {
    if (this.exited) throw new TerminalStateError(`Terminal ${this.id} has exited; open a new one`);
  }
}
