/**
 * `replay --as client`: drives a live server with the recorded client frames, in order, and
 * compares each response with the recorded one after normalization. The server's own requests
 * (sampling, elicitation, roots) are answered with the client's recorded answers. Every
 * difference is reported, by request and JSON path.
 */
import type { Frame } from '../jsonrpc/message.js';
import { OversizeFrame, type Transport } from '../../streams/transport.js';
import { differences, type Difference, type Normalizer } from './normalize.js';
import type { Message, RecordedSession } from './recorded-exchanges.js';

export interface RequestDifference {
  /** The recorded entry's sequence number. */
  seq: number;
  method: string;
  differences: Difference[];
}

export interface VerifyReport {
  requests: number;
  matched: number;
  different: RequestDifference[];
}

export interface VerifyOptions {
  timeoutMs: number;
  onResult?: (seq: number, method: string, diffs: Difference[]) => void;
}

type AnyFrame = Record<string, any>;

export async function verify(rec: RecordedSession, transport: Transport, normalizer: Normalizer, options: VerifyOptions): Promise<VerifyReport> {
  const waiters = new Map<string, (f: AnyFrame) => void>();
  const answerQueues = new Map<string, Message[]>();
  for (const req of rec.serverRequests) {
    const answer = rec.clientAnswers.get(JSON.stringify(req.frame.id));
    if (!answer) continue;
    const key = normalizer.requestKey(req.frame.method, req.frame.params);
    answerQueues.set(key, [...(answerQueues.get(key) ?? []), answer]);
  }
  const report: VerifyReport = { requests: 0, matched: 0, different: [] };
  const extra: RequestDifference[] = [];
  const onFrame = (f: AnyFrame) => {
    if (f.method === undefined && f.id !== undefined) {
      waiters.get(JSON.stringify(f.id))?.(f);
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
      transport.send({ ...recorded.frame, id: f.id } as Frame);
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
  try {
    await transport.start();
    const responses = new Map(rec.exchanges.map((e) => [e.request, e.response]));
    for (const m of rec.clientFrames) {
      const f = m.frame;
      if (f.method === undefined) continue; // an answer to a server request: given live, above
      if (f.id === undefined) {
        transport.send(f as Frame);
        continue;
      }
      const recorded = responses.get(m);
      if (!recorded) {
        // Cancelled or unanswered when recorded: send it, do not wait.
        transport.send(f as Frame);
        continue;
      }
      report.requests++;
      const key = JSON.stringify(f.id);
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
      const diffs = live
        ? differences(normalizer.frame(recorded.frame), normalizer.frame(live))
        : [{ path: '(response)', recorded: 'an answer', live: `no answer within ${options.timeoutMs} ms` }];
      options.onResult?.(m.seq, f.method, diffs);
      if (diffs.length) report.different.push({ seq: m.seq, method: f.method, differences: diffs });
      else report.matched++;
    }
  } finally {
    sub.unsubscribe();
    await transport.close().catch(() => undefined);
  }
  report.different.push(...extra);
  return report;
}
