/**
 * Built-in interceptor: `logging(logger)` writes one line per request as it ends (method, tool or
 * prompt name or resource uri, caller, outcome, error, duration on the server's clock) and one per
 * notification. Register it after `redactArguments` to keep secrets out of what it logs.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic
 */
import { systemClock } from '../../clock.js';
import type { JsonObject } from '../../jsonrpc/message.js';
import type { InterceptedRequest, Interceptor } from './server-chain.js';

/** One logged request or notification. */
export interface InterceptLogEntry {
  kind: 'request' | 'notification';
  method: string;
  id?: string | number;
  /** The tool or prompt name, or the resource uri, when the method has one. */
  target?: string;
  /** The principal, else the legacy session, else `anonymous`. */
  caller: string;
  era: 'legacy' | 'modern';
  /** `answered`, `inputRequired` (a 2026-07-28 round asked the client), `failed`, or `received` (a notification). */
  outcome: 'answered' | 'inputRequired' | 'failed' | 'received';
  error?: { code?: number; message: string };
  durationMs: number;
  /** The params as this stage saw them, when `withParams` is set. */
  params?: JsonObject;
}

/** Where log lines go: a function, or an object with `info` and `error` (console, pino...). */
export type InterceptLogger = ((entry: InterceptLogEntry) => void) | { info(message: string, entry: InterceptLogEntry): void; error?(message: string, entry: InterceptLogEntry): void };

export interface LoggingOptions {
  /** Include the params in each entry (after any `redactArguments` registered before this). Default false. */
  withParams?: boolean;
}

/** Log each request and notification as it ends; a logger that throws is ignored (it never fails a request). */
export function logging(logger: InterceptLogger, options: LoggingOptions = {}): Interceptor {
  if (logger === null || (typeof logger !== 'function' && typeof (logger as { info?: unknown })?.info !== 'function')) {
    throw new TypeError('logging() takes a function or an object with an info(message, entry) method');
  }
  const write = (entry: InterceptLogEntry) => {
    try {
      if (typeof logger === 'function') logger(entry);
      else if (entry.outcome === 'failed' && logger.error) logger.error(lineOf(entry), entry);
      else logger.info(lineOf(entry), entry);
    } catch {
      // A broken logger must not fail the request it logs.
    }
  };
  const stage = async (req: InterceptedRequest, next: Parameters<Interceptor>[1]): Promise<JsonObject> => {
    const clock = req.clock ?? systemClock;
    const started = clock.now();
    const base = (): InterceptLogEntry => {
      const entry: InterceptLogEntry = {
        kind: req.kind ?? 'request',
        method: req.method,
        caller: req.caller.principal ?? req.caller.sessionId ?? 'anonymous',
        era: req.caller.era,
        outcome: 'answered',
        durationMs: clock.now() - started,
      };
      if (req.id !== undefined) entry.id = req.id;
      const target = req.params?.name ?? req.params?.uri;
      if (typeof target === 'string') entry.target = target;
      if (options.withParams && req.params !== undefined) entry.params = req.params;
      return entry;
    };
    try {
      const result = await next();
      const entry = base();
      entry.outcome = req.kind === 'notification' ? 'received' : result.resultType === 'input_required' ? 'inputRequired' : 'answered';
      write(entry);
      return result;
    } catch (e) {
      const entry = base();
      entry.outcome = 'failed';
      const code = (e as { code?: unknown })?.code;
      entry.error = typeof code === 'number' ? { code, message: (e as Error).message } : { message: (e as Error)?.message ?? String(e) };
      write(entry);
      throw e;
    }
  };
  return Object.assign(stage, { interceptorName: 'logging' });
}

function lineOf(e: InterceptLogEntry): string {
  const what = e.target === undefined ? e.method : `${e.method} ${e.target}`;
  const how = e.error === undefined ? e.outcome : `${e.outcome} ${e.error.code ?? ''} ${e.error.message}`.replace('  ', ' ');
  return `${what} from ${e.caller} (${e.era}): ${how} in ${e.durationMs} ms`;
}
