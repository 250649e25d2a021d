/**
 * The server interceptor chain: an ordered list of stages around one request's (or
 * notification's) handler. Pure composition, no I/O; both eras' dispatch point
 * (`Session.serveRequest`, which a 2026-07-28 request reaches through the request core) calls
 * {@link runChain}.
 * @see https://modelcontextprotocol.io/specification/2025-06-18/basic
 */
import { McpError } from '../../errors.js';
import { ErrorCode } from '../../jsonrpc/error-codes.js';
import type { JsonObject, RequestId } from '../../jsonrpc/message.js';
import type { ServerRequest } from '../../session/server-request.js';
import type { Clock } from '../../clock.js';
import type { TransportPeer } from '../../../streams/transport.js';
import { restoreRedacted } from './redact-marks.js';

/** Who sent a request, as an interceptor sees it. */
export interface InterceptorCaller {
  /** `legacy`: an `initialize` session; `modern`: a 2026-07-28 request (no session). */
  readonly era: 'legacy' | 'modern';
  /** Legacy: the session's label (`session-<n>`), the same as `requests$` names it; modern: undefined. */
  readonly sessionId?: string | undefined;
  /** The authenticated caller as one key (`sub:…`, `client:…`; see `principalOf`), when the transport authenticated it. */
  readonly principal?: string | undefined;
  /** What the transport's `authenticate` hook returned (the handler's `ctx.authInfo`). */
  readonly authInfo?: unknown;
  /** Legacy: the revision the session negotiated (a 2026-07-28 request names its own in `_meta`). */
  readonly protocolVersion?: string | undefined;
  /** What the transport knows of the caller: the HTTP `Mcp-Session-Id` (none on stdio), `pipe`/`tcp`, its address. */
  readonly peer?: TransportPeer | undefined;
}

/**
 * One request or notification as an interceptor sees it. The result (or error) is what `next`
 * resolves to (or rejects with); a 2026-07-28 request whose handler asks for input resolves
 * `next` with the round's `{ resultType: 'input_required', inputRequests, requestState }`.
 */
export interface InterceptedRequest {
  /** `notification`: `next` resolves to `{}` once the handler ran; a result returned instead drops it. Default `request`. */
  readonly kind?: 'request' | 'notification';
  readonly method: string;
  /** The params as this stage received them (an earlier stage may have rewritten them). */
  readonly params: JsonObject | undefined;
  readonly caller: InterceptorCaller;
  /** The JSON-RPC id (requests only). */
  readonly id?: RequestId | undefined;
  /** `params._meta` as the client sent it (progress token, trace context, the 2026-07-28 envelope). */
  readonly meta?: JsonObject | undefined;
  /** Ends when the request is cancelled (client cancel, HTTP close): a stage that waits should listen. */
  readonly signal?: AbortSignal | undefined;
  /** The request's life (`requests$`): the same object as the handler's `ctx.request`. */
  readonly request?: ServerRequest | undefined;
  /** The server's clock (`ServerOptions.clock`): what timing stages (rate limits, durations) should read. */
  readonly clock?: Clock | undefined;
}

/** The rest of the chain; pass new params to rewrite them for the stages after this one. */
export type InterceptorNext = (params?: JsonObject | undefined) => Promise<JsonObject>;

/**
 * A stage: return a result (short-circuit) or what `next` returns (possibly rewritten). Throw an
 * `McpError` to answer with it; any other throw answers -32603 naming the stage (its
 * `interceptorName`, else its function name).
 */
export type Interceptor = ((req: InterceptedRequest, next: InterceptorNext) => Promise<JsonObject>) & { readonly interceptorName?: string };

/** The handler at the end of the chain. */
export type ChainTerminal = (params: JsonObject | undefined) => Promise<JsonObject>;

/** Told which stages ran (the request's life names them). */
export interface ChainObserver {
  /** A stage was entered. */
  stage(name: string): void;
  /** A stage answered without calling `next`. */
  shortCircuit(name: string): void;
}

/**
 * Run `interceptors` in registration order around `terminal`. An `McpError` passes through
 * unchanged, as does whatever the handler threw; any other error from a stage becomes -32603
 * naming the stage. A cancelled `signal` ends the chain at once, so a stage that never resolves
 * cannot hold the request.
 */
export function runChain(
  interceptors: readonly Interceptor[],
  req: InterceptedRequest,
  terminal: ChainTerminal,
  observer?: ChainObserver,
  /** Where the chain learns of a cancellation instead of `req.signal` (which may then be made lazily); returns how to stop listening. */
  whenCancelled?: (fn: () => void) => () => void,
): Promise<JsonObject> {
  // Zero cost when none are registered: the handler is called directly.
  if (interceptors.length === 0) return terminal(req.params);
  // Errors of the handler (or of a later stage, already named) go through the stages unchanged.
  let passing: unknown[] | undefined;
  const pass = (e: unknown): unknown => ((passing ??= []).push(e), e);
  const step = (i: number, params: JsonObject | undefined): Promise<JsonObject> => {
    if (i === interceptors.length) {
      return callSafely(() => terminal(restoreRedacted(params))).catch((e: unknown) => {
        throw pass(e);
      });
    }
    const stage = interceptors[i]!;
    const name = nameOf(stage, i);
    observer?.stage(name);
    const here = withParams(req, params);
    let called = false;
    const next: InterceptorNext = (p) => {
      if (called) return Promise.reject(new McpError(ErrorCode.InternalError, `Interceptor "${name}" called next() twice`));
      called = true;
      return step(i + 1, p === undefined ? params : p);
    };
    return callSafely(() => stage(here, next)).then(
      (out) => {
        if (!called) observer?.shortCircuit(name);
        return out;
      },
      (e: unknown) => {
        if (e instanceof McpError || passing?.includes(e) === true) throw e;
        throw pass(new McpError(ErrorCode.InternalError, `Interceptor "${name}" failed: ${(e as Error)?.message ?? String(e)}`));
      },
    );
  };
  const run = step(0, req.params);
  const cancelled = (): McpError => new McpError(ErrorCode.RequestTimeout, `Request "${req.method}" was cancelled while in an interceptor`);
  if (whenCancelled !== undefined) {
    return new Promise<JsonObject>((resolve, reject) => {
      const stop = whenCancelled(() => reject(cancelled()));
      run.then(
        (out) => {
          stop();
          resolve(out);
        },
        (e: unknown) => {
          stop();
          reject(e);
        },
      );
    });
  }
  const signal = req.signal;
  if (!signal) return run;
  return new Promise<JsonObject>((resolve, reject) => {
    const onAbort = (): void => reject(cancelled());
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    run.then(
      (out) => {
        signal.removeEventListener('abort', onAbort);
        resolve(out);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

/** The request as one stage sees it: its own params; `signal` stays a getter (made only when read). */
function withParams(req: InterceptedRequest, params: JsonObject | undefined): InterceptedRequest {
  return {
    kind: req.kind,
    method: req.method,
    params,
    caller: req.caller,
    id: req.id,
    meta: req.meta,
    get signal() {
      return req.signal;
    },
    request: req.request,
    clock: req.clock,
  };
}

function callSafely(f: () => Promise<JsonObject>): Promise<JsonObject> {
  try {
    return Promise.resolve(f());
  } catch (e) {
    return Promise.reject(e);
  }
}

/** The name a stage is known by in errors and in the request's life. */
export function nameOf(stage: Interceptor, i: number): string {
  return stage.interceptorName ?? (stage.name || `#${i + 1}`);
}
