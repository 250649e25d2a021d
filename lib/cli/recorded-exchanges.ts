/**
 * A recording read as exchanges: each request the client sent, its response, and what the server
 * sent while it was in flight (progress, its own requests with the client's answers, other
 * notifications). Works for proxy recordings and session journals of either role.
 */
import type { JournalEntry } from '../journal/entry.js';
import type { JournalFile } from './journal-file.js';

export interface Message {
  seq: number;
  t: number;
  frame: Record<string, any>;
}

export interface Exchange {
  request: Message;
  response?: Message;
  /** Server frames while the request was in flight, the response excluded. */
  during: Message[];
}

export interface RecordedSession {
  /** Frames the client sent, batches flattened, in order. */
  clientFrames: Message[];
  exchanges: Exchange[];
  /** The client's answers to the server's requests, by the server request's id. */
  clientAnswers: Map<string, Message>;
  /** The server's requests, in order, with the exchange they happened in. */
  serverRequests: Message[];
  /** Server frames sent when no request of the client was in flight. */
  unsolicited: Message[];
}

const idKey = (id: unknown) => JSON.stringify(id);
const isRequest = (f: Record<string, any>) => typeof f.method === 'string' && f.id !== undefined && f.id !== null;
const isResponse = (f: Record<string, any>) => f.method === undefined && f.id !== undefined && ('result' in f || 'error' in f);

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
  const pending = new Map<string, Exchange>();
  const byToken = new Map<string, Exchange>();
  const clientAnswers = new Map<string, Message>();
  const serverRequests: Message[] = [];
  const unsolicited: Message[] = [];
  for (const e of file.entries) {
    if (e.kind !== clientKind && e.kind !== serverKind) continue;
    for (const frame of items(e)) {
      const m: Message = { seq: e.seq, t: e.t, frame };
      if (e.kind === clientKind) {
        clientFrames.push(m);
        if (isRequest(frame)) {
          const ex: Exchange = { request: m, during: [] };
          exchanges.push(ex);
          pending.set(idKey(frame.id), ex);
          const token = frame.params?._meta?.progressToken;
          if (token !== undefined) byToken.set(idKey(token), ex);
        } else if (isResponse(frame)) {
          clientAnswers.set(idKey(frame.id), m);
        }
        continue;
      }
      if (isResponse(frame)) {
        const ex = pending.get(idKey(frame.id));
        if (ex) {
          ex.response = m;
          pending.delete(idKey(frame.id));
          continue;
        }
      }
      if (frame.method === 'notifications/progress') {
        const ex = byToken.get(idKey(frame.params?.progressToken));
        if (ex) {
          ex.during.push(m);
          continue;
        }
      }
      if (isRequest(frame)) serverRequests.push(m);
      // Requests and log messages belong to the request in flight; other notifications (list
      // changes, resource updates) only when HTTP says they came on that request's stream.
      const onPost = (e as { http?: { method?: string } }).http?.method === 'POST';
      const current = isRequest(frame) || frame.method === 'notifications/message' || onPost ? [...pending.values()].at(-1) : undefined;
      if (current) current.during.push(m);
      else unsolicited.push(m);
    }
  }
  return { clientFrames, exchanges, clientAnswers, serverRequests, unsolicited };
}
