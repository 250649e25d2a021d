/**
 * The options a session is made with, and what it reports besides its state: every frame
 * (`frames$`) and what it handled without failing (`diagnostics$`).
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle
 */
import type { createActor, AnyActorRef } from 'xstate';
import type { PeerInfo } from '../../machines/session.machine.js';
import type { Clock } from '../clock.js';
import type { Frame } from '../jsonrpc/message.js';
import type { InEntry } from '../journal/entry.js';
import type { ProgressRateOptions } from './progress-rate.js';

/** Options common to clients and servers. */
export interface SessionOptions {
  /** Our name and version (clientInfo / serverInfo). */
  info: PeerInfo;
  /** Capabilities we declare. */
  capabilities?: Record<string, unknown>;
  /** Revisions we speak, latest first. Default: all four supported revisions. */
  supportedVersions?: string[];
  /** The session clock (timeouts, journal times). Default: the system clock. */
  clock?: Clock;
  /** Default request timeout in ms. Default 60 000. */
  timeout?: number;
  /** Largest accepted inbound frame in bytes. Default 4 MiB. */
  maxFrameBytes?: number;
  /**
   * Deepest accepted nesting of an inbound frame, the message itself being level 1. Deeper
   * frames are refused with -32600 (under the request's id) before anything walks them. Default
   * 128 (see `lib/jsonrpc/depth.ts`).
   */
  maxFrameDepth?: number;
  /**
   * Ping the peer once `interval` ms pass without a frame from it while operating (a busy
   * connection is not pinged, and one ping at a time); a ping that fails (no answer within
   * `timeout`, default the interval) is treated as a lost connection and fails the session.
   * Both must be positive numbers of milliseconds (a TypeError otherwise). Choose them for the
   * network: a local process answers in milliseconds, a remote server over a slow link may not.
   * A client in the 2026-07-28 era, which has no `ping`, sends `server/discover` instead (as `client.ping()` does).
   * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/ping#implementation-considerations
   */
  keepAlive?: { interval: number; timeout?: number };
  /** An XState inspector for the session actor (for example `@statelyai/inspect`'s `inspect`). */
  inspect?: Parameters<typeof createActor>[1] extends infer O ? (O extends { inspect?: infer I } ? I : never) : never;
  /**
   * @internal With an inspector: the actor this session's actor is a child of (a host's server
   * connection), whose system's inspector and clock it then shares.
   */
  inspectParent?: AnyActorRef;
  /**
   * Keep a journal of this session (see {@link Session.journal}). Default false. Its entries have
   * secrets hidden (keys like password or token, credentials in text, also inside strings that
   * hold JSON); `{ redact: false }` records frames as they came.
   */
  journal?: boolean | { redact?: boolean };
  /**
   * Rate limits on progress, per request: outbound updates coalesced to one per
   * `minIntervalMs` (default 0: off), inbound notifications beyond `inbound` (default 10,000 per
   * second) dropped with one `rate-limited` diagnostic.
   * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/progress#implementation-notes
   */
  progress?: ProgressRateOptions;
  /**
   * Refuse to send a request for a capability the peer did not declare (default true).
   * Incoming requests for capabilities we did not declare are always answered -32601.
   */
  enforceCapabilities?: boolean;
}

/** A frame as `frames$` shows it. */
export interface FrameEvent {
  seq: number;
  /** Session clock time in ms. */
  t: number;
  direction: 'in' | 'out';
  /**
   * The frame: a JSON-RPC message or batch, or the raw text of an inbound line that was not JSON.
   * Inbound frames are shown as received, before validation: one the session answered as invalid
   * may lack fields its type promises. An inbound line over `maxFrameBytes` is its journal entry
   * (`{ oversize: { size, limit, head } }`), and one nested deeper than `maxFrameDepth` is its
   * journal entry without the value (`{ tooDeep: { limit, id, respond } }`).
   */
  frame: Frame | string | Extract<InEntry, { oversize: unknown } | { tooDeep: unknown }>;
}

/** Something the session noticed and handled without failing (ignored frames, late answers...). */
export interface Diagnostic {
  kind:
    | 'late-response'
    | 'unknown-response'
    | 'unknown-progress'
    | 'unknown-cancel'
    | 'suppressed-response'
    | 'handler-error'
    | 'invalid-frame'
    | 'ping-failed'
    | 'cancelled'
    | 'rate-limited'
    | 'observer-error'
    | 'ignored';
  message: string;
  detail?: unknown;
}
