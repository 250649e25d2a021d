// Running the CLI as a person and as a script would: under a pseudo-terminal (node-pty) or as a
// plain child process with pipes.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import * as pty from 'node-pty';
import { tsArgs } from '../helpers/ts-child.js';

export const CLI = fileURLToPath(new URL('../../lib/cli/main.ts', import.meta.url));
export const TERMINAL_SERVER = fileURLToPath(new URL('../fixtures/cli/terminal-server.ts', import.meta.url));
/** The command line of the fixture server, after `--`. */
export const TERMINAL_SERVER_CMD = [process.execPath, ...tsArgs(TERMINAL_SERVER)];

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Run the CLI with pipes (not a terminal); resolves when it exits. */
export function runCli(args: string[], options: { env?: Record<string, string>; input?: string; timeoutMs?: number } = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...tsArgs(CLI), ...args], { env: { ...process.env, NO_COLOR: '1', ...options.env }, stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`CLI did not exit within ${options.timeoutMs ?? 15000} ms: ${args.join(' ')}\n${stdout}\n${stderr}`));
    }, options.timeoutMs ?? 15000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    if (options.input !== undefined) child.stdin.end(options.input);
    else child.stdin.end();
  });
}

/** The CLI under a pseudo-terminal: what a person sees, and a keyboard. */
export class Terminal {
  private readonly term: pty.IPty;
  output = '';
  readonly exited: Promise<number>;
  constructor(args: string[], env: Record<string, string> = {}) {
    const base = { ...process.env } as Record<string, string>;
    delete base.NO_COLOR;
    delete base.FORCE_COLOR;
    this.term = pty.spawn(process.execPath, [...tsArgs(CLI), ...args], { name: 'xterm-256color', cols: 100, rows: 30, env: { ...base, ...env } });
    this.term.onData((d) => (this.output += d));
    this.exited = new Promise((resolve) => this.term.onExit(({ exitCode }) => resolve(exitCode)));
  }
  /** Resolves once the output (ANSI codes stripped or not) contains `text`. */
  async waitFor(text: string | RegExp, ms = 15000): Promise<void> {
    const start = Date.now();
    while (!(typeof text === 'string' ? plain(this.output).includes(text) : text.test(plain(this.output)))) {
      if (Date.now() - start > ms) throw new Error(`terminal never showed ${String(text)}; it shows:\n${plain(this.output)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  type(keys: string): void {
    this.term.write(keys);
  }
  kill(): void {
    try {
      this.term.kill();
    } catch {
      // already gone
    }
  }
}

/** The text without ANSI escape sequences. */
export function plain(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');
}

/** Run the CLI in this process with captured streams (no terminal): fast, for scripts' behaviour. */
export async function runInProcess(args: string[], cwd = process.cwd()): Promise<Run> {
  const { runCli: run } = await import('../../lib/cli/main.js');
  const { PassThrough } = await import('node:stream');
  const { makeStyle } = await import('../../lib/cli/style.js');
  const out = new PassThrough();
  const err = new PassThrough();
  const input = new PassThrough();
  input.end();
  let stdout = '';
  let stderr = '';
  out.on('data', (d) => (stdout += d));
  err.on('data', (d) => (stderr += d));
  const code = await run(args, { stdout: out, stderr: err, stdin: input, cwd, env: { ...process.env, NO_COLOR: '1' }, style: makeStyle(false), errStyle: makeStyle(false) });
  return { code, stdout, stderr };
}

/** A long-running CLI (or other) process that prints a line we wait for (a URL), and stops on SIGINT. */
export interface Background {
  child: import('node:child_process').ChildProcess;
  /** The first match of the pattern. */
  match: RegExpExecArray;
  /** SIGINT, then wait for it to exit (SIGKILL after 5 s). */
  stop(): Promise<void>;
}

/** Start `args` (a node script with its arguments) and wait until its stdout or stderr matches `pattern`. */
export function background(args: string[], pattern: RegExp, env: Record<string, string> = {}, ms = 30000): Promise<Background> {
  const child = spawn(process.execPath, args, { env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${args.join(' ')} never printed ${String(pattern)}:\n${seen}`));
    }, ms);
    const look = (d: Buffer) => {
      // eslint-disable-next-line no-control-regex
      seen += String(d).replace(/\x1b\[[0-9;]*m/g, '');
      const match = pattern.exec(seen);
      if (!match) return;
      clearTimeout(timer);
      child.stdout!.off('data', look);
      child.stderr!.off('data', look);
      child.stdout!.resume();
      child.stderr!.resume();
      resolve({
        child,
        match,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
            child.once('exit', () => {
              clearTimeout(kill);
              done();
            });
            child.kill('SIGINT');
          }),
      });
    };
    child.stdout!.on('data', look);
    child.stderr!.on('data', look);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${args.join(' ')} exited (${code}) before printing ${String(pattern)}:\n${seen}`));
    });
  });
}
