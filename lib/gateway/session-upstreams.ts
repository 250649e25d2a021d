/**
 * One upstream per downstream session, for stateful upstreams (a server that keeps a working
 * directory, a login, a counter per connection): each downstream session that calls a
 * `perSession` server gets its own host (one client, one child process or HTTP session) started
 * on its first call and closed when the session ends. Bounded: past `max` running upstreams a
 * call fails with an error saying so, and nothing else is affected.
 *
 * The 2026-07-28 era has no sessions (each request stands alone): there the unit is the
 * authenticated caller (its principal, see `principalOf`), whose upstreams are closed once none
 * of them has had a call for `idleMs` (on the gateway's clock). Unauthenticated 2026-07-28
 * callers cannot be told apart, so they use the shared upstream.
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/lifecycle
 */
import { McpError } from '../errors.js';
import type { Host } from '../host/host.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import type { Clock } from '../clock.js';
import type { FeatureContext } from '../server-features/feature-context.js';
import type { Session } from '../session/session.js';

/** Who owns per-session upstreams: a legacy session, or a 2026-07-28 caller's principal. */
export type UpstreamOwner = Session | string;

/** Where a call goes: the host that serves it, and the input bridge's key for that upstream. */
export interface Upstream {
  host: Host;
  key: string;
}

/** Which upstream serves a call to `server` made in `ctx` (the shared one, or the session's own). */
export type Route = (ctx: FeatureContext, server: string) => Promise<Upstream>;

export class SessionUpstreams {
  private readonly bySession = new Map<UpstreamOwner, Map<string, Promise<Upstream>>>();
  /** A principal's idle timer (sessions end by themselves). */
  private readonly idle = new Map<string, unknown>();
  private running = 0;
  private next = 0;

  constructor(
    /** A host serving only `server`, its clients attached to the bridge under `key`. */
    private readonly make: (server: string, key: string) => Host,
    private readonly max: number,
    /** For principals: how idle their upstreams may get, the clock that says, and whether an upstream (by key) has calls in flight. */
    private readonly idlePolicy?: { idleMs: number; clock: Clock; busy: (key: string) => boolean },
  ) {}

  /** Upstreams running now. */
  get size(): number {
    return this.running;
  }

  /** `owner`'s own upstream for `server`, started on first use. */
  for(owner: UpstreamOwner, server: string): Promise<Upstream> {
    let mine = this.bySession.get(owner);
    if (mine === undefined) {
      mine = new Map();
      this.bySession.set(owner, mine);
      if (typeof owner !== 'string') owner.state$.subscribe({ complete: () => void this.release(owner) });
    }
    if (typeof owner === 'string') this.armIdle(owner, mine);
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

  /** (Re)start `principal`'s idle timer: when it fires with no call in flight, its upstreams close. */
  private armIdle(principal: string, mine: Map<string, Promise<Upstream>>): void {
    const policy = this.idlePolicy;
    if (policy === undefined) return;
    if (this.idle.has(principal)) policy.clock.clearTimeout(this.idle.get(principal));
    const fire = async () => {
      const ups = await Promise.all([...mine.values()].map((p) => p.catch(() => undefined)));
      if (this.bySession.get(principal) !== mine) return;
      if (ups.some((u) => u !== undefined && policy.busy(u.key))) this.idle.set(principal, policy.clock.setTimeout(() => void fire(), policy.idleMs));
      else void this.release(principal);
    };
    this.idle.set(principal, policy.clock.setTimeout(() => void fire(), policy.idleMs));
  }

  /** Close `owner`'s upstreams (its session's end, or its principal idle). */
  async release(owner: UpstreamOwner): Promise<void> {
    const mine = this.bySession.get(owner);
    if (mine === undefined) return;
    this.bySession.delete(owner);
    if (typeof owner === 'string' && this.idle.has(owner)) {
      this.idlePolicy?.clock.clearTimeout(this.idle.get(owner));
      this.idle.delete(owner);
    }
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
