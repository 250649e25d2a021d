/**
 * One upstream per downstream session, for stateful upstreams (a server that keeps a working
 * directory, a login, a counter per connection): each downstream session that calls a
 * `perSession` server gets its own host (one client, one child process or HTTP session) started
 * on its first call and closed when the session ends. Bounded: past `max` running upstreams a
 * call fails with an error saying so, and nothing else is affected.
 *
 * The 2026-07-28 era has no sessions (each request stands alone), so its callers use the shared
 * upstream.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle
 */
import { McpError } from '../errors.js';
import type { Host } from '../host/host.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import type { FeatureContext } from '../server-features/feature-context.js';
import type { Session } from '../session/session.js';

/** Where a call goes: the host that serves it, and the input bridge's key for that upstream. */
export interface Upstream {
  host: Host;
  key: string;
}

/** Which upstream serves a call to `server` made in `ctx` (the shared one, or the session's own). */
export type Route = (ctx: FeatureContext, server: string) => Promise<Upstream>;

export class SessionUpstreams {
  private readonly bySession = new Map<Session, Map<string, Promise<Upstream>>>();
  private running = 0;
  private next = 0;

  constructor(
    /** A host serving only `server`, its clients attached to the bridge under `key`. */
    private readonly make: (server: string, key: string) => Host,
    private readonly max: number,
  ) {}

  /** Upstreams running now. */
  get size(): number {
    return this.running;
  }

  /** `session`'s own upstream for `server`, started on first use. */
  for(session: Session, server: string): Promise<Upstream> {
    let mine = this.bySession.get(session);
    if (mine === undefined) {
      mine = new Map();
      this.bySession.set(session, mine);
      session.state$.subscribe({ complete: () => void this.release(session) });
    }
    const existing = mine.get(server);
    if (existing !== undefined) return existing;
    if (this.running >= this.max) {
      return Promise.reject(new McpError(ErrorCode.InternalError, `Upstream "${server}": ${this.max} per-session upstreams are running, the most allowed (maxSessionUpstreams); try again when a session ends`));
    }
    this.running++;
    const key = `${server}#${++this.next}`;
    const host = this.make(server, key);
    const started = (async () => {
      await host.start();
      await host.whenReady(server);
      return { host, key };
    })();
    // A start that fails is forgotten, so the session's next call tries again.
    started.catch(() => {
      if (mine.get(server) === started) mine.delete(server);
      this.running--;
      void host.close();
    });
    mine.set(server, started);
    return started;
  }

  /** Close `session`'s upstreams (its end). */
  async release(session: Session): Promise<void> {
    const mine = this.bySession.get(session);
    if (mine === undefined) return;
    this.bySession.delete(session);
    await Promise.all(
      [...mine.values()].map(async (p) => {
        const up = await p.catch(() => undefined);
        if (up === undefined) return;
        this.running--;
        await up.host.close();
      }),
    );
  }

  async close(): Promise<void> {
    await Promise.all([...this.bySession.keys()].map((s) => this.release(s)));
  }
}
