/**
 * Single use of a multi round-trip request's `requestState` across processes: the first process
 * to see a state claims its nonce with `SET NX`, kept until the state expires; a replay arriving
 * at any process finds the claim and is refused (-32602, `InvalidRequestStateError('replayed')`).
 * One round trip to Redis per retry that carries a state; nothing for other requests.
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr
 */
import { systemClock, type Clock } from '../clock.js';
import type { ReplayGuard } from '../modern/request-state.js';
import { RedisUnavailableError, type RedisClient } from './connection.js';

export interface RedisReplayGuardOptions {
  /** Key prefix (default `mcp-actors:`). */
  prefix?: string;
  /** The clock the states' expiries were set on (the server's). Default: the system clock. */
  clock?: Clock;
}

const MIN_CLAIM_MS = 60_000;
/** States live 10 minutes by default; a day bounds a claim whatever the clocks say. */
const MAX_CLAIM_MS = 86_400_000;

export class RedisReplayGuard implements ReplayGuard {
  private readonly prefix: string;
  private readonly clock: Clock;

  constructor(
    private readonly client: RedisClient,
    options: RedisReplayGuardOptions = {},
  ) {
    this.prefix = `${options.prefix ?? 'mcp-actors:'}request-state:`;
    this.clock = options.clock ?? systemClock;
  }

  async claim(nonce: string, expiresAt: number): Promise<boolean> {
    // The claim lives as long as the state is valid, measured on the clock that set its expiry;
    // at least a minute, so that a clock behind the server's cannot open a window for a replay
    // (a claim kept longer costs a few bytes: nonces are random and never reused).
    if (!this.client.isReady) throw new RedisUnavailableError('The requestState replay guard cannot reach Redis right now (reconnecting); send the request again shortly');
    const ttl = Math.min(Math.max(MIN_CLAIM_MS, Math.ceil(expiresAt - this.clock.now())), MAX_CLAIM_MS);
    const set = await this.client.set(this.prefix + nonce, '1', { condition: 'NX', expiration: { type: 'PX', value: ttl } });
    return set === 'OK';
  }
}
