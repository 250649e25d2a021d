/**
 * The lease of one process of a deployment: every `heartbeatMs` it writes "alive until now +
 * leaseMs" (on its clock) into one Redis hash; a process whose lease ran out is known dead. The
 * requests it was serving will never be answered: whoever follows their streams ends them with
 * an error instead of waiting for ever (see `stream-event-store.ts`).
 *
 * Times are the processes' own clocks (the system clock in production, a `ManualClock` in
 * specs): a lease is judged against the reader's clock, so processes should keep their clocks
 * roughly in sync (NTP); `leaseMs` should exceed the worst skew plus a heartbeat.
 */
import { randomBytes } from 'node:crypto';
import { systemClock, type Clock } from '../clock.js';
import type { RedisClient } from './redis-connection.js';
import type { RedisKeys } from './keys.js';

export interface ProcessLeaseOptions {
  /** How long a process counts as alive after its last heartbeat, in ms. Default 3000. */
  leaseMs?: number;
  /** How often the lease is renewed, in ms (also the cadence of `onBeat` work). Default 1000. */
  heartbeatMs?: number;
  clock?: Clock;
  /** Failures nobody else hears about (a renewal Redis refused). */
  onError?: (error: Error) => void;
  /** This process's id (8 characters of [0-9a-z]); random by default. */
  processId?: string;
}

/** The name of the heartbeat timer on the clock. */
export const HEARTBEAT_TIMER_NAME = 'redis:heartbeat';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** A random process id: 8 characters of [0-9a-z] (41 bits). */
export function newProcessId(): string {
  let id = '';
  for (const b of randomBytes(8)) id += ALPHABET[b % 36];
  return id;
}

/** Whether `s` has the shape of a process id. */
export function isProcessId(s: string): boolean {
  return /^[0-9a-z]{8}$/.test(s);
}

export class ProcessLease {
  readonly processId: string;
  readonly leaseMs: number;
  readonly heartbeatMs: number;
  readonly clock: Clock;
  private timer: unknown;
  private stopped = false;
  private readonly beats = new Set<() => void>();
  private readonly onError: (error: Error) => void;
  private beatCount = 0;

  private constructor(
    private readonly client: RedisClient,
    private readonly keys: RedisKeys,
    options: ProcessLeaseOptions,
  ) {
    this.processId = options.processId ?? newProcessId();
    if (!isProcessId(this.processId)) throw new TypeError(`A process id is 8 characters of [0-9a-z]; got ${JSON.stringify(this.processId)}`);
    this.leaseMs = options.leaseMs ?? 3000;
    this.heartbeatMs = options.heartbeatMs ?? 1000;
    if (!(this.heartbeatMs > 0) || !(this.leaseMs > this.heartbeatMs)) {
      throw new TypeError(`leaseMs (${this.leaseMs}) must exceed heartbeatMs (${this.heartbeatMs}), which must be positive`);
    }
    this.clock = options.clock ?? systemClock;
    this.onError = options.onError ?? (() => {});
  }

  /** Take the lease (the first renewal is written when this resolves) and start the heartbeat. */
  static async start(client: RedisClient, keys: RedisKeys, options: ProcessLeaseOptions = {}): Promise<ProcessLease> {
    const lease = new ProcessLease(client, keys, options);
    await lease.renew();
    lease.schedule();
    return lease;
  }

  /** Run `fn` after every heartbeat; returns a function that stops it. */
  onBeat(fn: () => void): () => void {
    this.beats.add(fn);
    return () => this.beats.delete(fn);
  }

  /** Which of `ids` hold a lease that has not run out (by this process's clock). */
  async alive(ids: readonly string[]): Promise<Map<string, boolean>> {
    const out = new Map<string, boolean>();
    if (ids.length === 0) return out;
    const values = await this.client.hmGet(this.keys.leases(), [...ids]);
    const now = this.clock.now();
    ids.forEach((id, i) => out.set(id, values[i] != null && Number(values[i]) >= now));
    return out;
  }

  /** Stop the heartbeat; `release` (the default) gives the lease up at once, so others know now. */
  async stop(release = true): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.beats.clear();
    // Given up at once when Redis answers; a Redis gone away is not waited for (the lease runs out).
    if (release && this.client.isReady) await this.client.hDel(this.keys.leases(), this.processId).catch(() => undefined);
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = this.clock.setTimeout(() => this.beat(), this.heartbeatMs, HEARTBEAT_TIMER_NAME);
  }

  private beat(): void {
    this.timer = undefined;
    if (this.stopped) return;
    this.renew().catch((e: unknown) => this.onError(e as Error));
    for (const fn of this.beats) {
      try {
        fn();
      } catch (e) {
        this.onError(e as Error);
      }
    }
    // Now and then, forget processes dead for a long while (a restarted fleet leaves ids behind).
    if (++this.beatCount % 60 === 1) this.sweep().catch((e: unknown) => this.onError(e as Error));
    this.schedule();
  }

  private async renew(): Promise<void> {
    await this.client.hSet(this.keys.leases(), this.processId, String(this.clock.now() + this.leaseMs));
  }

  private async sweep(): Promise<void> {
    const all = await this.client.hGetAll(this.keys.leases());
    const old = this.clock.now() - 100 * this.leaseMs;
    const dead = Object.entries(all).filter(([, until]) => Number(until) < old).map(([id]) => id);
    if (dead.length > 0) await this.client.hDel(this.keys.leases(), dead);
  }
}
