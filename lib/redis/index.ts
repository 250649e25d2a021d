/**
 * `mcp-actors/redis`: serve one deployment from many processes, sharing on Redis what must be
 * shared. `createRedisStore({ url })` gives the `store` option of a server (see `store.ts`).
 * Needs the optional peer dependency `redis` (node-redis 5): `npm install redis`.
 */
export { createRedisStore, type RedisStore, type RedisStoreOptions } from './store.js';
export { RedisTaskStore, PROCESS_STOPPED, type RedisTaskStoreOptions } from './redis-task-store.js';
export { RedisReplayGuard, type RedisReplayGuardOptions } from './replay-guard.js';
export { RedisServerEventBus, type RedisServerEventBusOptions } from './server-event-bus.js';
export { RedisHttpSessions, type RedisHttpSessionsOptions } from './http-sessions.js';
export { PROCESS_ENDED_MESSAGE } from './stream-event-store.js';
export { sharedRequestStateKey } from './request-state-key.js';
export { connectRedis, closeConnection, RedisUnavailableError, redactUrl, type RedisClient } from './redis-connection.js';
export type { ServerStore } from '../server-store.js';
