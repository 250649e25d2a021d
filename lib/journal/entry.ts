/**
 * What a journal holds: the external inputs of a session (frames in, user calls, timer
 * firings, transport changes) and its outbound frames, each with a sequence number and the
 * session clock's time. Internally raised events are derived on replay, never recorded.
 */
import type { Frame, JsonObject, RequestId } from '../jsonrpc/message.js';
import type { TransportPhase } from '../../streams/transport.js';

export const JOURNAL_FORMAT = 'mcp-actors/journal';
export const JOURNAL_VERSION = 1;

export interface JournalHeader {
  format: typeof JOURNAL_FORMAT;
  version: number;
  role: 'client' | 'server';
  /** The negotiated revision, when the session got that far. */
  revision?: string;
  /** Clock time when the session was created. */
  startedAt: number;
  /** The options the session was created with that shape its frames (for replay). */
  session?: RecordedSessionOptions;
}

export interface RecordedSessionOptions {
  info: { name: string; version: string; [key: string]: unknown };
  capabilities: Record<string, unknown>;
  supportedVersions: string[];
  instructions?: string;
  timeout?: number;
  maxFrameBytes?: number;
  maxFrameDepth?: number;
  progress?: { minIntervalMs?: number; inbound?: { limit: number; windowMs: number } | false };
}

interface Stamp {
  seq: number;
  /** Session clock time (ms). */
  t: number;
}

/** An inbound frame as the transport delivered it: parsed, unparseable text, or too large. */
export type InEntry = Stamp & { kind: 'in' } & (
    | { frame: unknown }
    | { text: string }
    | { oversize: { size: number; limit: number; head?: string } }
    // A frame nested deeper than the limit: its value is not kept (see lib/jsonrpc/depth.ts).
    | { tooDeep: { limit: number; id: string | number | null; respond: boolean } }
  );
export type OutEntry = Stamp & { kind: 'out'; frame: Frame };
export type TimerEntry = Stamp & { kind: 'timer'; name: string };
export type TransportEntry = Stamp & { kind: 'transport'; phase: TransportPhase; error?: string };

/** Options of a recorded request call that matter for replay (signals and callbacks are not data). */
export interface RecordedRequestOptions {
  timeout?: number;
  maxTotalTimeout?: number;
  resetTimeoutOnProgress?: boolean;
  progress?: boolean;
}

export type CallEntry = Stamp & { kind: 'call' } & (
    | { op: 'request'; id: RequestId; method: string; params?: JsonObject; options?: RecordedRequestOptions }
    | { op: 'notify'; method: string; params?: JsonObject }
    | { op: 'abort'; id: RequestId; reason?: string }
    | { op: 'close' }
  );

/** Things the session noticed and deliberately ignored (late or unknown responses, ...). */
export type NoteEntry = Stamp & {
  kind: 'note';
  note: 'late-response' | 'unknown-response' | 'unknown-progress' | 'unknown-cancel' | 'suppressed-response' | 'ignored';
  detail?: unknown;
};

export type JournalEntry = InEntry | OutEntry | TimerEntry | TransportEntry | CallEntry | NoteEntry;

/** Distributes Omit over the union so each variant keeps its own fields. */
export type Unstamped<E> = E extends Stamp ? Omit<E, 'seq' | 't'> : never;
export type JournalEntryInput = Unstamped<JournalEntry>;
