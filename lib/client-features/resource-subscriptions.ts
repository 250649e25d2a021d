/**
 * Updates of the resources a client subscribes to, shared by every observer of one URI: the
 * first observer subscribes (legacy: `resources/subscribe`; 2026-07-28: the URI joins the listen
 * stream), the last one to leave unsubscribes. A failed subscription errors its observers.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/resources#subscriptions
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/subscriptions
 */
import { Observable, Subject } from 'rxjs';
import type { ResourceUpdatedNotificationParams } from '../protocol/schema/index.js';
import type { RequestOptions } from '../session/request-registry.js';

interface Entry {
  subject: Subject<ResourceUpdatedNotificationParams>;
  count: number;
  ready: Promise<void>;
}

export interface ResourceSubscriptionsDeps {
  /** Start receiving updates of `uri`. */
  subscribe(uri: string, options?: RequestOptions): Promise<void>;
  /** Stop (after `ready` settled, when it succeeded). */
  unsubscribe(uri: string, ready: Promise<void>): void;
}

export class ResourceSubscriptions {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly deps: ResourceSubscriptionsDeps) {}

  /** The URIs subscribed now. */
  uris(): string[] {
    return [...this.entries.keys()];
  }

  observe(uri: string, options?: RequestOptions): Observable<ResourceUpdatedNotificationParams> {
    return new Observable<ResourceUpdatedNotificationParams>((subscriber) => {
      let entry = this.entries.get(uri);
      if (!entry) {
        const fresh: Entry = { subject: new Subject(), count: 0, ready: Promise.resolve() };
        this.entries.set(uri, fresh);
        fresh.ready = this.deps.subscribe(uri, options);
        fresh.ready.catch((e: unknown) => {
          if (this.entries.get(uri) === fresh) this.entries.delete(uri);
          fresh.subject.error(e);
        });
        entry = fresh;
      }
      const e = entry;
      e.count++;
      const inner = e.subject.subscribe(subscriber);
      return () => {
        inner.unsubscribe();
        if (--e.count > 0 || this.entries.get(uri) !== e) return;
        this.entries.delete(uri);
        this.deps.unsubscribe(uri, e.ready);
      };
    });
  }

  /** The subscription to `uri` is gone for good: its observers get `error` (a later observer subscribes anew). */
  fail(uri: string, error: Error): void {
    const entry = this.entries.get(uri);
    if (!entry) return;
    this.entries.delete(uri);
    entry.subject.error(error);
  }

  /** `notifications/resources/updated`. */
  updated(params: ResourceUpdatedNotificationParams): void {
    this.entries.get(params.uri)?.subject.next(params);
  }

  close(): void {
    for (const entry of this.entries.values()) entry.subject.complete();
    this.entries.clear();
  }
}
