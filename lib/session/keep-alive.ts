/**
 * A session's keep-alive: after `interval` ms without a frame from the peer while operating, probe
 * it (a ping; one at a time, and a busy connection is not probed); a probe that fails means the
 * connection is gone. Made only when the `keepAlive` option is set.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/ping#implementation-considerations
 */
import type { Clock } from '../clock.js';

/** What the keep-alive needs of its session. */
export interface KeepAliveHost {
  operating(): boolean;
  /** The probe's timer fired (journaled, so a replay fires it too). */
  timerFired(name: string): void;
  probe(timeout: number): Promise<unknown>;
  /** The probe failed while operating: the session fails with it. */
  lost(error: Error): void;
}

/** Validated `keepAlive` options: both positive numbers of milliseconds (a TypeError otherwise). */
export function keepAliveOptions(option: { interval: number; timeout?: number }): { interval: number; timeout: number } {
  const { interval, timeout = interval } = option;
  for (const [name, v] of [['interval', interval], ['timeout', timeout]] as const) {
    if (!(typeof v === 'number' && v > 0 && Number.isFinite(v))) throw new TypeError(`keepAlive.${name} must be a positive number of milliseconds; got ${String(v)}`);
  }
  return { interval, timeout };
}

export class KeepAlive {
  private timer: unknown;
  /** When the peer last sent a frame (session clock). */
  private lastHeardAt = -Infinity;

  constructor(
    private readonly clock: Clock,
    private readonly interval: number,
    private readonly timeout: number,
    private readonly host: KeepAliveHost,
  ) {}

  /** The peer sent something: the next probe waits for a quiet interval. */
  heard(): void {
    this.lastHeardAt = this.clock.now();
  }

  /** Probe after `delay` (default the interval) unless the peer is heard from meanwhile (PING-005). */
  schedule(delay?: number): void {
    this.timer = this.clock.setTimeout(
      () => {
        this.timer = undefined;
        if (!this.host.operating()) return;
        const quiet = this.clock.now() - this.lastHeardAt;
        if (quiet < this.interval) return this.schedule(this.interval - quiet);
        this.host.timerFired('keepalive');
        this.host.probe(this.timeout).then(
          () => this.schedule(),
          (error: Error) => {
            if (this.host.operating()) this.host.lost(error);
          },
        );
      },
      delay ?? this.interval,
      'keepalive',
    );
  }

  stop(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }
}
