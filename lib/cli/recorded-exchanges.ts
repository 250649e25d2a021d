/**
 * A recording read as exchanges: each request the client sent, its response, and what the server
 * sent while it was in flight (progress, log messages, its own requests with the client's
 * answers). Works for proxy recordings and session journals of either role, in both eras:
 *
 * - 2026-07-28 requests (a version claim in `_meta`) are marked `modern`; a retry of a multi
 *   round-trip request is linked to the round it continues (`retryOf`), by the `requestState` it
 *   echoes or, for a round that handed out none, by the same request with answers;
 * - what the server sent outside any request (list changes, resource updates, log messages on a
 *   legacy session; the notifications of a `subscriptions/listen` stream) is kept with the point
 *   of the recording it followed (`Placed.after`), so a mock server can send it at that point.
 */
import type { JournalEntry } from '../journal/entry.js';
import { META } from '../protocol/schema/modern.js';
import type { JournalFile } from './journal-file.js';

export interface Message {
  seq: number;
  t: number;
  frame: Record<string, any>;
  /** Not a frame the client sent: it closed the request's HTTP stream (frame: the cancellation it stands for). */
  closedStream?: true;
}

export interface Exchange {
  /** Its place in `RecordedSession.exchanges`. */
  index: number;
  request: Message;
  response?: Message;
  /** Server frames related to the request while it was in flight, the response excluded. */
  during: Message[];
  /** A 2026-07-28 request (no session: its envelope is in `_meta`). */
  modern: boolean;
  /** The input-required exchange this request retries (multi round-trip requests). */
  retryOf?: Exchange;
  /** How it ended without a response: the client cancelled it (or closed its stream). */
  cancelled?: boolean;
}

/**
 * Where a frame sent outside any request belongs: after `step` of an exchange's frames went out
 * (0: once its request arrived; `during.length + 1`: after its response), or at the start.
 * A listen stream's notifications placed on the listen exchange itself are due when it opens.
 */
export interface Placed {
  message: Message;
  after?: { exchange: Exchange; step: number };
  /** It came on a 2026-07-28 listen stream (it carries a subscription id). */
  listen: boolean;
}

export interface RecordedSession {
  /** Frames the client sent, batches flattened, in order. */
  clientFrames: Message[];
  exchanges: Exchange[];
  /** The client's answers to the server's requests, by the server request's id. */
  clientAnswers: Map<string, Message>;
  /** The server's requests, in order, with the exchange they happened in. */
  serverRequests: Message[];
  /** Server frames sent outside any request of the client, with their place. */
  unsolicited: Placed[];
  /** The client's frames in order, with the exchange each request opened (verify sends them in this order). */
  exchangeOf: Map<Message, Exchange>;
}

const idKey = (id: unknown) => JSON.stringify(id);
const isRequest = (f: Record<string, any>) => typeof f.method === 'string' && f.id !== undefined && f.id !== null;
const isResponse = (f: Record<string, any>) => f.method === undefined && f.id !== undefined && ('result' in f || 'error' in f);

/** Whether a frame claims the 2026-07-28 era (a protocol version in `params._meta`). */
export function isModernFrame(f: Record<string, any>): boolean {
  return typeof f.params?._meta?.[META.protocolVersion] === 'string';
}

/** The subscription a listen-stream notification belongs to, if it is one. */
export function subscriptionOf(f: Record<string, any>): unknown {
  return f.params?._meta?.[META.subscriptionId];
}

/** The params of a request without what a retry adds (answers, state) and the envelope. */
export function paramsWithoutRound(params: unknown): Record<string, unknown> {
  if (params === null || typeof params !== 'object') return {};
  const { _meta: _m, inputResponses: _i, requestState: _s, ...rest } = params as Record<string, unknown>;
  return rest;
}

function items(e: JournalEntry): Record<string, any>[] {
  if (!('frame' in e) || e.frame === null || typeof e.frame !== 'object') return [];
  return (Array.isArray(e.frame) ? e.frame : [e.frame]) as Record<string, any>[];
}

export function readExchanges(file: JournalFile): RecordedSession {
  // A server's journal (and a proxy's) has the client's frames `in`; a client's has them `out`.
  const clientKind = file.header.role === 'server' ? 'in' : 'out';
  const serverKind = clientKind === 'in' ? 'out' : 'in';
  const clientFrames: Message[] = [];
  const exchanges: Exchange[] = [];
  const exchangeOf = new Map<Message, Exchange>();
  const pending = new Map<string, Exchange>();
  const byToken = new Map<string, Exchange>();
  const clientAnswers = new Map<string, Message>();
  const serverRequests: Message[] = [];
  const unsolicited: Placed[] = [];
  // Multi round-trip requests: the round a state was handed out by, and the last round that handed out none.
  const byState = new Map<string, Exchange>();
  const stateless = new Map<string, Exchange>();
  const roundKey = (f: Record<string, any>) => `${f.method} ${JSON.stringify(paramsWithoutRound(f.params))}`;
  /** The last point of an exchange the recording passed: where a frame outside any request goes. */
  let anchor: Placed['after'];
  const listenExchanges = new Map<string, Exchange>();
  const current = (): Exchange | undefined => {
    let last: Exchange | undefined;
    for (const ex of pending.values()) if (ex.request.frame.method !== 'subscriptions/listen') last = ex;
    return last;
  };
  const addDuring = (ex: Exchange, m: Message) => {
    ex.during.push(m);
    anchor = { exchange: ex, step: ex.during.length };
  };

  const legacySse = file.entries.some((e) => e.kind === 'note' && (e.detail as { event?: unknown } | undefined)?.event === 'sse endpoint');
  for (const e of file.entries) {
    if (e.kind === 'note') {
      // Over HTTP a 2026-07-28 client cancels a request by closing its stream (the proxy notes it).
      const d = e.detail as { event?: unknown; requestId?: unknown } | undefined;
      const ex = d?.event === 'stream closed by client' ? pending.get(idKey(d.requestId)) : undefined;
      if (ex) {
        ex.cancelled = true;
        pending.delete(idKey(d!.requestId));
        clientFrames.push({ seq: e.seq, t: e.t, frame: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: d!.requestId } }, closedStream: true });
      }
      continue;
    }
    if (e.kind !== clientKind && e.kind !== serverKind) continue;
    const http = (e as { http?: { method?: string; requestId?: unknown } }).http;
    for (const frame of items(e)) {
      const m: Message = { seq: e.seq, t: e.t, frame };
      if (e.kind === clientKind) {
        clientFrames.push(m);
        if (isRequest(frame)) {
          const ex: Exchange = { index: exchanges.length, request: m, during: [], modern: isModernFrame(frame) };
          const state = frame.params?.requestState;
          const retryOf = typeof state === 'string' ? byState.get(state) : frame.params?.inputResponses !== undefined ? stateless.get(roundKey(frame)) : undefined;
          if (retryOf) ex.retryOf = retryOf;
          exchanges.push(ex);
          exchangeOf.set(m, ex);
          pending.set(idKey(frame.id), ex);
          if (frame.method === 'subscriptions/listen') listenExchanges.set(idKey(frame.id), ex);
          const token = frame.params?._meta?.progressToken;
          if (token !== undefined) byToken.set(idKey(token), ex);
          anchor = { exchange: ex, step: 0 };
        } else if (isResponse(frame)) {
          clientAnswers.set(idKey(frame.id), m);
        } else if (frame.method === 'notifications/cancelled') {
          const ex = pending.get(idKey(frame.params?.requestId));
          if (ex) {
            ex.cancelled = true;
            pending.delete(idKey(frame.params?.requestId));
          }
        }
        continue;
      }
      if (isResponse(frame)) {
        const ex = pending.get(idKey(frame.id));
        if (ex) {
          ex.response = m;
          pending.delete(idKey(frame.id));
          anchor = { exchange: ex, step: ex.during.length + 1 };
          const result = frame.result;
          if (result?.resultType === 'input_required') {
            if (typeof result.requestState === 'string') byState.set(result.requestState, ex);
            else stateless.set(roundKey(ex.request.frame), ex);
          }
          continue;
        }
      }
      if (frame.method === 'notifications/progress') {
        const ex = byToken.get(idKey(frame.params?.progressToken));
        if (ex) {
          addDuring(ex, m);
          continue;
        }
      }
      const subscription = subscriptionOf(frame);
      if (subscription !== undefined) {
        const listen = listenExchanges.get(idKey(subscription));
        // The acknowledgement opens the stream; what follows was caused by the requests around it.
        if (listen && frame.method === 'notifications/subscriptions/acknowledged') addDuring(listen, m);
        else unsolicited.push({ message: m, listen: true, ...(anchor && { after: anchor }) });
        continue;
      }
      if (isRequest(frame)) serverRequests.push(m);
      // Over HTTP a proxy recording says which request's stream a frame came on; over stdio,
      // requests and log messages belong to the request in flight, other notifications (list
      // changes, resource updates) to no request.
      // (Legacy HTTP+SSE carries everything on its GET stream, as stdio does on stdout.)
      const streamed = http !== undefined && !(legacySse && http.method === 'GET');
      const related = streamed
        ? http.requestId !== undefined
          ? pending.get(idKey(http.requestId))
          : http.method === 'POST'
            ? current()
            : undefined
        : isRequest(frame) || frame.method === 'notifications/message'
          ? current()
          : undefined;
      if (related) addDuring(related, m);
      else unsolicited.push({ message: m, listen: false, ...(anchor && { after: anchor }) });
    }
  }
  return { clientFrames, exchanges, clientAnswers, serverRequests, unsolicited, exchangeOf };
}
