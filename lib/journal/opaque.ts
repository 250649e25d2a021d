/**
 * Values a server makes afresh each run, which a journal of its requests must not compare
 * byte-wise: a sealed `requestState` (a fresh nonce; and never to be kept, nor opened) and a task
 * id (random). Recording replaces each `requestState` the server sends by a placeholder and a retry
 * carrying it by the same placeholder ({@link OpaqueValues}); replay maps each recorded value to
 * what the replaying server sent in its place and sends that on ({@link OpaqueMap}).
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr
 */
import type { JsonObject, JsonRpcRequest, JsonRpcResponse } from '../jsonrpc/message.js';

/** The keys whose string values are opaque. */
const OPAQUE_KEYS: ReadonlySet<string> = new Set(['requestState', 'taskId']);

/** A requestState placeholder as a server journal records it. */
export const statePlaceholder = (n: number): string => `<requestState #${n}>`;

/** Recording: sealed states out of a server journal (see the file comment). */
export class OpaqueValues {
  /** The states sent so far, by token: a retry's state is recorded with its placeholder. */
  private readonly sent = new Map<string, string>();
  /** The same, by placeholder: what a replay sends back for one (in this process only; never recorded). */
  private readonly tokens = new Map<string, string>();

  /** The sealed state a placeholder stands for, as this server sent it (replay hands it back on a retry). */
  tokenOf(placeholder: string): string | undefined {
    return this.tokens.get(placeholder);
  }

  /** The request as received, a known `requestState` replaced (an unknown one, sealed elsewhere or tampered, kept as it came). */
  inbound(msg: JsonRpcRequest): JsonRpcRequest {
    const state = msg.params?.requestState;
    if (typeof state !== 'string') return msg;
    const placeholder = this.sent.get(state);
    if (placeholder === undefined) return msg;
    return { ...msg, params: { ...msg.params, requestState: placeholder } };
  }

  /** The answer as sent, its `requestState` (an `input_required` result's) replaced by a placeholder. */
  outbound(response: JsonRpcResponse): JsonRpcResponse {
    if (!('result' in response)) return response;
    const state = response.result.requestState;
    if (typeof state !== 'string') return response;
    let placeholder = this.sent.get(state);
    if (placeholder === undefined) {
      this.sent.set(state, (placeholder = statePlaceholder(this.sent.size + 1)));
      this.tokens.set(placeholder, state);
    }
    return { ...response, result: { ...response.result, requestState: placeholder } };
  }
}

/** Replay: recorded opaque values mapped to the replaying server's (see the file comment). */
export class OpaqueMap {
  private readonly map = new Map<string, string>();

  /**
   * Whether a replayed frame equals a recorded one, opaque values aside: at an opaque key, the
   * replayed value stands for the recorded one (learned here the first time, then held to).
   */
  same(recorded: unknown, replayed: unknown): boolean {
    if (recorded === null || replayed === null || typeof recorded !== 'object' || typeof replayed !== 'object') return recorded === replayed || JSON.stringify(recorded) === JSON.stringify(replayed);
    if (Array.isArray(recorded) !== Array.isArray(replayed)) return false;
    if (Array.isArray(recorded)) {
      const y = replayed as unknown[];
      return recorded.length === y.length && recorded.every((v, i) => this.same(v ?? null, y[i] ?? null));
    }
    const x = recorded as Record<string, unknown>;
    const y = replayed as Record<string, unknown>;
    const kx = Object.keys(x).filter((k) => x[k] !== undefined);
    const ky = Object.keys(y).filter((k) => y[k] !== undefined);
    if (kx.length !== ky.length || kx.some((k, i) => ky[i] !== k)) return false;
    return kx.every((k) => (OPAQUE_KEYS.has(k) && typeof x[k] === 'string' && typeof y[k] === 'string' ? this.stands(x[k], y[k]) : this.same(x[k], y[k])));
  }

  private stands(recorded: string, replayed: string): boolean {
    const known = this.map.get(recorded);
    if (known !== undefined) return known === replayed;
    this.map.set(recorded, replayed);
    return true;
  }

  /**
   * A recorded inbound value with the opaque values the replaying server gave in their place (a
   * copy; the recording is left as it is). `resolve`: what a replayed placeholder stands for (the
   * sealed state itself, which the replaying server's journal shows only as a placeholder).
   */
  substitute<T>(value: T, resolve: (replayed: string) => string | undefined = () => undefined): T {
    if (value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) return value.map((v: unknown) => this.substitute(v, resolve)) as T;
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(value as JsonObject)) {
      if (OPAQUE_KEYS.has(k) && typeof v === 'string') {
        const replayed = this.map.get(v);
        out[k] = replayed === undefined ? v : (resolve(replayed) ?? replayed);
      } else out[k] = this.substitute(v, resolve);
    }
    return out as T;
  }
}
