/**
 * Faults of the link to an upstream, as the downstream caller's error: a forwarded request that
 * failed because the upstream exited, could not be reached, did not answer in time, or sent
 * garbage instead of an answer is answered with an {@link UpstreamFaultError} (-32603 naming the
 * upstream and the fault), not a tool result. Anything else the upstream answered (its own
 * JSON-RPC error, an `isError` result) and a caller's own cancellation pass through as they are.
 *
 * Garbage does not fail a request by itself (a client skips a line that is not JSON-RPC, and the
 * request then times out), so each upstream client's unreadable lines are counted (from its
 * `invalid-frame` diagnostics, which either era reports): a request that timed out after its
 * upstream sent one is reported as `garbage`.
 * @see https://modelcontextprotocol.io/specification/2026-07-28/server/tools#error-handling
 */
import type { Client } from '../client.js';
import { ConnectionClosedError, McpError, RequestTimeoutError, TransportError, UpstreamFaultError, type UpstreamFault } from '../errors.js';
import { ServerUnavailableError, type Host } from '../host/host.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';

/** Per upstream client, the unreadable lines it received so far and the last one's description. */
interface Garbage {
  count: number;
  last: string;
}

export class UpstreamFaults {
  private readonly garbage = new WeakMap<Client, Garbage>();

  /** Count `client`'s unreadable lines (called for each upstream client the gateway makes). */
  watch(client: Client): void {
    const seen: Garbage = { count: 0, last: '' };
    this.garbage.set(client, seen);
    // Diagnostics, not frames$: they come only when something is wrong, while watching frames$
    // cost every call of every upstream an event for each frame (and on a legacy session a journal stamp).
    // Not kept here: it goes with the client.
    client.diagnostics$.subscribe((d) => {
      if (d.kind !== 'invalid-frame') return;
      seen.count++;
      seen.last = d.message.length > 160 ? `${d.message.slice(0, 160)}…` : d.message;
    });
  }

  /**
   * Run `request` (to upstream `server` of `host`, for the downstream `method`); a failure of the
   * link rejects with an UpstreamFaultError, any other error as it came.
   */
  async guard<T>(host: Host, server: string, method: string, request: () => Promise<T>): Promise<T> {
    const client = host.state[server]?.phase === 'ready' ? host.client(server) : undefined;
    const before = client === undefined ? 0 : (this.garbage.get(client)?.count ?? 0);
    try {
      return await request();
    } catch (e) {
      const seen = client === undefined ? undefined : this.garbage.get(client);
      throw faultOf(e, server, method, seen !== undefined && seen.count > before ? seen.last : undefined) ?? e;
    }
  }

}

/** The upstream fault `e` is, or undefined when it is not one (`garbage`: what the upstream sent meanwhile). */
export function faultOf(e: unknown, server: string, method: string, garbage?: string): UpstreamFaultError | undefined {
  const fault = (kind: UpstreamFault, what: string) => new UpstreamFaultError(server, kind, method, `Upstream "${server}" ${what} (${method} not answered)`);
  if (e instanceof RequestTimeoutError) {
    return garbage !== undefined ? fault('garbage', `sent something that is not JSON-RPC (${garbage}) and no answer within ${e.elapsedMs} ms`) : fault('timedOut', `did not answer within ${e.elapsedMs} ms`);
  }
  if (e instanceof ServerUnavailableError) return fault('unreachable', `is not connected (${e.phase})${e.cause ? `: ${e.cause.message}` : ''}`);
  if (e instanceof ConnectionClosedError) return fault('exited', `closed the connection: ${e.message}`);
  if (e instanceof TransportError) return fault('exited', `failed: ${e.message}`);
  // The HTTP client transport's local error for a request it could not deliver (refused, reset, not MCP).
  if (e instanceof McpError && e.code === ErrorCode.ConnectionClosed && typeof (e.data as { transport?: unknown } | undefined)?.transport === 'string') {
    return fault('unreachable', `could not be reached: ${e.message}`);
  }
  return undefined;
}
