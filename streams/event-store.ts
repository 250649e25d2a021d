/**
 * Where a Streamable HTTP server keeps the SSE events it sent, so a client can resume a broken
 * stream with `Last-Event-ID` and get what it missed, on that stream only.
 *
 * The server numbers the events of each stream (1, 2, 3, ...; 0 is the priming event, which is not
 * stored) and names streams by a string unique within the session. Event ids on the wire are built
 * from those by the server; a store only keeps `(stream, seq, data)` per session and answers "what
 * came after seq N on this stream". Methods may return promises (a shared store such as Redis);
 * the in-memory default answers synchronously.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#resumability-and-redelivery
 */

/** One stored event: its sequence number on its stream and its `data` (JSON-RPC message text). */
export interface StoredEvent {
  seq: number;
  data: string;
}

export interface EventStore {
  /** Keep event `seq` of stream `streamId` of session `sessionId`. Seqs of a stream only grow. */
  append(sessionId: string, streamId: string, seq: number, data: string): void | Promise<void>;
  /**
   * The kept events of the stream with a seq above `afterSeq`, in order (empty when there are
   * none; events the store already evicted are simply missing).
   */
  after(sessionId: string, streamId: string, afterSeq: number): readonly StoredEvent[] | Promise<readonly StoredEvent[]>;
  /**
   * The stream ended and its last event reached an open connection: its events are unlikely to be
   * asked for again and may be dropped.
   */
  streamDone?(sessionId: string, streamId: string): void | Promise<void>;
  /** The session ended: drop all its events. */
  deleteSession(sessionId: string): void | Promise<void>;
  /**
   * A store shared by several processes (`lib/server-bindings/http-cluster.ts`): a request stream opened on
   * this process for `requestIds`, before any of its events is kept.
   */
  streamOpened?(sessionId: string, streamId: string, requestIds: readonly (string | number)[]): void | Promise<void>;
  /** A store shared by several processes: the request stream's last event is `lastSeq`. */
  streamEnded?(sessionId: string, streamId: string, lastSeq: number): void | Promise<void>;
}

export interface MemoryEventStoreOptions {
  /** Events kept per session, oldest evicted first. Default 128. */
  maxEventsPerSession?: number;
  /** UTF-16 code units of data kept per session, oldest evicted first. Default 262 144 (256 Ki). */
  maxCharsPerSession?: number;
}

interface Kept {
  streamId: string;
  seq: number;
  data: string;
}

/** One session's events in the order they were sent (a queue with a moving head). */
interface SessionLog {
  events: (Kept | undefined)[];
  head: number;
  count: number;
  chars: number;
}

/**
 * The default store: bounded, in memory, per process. A session's log exists only once it has
 * stored something, so idle sessions cost nothing here.
 */
export class MemoryEventStore implements EventStore {
  private readonly logs = new Map<string, SessionLog>();
  private readonly maxEvents: number;
  private readonly maxChars: number;

  constructor(options: MemoryEventStoreOptions = {}) {
    this.maxEvents = Math.max(1, options.maxEventsPerSession ?? 128);
    this.maxChars = Math.max(1, options.maxCharsPerSession ?? 256 * 1024);
  }

  /** Sessions with stored events (for tests and metrics). */
  get sessions(): number {
    return this.logs.size;
  }

  /** Events kept for a session (for tests and metrics). */
  size(sessionId: string): number {
    return this.logs.get(sessionId)?.count ?? 0;
  }

  append(sessionId: string, streamId: string, seq: number, data: string): void {
    let log = this.logs.get(sessionId);
    if (log === undefined) {
      log = { events: [], head: 0, count: 0, chars: 0 };
      this.logs.set(sessionId, log);
    }
    log.events.push({ streamId, seq, data });
    log.count++;
    log.chars += data.length;
    while (log.count > this.maxEvents || (log.chars > this.maxChars && log.count > 1)) this.evictOldest(log);
  }

  after(sessionId: string, streamId: string, afterSeq: number): StoredEvent[] {
    const log = this.logs.get(sessionId);
    const out: StoredEvent[] = [];
    if (log === undefined) return out;
    const events = log.events;
    for (let i = log.head; i < events.length; i++) {
      const e = events[i];
      if (e !== undefined && e.streamId === streamId && e.seq > afterSeq) out.push({ seq: e.seq, data: e.data });
    }
    return out;
  }

  streamDone(sessionId: string, streamId: string): void {
    const log = this.logs.get(sessionId);
    if (log === undefined) return;
    const events = log.events;
    for (let i = log.head; i < events.length; i++) {
      const e = events[i];
      if (e !== undefined && e.streamId === streamId) {
        events[i] = undefined;
        log.count--;
        log.chars -= e.data.length;
      }
    }
    this.compact(log, sessionId);
  }

  deleteSession(sessionId: string): void {
    this.logs.delete(sessionId);
  }

  private evictOldest(log: SessionLog): void {
    const events = log.events;
    while (log.head < events.length) {
      const e = events[log.head];
      events[log.head++] = undefined;
      if (e !== undefined) {
        log.count--;
        log.chars -= e.data.length;
        break;
      }
    }
    if (log.head > 32 && log.head * 2 > events.length) {
      events.splice(0, log.head);
      log.head = 0;
    }
  }

  private compact(log: SessionLog, sessionId: string): void {
    if (log.count === 0) {
      this.logs.delete(sessionId);
      return;
    }
    // Holes left by finished streams: rebuild once they outnumber the events kept.
    if (log.events.length - log.head > 2 * log.count + 32) {
      log.events = log.events.filter((e, i) => i >= log.head && e !== undefined);
      log.head = 0;
      return;
    }
    while (log.head < log.events.length && log.events[log.head] === undefined) log.head++;
  }
}
