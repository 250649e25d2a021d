/**
 * One CLI session with a server: our Client (in its default era unless --era says otherwise) with
 * the terminal answering elicitations and sampling, one request at a time with a progress bar,
 * Ctrl-C cancelling the request in flight (`notifications/cancelled`, or in the 2026-07-28 era
 * over HTTP closing its response stream) and closing cleanly.
 */
import { Client } from '../client.js';
import type { Progress } from '../session/session.js';
import { SamplingRejectedError } from '../client-features/client-feature-errors.js';
import { ConnectionClosedError, McpError, RequestCancelledError, TransportError } from '../errors.js';
import type { JsonObject } from '../jsonrpc/message.js';
import { CliError, ExitCode } from './exit-codes.js';
import { connectFailure, quoteLine, type ConnectNotes } from './connect-failure.js';
import { ServerExitedOnProbeError } from '../client-modern/modern-client-errors.js';
import { transportFor, type Target } from './target.js';
import { askForm, askSampling, askUrlConsent, askWhenDone, ProgressBar, type TerminalIO } from './terminal-io.js';
import type { Style } from './style.js';

export interface ConnectionOptions {
  style: Style;
  /** The terminal, when a person is there to answer (elicitation and sampling are declared only then). */
  terminal?: TerminalIO | undefined;
  /** Request timeout in ms. */
  timeout?: number | undefined;
  /** Which era to speak (the Client's `era` option); undefined: the Client's default. */
  era?: 'auto' | 'legacy' | 'modern' | undefined;
  /** Where errors and the progress bar go. */
  stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  /** More client capabilities to declare (`app` declares the MCP Apps extension). */
  capabilities?: Record<string, unknown> | undefined;
}

export interface CliConnection {
  client: Client;
  /** Run one request: progress drawn, Ctrl-C cancels it. */
  run<T>(work: (options: { signal: AbortSignal; onprogress: (p: Progress) => void; timeout?: number }) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * What Ctrl-C did to the request in flight, as it happened: a `notifications/cancelled`, except in
 * the 2026-07-28 era over HTTP, where the client closes the request's response stream instead.
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/cancellation
 */
export function cancelledMessage(era: 'modern' | 'legacy' | undefined, target: Target): string {
  if (era === 'modern' && target.kind === 'http') return 'Cancelled: the request\'s response stream was closed, which tells a 2026-07-28 server over HTTP to stop.';
  return 'Cancelled: the server was told (notifications/cancelled).';
}

/** Turn a failure into the CLI's message and exit code. */
export function asCliError(e: unknown, target: Target, era?: 'modern' | 'legacy'): CliError {
  if (e instanceof CliError) return e;
  if (e instanceof RequestCancelledError) return new CliError(cancelledMessage(era, target), ExitCode.Interrupted);
  if (e instanceof ConnectionClosedError || e instanceof TransportError) {
    return new CliError(`Connection to ${target.label} failed: ${(e as Error).message}. Check that the server starts and speaks MCP (run it by hand to see its errors).`, ExitCode.Connection);
  }
  if (e instanceof McpError) return new CliError(`The server answered error ${e.code}: ${e.message}`, ExitCode.ServerError);
  const err = e as NodeJS.ErrnoException;
  if (err?.code === 'ENOENT') return new CliError(`Cannot start ${target.label}: command not found. Check the command and your PATH.`, ExitCode.Connection);
  return new CliError(`Connection to ${target.label} failed: ${err?.message ?? String(e)}`, ExitCode.Connection);
}

/**
 * Connect to the target. `shownBefore`: the stderr lines a first attempt already showed (the
 * retry in the legacy era leaves out the same lines, so a crash is not printed twice).
 */
export async function connect(target: Target, options: ConnectionOptions, shownBefore: readonly string[] = []): Promise<CliConnection> {
  const client = new Client({
    info: { name: 'mcp-actors-cli', version: '0.1.0' },
    ...(options.era !== undefined && { era: options.era }),
    // --timeout bounds the era probe too (on stdio it waits 30 s for a server that answers nothing).
    ...(options.timeout !== undefined && { timeout: options.timeout, probeTimeoutMs: options.timeout }),
  });
  let interrupt: (() => void) | undefined;
  const term = options.terminal ? { ...options.terminal, onInterrupt: () => interrupt?.() } : undefined;
  const bar = new ProgressBar(options.stderr, options.style);
  if (term) {
    client.onElicitation({
      applyDefaults: true,
      form: (request, ctx) => {
        bar.clear();
        return askForm(term, request, ctx.signal, ctx.errors);
      },
      url: async (request, control) => {
        bar.clear();
        const consent = await askUrlConsent(term, request, control.signal);
        if (consent !== 'accept') return consent;
        // 2026-07-28: the accept goes back with the retried call, whose answer depends on the
        // person having finished on the page, so they say when (ELICIT-083), or cancel the call.
        if (request.elicitationId === undefined) {
          if ((await askWhenDone(term, control.signal)) === 'retry') return 'accept';
          interrupt?.();
          return 'cancel';
        }
        if (request.origin === 'error') {
          // A -32042 error's page: the call is retried on the server's completion notification, or
          // when the person says they are done, whichever comes first; or they cancel it.
          const sub = control.status$.subscribe((st) => {
            if (st.state !== 'awaiting') return;
            sub.unsubscribe();
            askWhenDone(term, control.signal).then(
              (next) => {
                if (next === 'retry') control.retry();
                else {
                  control.cancel();
                  interrupt?.();
                }
              },
              () => undefined, // the completion came first: the prompt was closed
            );
          });
          control.signal.addEventListener('abort', () => sub.unsubscribe(), { once: true });
        }
        return 'accept';
      },
    });
    // Asked in the handler, not through `approve`: the handler's signal closes the prompt when the server withdraws the request.
    client.onSampling(async (params, ctx) => {
      bar.clear();
      const reply = await askSampling(term, params, ctx.session.peerInfo?.name, ctx.signal);
      if (!reply) throw new SamplingRejectedError();
      return reply;
    });
  }
  if (options.capabilities !== undefined) client.declareCapabilities(options.capabilities);
  const notes: ConnectNotes = { junk: [], junkCount: 0, stderrShown: target.kind === 'stdio', timeout: options.timeout };
  // Lines a stdio server prints on stdout that are not JSON are ignored by the client: said here,
  // since they are why such a server seems never to answer.
  client.frames$.subscribe((f) => {
    if (f.direction !== 'in' || typeof f.frame !== 'string') return;
    if (notes.junkCount++ < 3) {
      notes.junk.push(f.frame);
      options.stderr.write(`${options.style.yellow('warning:')} ${target.label} wrote a line on stdout that is not JSON-RPC (ignored): ${quoteLine(f.frame)}\n`);
    }
  });
  const firstRun: string[] = [];
  let repeated = shownBefore.length > 0 ? 0 : -1;
  const echo = (line: string): void => {
    firstRun.push(line);
    if (repeated >= 0 && line === shownBefore[repeated]) {
      repeated++;
      return;
    }
    repeated = -1;
    options.stderr.write(line + '\n');
  };
  try {
    await client.connect(transportFor(target, echo));
  } catch (e) {
    await client.close().catch(() => undefined);
    // A server that exits when probed may be a legacy one that ends on any request before
    // initialize: connected again in the legacy era, as a host does (unless --era was given).
    if (!(e instanceof ServerExitedOnProbeError) || options.era !== undefined) throw connectFailure(e, target, notes);
    return connect(target, { ...options, era: 'legacy' }, firstRun);
  }

  return {
    client,
    async run(work) {
      const ac = new AbortController();
      let interrupted = false;
      interrupt = () => {
        interrupted = true;
        bar.clear();
        ac.abort('interrupted by the user (Ctrl-C)');
      };
      const onSigint = () => interrupt?.();
      process.on('SIGINT', onSigint);
      try {
        return await work({
          signal: ac.signal,
          onprogress: (p) => bar.update(p.progress, p.total, p.message),
          ...(options.timeout !== undefined && { timeout: options.timeout }),
        });
      } catch (e) {
        if (interrupted) throw new CliError(cancelledMessage(client.era, target), ExitCode.Interrupted);
        throw asCliError(e, target, client.era);
      } finally {
        bar.clear();
        process.off('SIGINT', onSigint);
        interrupt = undefined;
      }
    },
    close: () => client.close().catch(() => undefined),
  };
}

/** Parse `key=value` words (values as JSON when they parse, else strings) or one JSON object. */
export function parseArguments(words: string[], json: string | undefined, strings = false): JsonObject {
  const out: JsonObject = {};
  if (json !== undefined) {
    let v: unknown;
    try {
      v = JSON.parse(json);
    } catch (e) {
      throw new CliError(`--args is not JSON: ${(e as Error).message}. Quote it for the shell: --args '{"text":"hi"}'`, ExitCode.BadInput);
    }
    if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new CliError('--args must be a JSON object', ExitCode.BadInput);
    Object.assign(out, v);
  }
  for (const w of words) {
    const i = w.indexOf('=');
    if (i <= 0) throw new CliError(`Arguments are key=value; got ${JSON.stringify(w)}`, ExitCode.Usage);
    const key = w.slice(0, i);
    const raw = w.slice(i + 1);
    let value: unknown = raw;
    if (!strings) {
      try {
        value = JSON.parse(raw);
      } catch {
        // a plain string
      }
    }
    out[key] = value as JsonObject[string];
  }
  return out;
}
