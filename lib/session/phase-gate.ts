/**
 * Which methods may flow in which lifecycle phase. Pure functions over the session machine's
 * state names, so the hot path asks a cached phase string instead of the actor.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#initialization
 */
import type { SessionPhase, SessionRole } from '../../machines/session.machine.js';

/** Notifications a server may send before `initialized`: logging, and progress/cancel bookkeeping. */
const SERVER_EARLY_NOTIFICATIONS = new Set(['notifications/message', 'notifications/progress', 'notifications/cancelled']);

export type GateVerdict = 'ok' | 'closed' | 'not-connected' | 'too-early';

/** May we send `method` now? */
export function outboundVerdict(
  role: SessionRole,
  phase: SessionPhase,
  kind: 'request' | 'notification',
  method: string,
): GateVerdict {
  switch (phase) {
    case 'operating':
      return 'ok';
    case 'closing':
    case 'closed':
    case 'failed':
      return 'closed';
    case 'connecting':
      return 'not-connected';
    case 'initializing':
      // Client before the initialize result: only pings (and cancelling one).
      return method === 'ping' || (kind === 'notification' && method === 'notifications/cancelled') ? 'ok' : 'too-early';
    case 'awaitingInitialize':
    case 'awaitingInitialized':
      // Server before `initialized`: only pings and logging.
      if (role === 'client') return 'too-early';
      if (kind === 'request') return method === 'ping' ? 'ok' : 'too-early';
      return SERVER_EARLY_NOTIFICATIONS.has(method) ? 'ok' : 'too-early';
  }
}

/** May we serve an inbound request for `method` now? (Servers refuse all but ping before initialize.) */
export function inboundRequestAllowed(role: SessionRole, phase: SessionPhase, method: string): boolean {
  if (role === 'server' && phase === 'awaitingInitialize') return method === 'ping' || method === 'initialize';
  return true;
}
