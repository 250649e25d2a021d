/**
 * One forwarded call as the input bridge follows it. The upstream call is cancelled through its
 * own controller, not the downstream request's signal: a 2026-07-28 caller's request ends each
 * time the call must ask that caller for input (an input round), while the upstream call goes on,
 * parked until the caller's retry. `ctx` is the downstream request serving the call now (the
 * first, then each retry), so progress and the upstream's questions go to the live one.
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr
 */
import { McpError } from '../errors.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import type { FeatureContext } from '../server-features/feature-context.js';
import type { RequestOptions } from '../session/request-registry.js';

/** How the upstream's request is put to a caller (`ctx.elicit`, `ctx.sample`, `ctx.listRoots`). */
export type Question<T> = (ctx: FeatureContext, options: RequestOptions) => Promise<T>;

/** The upstream's request waiting for the caller's answer, under its input key. */
interface Waiting {
  key: string;
  question: Question<unknown>;
  resolve(answer: unknown): void;
  reject(error: unknown): void;
}

export class UpstreamCall {
  private readonly controller = new AbortController();
  private waiting: Waiting | undefined;
  /** Input keys handed out: each upstream request its own, as the answers of earlier rounds stay in the state. */
  private asks = 0;
  private unfollow: (() => void) | undefined;
  /** The upstream call has settled (its result is kept for a parked caller's retry). */
  settled = false;
  result!: Promise<unknown>;

  /**
   * @param owner Who may continue it: the caller's principal, the upstream and the request's digest.
   * @param roundId The id its rounds' signed `requestState` carries (2026-07-28 callers only).
   * @param park Called when the caller's round ended for input this call asked for.
   */
  constructor(
    public ctx: FeatureContext,
    readonly owner: string,
    readonly roundId: string | undefined,
    private readonly park: (call: UpstreamCall) => void,
  ) {}

  /** Aborts when the upstream call is to be cancelled. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Cancel the upstream call; its waiting request gets `reason`. */
  cancel(reason: Error): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.reject(reason);
    this.controller.abort(reason);
  }

  /**
   * Serve the call from `ctx` on (the first request, or a retry): when that request ends because
   * its round needs input this call asked for, the call is parked; when it ends otherwise
   * (cancelled, the caller gone), the upstream call is cancelled.
   */
  follow(ctx: FeatureContext): void {
    this.unfollow?.();
    this.ctx = ctx;
    let roundEnded = false;
    // Resolves before the request ends (the core answers the round, then ends the request).
    void ctx.session.requestScope?.inputRequired?.then(() => (roundEnded = true));
    const gone = () => {
      if (this.settled) return;
      if (roundEnded && this.waiting !== undefined && this.roundId !== undefined) this.park(this);
      else this.cancel(new McpError(ErrorCode.RequestTimeout, 'The downstream request that the upstream call served has ended'));
    };
    const signal = ctx.signal;
    if (signal.aborted) return void queueMicrotask(gone);
    signal.addEventListener('abort', gone, { once: true });
    this.unfollow = () => signal.removeEventListener('abort', gone);
  }

  /** The caller's retry: it serves the call from now on, and answers the upstream's waiting request. */
  resume(ctx: FeatureContext): void {
    this.follow(ctx);
    if (this.waiting !== undefined && !this.settled) this.put(this.waiting);
  }

  /** Put an upstream request to the caller; its answer goes upstream, across rounds. */
  ask<T>(question: Question<T>): Promise<T> {
    if (this.waiting !== undefined) {
      return Promise.reject(new McpError(ErrorCode.InvalidRequest, 'The upstream asked for input again before its previous request was answered; refused (one question at a time)'));
    }
    return new Promise<T>((resolve, reject) => {
      const waiting: Waiting = { key: `upstream-${++this.asks}`, question, resolve: resolve as (a: unknown) => void, reject };
      this.waiting = waiting;
      this.put(waiting);
    });
  }

  /**
   * Ask the caller serving now. A 2026-07-28 request's ask never settles when the retry has not
   * answered it (its round ends instead); one from an earlier request is ignored.
   */
  private put(waiting: Waiting): void {
    const ctx = this.ctx;
    const current = () => this.waiting === waiting && this.ctx === ctx;
    waiting.question(ctx, { inputKey: waiting.key }).then(
      (answer) => {
        if (!current()) return;
        this.waiting = undefined;
        waiting.resolve(answer);
      },
      (e: unknown) => {
        if (!current()) return;
        this.waiting = undefined;
        waiting.reject(e);
      },
    );
  }

  /** The call settled: nothing more to follow. */
  done(): void {
    this.settled = true;
    this.unfollow?.();
    this.unfollow = undefined;
  }
}
