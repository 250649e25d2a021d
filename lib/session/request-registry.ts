/**
 * Executes `machines/request.machine.ts` for every outgoing request without an actor per
 * request: one map of plain records, one or two clock timers each. The states and transitions
 * mirror the machine one for one (a model-based spec walks the machine's graph and checks this
 * registry does the same), so the names below are the machine's names.
 */
import { Subject } from 'rxjs';
import type { Clock } from '../clock.js';
import { SlotMap } from './slot-map.js';
import { ConnectionClosedError, McpError, RequestCancelledError, RequestTimeoutError } from '../errors.js';
import type { JsonObject, JsonRpcErrorObject, RequestId } from '../jsonrpc/message.js';

import type { ProgressToken } from '../protocol/schema/base.js';

export type { ProgressToken };

/** One `notifications/progress` as the caller sees it. */
export interface Progress {
  progress: number;
  total?: number;
  message?: string;
}

/** Options of one outgoing request. @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#timeouts */
export interface RequestOptions {
  /** Idle timeout in ms; default the session's (60 s). */
  timeout?: number;
  /** Reset the idle timeout whenever progress arrives (works without `onprogress`). */
  resetTimeoutOnProgress?: boolean;
  /** Hard limit in ms from the start, whatever progress arrives. */
  maxTotalTimeout?: number;
  /** Aborting sends `notifications/cancelled` and rejects with `RequestCancelledError`. */
  signal?: AbortSignal;
  /** Called for each progress notification of this request. */
  onprogress?: (progress: Progress) => void;
  /**
   * 2026-07-28: the key of this input request in an `InputRequiredResult` (and of its answer in
   * the retry's `inputResponses`). Default: the method's kind and the ask's number in the handler,
   * `elicitation-1`, `sampling-1`, `roots-1`... Ignored on a session (legacy era).
   * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr
   */
  inputKey?: string;
  /** Told the JSON-RPC id once the request is numbered (again for each resend): what client interceptors read as the request's id. */
  onRequestId?: (id: RequestId) => void;
}

/** The state names of the request machine that a live request can be in. */
export type LiveRequestState = 'pending' | 'progressing';
/** The final state names of the request machine. */
export type FinalRequestState = 'settled' | 'timedOut' | 'cancelled' | 'failed';

/** Effects the registry needs from its session. */
export interface RegistryEffects {
  sendCancelled(id: RequestId, reason: string): void;
  timerFired(name: string): void;
  /** A request reached a final state (used for journaling and diagnostics). */
  finished?(id: RequestId, method: string, state: FinalRequestState): void;
}

interface Live {
  id: RequestId;
  method: string;
  state: LiveRequestState;
  timeout: number;
  totalTimeout: number | undefined;
  resetOnProgress: boolean;
  idleTimer: unknown;
  totalTimer: unknown;
  token: ProgressToken | undefined;
  onprogress: ((p: Progress) => void) | undefined;
  progress$: Subject<Progress> | undefined;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
  /** What the answer's result becomes (the caller's own step, run as it settles: no promise of its own). */
  settled: ResultMapper | undefined;
  resolve: (result: JsonObject | Promise<JsonObject>) => void;
  reject: (error: Error) => void;
}

/**
 * A request's own step on its result, run as the result arrives (what a `.then` on its promise
 * would do, without the promise and its turn). An object, so that a caller keeps what the step
 * needs in its fields: a closure over the caller's scope cost the 2026-07-28 client ~130 B a request.
 */
export interface ResultMapper {
  mapResult(result: JsonObject): JsonObject | Promise<JsonObject>;
}

export interface RegisteredRequest {
  promise: Promise<JsonObject>;
  /** The progress token attached to the request, if any. */
  token: ProgressToken | undefined;
}

const RECENT_LIMIT = 1024;

export class RequestRegistry {
  // A slot, not a bare Map: nearly always one request or none (see slot-map.ts).
  private readonly live = new SlotMap<RequestId, Live>();
  // Made on first use: an idle session should not carry empty maps. A SlotMap, not a Map, for
  // what it does under steady load too (a Map in old space keeps every request promoted; see slot-map.ts).
  private byToken: SlotMap<ProgressToken, Live> | undefined;
  /**
   * Ids that finished recently and their final states, so a late response can be told from an
   * unknown one: two rings, oldest overwritten first. No map: a set and a delete for every request
   * cost more than scanning the ring for the rare answer that matches nothing live (~0.1 µs a call).
   * They grow to RECENT_LIMIT, then wrap: an idle session costs no 1,024-slot arrays.
   */
  private readonly recentIds: RequestId[] = [];
  private readonly recentStates: FinalRequestState[] = [];
  private recentPos = 0;

  constructor(
    protected readonly clock: Clock,
    private readonly effects: RegistryEffects,
    private readonly defaultTimeout: number,
  ) {}

  get size(): number {
    return this.live.size;
  }

  has(id: RequestId): boolean {
    return this.live.has(id);
  }

  /** The machine state of a live request, or its final state if it finished recently. */
  stateOf(id: RequestId): LiveRequestState | FinalRequestState | undefined {
    return this.live.get(id)?.state ?? this.recentState(id);
  }

  /** The final state of `id` if it finished recently (the latest, should an id repeat). */
  private recentState(id: RequestId): FinalRequestState | undefined {
    const ids = this.recentIds;
    const n = ids.length;
    // Newest first: from the slot before the write position back round the ring.
    for (let k = 1; k <= n; k++) {
      const i = (this.recentPos - k + n) % n;
      if (ids[i] === id) return this.recentStates[i];
    }
    return undefined;
  }

  isTokenInUse(token: ProgressToken): boolean {
    return this.byToken?.has(token) ?? false;
  }

  /**
   * Enter the machine's `active.pending` state: start the timers, hook the abort signal.
   * `token` must already be unique among requests in flight (the caller checks). `settled`, if
   * given, maps a result as it arrives (what a `.then` on the promise would do, without its promise
   * and turn); anything long it hands to a promise, and should it throw, the request fails with that.
   */
  register(
    id: RequestId,
    method: string,
    options: RequestOptions | undefined,
    token: ProgressToken | undefined,
    progress$?: Subject<Progress>,
    settled?: ResultMapper,
  ): Promise<JsonObject> {
    return new Promise<JsonObject>((resolve, reject) => {
      const timeout = options?.timeout ?? this.defaultTimeout;
      const entry: Live = {
        id,
        method,
        state: 'pending',
        timeout,
        totalTimeout: options?.maxTotalTimeout,
        resetOnProgress: options?.resetTimeoutOnProgress ?? false,
        idleTimer: undefined,
        totalTimer: undefined,
        token,
        onprogress: options?.onprogress,
        progress$,
        signal: options?.signal,
        onAbort: undefined,
        settled,
        resolve,
        reject,
      };
      this.live.set(id, entry);
      if (token !== undefined) (this.byToken ??= new SlotMap()).set(token, entry);
      // entry: startIdleTimer, startTotalTimer
      this.startIdleTimer(entry);
      if (options?.maxTotalTimeout !== undefined) {
        const name = this.clock.namesTimers ? timerName(id, 'total') : undefined;
        entry.totalTimer = this.clock.setTimeout(() => this.onTimeout(entry, 'total'), options.maxTotalTimeout, name);
      }
      const signal = options?.signal;
      if (signal) {
        if (signal.aborted) {
          // Aborted before it started: same transition as ABORT from pending.
          queueMicrotask(() => this.abort(id, signal.reason));
        } else {
          entry.onAbort = () => this.abort(id, signal.reason);
          signal.addEventListener('abort', entry.onAbort, { once: true });
        }
      }
    });
  }

  /** RESPONSE / ERROR_RESPONSE. Returns whether the id was live, late (finished) or unknown. */
  settle(id: RequestId, result: JsonObject | undefined, error: JsonRpcErrorObject | undefined): 'settled' | 'late' | 'unknown' {
    const entry = this.live.get(id);
    if (!entry) return this.recentState(id) !== undefined ? 'late' : 'unknown';
    this.exit(entry, 'settled');
    if (error) entry.reject(McpError.fromError(error));
    else if (entry.settled === undefined) entry.resolve(result ?? {});
    else this.resolveMapped(entry, result ?? {});
    return 'settled';
  }

  /** The result as the request's `settled` maps it; should the mapping throw, the request fails with that error rather than hang. */
  private resolveMapped(entry: Live, result: JsonObject): void {
    try {
      entry.resolve(entry.settled!.mapResult(result));
    } catch (e) {
      entry.reject(e instanceof Error ? e : new Error(String(e)));
    }
  }

  /** PROGRESS. Unknown tokens are ignored (returns false). */
  progress(token: ProgressToken, progress: Progress): boolean {
    const entry = this.byToken?.get(token);
    if (!entry) return false;
    entry.state = 'progressing';
    if (entry.resetOnProgress) {
      // cancelIdleTimer, startIdleTimer
      this.clock.clearTimeout(entry.idleTimer);
      this.startIdleTimer(entry);
    }
    // reportProgress
    entry.onprogress?.(progress);
    entry.progress$?.next(progress);
    return true;
  }

  /** ABORT: cancelled (with `notifications/cancelled` unless it is `initialize`). */
  abort(id: RequestId, reason?: unknown): boolean {
    const entry = this.live.get(id);
    if (!entry) return false;
    this.exit(entry, 'cancelled');
    if (entry.method !== 'initialize') this.effects.sendCancelled(id, reasonText(reason) ?? 'Request aborted by the caller');
    entry.reject(new RequestCancelledError(entry.method, reason));
    return true;
  }

  /** CONNECTION_CLOSED for every live request. */
  closeAll(error?: Error): void {
    for (const entry of this.live.values()) {
      this.exit(entry, 'failed');
      entry.reject(
        error instanceof ConnectionClosedError
          ? error
          : new ConnectionClosedError(
              `Connection closed before "${entry.method}" was answered` + (error ? `: ${error.message}` : ''),
              error,
            ),
      );
    }
  }

  /** CONNECTION_CLOSED for one request (its frame could not be sent). */
  closeOne(id: RequestId, error: Error): void {
    const entry = this.live.get(id);
    if (!entry) return;
    this.exit(entry, 'failed');
    entry.reject(error instanceof ConnectionClosedError ? error : new ConnectionClosedError(`Could not send "${entry.method}": ${error.message}`, error));
  }

  private startIdleTimer(entry: Live): void {
    // Names matter only to clocks that keep them (replay); the system clock is the hot path.
    const name = this.clock.namesTimers ? timerName(entry.id, 'idle') : undefined;
    entry.idleTimer = this.clock.setTimeout(() => this.onTimeout(entry, 'idle'), entry.timeout, name);
  }

  /** IDLE_TIMEOUT / TOTAL_TIMEOUT. */
  private onTimeout(entry: Live, kind: 'idle' | 'total'): void {
    if (this.live.get(entry.id) !== entry) return;
    this.effects.timerFired(timerName(entry.id, kind));
    // The configured limit, not the measured delay: timer lag must not change what goes on the
    // wire, or a replay on a simulated clock could not reproduce the cancellation's reason.
    const limit = kind === 'idle' ? entry.timeout : entry.totalTimeout!;
    this.exit(entry, 'timedOut');
    const error = new RequestTimeoutError(entry.method, limit, kind);
    if (entry.method !== 'initialize') this.effects.sendCancelled(entry.id, `Timed out after ${limit} ms`);
    entry.reject(error);
  }

  /** Leave `active`: cancel timers, unhook the signal, remember the id for late responses. */
  private exit(entry: Live, final: FinalRequestState): void {
    this.live.delete(entry.id);
    if (entry.token !== undefined) this.byToken?.delete(entry.token);
    this.clock.clearTimeout(entry.idleTimer);
    if (entry.totalTimer !== undefined) this.clock.clearTimeout(entry.totalTimer);
    if (entry.onAbort) entry.signal!.removeEventListener('abort', entry.onAbort);
    entry.progress$?.complete();
    if (this.recentIds.length < RECENT_LIMIT) {
      this.recentIds.push(entry.id);
      this.recentStates.push(final);
    } else {
      this.recentIds[this.recentPos] = entry.id;
      this.recentStates[this.recentPos] = final;
      this.recentPos = (this.recentPos + 1) % RECENT_LIMIT;
    }
    this.effects.finished?.(entry.id, entry.method, final);
  }
}

/** The name a request's timer has in journals: `request:<id>:idle` or `request:<id>:total`. */
export function timerName(id: RequestId, kind: 'idle' | 'total'): string {
  return `request:${id}:${kind}`;
}

function reasonText(reason: unknown): string | undefined {
  if (reason === undefined) return undefined;
  if (reason instanceof Error) return reason.message;
  return String(reason);
}
