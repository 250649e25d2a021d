/**
 * What the recorded server sent outside any request, sent again by the mock server at the point
 * of the session where it was recorded: after the same step of the same exchange (its request
 * arriving, one of its progress or log frames, its response), or, for what came before any
 * request, once a legacy session is operating.
 *
 * - A legacy session gets the frame itself (list changes, resource updates, log messages on the
 *   standalone GET stream or stdio; a server request is sent and its answer ignored).
 * - In the 2026-07-28 era change notifications travel on `subscriptions/listen` streams: the mock
 *   publishes the recorded change on the server's event bus and the real listen machinery sends
 *   it, with the live subscription id, to the streams that asked for it (and to none that did not).
 *   Notifications placed when a listen stream opened are sent when a live one opens.
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/subscriptions
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#listening-for-messages-from-the-server
 */
import { Observable, Subject } from 'rxjs';
import { systemClock, type Clock } from '../clock.js';
import type { JsonObject } from '../jsonrpc/message.js';
import type { ServerEvent, ServerEventBus } from '../modern/server-events.js';
import type { Server, ServerSession } from '../server.js';
import type { Session } from '../session/session.js';
import type { Exchange, Placed } from './recorded-exchanges.js';

/** The change a listen-stream notification announces. */
export function eventOf(frame: Record<string, any>): ServerEvent | undefined {
  switch (frame.method) {
    case 'notifications/tools/list_changed':
      return { type: 'listChanged', kind: 'tools' };
    case 'notifications/prompts/list_changed':
      return { type: 'listChanged', kind: 'prompts' };
    case 'notifications/resources/list_changed':
      return { type: 'listChanged', kind: 'resources' };
    case 'notifications/resources/updated':
      return typeof frame.params?.uri === 'string' ? { type: 'resourceUpdated', uri: frame.params.uri } : undefined;
    default:
      return undefined;
  }
}

/** An event bus that says when a listen stream starts listening (its acknowledgement was sent). */
export class MockEventBus implements ServerEventBus {
  private readonly subject = new Subject<ServerEvent>();
  private readonly opened = new Subject<void>();
  /** Each listen stream that starts listening. */
  readonly opened$ = this.opened.asObservable();
  readonly events$ = new Observable<ServerEvent>((subscriber) => {
    const sub = this.subject.subscribe(subscriber);
    this.opened.next();
    return sub;
  });
  publish(event: ServerEvent): void {
    this.subject.next(event);
  }
}

type Due = { step: number; placed: Placed[] };

export class UnsolicitedFrames {
  /** By exchange index: the frames due after each step. */
  private readonly byExchange = new Map<number, Due[]>();
  private readonly atStart: Placed[] = [];
  /** Listen exchanges in recorded order, and how many live listen streams opened so far. */
  private readonly listens: Exchange[];
  private opened = 0;

  constructor(
    placed: readonly Placed[],
    exchanges: readonly Exchange[],
    private readonly server: Server,
    private readonly bus: MockEventBus,
    private readonly realtime: boolean,
    private readonly clock: Clock = systemClock,
  ) {
    this.listens = exchanges.filter((e) => e.request.frame.method === 'subscriptions/listen');
    for (const p of placed) {
      const ex = p.after?.exchange;
      const method = ex?.request.frame.method;
      if (ex === undefined || method === 'initialize') {
        this.atStart.push(p);
        continue;
      }
      const list = this.byExchange.get(ex.index) ?? [];
      const due = list.find((d) => d.step === p.after!.step);
      if (due) due.placed.push(p);
      else list.push({ step: p.after!.step, placed: [p] });
      this.byExchange.set(ex.index, list);
    }
    bus.opened$.subscribe(() => {
      const listen = this.listens[this.opened++];
      if (!listen) return;
      // After the acknowledgement went out (the stream subscribes right after sending it).
      setImmediate(() => void this.reached(listen, 0, undefined).then(() => this.reached(listen, 1, undefined)));
    });
    server.sessions$.subscribe((session: ServerSession) => {
      if (this.atStart.length === 0) return;
      session.whenOperating().then(
        () => this.send(this.atStart, undefined, session),
        () => undefined,
      );
    });
  }

  /**
   * The live request matched to `ex` has passed `step` of its frames: send what the recording
   * had next outside any request. `session` is the legacy session serving it (undefined in the
   * 2026-07-28 era, where changes go to listen streams).
   */
  async reached(ex: Exchange, step: number, session: Session | undefined): Promise<void> {
    const due = this.byExchange.get(ex.index)?.find((d) => d.step === step);
    if (!due) return;
    const anchorT = step === 0 ? ex.request.t : step <= ex.during.length ? ex.during[step - 1]!.t : (ex.response?.t ?? ex.request.t);
    await this.send(due.placed, anchorT, session);
  }

  private async send(placed: Placed[], anchorT: number | undefined, session: Session | undefined): Promise<void> {
    const start = this.clock.now();
    // One change fanned out to several recorded listen streams is one change to publish.
    const published = new Map<string, Map<unknown, number>>();
    for (const p of placed) {
      const f = p.message.frame;
      if (this.realtime && anchorT !== undefined) {
        const due = p.message.t - anchorT - (this.clock.now() - start);
        if (due > 0) await new Promise((r) => this.clock.setTimeout(r, due, 'mock-pace'));
      }
      if (p.listen) {
        const event = eventOf(f);
        if (!event) continue;
        const key = JSON.stringify(event);
        const bySubscription = published.get(key) ?? new Map<unknown, number>();
        published.set(key, bySubscription);
        const sub = JSON.stringify(f.params?._meta?.['io.modelcontextprotocol/subscriptionId']);
        const n = (bySubscription.get(sub) ?? 0) + 1;
        bySubscription.set(sub, n);
        if (n > Math.max(0, ...[...bySubscription.entries()].filter(([s]) => s !== sub).map(([, c]) => c))) this.bus.publish(event);
        continue;
      }
      if (!session || session.currentPhase !== 'operating') continue;
      const { _meta: _m, ...params } = (f.params ?? {}) as JsonObject;
      try {
        if (f.id !== undefined && f.id !== null) void session.request(f.method, params).catch(() => undefined);
        else session.notify(f.method, f.params);
      } catch {
        // The live session cannot send it (a capability the client lacks): as a server would not.
      }
      // Each frame in its own write, as a server sends them.
      await new Promise((r) => setImmediate(r));
    }
  }
}
