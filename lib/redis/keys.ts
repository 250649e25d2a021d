/**
 * The Redis key names of one deployment, all under one prefix. A session's own keys share the
 * hash tag `{<session id>}`, so the scripts that touch several of them stay on one slot.
 */
export class RedisKeys {
  readonly prefix: string;

  /** `prefix` with or without its trailing colon (`mcp-actors` and `mcp-actors:` are the same). */
  constructor(prefix: string) {
    const p = prefix.endsWith(':') ? prefix.slice(0, -1) : prefix;
    if (p === '' || /[\s{}]/.test(p)) throw new TypeError(`A Redis key prefix must be non-empty, without spaces or braces; got ${JSON.stringify(prefix)}`);
    this.prefix = p;
  }

  /** A session's record (a hash). */
  session(id: string): string {
    return `${this.prefix}:s:{${id}}`;
  }
  /** What follows `{<id>}` in every key of a session (scripts build the names from it). */
  sessionBase(id: string): string {
    return `${this.prefix}:s:{${id}}`;
  }
  /** The SSE events of one stream of a session (a Redis stream), and the pub/sub channel of its news. */
  events(id: string, stream: string): string {
    return `${this.prefix}:s:{${id}}:e:${stream}`;
  }
  /** Who serves a request stream, for which request ids, and where it ended (a hash). */
  streamMeta(id: string, stream: string): string {
    return `${this.prefix}:s:{${id}}:m:${stream}`;
  }
  /** The request streams of a session that have keys (a set), so they can be renewed and deleted. */
  streams(id: string): string {
    return `${this.prefix}:s:{${id}}:streams`;
  }
  /** The resource URIs a session is subscribed to (a set). */
  subscriptions(id: string): string {
    return `${this.prefix}:s:{${id}}:subs`;
  }
  /** The sessions subscribed to a resource URI (a set). */
  subscribers(uri: string): string {
    return `${this.prefix}:subs:${uri}`;
  }
  /** Every session of the deployment (a set; members whose record expired are removed lazily). */
  sessions(): string {
    return `${this.prefix}:sessions`;
  }
  /** The lease of every process: process id → the time its lease runs out (a hash). */
  leases(): string {
    return `${this.prefix}:leases`;
  }
  /** Messages for one process (answers to the requests it sent, progress on them). */
  processChannel(processId: string): string {
    return `${this.prefix}:proc:${processId}`;
  }
  /** Messages for every process (a session ended, a cancellation, a stream taken over). */
  controlChannel(): string {
    return `${this.prefix}:control`;
  }
}
