/**
 * The one `subscriptions/listen` request a modern client keeps open with every notification it
 * wants (list changes of the live lists it is asked for, updates of the resources subscribed). A
 * change of what is wanted replaces the request (the old one cancelled); a listen the server ends
 * or that breaks is opened again after a jittered, growing wait on the client clock (reset once a
 * new listen is acknowledged), so a server that keeps ending it is not hammered.
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/subscriptions
 */
import { restartDelay } from '../../machines/host-server.machine.js';
import type { Clock } from '../clock.js';
import type { JsonObject } from '../jsonrpc/message.js';

/** The waits between reopenings: `min(maxDelayMs, initialDelayMs × factor^n)`, less up to `jitter` of it. */
export interface ListenBackoff {
  initialDelayMs: number;
  maxDelayMs: number;
  factor: number;
  jitter: number;
}

export const DEFAULT_LISTEN_BACKOFF: Readonly<ListenBackoff> = { initialDelayMs: 1000, maxDelayMs: 30_000, factor: 2, jitter: 0.5 };

export interface ListenStreamOptions {
  clock: Clock;
  /** Jitter source in [0, 1). */
  random: () => number;
  backoff?: Partial<ListenBackoff>;
  /** Send `subscriptions/listen` with these notifications; settles when the listen ends. */
  open(notifications: JsonObject, signal: AbortSignal): Promise<unknown>;
  /** The listen ended (by the server, or broken) and will be reopened after `delayMs`. */
  onEnded?(error: unknown, delayMs: number): void;
  /** The reopening timer fired (journaled, so a replay fires it at the same point). */
  fired?(name: string): void;
}

export class ListenStream {
  private key = 'null';
  private controller: AbortController | undefined;
  private timer: unknown;
  private attempts = 0;
  private closed = false;
  private readonly backoff: ListenBackoff;

  constructor(private readonly options: ListenStreamOptions) {
    this.backoff = { ...DEFAULT_LISTEN_BACKOFF, ...options.backoff };
  }

  /** Keep a listen open with `filter` (none when undefined); a different filter replaces it. */
  want(filter: JsonObject | undefined): void {
    if (this.closed) return;
    const key = JSON.stringify(filter ?? null);
    if (key === this.key) return;
    this.key = key;
    this.stop();
    if (filter) this.open(filter);
  }

  /** The server acknowledged a listen: it is healthy, so the next break waits the shortest time. */
  acknowledged(): void {
    this.attempts = 0;
  }

  close(): void {
    this.closed = true;
    this.stop();
  }

  private stop(): void {
    this.controller?.abort();
    this.controller = undefined;
    if (this.timer !== undefined) this.options.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private open(filter: JsonObject): void {
    const controller = new AbortController();
    this.controller = controller;
    const ended = (error: unknown) => {
      if (this.controller !== controller || this.closed) return;
      const delayMs = restartDelay(this.backoff, this.attempts++, this.options.random());
      this.options.onEnded?.(error, delayMs);
      this.timer = this.options.clock.setTimeout(
        () => {
          this.timer = undefined;
          this.options.fired?.('listen:reopen');
          if (this.controller === controller && !this.closed) this.open(filter);
        },
        delayMs,
        'listen:reopen',
      );
    };
    this.options.open(filter, controller.signal).then(
      () => ended(undefined),
      (e: unknown) => {
        if (!controller.signal.aborted) ended(e);
      },
    );
  }
}
