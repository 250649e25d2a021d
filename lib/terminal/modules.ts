/**
 * The terminal server's two native-ish dependencies, loaded only when a terminal is opened:
 * `node-pty` (a pseudo-terminal; builds natively) and `@xterm/headless` (the terminal emulator
 * that turns output into the screen a person would see). Both are optional peer dependencies of
 * mcp-actors, so library users who never open a terminal do not need them.
 */
import { runtimeName } from '../runtime.js';

/** What we use of a node-pty process (declared here: the types must not need node-pty installed). */
export interface PtyProcess {
  readonly pid: number;
  write(data: string): void;
  resize(cols: number, rows: number): void;
  kill(signal?: string): void;
  onData(listener: (data: string) => void): unknown;
  onExit(listener: (e: { exitCode: number; signal?: number }) => void): unknown;
}

/** What we use of node-pty. */
export interface PtyModule {
  spawn(file: string, args: string[], options: { name: string; cols: number; rows: number; cwd: string; env: Record<string, string> }): PtyProcess;
}

/** What we use of @xterm/headless's Terminal. */
export interface HeadlessTerminal {
  readonly rows: number;
  readonly cols: number;
  readonly buffer: { readonly active: { readonly viewportY: number; readonly length: number; getLine(y: number): { translateToString(trim?: boolean): string } | undefined } };
  write(data: string, callback?: () => void): void;
  resize(cols: number, rows: number): void;
  dispose(): void;
}
export type HeadlessTerminalClass = new (options: { cols: number; rows: number; scrollback?: number; allowProposedApi?: boolean }) => HeadlessTerminal;

/** Thrown when a terminal is opened without the optional dependencies installed. */
export class TerminalDependencyError extends Error {
  override readonly name = 'TerminalDependencyError';
}

let loaded: Promise<{ pty: PtyModule; Terminal: HeadlessTerminalClass }> | undefined;

/** Load node-pty and @xterm/headless once. */
export function loadTerminalModules(): Promise<{ pty: PtyModule; Terminal: HeadlessTerminalClass }> {
  loaded ??= (async () => {
    const runtime = runtimeName();
    if (runtime !== 'node') {
      // node-pty loads there but its PTY does not work: on Bun a command ends at once with no
      // output, on Deno writes to the PTY fail (EBADF) and the shell never answers.
      throw new TerminalDependencyError(
        `Terminals need node-pty, which does not work on ${runtime === 'bun' ? 'Bun' : 'Deno'}: serve terminals from a Node process (the rest of mcp-actors runs on ${runtime === 'bun' ? 'Bun' : 'Deno'})`,
      );
    }
    const need = (name: string) => (e: unknown) => {
      throw new TerminalDependencyError(`Terminals need the optional dependency "${name}": npm install ${name} (${(e as Error)?.message ?? String(e)})`);
    };
    const pty = (await import('node-pty').catch(need('node-pty'))) as unknown as PtyModule & { default?: PtyModule };
    const xterm = (await import('@xterm/headless').catch(need('@xterm/headless'))) as unknown as { Terminal?: HeadlessTerminalClass; default?: { Terminal: HeadlessTerminalClass } };
    const Terminal = xterm.Terminal ?? xterm.default?.Terminal;
    if (!Terminal) throw new TerminalDependencyError('@xterm/headless did not export Terminal');
    return { pty: typeof pty.spawn === 'function' ? pty : pty.default!, Terminal };
  })();
  loaded.catch(() => (loaded = undefined));
  return loaded;
}
