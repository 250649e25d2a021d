/**
 * Our requests to the peer: their ids, progress tokens and journal entries, on top of the registry
 * that follows each to its answer; and the capability a method needs of its receiver in the
 * revision spoken (cached once for every session).
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#capability-negotiation
 */
import { Subject } from 'rxjs';
import type { Clock } from '../clock.js';
import { McpError } from '../errors.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import { spreadCopy } from '../jsonrpc/spread-copy.js';
import type { Frame, JsonObject, JsonRpcErrorResponse, JsonRpcRequest, JsonRpcResponse, RequestId } from '../jsonrpc/message.js';
import type { JournalEntryInput } from '../journal/entry.js';
import { requiredCapability } from '../protocol/methods.js';
import { isSupportedRevision } from '../protocol/revisions.js';
import type { Channel } from './channel.js';
import { InboundProgressLimiter } from './progress-rate.js';
import { withProgressToken } from './progress-token-params.js';
import type { Diagnostic } from './session-options.js';
import { RequestRegistry, type Progress, type ProgressToken, type RegistryEffects, type RequestOptions } from './request-registry.js';

/**
 * The capability a method needs, per revision: the same for every session, so cached once, by
 * revision then method (two lookups, no key string built per call).
 */
const capabilityCache = new Map<string, Map<string, string[] | null>>();

/** The capability a request for `method` needs of its receiver in `revision` (any revision when unknown). */
export function capabilityFor(revision: string | undefined, method: string): string[] | undefined {
  const rev = revision !== undefined && isSupportedRevision(revision) ? revision : undefined;
  if (rev === undefined) return requiredCapability(method);
  let byMethod = capabilityCache.get(rev);
  if (byMethod === undefined) capabilityCache.set(rev, (byMethod = new Map()));
  let needed = byMethod.get(method);
  if (needed === undefined) {
    needed = requiredCapability(method, rev) ?? null;
    byMethod.set(method, needed);
  }
  return needed ?? undefined;
}

/** What sending a request needs of its session besides the registry's effects. */
export interface OutboundEffects extends RegistryEffects {
  /** Throws when the phase or the peer's capabilities forbid sending `method` now. */
  check(method: string, kind: 'request' | 'notification'): void;
  record(entry: JournalEntryInput): void;
  send(frame: Frame, relatedRequestId?: RequestId): void;
  diagnose(kind: Diagnostic['kind'], message: string, detail?: unknown): void;
  /** At most this many progress notifications per window for one token (`progress.inbound`). */
  readonly inboundProgressLimit: { limit: number; windowMs: number } | undefined;
  /** Progress whose request was answered but lives on (a task's): whether the session took it. */
  progressBeyondRequest(token: ProgressToken, progress: Progress): boolean;
  /** The session's `progress$`, fed only while observed. */
  readonly progress: Channel<Progress & { requestId: RequestId; method: string }>;
}

export class OutboundRequests extends RequestRegistry {
  private nextId = 0;
  /** Set when several processes send requests on one session: our ids become `<prefix><n>` strings. */
  idPrefix: string | undefined;
  // Made on the first progress notification that arrives.
  private progressLimiter: InboundProgressLimiter | undefined;

  constructor(
    clock: Clock,
    private readonly out: OutboundEffects,
    defaultTimeout: number,
  ) {
    super(clock, out, defaultTimeout);
  }

  /** A numeric id that is not a user request's (the client's `initialize`). */
  takeId(): number {
    return this.nextId++;
  }

  /**
   * Send a request and follow it to its answer. `userCall`: journaled as a call of the user (a
   * replay makes it again); a handler's request to its peer is not.
   */
  start(
    method: string,
    params: JsonObject | undefined,
    options: RequestOptions | undefined,
    progress$: Subject<Progress> | undefined,
    userCall: boolean,
    relatedRequestId?: RequestId,
  ): Promise<JsonObject> {
    try {
      this.out.check(method, 'request');
    } catch (e) {
      return Promise.reject(e);
    }
    const id: RequestId = this.idPrefix === undefined ? this.nextId++ : `${this.idPrefix}${this.nextId++}`;
    options?.onRequestId?.(id);
    let token: ProgressToken | undefined;
    const wantsProgress = options?.onprogress !== undefined || options?.resetTimeoutOnProgress === true || progress$ !== undefined;
    const ownToken = (params?._meta as JsonObject | undefined)?.progressToken as ProgressToken | undefined;
    if (ownToken !== undefined) {
      if (this.isTokenInUse(ownToken)) {
        return Promise.reject(
          new McpError(ErrorCode.InvalidParams, `Progress token ${JSON.stringify(ownToken)} is already used by a request in flight; tokens must be unique`),
        );
      }
      token = ownToken;
    } else if (wantsProgress) {
      token = id;
      params = withProgressToken(params, token);
    }
    if (progress$ !== undefined || this.out.progress.observed) {
      const subject = progress$ ?? new Subject<Progress>();
      if (this.out.progress.observed) {
        subject.subscribe((p) => this.out.progress.next(withRequest(p, id, method)));
      }
      progress$ = subject;
    }
    if (userCall) {
      const recorded: JournalEntryInput = { kind: 'call', op: 'request', id, method };
      if (params !== undefined) recorded.params = params;
      if (options) {
        const o: Record<string, unknown> = {};
        if (options.timeout !== undefined) o.timeout = options.timeout;
        if (options.maxTotalTimeout !== undefined) o.maxTotalTimeout = options.maxTotalTimeout;
        if (options.resetTimeoutOnProgress !== undefined) o.resetTimeoutOnProgress = options.resetTimeoutOnProgress;
        if (wantsProgress) o.progress = true;
        recorded.options = o;
      }
      this.out.record(recorded);
      if (options?.signal) {
        options.signal.addEventListener('abort', () => {
          if (this.has(id)) this.out.record({ kind: 'call', op: 'abort', id, reason: String(options.signal!.reason ?? '') });
        }, { once: true });
      }
    }
    const promise = this.register(id, method, options, token, progress$);
    const frame: JsonRpcRequest = params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params };
    try {
      this.out.send(frame, relatedRequestId);
    } catch (e) {
      this.closeOne(id, e as Error);
    }
    return promise;
  }

  /** The peer's response: settles our request; a late or unknown one is noted and ignored. */
  answer(msg: JsonRpcResponse): void {
    if (msg.id === null) {
      this.out.diagnose('unknown-response', `The peer answered an unreadable frame: ${(msg as JsonRpcErrorResponse).error.message}`, msg);
      return;
    }
    const isError = 'error' in msg;
    const outcome = this.settle(msg.id, isError ? undefined : msg.result, isError ? msg.error : undefined);
    if (outcome === 'late') this.out.diagnose('late-response', `Ignored a late response to request ${msg.id} (it had already ${this.stateOf(msg.id)})`, msg);
    else if (outcome === 'unknown') this.out.diagnose('unknown-response', `Ignored a response to unknown request id ${JSON.stringify(msg.id)}`, msg);
  }

  /**
   * The peer's `notifications/progress` for one of our requests (within the inbound limit), or
   * for a token that outlives its request (see {@link OutboundEffects.progressBeyondRequest}).
   */
  progressIn(params: JsonObject | undefined, msg: unknown): void {
    const token = params?.progressToken as ProgressToken | undefined;
    if (token !== undefined && this.out.inboundProgressLimit !== undefined && this.isTokenInUse(token) && !this.admitProgress(token, this.out.inboundProgressLimit)) return;
    const progress: Progress = { progress: params?.progress as number };
    if (params?.total !== undefined) progress.total = params.total as number;
    if (params?.message !== undefined) progress.message = params.message as string;
    if (token === undefined || (!this.progress(token, progress) && !this.out.progressBeyondRequest(token, progress))) {
      this.out.diagnose('unknown-progress', `Ignored progress for unknown token ${JSON.stringify(token)}`, msg);
    }
  }

  /** Whether a progress notification for our request with `token` is within the inbound limit. */
  private admitProgress(token: ProgressToken, limit: { limit: number; windowMs: number }): boolean {
    this.progressLimiter ??= new InboundProgressLimiter(this.clock, limit, (t) => this.isTokenInUse(t));
    const verdict = this.progressLimiter.admit(token);
    if (verdict === 'admit') return true;
    if (verdict === 'drop-first') {
      this.out.diagnose(
        'rate-limited',
        `Dropping progress for token ${JSON.stringify(token)}: more than ${limit.limit} notifications in ${limit.windowMs} ms (the peer is flooding; the request itself goes on)`,
        { progressToken: token, ...limit },
      );
    }
    return false;
  }
}

/** `{ ...p, requestId, method }`, made key by key (see spread-copy.ts: the two keys are new to `p`). */
function withRequest(p: Progress, requestId: RequestId, method: string): Progress & { requestId: RequestId; method: string } {
  const out = spreadCopy(p) as Progress & { requestId: RequestId; method: string };
  out.requestId = requestId;
  out.method = method;
  return out;
}
