/**
 * A Lua script run atomically on Redis: sent by its SHA-1 (`EVALSHA`), and in full once when
 * the server does not know it yet (after a restart or `SCRIPT FLUSH`). Scripts are how the stores
 * make several steps one: a compare-and-set of a task record with its indexes, a creation under
 * the limits, a sweep of what expired.
 */
import { createHash } from 'node:crypto';
import type { RedisClient } from './redis-connection.js';

export class LuaScript {
  readonly sha: string;

  constructor(readonly source: string) {
    this.sha = createHash('sha1').update(source).digest('hex');
  }

  async run(client: RedisClient, keys: string[], args: Array<string | number>): Promise<unknown> {
    const options = { keys, arguments: args.map(String) };
    try {
      return await client.evalSha(this.sha, options);
    } catch (error) {
      if (!/NOSCRIPT/.test((error as Error)?.message ?? '')) throw error;
      return client.eval(this.source, options);
    }
  }
}
