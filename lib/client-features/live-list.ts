/**
 * A server list (tools, resources, prompts) kept current on the client: the latest full listing
 * as an observable, re-listed when the matching `list_changed` notification arrives. Re-listing
 * is debounced (a burst of notifications is one re-list) and bounded (at most one re-list in
 * flight and one pending, however many notifications arrive meanwhile).
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#list-changed-notification
 */
import { BehaviorSubject, Observable, filter } from 'rxjs';
import type { Clock } from '../clock.js';

export interface LiveListOptions<T> {
  /** Timer name prefix (journal and ManualClock), e.g. `tools`. */
  name: string;
  clock: Clock;
  /** Quiet time after the last `list_changed` before re-listing, in ms. */
  debounceMs: number;
  /** A full listing (all pages; empty when the server does not offer the list). */
  fetch: () => Promise<T[]>;
  /** A re-list failed. */
  onError: (error: unknown) => void;
}

export class LiveList<T> {
  private readonly subject = new BehaviorSubject<T[] | undefined>(undefined);
  private timer: unknown;
  private inFlight = false;
  private pending = false;
  private closed = false;
  /** Listings started by this live list (initial and re-lists). */
  relists = 0;

  /** The current list: on subscribe (listing first if nothing was listed yet), then each change. */
  readonly value$: Observable<T[]>;

  constructor(private readonly options: LiveListOptions<T>) {
    const defined = this.subject.pipe(filter((v): v is T[] => v !== undefined));
    this.value$ = new Observable<T[]>((subscriber) => {
      const sub = defined.subscribe(subscriber);
      if (this.subject.value === undefined && !this.closed && !this.inFlight) this.refresh();
      return () => sub.unsubscribe();
    });
  }

  /** The last full listing, if any. */
  get current(): T[] | undefined {
    return this.subject.value;
  }

  /** A full listing arrived (from the user's own `list...()` call or a re-list). */
  set(list: T[]): void {
    if (!this.closed) this.subject.next(list);
  }

  /**
   * The server said the list changed: re-list after `debounceMs` of quiet, if anyone cares (an
   * observer, or a previous listing to keep current).
   */
  changed(): void {
    if (this.closed || (!this.subject.observed && this.subject.value === undefined)) return;
    if (this.timer !== undefined) this.options.clock.clearTimeout(this.timer);
    this.timer = this.options.clock.setTimeout(
      () => {
        this.timer = undefined;
        this.refresh();
      },
      this.options.debounceMs,
      `${this.options.name}:list_changed`,
    );
  }

  /** List now, unless a listing is in flight: then one more follows it (never more than one). */
  refresh(): void {
    if (this.closed) return;
    if (this.inFlight) {
      this.pending = true;
      return;
    }
    this.inFlight = true;
    this.relists++;
    this.options
      .fetch()
      .then(
        (list) => this.set(list),
        (e: unknown) => {
          if (!this.closed) this.options.onError(e);
        },
      )
      .finally(() => {
        this.inFlight = false;
        if (this.pending) {
          this.pending = false;
          this.refresh();
        }
      });
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.timer !== undefined) this.options.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.subject.complete();
  }
}
