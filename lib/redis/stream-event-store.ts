/**
 * SSE events in Redis Streams, so a client resumes a stream with `Last-Event-ID` on any process.
 * One Redis stream per SSE stream of a session (entries `0-<seq>`, field `d`); each event is
 * announced on the stream's channel for the processes following it. A request stream also has a
 * small hash: the process serving it (its lease says whether it lives), its request ids, and its
 * last event once it ended.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#resumability-and-redelivery
 */
import type { StoredEvent } from '../../streams/event-store.js';
import type { ClusterEventStore } from '../server-bindings/http-cluster.js';
import type { RedisClient } from './redis-connection.js';
import type { RedisKeys } from './keys.js';
import { APPEND_EVENT, END_STREAM, FAIL_STREAM, OPEN_STREAM } from './scripts.js';

/** The error a request gets when the process serving it died before answering. */
export const PROCESS_ENDED_MESSAGE =
  'The server process serving this request stopped before answering it; the request may or may not have taken effect. Send it again if that is safe.';

export interface StreamMeta {
  owner: string;
  ids: (string | number)[];
  /** The last event's seq, once the stream ended. */
  done: number | undefined;
}

export class RedisStreamEventStore implements ClusterEventStore {
  constructor(
    private readonly client: RedisClient,
    private readonly keys: RedisKeys,
    private readonly processId: string,
    private readonly maxEvents: number,
    /** How long a finished stream's events stay for a late resumption, in ms. */
    private readonly doneGraceMs: number,
  ) {}

  async append(sessionId: string, streamId: string, seq: number, data: string): Promise<void> {
    const kept = await APPEND_EVENT.run(
      this.client,
      [this.keys.session(sessionId), this.keys.events(sessionId, streamId), this.keys.streamMeta(sessionId, streamId)],
      [seq, data, this.maxEvents],
    );
    if (kept === 0) throw new Error(`stream ${streamId} of a session was ended by another process (this one's lease had run out); event ${seq} was not kept`);
  }

  async after(sessionId: string, streamId: string, afterSeq: number): Promise<StoredEvent[]> {
    return await this.range(sessionId, streamId, afterSeq);
  }

  /** The events with a seq above `afterSeq` (up to `toSeq`). */
  async range(sessionId: string, streamId: string, afterSeq: number, toSeq?: number): Promise<StoredEvent[]> {
    const entries = await this.client.xRange(this.keys.events(sessionId, streamId), `(0-${afterSeq}`, toSeq === undefined ? '+' : `0-${toSeq}`);
    return entries.map((e) => ({ seq: seqOf(e.id), data: String(e.message.d) }));
  }

  async streamDone(sessionId: string, streamId: string): Promise<void> {
    // Kept a little longer, not dropped: the client may not have read the last event after all
    // (a cut the server has not noticed yet), and resume it on another process.
    await Promise.all([
      this.client.pExpire(this.keys.events(sessionId, streamId), this.doneGraceMs),
      this.client.pExpire(this.keys.streamMeta(sessionId, streamId), this.doneGraceMs),
      this.client.sRem(this.keys.streams(sessionId), streamId),
    ]);
  }

  deleteSession(): void {
    // A process dropping its replica must not delete what the others still serve: the session's
    // keys go when it ends everywhere (RedisSessionRecords.end) or expire with it.
  }

  async streamOpened(sessionId: string, streamId: string, requestIds: readonly (string | number)[]): Promise<void> {
    await OPEN_STREAM.run(
      this.client,
      [this.keys.session(sessionId), this.keys.streamMeta(sessionId, streamId), this.keys.streams(sessionId)],
      [this.processId, JSON.stringify(requestIds), streamId],
    );
  }

  async streamEnded(sessionId: string, streamId: string, lastSeq: number): Promise<void> {
    await END_STREAM.run(this.client, [this.keys.streamMeta(sessionId, streamId), this.keys.events(sessionId, streamId)], [lastSeq]);
  }

  async meta(sessionId: string, streamId: string): Promise<StreamMeta | undefined> {
    const h = await this.client.hGetAll(this.keys.streamMeta(sessionId, streamId));
    if (h.owner === undefined) return undefined;
    let ids: (string | number)[] = [];
    try {
      const parsed = JSON.parse(h.ids ?? '[]') as unknown;
      if (Array.isArray(parsed)) ids = parsed.filter((x): x is string | number => typeof x === 'string' || typeof x === 'number');
    } catch {
      // Not ours: no ids to answer.
    }
    return { owner: h.owner, ids, done: h.done === undefined ? undefined : Number(h.done) };
  }

  /**
   * End a request stream whose process died: a JSON-RPC error for every request of it that has
   * no response among its events, then its end. Safe to race: one process wins, the others see
   * it ended.
   */
  async fail(sessionId: string, streamId: string): Promise<void> {
    for (let attempt = 0; attempt < 8; attempt++) {
      const meta = await this.meta(sessionId, streamId);
      if (meta === undefined || meta.done !== undefined) return;
      const events = await this.range(sessionId, streamId, 0);
      const answered = new Set<string>();
      for (const e of events) for (const id of responseIds(e.data)) answered.add(JSON.stringify(id));
      const last = events.length > 0 ? events[events.length - 1]!.seq : 0;
      const errors = meta.ids
        .filter((id) => !answered.has(JSON.stringify(id)))
        .map((id) => JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32603, message: PROCESS_ENDED_MESSAGE, data: { reason: 'server-process-ended' } } }));
      const r = await FAIL_STREAM.run(this.client, [this.keys.streamMeta(sessionId, streamId), this.keys.events(sessionId, streamId)], [last, ...errors]);
      if (r !== -1) return;
    }
  }
}

function seqOf(entryId: string): number {
  const dash = entryId.indexOf('-');
  return Number(entryId.slice(dash + 1));
}

/** The ids of the responses in an event's message (a batch may hold several). */
function responseIds(data: string): (string | number)[] {
  let v: unknown;
  try {
    v = JSON.parse(data);
  } catch {
    return [];
  }
  const out: (string | number)[] = [];
  for (const m of Array.isArray(v) ? v : [v]) {
    if (m === null || typeof m !== 'object') continue;
    const msg = m as Record<string, unknown>;
    if ('method' in msg || !('result' in msg || 'error' in msg)) continue;
    if (typeof msg.id === 'string' || typeof msg.id === 'number') out.push(msg.id);
  }
  return out;
}
