/**
 * Upstream calls waiting for a 2026-07-28 caller's retry: the caller's round ended with
 * `input_required` for a question the upstream asked, and the call goes on upstream. Keyed by the
 * id the round's signed `requestState` carries (the server signs it, binds it to the caller's
 * principal and the request's params; a caller cannot forge or reuse it: a retry takes the call
 * out). Each waits at most `limitMs` on the gateway's clock, then the upstream call is cancelled.
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr
 */
import type { Clock } from '../clock.js';
import { McpError } from '../errors.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import type { UpstreamCall } from './upstream-call.js';

export class ParkedCalls {
  private readonly table = new Map<string, { call: UpstreamCall; timer: unknown }>();

  constructor(
    private readonly clock: Clock,
    readonly limitMs: number,
  ) {}

  get size(): number {
    return this.table.size;
  }

  /** Keep `call` for its caller's retry, for at most the limit. */
  park(call: UpstreamCall): void {
    const id = call.roundId!;
    const timer = this.clock.setTimeout(
      () => {
        this.table.delete(id);
        call.cancel(new McpError(ErrorCode.RequestTimeout, `The caller did not retry with its input within ${this.limitMs} ms; the upstream call was cancelled`));
      },
      this.limitMs,
      'gateway.parkedCall',
    );
    this.table.set(id, { call, timer });
  }

  /**
   * The call parked under `id`, taken out for its retry; undefined when there is none (never
   * parked, resumed already, or its limit passed). A retry by anyone but its `owner` is refused
   * and leaves it parked.
   */
  take(id: string, owner: string): UpstreamCall | undefined {
    const entry = this.table.get(id);
    if (entry === undefined) return undefined;
    if (entry.call.owner !== owner) throw new McpError(ErrorCode.InvalidParams, 'This retry does not belong to the call its requestState continues: refused');
    this.table.delete(id);
    this.clock.clearTimeout(entry.timer);
    return entry.call;
  }

  /** Cancel every parked call (the gateway closes). */
  close(): void {
    for (const { call, timer } of this.table.values()) {
      this.clock.clearTimeout(timer);
      call.cancel(new McpError(ErrorCode.ConnectionClosed, 'The gateway closed'));
    }
    this.table.clear();
  }
}
