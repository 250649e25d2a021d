/**
 * The server event bus (list changes, resource updates) over Redis pub/sub: an event published
 * on any process reaches the listen streams of every process. Each process keeps one subscriber
 * connection; its own events come back through Redis too, so every process sees one order.
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/subscriptions
 */
import { Subject, type Observable } from 'rxjs';
import type { ServerEvent, ServerEventBus } from '../modern/server-events.js';
import { closeConnection, type RedisClient } from './redis-connection.js';

export interface RedisServerEventBusOptions {
  /** Channel name (default `mcp-actors:server-events`); give each deployment its own. */
  channel?: string;
  /** Publish or decode failures nobody else hears about. */
  onError?: (error: Error) => void;
}

export class RedisServerEventBus implements ServerEventBus {
  private readonly subject = new Subject<ServerEvent>();
  readonly events$: Observable<ServerEvent> = this.subject.asObservable();
  private closed = false;

  private constructor(
    private readonly publisher: RedisClient,
    private readonly subscriber: RedisClient,
    private readonly channel: string,
    private readonly onError: (error: Error) => void,
  ) {}

  /**
   * Subscribe (on a duplicate of `client`) before resolving, so that nothing published after
   * this resolves is missed.
   */
  static async create(client: RedisClient, options: RedisServerEventBusOptions = {}): Promise<RedisServerEventBus> {
    const subscriber = client.duplicate();
    subscriber.on('error', () => {});
    await subscriber.connect();
    const bus = new RedisServerEventBus(client, subscriber, options.channel ?? 'mcp-actors:server-events', options.onError ?? (() => {}));
    await subscriber.subscribe(bus.channel, (message) => bus.receive(message));
    return bus;
  }

  publish(event: ServerEvent): void {
    if (this.closed) return;
    this.publisher.publish(this.channel, JSON.stringify(event)).catch((e: unknown) => this.onError(e as Error));
  }

  private receive(message: string): void {
    let event: unknown;
    try {
      event = JSON.parse(message);
    } catch {
      this.onError(new Error(`server event bus: a message on ${this.channel} is not JSON; ignored`));
      return;
    }
    if (!isServerEvent(event)) {
      this.onError(new Error(`server event bus: a message on ${this.channel} is not a server event; ignored`));
      return;
    }
    this.subject.next(event);
  }

  /** Unsubscribe and close the subscriber connection (the publisher belongs to the caller). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.subject.complete();
    await closeConnection(this.subscriber);
  }
}

function isServerEvent(v: unknown): v is ServerEvent {
  if (typeof v !== 'object' || v === null) return false;
  const e = v as Record<string, unknown>;
  if (e.type === 'listChanged') return e.kind === 'tools' || e.kind === 'prompts' || e.kind === 'resources';
  return e.type === 'resourceUpdated' && typeof e.uri === 'string';
}
