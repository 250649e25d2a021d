/**
 * `createRedisStore({ url })`: what the processes of one deployment share, on Redis, as the one
 * object a server takes as its `store` option:
 *
 * ```ts
 * const store = await createRedisStore({ url: process.env.REDIS_URL! });
 * const mcp = createMcpServer({ name: 'notes', version: '1.0.0' }, { store });
 * // ... serve; on shutdown:
 * await mcp.close();
 * await store.close();
 * ```
 *
 * Its parts, by name: `events` (list changes and resource updates for every process's
 * `subscriptions/listen` streams), `tasks` (a task outlives the process that started it),
 * `requestState` (one signing key, made once in Redis, and a replay guard, so a multi
 * round-trip request continues on any process and a state is used once).
 *
 * Why it is asynchronous: the signing key lives in Redis and a server needs it when it is built;
 * the subscriptions must be in place before the first request so no change is missed; and an
 * unreachable Redis or a missing `redis` package is an error where you await the store, at start,
 * rather than on some user's first request.
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/subscriptions
 */
import { systemClock, type Clock } from '../clock.js';
import type { ServerStore } from '../server-store.js';
import { closeConnection, connectRedis, type RedisClient } from './redis-connection.js';
import { RedisReplayGuard } from './replay-guard.js';
import { republishOnReconnect, sharedRequestStateKey } from './request-state-key.js';
import { RedisServerEventBus } from './server-event-bus.js';
import { RedisTaskStore, type RedisTaskStoreOptions } from './redis-task-store.js';
import { RedisHttpSessions, type RedisHttpSessionsOptions } from './http-sessions.js';

export interface RedisStoreOptions {
  /** `redis://[user:password@]host:port[/db]` (or `rediss://` for TLS). */
  url: string;
  /** Prefix of every key and channel (default `mcp-actors:`); one per deployment sharing a Redis. */
  prefix?: string;
  /** The clock of TTLs, leases and requestState expiries (default: the system clock). */
  clock?: Clock;
  /** Limits, TTLs and leases of the task store (see {@link RedisTaskStoreOptions}). */
  tasks?: Omit<RedisTaskStoreOptions, 'prefix' | 'clock' | 'onError'>;
  /** The process lease and the events kept per stream of the HTTP sessions (see {@link RedisHttpSessionsOptions}). */
  http?: Omit<RedisHttpSessionsOptions, 'prefix' | 'clock' | 'onError'>;
  /** Failures of background work nobody awaits (a publish, a sweep, a foreign message). */
  onError?: (error: Error) => void;
}

/** The parts a server uses ({@link ServerStore}), on Redis, and how to close them. */
export interface RedisStore extends ServerStore {
  readonly events: RedisServerEventBus;
  readonly tasks: RedisTaskStore;
  readonly requestState: { readonly key: Uint8Array; readonly replayGuard: RedisReplayGuard };
  /**
   * Streamable HTTP sessions (the legacy era) shared by every process: pass the store to
   * `createStreamableHttpHandler(server, { store })` (or give it to the server as `store`) and any
   * process serves any session's POST, GET and DELETE, without sticky sessions.
   */
  readonly httpSessions: RedisHttpSessions;
  /** The command connection the parts share (for your own use: it is closed with the store). */
  readonly client: RedisClient;
  readonly prefix: string;
  /** Close what the store opened: the task store (failing the live tasks this process runs), the subscriptions, the connection. */
  close(): Promise<void>;
}

/**
 * Connect to Redis and make the shared parts. Rejects with `RedisUnavailableError` when the
 * `redis` package is missing or Redis cannot be reached.
 */
export async function createRedisStore(options: RedisStoreOptions): Promise<RedisStore> {
  const prefix = options.prefix ?? 'mcp-actors:';
  const clock = options.clock ?? systemClock;
  const onError = options.onError ?? (() => {});
  const client = await connectRedis(options.url);
  const opened: Array<{ close(): Promise<void> }> = [];
  try {
    const key = await sharedRequestStateKey(client, prefix);
    const stopRepublishing = republishOnReconnect(client, key, prefix, onError);
    opened.push({ close: async () => stopRepublishing() });
    const events = await RedisServerEventBus.create(client, { channel: `${prefix}server-events`, onError });
    opened.push(events);
    const tasks = await RedisTaskStore.create(client, { ...options.tasks, prefix, clock, onError });
    opened.push(tasks);
    const httpSessions = await RedisHttpSessions.create(client, { ...options.http, prefix, clock, onError });
    opened.push(httpSessions);
    const replayGuard = new RedisReplayGuard(client, { prefix, clock, onError });
    opened.push({ close: async () => replayGuard.close() });
    let closing: Promise<void> | undefined;
    return {
      events,
      tasks,
      requestState: { key, replayGuard },
      httpSessions,
      client,
      prefix,
      close: () =>
        (closing ??= (async () => {
          replayGuard.close();
          await httpSessions.close();
          await tasks.close();
          await events.close();
          await closeConnection(client);
        })()),
    };
  } catch (error) {
    for (const part of opened.reverse()) await part.close().catch(() => undefined);
    await closeConnection(client);
    throw error;
  }
}
