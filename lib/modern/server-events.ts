/**
 * What changed on a server, for the streams that listen (`subscriptions/listen`, 2026-07-28):
 * a list (tools, prompts, resources) or one resource. Features publish here once; each listen
 * stream filters what its client opted in to. An interface, so that many processes can share
 * one bus (over Redis pub/sub, say); the default lives in memory.
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/subscriptions
 */
import { Subject, type Observable } from 'rxjs';

export type ServerEvent = { type: 'listChanged'; kind: 'tools' | 'prompts' | 'resources' } | { type: 'resourceUpdated'; uri: string };

export interface ServerEventBus {
  publish(event: ServerEvent): void;
  readonly events$: Observable<ServerEvent>;
}

/** The bus of one process. */
export class InMemoryServerEventBus implements ServerEventBus {
  private readonly subject = new Subject<ServerEvent>();
  readonly events$ = this.subject.asObservable();
  publish(event: ServerEvent): void {
    if (this.subject.observed) this.subject.next(event);
  }
}
