/**
 * A Lua script run with EVALSHA, loaded with EVAL the first time a server does not know it
 * (NOSCRIPT: first use, or Redis restarted).
 */
import { createHash } from 'node:crypto';
import type { RedisClient } from './connection.js';

export class LuaScript {
  readonly sha: string;

  constructor(readonly source: string) {
    this.sha = createHash('sha1').update(source).digest('hex');
  }

  async run(client: RedisClient, keys: string[], args: (string | number)[]): Promise<unknown> {
    const options = { keys, arguments: args.map(String) };
    try {
      return await client.evalSha(this.sha, options);
    } catch (error) {
      if (!String((error as Error)?.message).includes('NOSCRIPT')) throw error;
      return await client.eval(this.source, options);
    }
  }
}
