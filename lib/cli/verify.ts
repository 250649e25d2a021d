/**
 * `replay --as client`: drives a live server with the recorded client frames, in order, and
 * compares each response with the recorded one after normalization. The server's own requests
 * (sampling, elicitation, roots) are answered with the client's recorded answers. Every
 * difference is reported, by request and JSON path.
 *
 * In the 2026-07-28 era: a retry of a multi round-trip request carries the `requestState` the
 * live server handed out, not the recorded one (a state is signed by the server that issued it);
 * a `subscriptions/listen` stream is compared by its acknowledgement and, when the recording
 * cancels it, by the notifications it carried (in any order, a list change counted once: servers
 * debounce them on a clock); cancelling it over HTTP closes
 * its stream, as the recorded client did.
 */
import type { Frame, RequestId } from '../jsonrpc/message.js';
import { paramHeadersOf, type ParamHeaderSpec } from '../client-modern/wire-headers.js';
import { OversizeFrame, type Transport } from '../../streams/transport.js';
import { differences, type Difference, type Normalizer } from './normalize.js';
import { subscriptionOf, type Exchange, type RecordedSession } from './recorded-exchanges.js';

export interface RequestDifference {
  /** The recorded entry's sequence number. */
  seq: number;
  method: string;
  /** What the request is about: the tool or prompt name, the resource URI, the completed argument. */
  subject?: string;
  differences: Difference[];
}

/** The tool or prompt, resource or completed argument a request names, for a reader of the report. */
export function subjectOf(frame: { method?: unknown; params?: Record<string, any> }): string | undefined {
  const p = frame.params;
  if (p === null || typeof p !== 'object') return undefined;
  switch (frame.method) {
    case 'tools/call':
    case 'prompts/get':
      return typeof p.name === 'string' ? p.name : undefined;
    case 'resources/read':
    case 'resources/subscribe':
    case 'resources/unsubscribe':
      return typeof p.uri === 'string' ? p.uri : undefined;
    case 'completion/complete': {
      const ref = p.ref?.name ?? p.ref?.uri;
      return typeof ref === 'string' && typeof p.argument?.name === 'string' ? `${ref} ${p.argument.name}` : undefined;
    }
    default:
      return undefined;
  }
}

export interface VerifyReport {
  requests: number;
  matched: number;
  different: RequestDifference[];
}

export interface VerifyOptions {
  timeoutMs: number;
  /**
   * How long to wait for a listen stream's notifications before comparing them (default the
   * smaller of timeoutMs and 5 s). The wait ends as soon as the recorded number arrived, so it is
   * only spent in full when one is missing; a busy server's debounced list change can take a second.
   */
  settleMs?: number;
  /** `subject`: what the request names ({@link subjectOf}), when it names something. */
  onResult?: (seq: number, method: string, diffs: Difference[], subject?: string) => void;
}

type AnyFrame = Record<string, any>;
type HttpLike = Transport & { paramHeaders?: (tool: string) => readonly ParamHeaderSpec[] | undefined; closeRequestStream?: (id: RequestId) => boolean };

/** A wait that resolves when `ready()` holds or after `ms`, checked whenever `poke` is called. */
class Waiter {
  private wake: (() => void) | undefined;
  poke(): void {
    this.wake?.();
  }
  async until(ready: () => boolean, ms: number): Promise<void> {
    const deadline = Date.now() + ms;
    while (!ready() && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    this.wake = undefined;
  }
}

export async function verify(rec: RecordedSession, transport: Transport, normalizer: Normalizer, options: VerifyOptions): Promise<VerifyReport> {
  const http = transport as HttpLike;
  const waiters = new Map<string, (f: AnyFrame) => void>();
  const answerQueues = new Map<string, AnyFrame[]>();
  for (const req of rec.serverRequests) {
    const answer = rec.clientAnswers.get(JSON.stringify(req.frame.id));
    if (!answer) continue;
    const key = normalizer.requestKey(req.frame.method, req.frame.params);
    answerQueues.set(key, [...(answerQueues.get(key) ?? []), answer.frame]);
  }
  // Tools' x-mcp-header arguments go in Mcp-Param-* headers on 2026-07-28 HTTP posts.
  const paramHeaders = new Map<string, ParamHeaderSpec[]>();
  const learnTools = (result: AnyFrame | undefined) => {
    for (const tool of (result?.tools ?? []) as AnyFrame[]) {
      const specs = paramHeadersOf(tool.inputSchema);
      if ('specs' in specs && specs.specs.length > 0) paramHeaders.set(String(tool.name), specs.specs);
    }
  };
  for (const ex of rec.exchanges) if (ex.request.frame.method === 'tools/list') learnTools(ex.response?.frame.result);
  http.paramHeaders = (tool) => paramHeaders.get(tool);

  const report: VerifyReport = { requests: 0, matched: 0, different: [] };
  const extra: RequestDifference[] = [];
  /** Live listen-stream notifications by subscription (the recorded listen ids are the live ones: verify sends the recorded ids). */
  const listened = new Map<string, AnyFrame[]>();
  const listenWaiter = new Waiter();
  /** Recorded state → the state the live server handed out for the same round. */
  const states = new Map<string, string>();
  const result = (seq: number, method: string, diffs: Difference[], subject?: string) => {
    options.onResult?.(seq, method, diffs, subject);
    if (diffs.length) report.different.push({ seq, method, ...(subject !== undefined && { subject }), differences: diffs });
    else report.matched++;
  };

  const onFrame = (f: AnyFrame) => {
    if (f.method === undefined && f.id !== undefined) {
      waiters.get(JSON.stringify(f.id))?.(f);
      return;
    }
    const subscription = subscriptionOf(f);
    if (subscription !== undefined && typeof f.method === 'string') {
      const key = JSON.stringify(subscription);
      listened.set(key, [...(listened.get(key) ?? []), f]);
      listenWaiter.poke();
      return;
    }
    if (typeof f.method === 'string' && f.id !== undefined) {
      const q = answerQueues.get(normalizer.requestKey(f.method, f.params));
      const recorded = q?.shift();
      if (!recorded) {
        extra.push({ seq: -1, method: f.method, differences: [{ path: 'request', recorded: '<not in the recording>', live: f.params ?? {} }] });
        transport.send({ jsonrpc: '2.0', id: f.id, error: { code: -32601, message: `mcp-actors verify: the recording holds no answer to ${f.method}` } });
        return;
      }
      transport.send({ ...recorded, id: f.id } as Frame);
    }
  };
  const sub = transport.inbound$.subscribe((raw) => {
    if (raw instanceof OversizeFrame) return;
    let value: unknown = raw;
    if (typeof raw === 'string') {
      try {
        value = JSON.parse(raw);
      } catch {
        return;
      }
    }
    for (const f of Array.isArray(value) ? value : [value]) if (f && typeof f === 'object') onFrame(f as AnyFrame);
  });

  /** A listen stream's notifications, recorded and live, compared in any order once they had time to come. */
  const compareListen = async (ex: Exchange) => {
    const key = JSON.stringify(ex.request.frame.id);
    const recorded = rec.unsolicited.filter((p) => p.listen && JSON.stringify(subscriptionOf(p.message.frame)) === key).map((p) => p.message.frame);
    const liveNow = () => (listened.get(key) ?? []).filter((f) => f.method !== 'notifications/subscriptions/acknowledged');
    await listenWaiter.until(() => liveNow().length >= recorded.length, options.settleMs ?? Math.min(options.timeoutMs, 5000));
    const norm = (f: AnyFrame) => JSON.stringify(normalizer.frame(f));
    const left = onceEachListChange(liveNow(), norm).map(norm);
    const diffs: Difference[] = [];
    for (const f of onceEachListChange(recorded, norm)) {
      const i = left.indexOf(norm(f));
      if (i >= 0) left.splice(i, 1);
      else diffs.push({ path: 'notifications', recorded: normalizer.frame(f), live: '<not sent>' });
    }
    for (const l of left) diffs.push({ path: 'notifications', recorded: '<not recorded>', live: JSON.parse(l) as unknown });
    result(ex.request.seq, 'subscriptions/listen (notifications)', diffs);
  };

  const openListens = new Map<string, Exchange>();
  try {
    await transport.start();
    for (const m of rec.clientFrames) {
      let f = m.frame;
      if (f.method === undefined) continue; // an answer to a server request: given live, above
      if (f.id === undefined) {
        if (f.method === 'notifications/cancelled') {
          const listen = openListens.get(JSON.stringify(f.params?.requestId));
          if (listen) {
            openListens.delete(JSON.stringify(f.params?.requestId));
            await compareListen(listen);
          }
        }
        if (m.closedStream) http.closeRequestStream?.(f.params?.requestId as RequestId);
        else transport.send(f as Frame);
        continue;
      }
      const ex = rec.exchangeOf.get(m);
      const state = f.params?.requestState;
      if (typeof state === 'string' && states.has(state)) f = { ...f, params: { ...f.params, requestState: states.get(state) } };
      const key = JSON.stringify(f.id);
      const recordedAck = f.method === 'subscriptions/listen' ? ex?.during.find((d) => d.frame.method === 'notifications/subscriptions/acknowledged')?.frame : undefined;
      if (recordedAck && ex) {
        report.requests++;
        openListens.set(key, ex);
        transport.send(f as Frame);
        const ackOf = () => (listened.get(key) ?? []).find((n) => n.method === 'notifications/subscriptions/acknowledged');
        await listenWaiter.until(() => ackOf() !== undefined, options.timeoutMs);
        const liveAck = ackOf();
        result(m.seq, f.method, liveAck ? differences(normalizer.frame(recordedAck), normalizer.frame(liveAck)) : [{ path: '(acknowledgement)', recorded: recordedAck, live: `none within ${options.timeoutMs} ms` }]);
        continue;
      }
      const recorded = ex?.response;
      if (!recorded) {
        // Cancelled or unanswered when recorded (a listen stream closed before its acknowledgement too): send it, do not wait.
        transport.send(f as Frame);
        continue;
      }
      report.requests++;
      const live = await new Promise<AnyFrame | undefined>((resolve) => {
        const timer = setTimeout(() => resolve(undefined), options.timeoutMs);
        waiters.set(key, (answer) => {
          clearTimeout(timer);
          resolve(answer);
        });
        try {
          transport.send(f as Frame);
        } catch {
          clearTimeout(timer);
          resolve(undefined);
        }
      });
      waiters.delete(key);
      const recordedState = recorded.frame.result?.requestState;
      if (typeof recordedState === 'string' && typeof live?.result?.requestState === 'string') states.set(recordedState, live.result.requestState);
      if (f.method === 'tools/list') learnTools(live?.result);
      const diffs = live
        ? differences(normalizer.frame(recorded.frame), normalizer.frame(live))
        : [{ path: '(response)', recorded: 'an answer', live: `no answer within ${options.timeoutMs} ms` }];
      result(m.seq, f.method, diffs, subjectOf(f));
    }
    // Streams the recording never closed: what they carried until it ended.
    for (const ex of openListens.values()) await compareListen(ex);
  } finally {
    sub.unsubscribe();
    await transport.close().catch(() => undefined);
  }
  report.different.push(...extra);
  return report;
}

/**
 * A list change counted once: servers debounce `notifications/.../list_changed` on a clock, so how
 * many come for one burst of changes depends on timing, not on behaviour; "it changed" is the news.
 */
function onceEachListChange(frames: AnyFrame[], norm: (f: AnyFrame) => string): AnyFrame[] {
  const seen = new Set<string>();
  return frames.filter((f) => {
    if (typeof f.method !== 'string' || !f.method.endsWith('/list_changed')) return true;
    const key = norm(f);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
