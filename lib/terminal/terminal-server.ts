/**
 * A terminal server: tools that give an agent real terminals on this machine, each a
 * {@link Terminal} actor, and each terminal's screen as a resource (`terminal://<id>/screen`)
 * with subscriptions.
 *
 * Safe by default: no shell without an explicit allowlist (`shells`), working directories only
 * inside `cwds`, an environment of a few harmless variables (no secrets) unless configured,
 * terminals bound to the identity that opened them (the authorization's `sub`, else the session)
 * and killed when the session that opened them ends, commands screened by `commandPolicy`
 * (`confirm` asks the user through elicitation first; `deny` refuses).
 *
 * `terminal_run` may run as a task (2025-11-25 tasks): cancelling the task (or its TTL running
 * out) interrupts the command like a cancelled call does: Ctrl-C, then SIGTERM, then SIGKILL.
 */
import { randomBytes } from 'node:crypto';
import { Subject, type Observable } from 'rxjs';
import { realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { systemClock, type Clock } from '../clock.js';
import type { McpServer } from '../mcp-server.js';
import type { FeatureContext } from '../server-features/feature-context.js';
import type { ToolResult } from '../server-features/tools.js';
import type { ServerCaller } from '../session/session.js';
import { taskOwner } from '../tasks/identity.js';
import { Terminal, TerminalStateError, stripAnsi, type CommandResult, type TerminalSnapshot } from './terminal.js';

/** A shell a client may open: the executable and its arguments. */
export interface ShellSpec {
  file: string;
  args?: string[];
}

/** What {@link TerminalServerConfig.commandPolicy} decides for a command. */
export type CommandVerdict = 'allow' | 'confirm' | 'deny';

export interface TerminalServerConfig {
  /** The shells clients may open, by name. Required: there is no shell without an allowlist. */
  shells: Record<string, ShellSpec>;
  /** The shell `terminal_open` starts when the client names none (default: the first). */
  defaultShell?: string;
  /** Directories a terminal may start in (or below). Required, at least one. */
  cwds: string[];
  /** Environment variables copied from this process (default PATH, HOME, USER, LOGNAME, LANG, LC_ALL, TERM, SHELL). */
  passEnv?: string[];
  /** Extra variables for the shell (set deliberately: nothing secret is passed otherwise). */
  env?: Record<string, string>;
  /** Ctrl-C → SIGTERM → SIGKILL spacing for a cancelled command, ms (default 2,000). */
  graceMs?: number;
  /** Terminals open at once per identity (default 4). */
  maxTerminalsPerOwner?: number;
  /** Screen resource updates at most this often per terminal, ms (default 100). */
  updateIntervalMs?: number;
  /** Screens commands before they run (default: allow everything). */
  commandPolicy?: (command: string) => CommandVerdict;
  /** Default: the server's clock. */
  clock?: Clock;
}

const DEFAULT_PASS_ENV = ['PATH', 'HOME', 'USER', 'LOGNAME', 'LANG', 'LC_ALL', 'TERM', 'SHELL'];

interface Entry {
  terminal: Terminal;
  owner: string;
  session: ServerCaller;
  updateTimer: unknown;
}

/** The screen resource's URI of a terminal. */
export function screenUri(id: string): string {
  return `terminal://${id}/screen`;
}

/** The terminals of one McpServer. */
export class TerminalServer {
  private readonly terminals = new Map<string, Entry>();
  private readonly stateSubject = new Subject<{ id: string; state: TerminalSnapshot }>();
  private readonly clock: Clock;
  private readonly cwds: string[];

  constructor(
    private readonly mcp: McpServer,
    private readonly config: TerminalServerConfig,
  ) {
    const names = Object.keys(config.shells ?? {});
    if (names.length === 0) throw new TypeError('A terminal server needs an explicit allowlist of shells (config.shells)');
    if (config.defaultShell !== undefined && !names.includes(config.defaultShell)) throw new TypeError(`defaultShell "${config.defaultShell}" is not in config.shells`);
    if (!config.cwds?.length) throw new TypeError('A terminal server needs the directories terminals may start in (config.cwds)');
    this.cwds = config.cwds.map((d) => realpathSync(d));
    this.clock = config.clock ?? mcp.options.clock ?? systemClock;
    this.register();
  }

  /** Every state change of every terminal (the terminal machine's snapshots), as it happens. */
  get states$(): Observable<{ id: string; state: TerminalSnapshot }> {
    return this.stateSubject.asObservable();
  }

  /** Terminals open now. */
  get size(): number {
    return this.terminals.size;
  }

  /** A terminal by id (for the server's own code: no ownership check). */
  get(id: string): Terminal | undefined {
    return this.terminals.get(id)?.terminal;
  }

  /** Kill every terminal. */
  closeAll(): void {
    for (const id of [...this.terminals.keys()]) this.remove(id);
  }

  private register(): void {
    const mcp = this.mcp;
    const shells = Object.keys(this.config.shells);
    const idArg = { type: 'string', description: 'The terminalId from terminal_open' } as const;
    const obj = (properties: Record<string, object>, required: string[]) => ({ type: 'object' as const, properties, required, additionalProperties: false });

    mcp.registerTool(
      'terminal_open',
      {
        title: 'Open a terminal',
        description: `Start a shell in a new terminal. Shells: ${shells.join(', ')}. Its screen is the resource terminal://<terminalId>/screen.`,
        inputSchema: obj(
          {
            shell: { type: 'string', enum: shells },
            cwd: { type: 'string', description: `Working directory, inside ${this.cwds.join(' or ')}` },
            cols: { type: 'integer', minimum: 10, maximum: 500 },
            rows: { type: 'integer', minimum: 5, maximum: 200 },
          },
          [],
        ),
      },
      async (raw, ctx) => {
        const args = raw as { shell?: string; cwd?: string; cols?: number; rows?: number };
        const owner = taskOwner(ctx);
        const mine = [...this.terminals.values()].filter((e) => e.owner === owner).length;
        const limit = this.config.maxTerminalsPerOwner ?? 4;
        if (mine >= limit) return failure(`You have ${mine} terminals open, the most allowed; close one first (terminal_close)`);
        const cwd = this.checkCwd(args.cwd);
        if (typeof cwd !== 'string') return cwd;
        const name = args.shell ?? this.config.defaultShell ?? shells[0]!;
        const spec = this.config.shells[name]!;
        const id = randomBytes(8).toString('hex');
        const terminal = await Terminal.open({
          id,
          file: spec.file,
          args: spec.args ?? [],
          cwd,
          env: this.environment(),
          clock: this.clock,
          ...(args.cols !== undefined && { cols: args.cols }),
          ...(args.rows !== undefined && { rows: args.rows }),
          ...(this.config.graceMs !== undefined && { graceMs: this.config.graceMs }),
        });
        this.add(terminal, owner, ctx.session);
        return { content: [{ type: 'text', text: `Opened terminal ${id} (${name} in ${cwd}); screen: ${screenUri(id)}` }], structuredContent: { terminalId: id, uri: screenUri(id) } };
      },
    );

    mcp.registerTool(
      'terminal_send',
      {
        title: 'Type into a terminal',
        description: 'Send text and/or keys (ctrl-c, ctrl-d, enter, tab, escape, up, down, left, right, backspace) to a terminal. Text is typed as is: end it with \\r to press Enter.',
        inputSchema: obj({ terminalId: idArg, text: { type: 'string', maxLength: 65536 }, keys: { type: 'array', items: { type: 'string' }, maxItems: 64 } }, ['terminalId']),
      },
      (raw, ctx) => {
        const args = raw as { terminalId: string; text?: string; keys?: string[] };
        return this.with(args.terminalId, ctx, (t) => {
          if (args.text !== undefined) t.write(args.text);
          for (const k of args.keys ?? []) t.key(k);
          return 'sent';
        });
      },
    );

    mcp.registerTool(
      'terminal_read',
      { title: 'Read a terminal screen', description: 'The screen of a terminal, as a person would see it.', inputSchema: obj({ terminalId: idArg }, ['terminalId']), annotations: { readOnlyHint: true } },
      (raw, ctx) => this.with((raw as { terminalId: string }).terminalId, ctx, (t) => t.screen(), true),
    );

    mcp.registerTool(
      'terminal_resize',
      {
        title: 'Resize a terminal',
        inputSchema: obj({ terminalId: idArg, cols: { type: 'integer', minimum: 10, maximum: 500 }, rows: { type: 'integer', minimum: 5, maximum: 200 } }, ['terminalId', 'cols', 'rows']),
      },
      (raw, ctx) => {
        const args = raw as { terminalId: string; cols: number; rows: number };
        return this.with(args.terminalId, ctx, (t) => {
          t.resize(args.cols, args.rows);
          return `resized to ${args.cols}x${args.rows}`;
        });
      },
    );

    mcp.registerTool('terminal_close', { title: 'Close a terminal', inputSchema: obj({ terminalId: idArg }, ['terminalId']) }, (raw, ctx) => {
      const id = (raw as { terminalId: string }).terminalId;
      return this.with(id, ctx, () => {
        this.remove(id);
        return 'closed';
      }, true);
    });

    mcp.registerTool(
      'terminal_run',
      {
        title: 'Run a command and wait',
        description:
          'Type a one-line command in a terminal and wait until it finishes; returns its output and exit status. ' +
          'Long commands report progress (or run as a task when your client supports tasks); cancelling interrupts the command.',
        inputSchema: obj({ terminalId: idArg, command: { type: 'string', minLength: 1, maxLength: 8192 } }, ['terminalId', 'command']),
        execution: { taskSupport: 'optional' },
      },
      (raw, ctx) => {
        const args = raw as { terminalId: string; command: string };
        return this.run(args.terminalId, args.command, ctx);
      },
    );

    mcp.registerResourceTemplate(
      'terminal-screen',
      'terminal://{id}/screen',
      {
        title: 'Terminal screen',
        description: 'What a terminal shows now; subscribe to hear when it changes.',
        mimeType: 'text/plain',
        list: (ctx) => {
          const owner = taskOwner(ctx);
          return [...this.terminals.values()].filter((e) => e.owner === owner).map((e) => ({ uri: screenUri(e.terminal.id), name: `terminal ${e.terminal.id}` }));
        },
      },
      async (uri, variables, ctx) => {
        const entry = this.terminals.get(String(variables.id));
        if (!entry || entry.owner !== taskOwner(ctx)) throw new (await import('../server-features/resources.js')).ResourceNotFoundError(uri);
        return { contents: [{ uri, mimeType: 'text/plain', text: await entry.terminal.screen() }] };
      },
    );
  }

  private async run(id: string, command: string, ctx: FeatureContext): Promise<ToolResult> {
    const entry = this.owned(id, ctx);
    if (!entry) return failure(`Unknown terminal ${id}: open one with terminal_open`);
    const verdict = this.config.commandPolicy?.(command) ?? 'allow';
    if (verdict === 'deny') return failure(`The server's policy does not allow this command: ${command}`);
    if (verdict === 'confirm') {
      const answer = await ctx.elicit({
        message: `Run this command in terminal ${id}?\n\n${command}`,
        requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean', title: 'Run it', description: 'Run the command as shown' } }, required: ['confirm'] },
      });
      if (answer.action !== 'accept' || (answer.content as { confirm?: unknown } | undefined)?.confirm !== true) return failure(`Not run: the user did not confirm "${command}"`);
    }
    let chunks = 0;
    let lastProgress = -Infinity;
    const interval = this.config.updateIntervalMs ?? 100;
    let result: CommandResult;
    try {
      result = await entry.terminal.run(command, {
        signal: ctx.signal,
        onOutput: (chunk) => {
          chunks++;
          // At most one progress notification per interval (on the clock): output can come by megabytes.
          const now = this.clock.now();
          if (now - lastProgress < interval) return;
          lastProgress = now;
          const line = stripAnsi(chunk.slice(-4096)).split('\n').filter((l) => l.trim() !== '').pop();
          ctx.progress(chunks, undefined, line?.slice(0, 200));
        },
      });
    } catch (e) {
      if (e instanceof TerminalStateError) return failure(e.message);
      throw e;
    }
    const status = (result.cancelled ? `cancelled (exit status ${result.exitCode})` : `exit status ${result.exitCode}`) + (result.truncatedChars ? `; the first ${result.truncatedChars} characters of output left out` : '');
    const out: ToolResult = { content: [{ type: 'text', text: `${result.output}\n[${status}]` }], structuredContent: { ...result } };
    return result.exitCode === 0 && !result.cancelled ? out : { ...out, isError: true };
  }

  private owned(id: string, ctx: { session: ServerCaller; authInfo: unknown }): Entry | undefined {
    const entry = this.terminals.get(id);
    return entry && entry.owner === taskOwner(ctx) ? entry : undefined;
  }

  private async with(id: string, ctx: FeatureContext, fn: (t: Terminal) => string | Promise<string>, allowExited = false): Promise<ReturnType<typeof failure> | string> {
    const entry = this.owned(id, ctx);
    if (!entry) return failure(`Unknown terminal ${id}: open one with terminal_open`);
    if (!allowExited && entry.terminal.exited) return failure(`Terminal ${id} has exited; open a new one`);
    try {
      return await fn(entry.terminal);
    } catch (e) {
      if (e instanceof TerminalStateError || e instanceof TypeError || e instanceof RangeError) return failure(e.message);
      throw e;
    }
  }

  private checkCwd(asked: string | undefined): string | ReturnType<typeof failure> {
    if (asked === undefined) return this.cwds[0]!;
    let real: string;
    try {
      real = realpathSync(resolve(this.cwds[0]!, asked));
    } catch {
      return failure(`No such directory: ${asked}`);
    }
    const inside = this.cwds.some((root) => {
      const rel = relative(root, real);
      return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
    });
    return inside ? real : failure(`Terminals may start only in ${this.cwds.join(' or ')} (or below); not ${asked}`);
  }

  private environment(): Record<string, string> {
    const env: Record<string, string> = {};
    for (const name of this.config.passEnv ?? DEFAULT_PASS_ENV) {
      const v = process.env[name];
      if (v !== undefined) env[name] = v;
    }
    env.TERM = 'xterm-256color';
    return { ...env, ...this.config.env };
  }

  private add(terminal: Terminal, owner: string, session: ServerCaller): void {
    const entry: Entry = { terminal, owner, session, updateTimer: undefined };
    this.terminals.set(terminal.id, entry);
    terminal.state$.subscribe((state) => this.stateSubject.next({ id: terminal.id, state }));
    const interval = this.config.updateIntervalMs ?? 100;
    terminal.output$.subscribe({
      next: () => {
        // Throttled on the clock: a subscribed client hears "updated" at most once per interval.
        if (entry.updateTimer !== undefined) return;
        entry.updateTimer = this.clock.setTimeout(() => {
          entry.updateTimer = undefined;
          this.mcp.resources.notifyUpdated(screenUri(terminal.id));
        }, interval);
      },
      complete: () => this.mcp.resources.notifyUpdated(screenUri(terminal.id)),
    });
    // Terminals die with the session that opened them.
    session.onEnd(() => this.remove(terminal.id));
  }

  private remove(id: string): void {
    const entry = this.terminals.get(id);
    if (!entry) return;
    this.terminals.delete(id);
    if (entry.updateTimer !== undefined) this.clock.clearTimeout(entry.updateTimer);
    entry.terminal.close();
  }
}

function failure(message: string): { content: { type: 'text'; text: string }[]; isError: true } {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/** Give `mcp` terminal tools and screen resources (see {@link TerminalServer}). */
export function addTerminals(mcp: McpServer, config: TerminalServerConfig): TerminalServer {
  return new TerminalServer(mcp, config);
}
