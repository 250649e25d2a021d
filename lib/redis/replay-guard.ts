/**
 * Single use of a multi round-trip request's `requestState` across processes: the first process
 * to see a state claims its nonce with `SET NX`, kept until the state expires; a replay arriving
 * at any process finds the claim and is refused (-32602, `InvalidRequestStateError('replayed')`).
 * One round trip to Redis per retry that carries a state; nothing for other requests.
 *
 * Across a Redis restart without persistence: the claims in Redis are lost with its
 * data, so each process also keeps the nonces it claimed itself, each until its state expires
 * (bounded: `maxLocalClaims`), refuses those without asking Redis, and puts them back into Redis
 * (`SET NX`, the time they have left) whenever its connection is ready again. A consumed state
 * thus stays refused on every process once the process that consumed it has reconnected.
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr
 */
import { systemClock, type Clock } from '../clock.js';
import type { ReplayGuard } from '../modern/request-state.js';
import { RedisUnavailableError, type RedisClient } from './redis-connection.js';

export interface RedisReplayGuardOptions {
  /** Key prefix (default `mcp-actors:`). */
  prefix?: string;
  /** The clock the states' expiries were set on (the server's). Default: the system clock. */
  clock?: Clock;
  /**
   * The most claims this process remembers for re-publishing after a Redis restart (default
   * 100,000: 166 rounds a second for 10 minutes). Past it the oldest is forgotten: Redis still
   * holds it, only a restart during its life would lose it.
   */
  maxLocalClaims?: number;
  /** Failures of the re-publishing nobody awaits. */
  onError?: (error: Error) => void;
}

const MIN_CLAIM_MS = 60_000;
/** States live 10 minutes by default; a day bounds a claim whatever the clocks say. */
const MAX_CLAIM_MS = 86_400_000;

export class RedisReplayGuard implements ReplayGuard {
  private readonly prefix: string;
  private readonly clock: Clock;
  private readonly maxLocal: number;
  private readonly onError: (error: Error) => void;
  /** Nonces this process claimed, with the time their claim ends (insertion order: oldest first). */
  private readonly claimed = new Map<string, number>();
  private readonly onReady = () => void this.republish();

  constructor(
    private readonly client: RedisClient,
    options: RedisReplayGuardOptions = {},
  ) {
    this.prefix = `${options.prefix ?? 'mcp-actors:'}request-state:`;
    this.clock = options.clock ?? systemClock;
    this.maxLocal = options.maxLocalClaims ?? 100_000;
    this.onError = options.onError ?? (() => {});
    client.on('ready', this.onReady);
  }

  async claim(nonce: string, expiresAt: number): Promise<boolean> {
    const now = this.clock.now();
    const mine = this.claimed.get(nonce);
    if (mine !== undefined && mine > now) return false;
    // The claim lives as long as the state is valid, measured on the clock that set its expiry;
    // at least a minute, so that a clock behind the server's cannot open a window for a replay
    // (a claim kept longer costs a few bytes: nonces are random and never reused).
    if (!this.client.isReady) throw new RedisUnavailableError('The requestState replay guard cannot reach Redis right now (reconnecting); send the request again shortly');
    const ttl = claimMs(expiresAt, now);
    const set = await this.client.set(this.prefix + nonce, '1', { condition: 'NX', expiration: { type: 'PX', value: ttl } });
    if (set !== 'OK') return false;
    this.remember(nonce, now + ttl);
    return true;
  }

  /** How many claims this process holds for re-publishing (for tests and metrics). */
  get localClaims(): number {
    return this.claimed.size;
  }

  /** Stop re-publishing on reconnection (the connection's owner closes it). */
  close(): void {
    this.client.off('ready', this.onReady);
  }

  private remember(nonce: string, until: number): void {
    if (this.claimed.size >= this.maxLocal) this.prune();
    if (this.claimed.size >= this.maxLocal) this.claimed.delete(this.claimed.keys().next().value!);
    this.claimed.set(nonce, until);
  }

  private prune(): void {
    const now = this.clock.now();
    for (const [nonce, until] of this.claimed) if (until <= now) this.claimed.delete(nonce);
  }

  /** Put every live claim of this process back (Redis may have restarted empty). */
  private async republish(): Promise<void> {
    this.prune();
    const now = this.clock.now();
    const puts: Promise<unknown>[] = [];
    for (const [nonce, until] of this.claimed) {
      puts.push(this.client.set(this.prefix + nonce, '1', { condition: 'NX', expiration: { type: 'PX', value: Math.max(1, until - now) } }));
    }
    try {
      await Promise.all(puts);
    } catch (e) {
      this.onError(e instanceof Error ? e : new Error(String(e)));
    }
  }
}

function claimMs(expiresAt: number, now: number): number {
  return Math.min(Math.max(MIN_CLAIM_MS, Math.ceil(expiresAt - now)), MAX_CLAIM_MS);
}
