/**
 * Connections to Redis for the stores that let several processes serve one deployment. The
 * `redis` package (node-redis, the client Redis maintains) is an optional peer dependency, loaded
 * on first use: a deployment that keeps the in-memory stores never loads it.
 */
import type { RedisClientType } from 'redis';

/** The Redis client the stores use (node-redis). */
export type RedisClient = RedisClientType;

/** `redis` is not installed, or Redis could not be reached. */
export class RedisUnavailableError extends Error {
  override readonly name = 'RedisUnavailableError';
}

/** Load node-redis, or say how to install it. */
export async function loadRedis(): Promise<typeof import('redis')> {
  try {
    return await import('redis');
  } catch (error) {
    throw new RedisUnavailableError(
      `The Redis stores need the "redis" package (node-redis 5), an optional peer dependency: npm install redis (${(error as Error).message})`,
    );
  }
}

/** Connect a client to `url` (e.g. `redis://127.0.0.1:6379`). */
export async function connectRedis(url: string): Promise<RedisClient> {
  const { createClient } = await loadRedis();
  let everReady = false;
  const client = createClient({
    url,
    // A command while the connection is down fails at once rather than waiting in a queue for
    // Redis to come back: a server answers its request with an error instead of hanging it.
    disableOfflineQueue: true,
    socket: {
      // A first connection that fails is an error to report now; a connection lost later is
      // retried with backoff, as node-redis does by default.
      reconnectStrategy: (retries: number, cause: Error) => (everReady ? Math.min(50 * 2 ** retries, 2000) : cause),
    },
  }) as RedisClient;
  client.on('ready', () => (everReady = true));
  // Without a listener node-redis rethrows connection errors as uncaught; reconnecting is its job.
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (error) {
    throw new RedisUnavailableError(`Could not connect to Redis at ${redactUrl(url)}: ${(error as Error).message}`);
  }
  return client;
}

/**
 * Close a connection: politely (`QUIT`) when it is up, for at most a second (a connection whose
 * server just went away may not know it yet), then at once.
 */
export async function closeConnection(client: RedisClient): Promise<void> {
  if (client.isReady) {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, 1000)));
    await Promise.race([client.quit().catch(() => undefined), late]);
    clearTimeout(timer);
  }
  if (client.isOpen) client.destroy();
}

/** A Redis URL without its password, for messages and logs. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(an invalid Redis URL)';
  }
}
