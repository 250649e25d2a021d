/**
 * The `requestState` signing key every process of a deployment shares, kept in Redis: the first
 * process to start makes a random 32-byte key and stores it with `SET NX`; every process then
 * reads the one that won. So a multi round-trip request started on one process continues on any
 * other with no key to configure. A key given in the server options still wins.
 *
 * Whoever can read this Redis key can forge states: protect Redis as you would the key (a
 * password, a private network). There is no rotation: delete the key and restart every process
 * to change it (states in flight are then refused, and their requests start again).
 *
 * A Redis restarted without persistence has lost the key: each process re-publishes its own
 * (`SET NX`) when its connection is ready again, so the processes that were running keep one key
 * and a process started afterwards adopts it rather than making another.
 */
import { randomBytes } from 'node:crypto';
import type { RedisClient } from './redis-connection.js';

/** Read (or create once) the shared key under `<prefix>request-state-key`. */
export async function sharedRequestStateKey(client: RedisClient, prefix = 'mcp-actors:'): Promise<Uint8Array> {
  const name = `${prefix}request-state-key`;
  await client.set(name, randomBytes(32).toString('base64'), { condition: 'NX' });
  const stored = await client.get(name);
  const key = typeof stored === 'string' ? Buffer.from(stored, 'base64') : undefined;
  if (key === undefined || key.byteLength < 32) {
    throw new Error(`The requestState key in Redis (${name}) is not a base64 key of 32 bytes or more; delete it so that a new one is made`);
  }
  return key;
}

/** On every reconnection, put `key` back under `<prefix>request-state-key` if Redis lost it. */
export function republishOnReconnect(client: RedisClient, key: Uint8Array, prefix = 'mcp-actors:', onError: (e: Error) => void = () => {}): () => void {
  const name = `${prefix}request-state-key`;
  const value = Buffer.from(key).toString('base64');
  const ready = () => {
    client.set(name, value, { condition: 'NX' }).catch((e: unknown) => onError(e instanceof Error ? e : new Error(String(e))));
  };
  client.on('ready', ready);
  return () => client.off('ready', ready);
}
