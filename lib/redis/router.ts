/**
 * Pub/sub for the processes of a deployment, on one subscriber connection per process: a channel
 * per process (answers to the requests it sent), one for all (sessions ended, cancellations,
 * standalone streams taken over), and the news channels of the streams this process follows.
 * Messages are JSON; a malformed one is reported and skipped.
 */
import { Subject, type Observable } from 'rxjs';
import type { ClusterMessage } from '../server-bindings/http-cluster.js';
import { closeConnection, type RedisClient } from './redis-connection.js';
import type { RedisKeys } from './keys.js';

export class RedisRouter {
  private readonly subject = new Subject<ClusterMessage>();
  /** Messages for this process: its own channel and the control channel (its own broadcasts excluded). */
  readonly messages$: Observable<ClusterMessage> = this.subject.asObservable();
  /** Channel → its listeners (stream news channels are shared by the followers of one stream). */
  private readonly listeners = new Map<string, Set<(message: string) => void>>();
  /** Channel → the one listener node-redis has for it (it fans out to `listeners`). */
  private readonly dispatchers = new Map<string, (message: string) => void>();
  /** Channel → its SUBSCRIBE, until Redis confirms it. */
  private readonly subscribing = new Map<string, Promise<unknown>>();
  private closed = false;
  private readonly reconnects = new Set<() => void>();

  private constructor(
    private readonly publisher: RedisClient,
    private readonly subscriber: RedisClient,
    private readonly keys: RedisKeys,
    readonly processId: string,
    private readonly onError: (error: Error) => void,
  ) {}

  /** Subscribed to this process's channel and the control channel when this resolves. */
  static async create(client: RedisClient, keys: RedisKeys, processId: string, onError: (error: Error) => void): Promise<RedisRouter> {
    const subscriber = client.duplicate();
    subscriber.on('error', () => {});
    await subscriber.connect();
    const router = new RedisRouter(client, subscriber, keys, processId, onError);
    // node-redis subscribes again after a lost connection; what was published meanwhile is lost,
    // so followers read their streams back.
    subscriber.on('ready', () => {
      for (const fn of router.reconnects) fn();
    });
    await subscriber.subscribe([keys.processChannel(processId), keys.controlChannel()], (message, channel) => router.receive(message, channel));
    return router;
  }

  /** Send `message` to process `processId`. */
  send(processId: string, message: ClusterMessage): void {
    this.publish(this.keys.processChannel(processId), message);
  }

  /** Send `message` to every process but this one. */
  broadcast(message: ClusterMessage): void {
    this.publish(this.keys.controlChannel(), { ...message, origin: this.processId });
  }

  /** Listen to a raw channel (a stream's news); resolves once subscribed. Returns the way to stop. */
  async listen(channel: string, fn: (message: string) => void): Promise<() => void> {
    let set = this.listeners.get(channel);
    if (set === undefined) {
      set = new Set();
      this.listeners.set(channel, set);
      const mine = set;
      const dispatch = (message: string) => {
        for (const f of mine) f(message);
      };
      this.dispatchers.set(channel, dispatch);
      const subscribed = this.subscriber.subscribe(channel, dispatch);
      this.subscribing.set(channel, subscribed);
      subscribed.finally(() => {
        if (this.subscribing.get(channel) === subscribed) this.subscribing.delete(channel);
      }).catch(() => undefined);
    }
    set.add(fn);
    // A second listener waits for the first one's SUBSCRIBE too: nothing published after this resolves is missed.
    await this.subscribing.get(channel);
    return () => {
      const s = this.listeners.get(channel);
      if (s === undefined || !s.delete(fn) || s.size > 0) return;
      this.listeners.delete(channel);
      const dispatch = this.dispatchers.get(channel);
      this.dispatchers.delete(channel);
      // With its listener: node-redis then knows the channel is on its way out, and a SUBSCRIBE
      // made before the UNSUBSCRIBE is answered is sent again (without it, the new listener
      // would be dropped with the old one when the answer comes).
      if (!this.closed) this.subscriber.unsubscribe(channel, dispatch).catch((e: unknown) => this.onError(e as Error));
    };
  }

  /** Run `fn` each time the subscriber connection comes back after a loss. */
  onReconnect(fn: () => void): void {
    this.reconnects.add(fn);
  }

  /** Channels followed now (for tests and metrics). */
  get channels(): number {
    return this.listeners.size;
  }

  private publish(channel: string, message: object): void {
    if (this.closed) return;
    this.publisher.publish(channel, JSON.stringify(message)).catch((e: unknown) => this.onError(e as Error));
  }

  private receive(text: string, channel: string): void {
    let message: (ClusterMessage & { origin?: string }) | undefined;
    try {
      message = JSON.parse(text) as ClusterMessage & { origin?: string };
    } catch {
      this.onError(new Error(`cluster: a message on ${channel} is not JSON; ignored`));
      return;
    }
    if (!isClusterMessage(message)) {
      this.onError(new Error(`cluster: a message on ${channel} is not a cluster message; ignored`));
      return;
    }
    if (message.origin === this.processId) return;
    delete message.origin;
    this.subject.next(message);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.subject.complete();
    this.listeners.clear();
    await closeConnection(this.subscriber);
  }
}

function isClusterMessage(v: unknown): v is ClusterMessage {
  if (typeof v !== 'object' || v === null) return false;
  const m = v as Record<string, unknown>;
  if (typeof m.sessionId !== 'string') return false;
  switch (m.kind) {
    case 'ended':
      return true;
    case 'frame':
      return typeof m.from === 'string' && 'frame' in m;
    case 'standalone-taken':
      return typeof m.by === 'string';
    default:
      return false;
  }
}
