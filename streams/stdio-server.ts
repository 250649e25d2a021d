/**
 * The server side of the stdio transport: frames in on stdin, frames out on stdout, one JSON
 * text per line. Also the pipe plumbing the stdio client shares (readable → Observable, and a
 * coalescing, backpressure-aware frame writer).
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#stdio
 */
import { Console } from 'node:console';
import process from 'node:process';
import type { Readable, Writable } from 'node:stream';
import { Observable, type Subscription } from 'rxjs';
import type { Frame } from '../lib/jsonrpc/message.js';
import { systemClock, type Clock } from '../lib/clock.js';
import { TransportError } from '../lib/errors.js';
import { HotInbound, StateCell } from './memory.js';
import { ndjsonSplit } from './ndjson-split.js';
import { toNdjsonLine } from './ndjson-encode.js';
import type { RawFrame, Transport, TransportPeer, TransportState } from './transport.js';

/**
 * The chunks of a readable stream as an Observable. Completes on 'end' (or on 'close' without
 * 'end', i.e. a destroyed stream); errors on 'error'. Unsubscribing detaches the listeners.
 * @internal
 */
export function fromReadable(stream: Readable): Observable<Uint8Array | string> {
  return new Observable<Uint8Array | string>((subscriber) => {
    const onData = (chunk: Uint8Array | string) => subscriber.next(chunk);
    const onEnd = () => subscriber.complete();
    const onError = (err: Error) => subscriber.error(err);
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('close', onEnd);
    stream.on('error', onError);
    return () => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('close', onEnd);
      stream.off('error', onError);
    };
  });
}

/** Swallows late pipe errors (EPIPE after the peer left) so they cannot crash the process. */
const ignoreError = (): void => {};

/** Attaches {@link ignoreError} once per stream. @internal */
export function guardErrors(stream: Writable | Readable): void {
  if (!stream.listeners('error').includes(ignoreError)) stream.on('error', ignoreError);
}

/**
 * Writes frames as NDJSON lines to a pipe. Frames sent within one tick are joined into a single
 * `write()` (one syscall instead of one per frame). When the pipe is full it stops writing until
 * 'drain', and `write()` returns a promise that resolves then, so a producer that awaits it keeps
 * memory bounded; one promise is shared per full-pipe episode, the fast path allocates none.
 * @internal
 */
export class FrameWriter {
  private pending = '';
  private scheduled = false;
  private blocked = false;
  private dead = false;
  private drained: Promise<void> | undefined;
  private resolveDrained: (() => void) | undefined;
  private readonly flushBound = (): void => this.flush();
  private readonly onDrain = (): void => {
    this.blocked = false;
    const resolve = this.resolveDrained;
    this.drained = this.resolveDrained = undefined;
    this.flush();
    resolve?.();
  };

  constructor(private readonly out: Writable) {}

  write(frame: Frame): void | Promise<void> {
    if (this.dead) return;
    // String concatenation builds a rope; V8 flattens it once, when the chunk is written.
    this.pending += toNdjsonLine(frame);
    if (this.blocked) return this.whenDrained();
    if (!this.scheduled) {
      this.scheduled = true;
      queueMicrotask(this.flushBound);
    }
  }

  /** Writes what is queued now. Resolves once the pipe has taken it (after 'drain' if full). */
  flushNow(): Promise<void> {
    this.flush();
    return this.blocked ? this.whenDrained() : Promise.resolve();
  }

  /** Writes what is queued and ends the stream (closes the pipe). */
  end(): void {
    if (this.dead) return;
    this.dead = true;
    const rest = this.pending;
    this.pending = '';
    this.out.off('drain', this.onDrain);
    if (this.out.writableEnded || this.out.destroyed) return;
    if (rest !== '') this.out.end(rest);
    else this.out.end();
    this.releaseWaiters();
  }

  /** The pipe is gone: drop what is queued and release anyone waiting for 'drain'. */
  abandon(): void {
    this.dead = true;
    this.pending = '';
    this.out.off('drain', this.onDrain);
    this.releaseWaiters();
  }

  private flush(): void {
    this.scheduled = false;
    if (this.blocked || this.dead || this.pending === '') return;
    const chunk = this.pending;
    this.pending = '';
    if (this.out.destroyed) return;
    if (!this.out.write(chunk)) {
      this.blocked = true;
      this.out.once('drain', this.onDrain);
    }
  }

  private whenDrained(): Promise<void> {
    if (this.drained === undefined) {
      this.drained = new Promise((resolve) => (this.resolveDrained = resolve));
    }
    return this.drained;
  }

  private releaseWaiters(): void {
    const resolve = this.resolveDrained;
    this.drained = this.resolveDrained = undefined;
    this.blocked = false;
    resolve?.();
  }
}

// Every console method that prints to stdout. group/time/count keep state per Console, so they
// move together with log, or their indentation and labels would be split across two consoles.
const STDOUT_CONSOLE_METHODS = [
  'log', 'info', 'debug', 'dir', 'dirxml', 'table', 'count', 'countReset',
  'group', 'groupCollapsed', 'groupEnd', 'time', 'timeEnd', 'timeLog',
] as const;
type StdoutConsoleMethod = (typeof STDOUT_CONSOLE_METHODS)[number];

// Reference-counted, so two transports opening and closing in any order restore correctly.
let redirectDepth = 0;
let savedConsole: Partial<Record<StdoutConsoleMethod, unknown>> = {};
let installedConsole: Partial<Record<StdoutConsoleMethod, unknown>> = {};

/** Sends console output meant for stdout to stderr; returns the undo function. */
function redirectConsoleToStderr(): () => void {
  if (redirectDepth++ === 0) {
    const toStderr = new Console({ stdout: process.stderr, stderr: process.stderr });
    const target = console as unknown as Record<StdoutConsoleMethod, unknown>;
    savedConsole = {};
    installedConsole = {};
    for (const name of STDOUT_CONSOLE_METHODS) {
      savedConsole[name] = target[name];
      target[name] = installedConsole[name] = (toStderr[name] as (...a: unknown[]) => void).bind(toStderr);
    }
  }
  let undone = false;
  return () => {
    if (undone) return;
    undone = true;
    if (--redirectDepth !== 0) return;
    const target = console as unknown as Record<StdoutConsoleMethod, unknown>;
    for (const name of STDOUT_CONSOLE_METHODS) {
      // Leave alone a method user code replaced in the meantime.
      if (target[name] === installedConsole[name]) target[name] = savedConsole[name];
    }
    savedConsole = {};
    installedConsole = {};
  };
}

export interface StdioServerTransportOptions {
  /** Where frames come from. Default `process.stdin`. */
  stdin?: Readable;
  /** Where frames go. Default `process.stdout`. */
  stdout?: Writable;
  /** Longest accepted line in bytes; longer ones arrive as `OversizeFrame` markers. */
  maxFrameBytes?: number;
  /**
   * While open, send `console.log/info/debug` (and the other stdout-printing console methods)
   * to stderr, since anything else on stdout corrupts the protocol stream. Default true.
   */
  redirectConsole?: boolean;
  /**
   * When stdin ends first, how long (ms) requests still being handled may take to answer before
   * the transport closes anyway. Default 5000. A session closes it as soon as it has answered
   * everything it received.
   */
  drainTimeoutMs?: number;
  /** The clock of the drain timeout. Default the system clock. */
  clock?: Clock;
}

/** The default of {@link StdioServerTransportOptions.drainTimeoutMs}. */
export const DEFAULT_STDIO_DRAIN_TIMEOUT_MS = 5000;

const STDIO_PEER: TransportPeer = Object.freeze({ transport: 'pipe' });

class StdioServer implements Transport {
  private readonly stdin: Readable;
  private readonly stdout: Writable;
  private readonly inbound = new HotInbound<RawFrame>();
  private readonly state = new StateCell({ phase: 'connecting' });
  private readonly writer: FrameWriter;
  private reading: Subscription | undefined;
  private restoreConsole: (() => void) | undefined;
  private closing: Promise<void> | undefined;
  /** stdin ended: no more input, answers to what came in may still go out. */
  private inputEnded = false;
  private drainTimer: unknown;

  readonly inbound$ = this.inbound.observable;
  readonly state$ = this.state.observable;
  /** stdio: a pipe, no session id, no address. */
  readonly peerFacts = STDIO_PEER;

  private readonly onStdoutError = (err: NodeJS.ErrnoException): void => {
    this.writer.abandon();
    // EPIPE: the client closed its end; that is a close, not a crash.
    this.finish(
      err.code === 'EPIPE'
        ? { phase: 'closed', error: err }
        : { phase: 'failed', error: new TransportError(`stdout failed: ${err.message}`, { code: err.code }) },
    );
  };

  constructor(private readonly opts: StdioServerTransportOptions) {
    this.stdin = opts.stdin ?? process.stdin;
    this.stdout = opts.stdout ?? process.stdout;
    this.writer = new FrameWriter(this.stdout);
  }

  start(): Promise<void> {
    if (this.state.phase === 'open') return Promise.resolve();
    if (this.state.phase !== 'connecting' || this.reading) {
      return Promise.reject(new TransportError(`Cannot start: the stdio transport is ${this.state.phase}.`));
    }
    if (this.opts.redirectConsole !== false) this.restoreConsole = redirectConsoleToStderr();
    this.stdout.on('error', this.onStdoutError);
    this.state.set({ phase: 'open' });
    this.reading = fromReadable(this.stdin)
      .pipe(ndjsonSplit({ maxLineBytes: this.opts.maxFrameBytes }))
      .subscribe({
        next: (raw) => this.inbound.push(raw),
        // The client closing our stdin is how a stdio session ends; requests already received
        // are still answered (the session closes us once it has answered them).
        complete: () => this.endInput(),
        error: (err: Error) =>
          this.finish({ phase: 'failed', error: new TransportError(`stdin failed: ${err.message}`) }),
      });
    return Promise.resolve();
  }

  send(frame: Frame): void | Promise<void> {
    if (this.state.phase !== 'open' && !(this.inputEnded && this.closing === undefined && !this.state.terminal)) {
      throw new TransportError(`Cannot send: the stdio transport is ${this.state.phase}.`);
    }
    return this.writer.write(frame);
  }

  /**
   * stdin ended: complete `inbound$`, enter 'closing' with `details.inputEnded` (a session that
   * sees it closes the transport once in-flight requests are answered), and close after the
   * drain timeout whatever happens.
   */
  private endInput(): void {
    if (this.inputEnded || this.state.phase !== 'open') return;
    this.inputEnded = true;
    this.inbound.complete();
    // The timer first: a session with nothing owed closes us from inside state.set.
    const clock = this.opts.clock ?? systemClock;
    this.drainTimer = clock.setTimeout(() => void this.close(), this.opts.drainTimeoutMs ?? DEFAULT_STDIO_DRAIN_TIMEOUT_MS, 'stdio:drain');
    this.state.set({ phase: 'closing', details: { inputEnded: true } });
  }

  close(): Promise<void> {
    if (this.closing) return this.closing;
    if (this.drainTimer !== undefined) {
      (this.opts.clock ?? systemClock).clearTimeout(this.drainTimer);
      this.drainTimer = undefined;
    }
    if (this.state.terminal) return Promise.resolve();
    if (!this.inputEnded) this.state.set({ phase: 'closing' });
    // Frames already sent still go out before we report closed.
    this.closing = this.writer.flushNow().then(() => this.finish({ phase: 'closed' }));
    return this.closing;
  }

  private finish(final: TransportState): void {
    if (this.state.terminal) return;
    this.reading?.unsubscribe();
    // Nobody else reading: pause, so a process.stdin in flowing mode stops holding the loop open.
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.stdout.off('error', this.onStdoutError);
    guardErrors(this.stdout);
    this.restoreConsole?.();
    this.restoreConsole = undefined;
    this.state.set(final);
    this.inbound.complete();
  }
}

/**
 * The stdio transport for an MCP server: reads newline-delimited JSON-RPC from stdin, writes one
 * frame per line to stdout and nothing else. While open it redirects `console.log` and friends
 * to stderr (option `redirectConsole`, default true), since stray output would corrupt the stream.
 * When stdin ends the transport closes cleanly; EPIPE on stdout (client gone) closes it too.
 * `inbound$` is hot and buffers lines until its first subscriber. `send()` returns a promise only
 * while stdout is backed up: await it to respect backpressure.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#stdio
 */
export function createStdioServerTransport(opts: StdioServerTransportOptions = {}): Transport {
  return new StdioServer(opts);
}
