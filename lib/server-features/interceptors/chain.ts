/**
 * The server interceptor chain (issue 29): an ordered list of stages around one request's handler.
 * Pure composition, no I/O; the dispatch points of each era are meant to call {@link runChain}.
 * @see https://modelcontextprotocol.io/specification/2025-06-18/basic
 */
import { McpError } from '../../errors.js';
import { ErrorCode } from '../../jsonrpc/error-codes.js';
import type { JsonObject } from '../../jsonrpc/message.js';

/** Who sent a request, as an interceptor sees it. */
export interface InterceptorCaller {
  readonly era: 'legacy' | 'modern';
  readonly sessionId?: string | undefined;
  readonly principal?: string | undefined;
  readonly authInfo?: unknown;
}

/** One request as an interceptor sees it. */
export interface InterceptedRequest {
  readonly method: string;
  readonly params: JsonObject | undefined;
  readonly caller: InterceptorCaller;
  /** Ends when the request is cancelled (client cancel, HTTP close): a stage that waits should listen. */
  readonly signal?: AbortSignal | undefined;
}

/** The rest of the chain; pass new params to rewrite them for the stages after this one. */
export type InterceptorNext = (params?: JsonObject | undefined) => Promise<JsonObject>;

/** A stage: return a result (short-circuit) or what `next` returns (possibly rewritten). */
export type Interceptor = ((req: InterceptedRequest, next: InterceptorNext) => Promise<JsonObject>) & { readonly interceptorName?: string };

/** The handler at the end of the chain. */
export type ChainTerminal = (params: JsonObject | undefined) => Promise<JsonObject>;

/**
 * Run `interceptors` in registration order around `terminal`. An `McpError` passes through unchanged; any other
 * error from a stage becomes -32603 naming the stage. A cancelled `signal` ends the chain at once, so a stage that
 * never resolves cannot hold the request.
 */
export function runChain(interceptors: readonly Interceptor[], req: InterceptedRequest, terminal: ChainTerminal): Promise<JsonObject> {
  // Zero cost when none are registered: the handler is called directly.
  if (interceptors.length === 0) return terminal(req.params);
  const step = (i: number, params: JsonObject | undefined): Promise<JsonObject> => {
    if (i === interceptors.length) return terminal(params);
    const stage = interceptors[i]!;
    const here: InterceptedRequest = { ...req, params };
    let called = false;
    const next: InterceptorNext = (p) => {
      if (called) return Promise.reject(new McpError(ErrorCode.InternalError, `Interceptor "${nameOf(stage, i)}" called next() twice`));
      called = true;
      return step(i + 1, p === undefined ? params : p);
    };
    let out: Promise<JsonObject>;
    try {
      out = Promise.resolve(stage(here, next));
    } catch (e) {
      out = Promise.reject(e);
    }
    return out.catch((e: unknown) => {
      if (e instanceof McpError) throw e;
      throw new McpError(ErrorCode.InternalError, `Interceptor "${nameOf(stage, i)}" failed: ${(e as Error)?.message ?? String(e)}`);
    });
  };
  const run = step(0, req.params);
  const signal = req.signal;
  if (!signal) return run;
  return new Promise<JsonObject>((resolve, reject) => {
    const onAbort = (): void => reject(new McpError(ErrorCode.RequestTimeout, `Request "${req.method}" was cancelled while in an interceptor`));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    run.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function nameOf(stage: Interceptor, i: number): string {
  return stage.interceptorName ?? (stage.name || `#${i + 1}`);
}
