/**
 * `requestState` of multi round-trip requests: what a round must remember (the request it belongs
 * to, the answers of earlier rounds, an expiry) handed to the client instead of kept in memory,
 * so any process holding the key can continue the round, and nothing stays behind when a client
 * walks away. Signed with HMAC-SHA256 under a server key; a tampered, foreign (another request's,
 * another caller's, another key's) or expired state is refused with -32602.
 *
 * Format: `v1.<base64url payload>.<base64url mac>`; the payload is JSON and not secret (do not
 * put secrets in answers you would not show the client).
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr
 */
import { base64Decode, base64urlEncode, hmacSha256, randomBase64url, randomBytes, sha256, timingSafeEqual, utf8Decode, utf8Encode, utf8ToBase64url } from '../crypto/index.js';
import type { Clock } from '../clock.js';
import { systemClock } from '../clock.js';
import { McpError } from '../errors.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import type { JsonObject } from '../jsonrpc/message.js';
import { spreadCopy } from '../jsonrpc/spread-copy.js';

/** What a state carries. */
export interface RoundState {
  /** The method of the request it belongs to. */
  method: string;
  /** Digest of the request's params (without `_meta`, `inputResponses`, `requestState`). */
  digest: string;
  /** Who asked (the authenticated subject), when the transport knew. */
  principal?: string;
  /** Answers of earlier rounds, by input key. */
  answers: JsonObject;
  /**
   * The ids the server gave URL elicitations of earlier rounds, by input key: the handler sees the
   * same `elicitationId` on every retry (2026-07-28 sends none to the client).
   */
  ids?: Record<string, string>;
  /** Round number (1 for the state the first round hands out). */
  round: number;
  /** Expiry, ms since the epoch on the server clock. */
  expiresAt: number;
  /** Makes every state distinct. */
  nonce: string;
}

export interface RequestStateOptions {
  /** The HMAC key, at least 32 bytes. Default: a random key per process (a restart cannot continue a round). */
  key?: string | Uint8Array;
  /** How long a state stays valid. Default 10 minutes. */
  ttlMs?: number;
  /** Refuse a state used twice (default: no guard; the server keeps nothing between rounds). */
  replayGuard?: ReplayGuard;
  clock?: Clock;
}

/** A state that fails verification. */
export class InvalidRequestStateError extends McpError {
  override readonly name = 'InvalidRequestStateError';
  constructor(readonly reason: 'malformed' | 'signature' | 'expired' | 'foreign' | 'replayed') {
    super(ErrorCode.InvalidParams, `Invalid requestState (${reason}): start the request again without requestState`, { reason });
  }
}

const PREFIX = 'v1.';

export class RequestStateCodec {
  /** Drawn on first use, not at construction: Workers refuse random values in global scope, where servers are made. */
  private key: Uint8Array | undefined;
  readonly ttlMs: number;
  private readonly clock: Clock;

  constructor(options: RequestStateOptions = {}) {
    const key = options.key === undefined ? undefined : typeof options.key === 'string' ? utf8Encode(options.key) : options.key;
    if (key !== undefined && key.byteLength < 32) throw new TypeError(`The requestState key must be at least 32 bytes; got ${key.byteLength}`);
    this.key = key;
    this.ttlMs = options.ttlMs ?? 10 * 60_000;
    if (!(this.ttlMs > 0)) throw new TypeError(`requestState ttlMs must be positive; got ${this.ttlMs}`);
    this.clock = options.clock ?? systemClock;
  }

  /** A signed state for the next round. */
  seal(state: Omit<RoundState, 'expiresAt' | 'nonce'>): string {
    // Key by key, not spread: the two keys are new to `state`, slow to add to a spread copy on Node 20 (see spread-copy.ts).
    const full = spreadCopy(state) as RoundState;
    full.expiresAt = this.clock.now() + this.ttlMs;
    full.nonce = randomBase64url(9);
    const body = utf8ToBase64url(JSON.stringify(full));
    return `${PREFIX}${body}.${base64urlEncode(this.mac(body))}`;
  }

  /** The state `token` carries, verified for this request; throws {@link InvalidRequestStateError}. */
  open(token: unknown, expect: { method: string; digest: string; principal?: string }): RoundState {
    if (typeof token !== 'string' || !token.startsWith(PREFIX) || token.length > 1_000_000) throw new InvalidRequestStateError('malformed');
    const dot = token.indexOf('.', PREFIX.length);
    if (dot < 0) throw new InvalidRequestStateError('malformed');
    const body = token.slice(PREFIX.length, dot);
    const macText = token.slice(dot + 1);
    // Only the canonical base64url text of the MAC (no padding, no other alphabet): a decoder
    // that skips `=` would otherwise let many texts stand for one state.
    if (!/^[A-Za-z0-9_-]*$/.test(macText)) throw new InvalidRequestStateError('malformed');
    const mac = base64Decode(macText);
    if (base64urlEncode(mac) !== macText || !timingSafeEqual(mac, this.mac(body))) throw new InvalidRequestStateError('signature');
    let state: RoundState;
    try {
      state = JSON.parse(utf8Decode(base64Decode(body))) as RoundState;
    } catch {
      throw new InvalidRequestStateError('malformed');
    }
    if (typeof state !== 'object' || state === null || typeof state.expiresAt !== 'number') throw new InvalidRequestStateError('malformed');
    if (this.clock.now() >= state.expiresAt) throw new InvalidRequestStateError('expired');
    if (state.method !== expect.method || state.digest !== expect.digest || state.principal !== expect.principal) throw new InvalidRequestStateError('foreign');
    return state;
  }

  private mac(body: string): Uint8Array {
    return hmacSha256((this.key ??= randomBytes(32)), body);
  }
}

/**
 * Single use of a state (the spec's "single-use needs server-side enforcement"): remembers each
 * state's nonce until the state expires. This is state kept between rounds, so it is an option;
 * share one guard between processes (over Redis, say) for it to hold across them.
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr
 */
export interface ReplayGuard {
  /** True the first time `nonce` is claimed before `expiresAt`; false after that. */
  claim(nonce: string, expiresAt: number): boolean | Promise<boolean>;
}

/** A {@link ReplayGuard} for one process: memory bounded by the states alive at once. */
export class InMemoryReplayGuard implements ReplayGuard {
  private readonly seen = new Map<string, number>();
  constructor(
    private readonly clock: Clock = systemClock,
    private readonly maxEntries = 100_000,
  ) {}
  claim(nonce: string, expiresAt: number): boolean {
    const now = this.clock.now();
    if (this.seen.size >= this.maxEntries) {
      for (const [n, exp] of this.seen) if (exp <= now) this.seen.delete(n);
      // Still full: refuse rather than forget (a refused retry starts the request again).
      if (this.seen.size >= this.maxEntries) return false;
    }
    const exp = this.seen.get(nonce);
    if (exp !== undefined && exp > now) return false;
    this.seen.set(nonce, expiresAt);
    return true;
  }
}

/** Digest of the params that decide a request (everything but `_meta`, `inputResponses`, `requestState`). */
export function paramsDigest(params: JsonObject | undefined): string {
  let text = '';
  if (params !== undefined) {
    for (const key of Object.keys(params).sort()) {
      if (key === '_meta' || key === 'inputResponses' || key === 'requestState') continue;
      text += `${key}\0${canonical(params[key])}\0`;
    }
  }
  return base64urlEncode(sha256(text));
}

/** JSON with object keys sorted, so equal values digest equally. */
function canonical(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  const keys = Object.keys(v).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`).join(',')}}`;
}
