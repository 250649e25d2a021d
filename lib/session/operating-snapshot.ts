/**
 * The session machine's `operating` snapshot as a handshake leaves it, without running the
 * handshake: a hibernated legacy session stands in it (`SessionCore.hibernate`) with the parts
 * every operating session shares. No 2026-07-28 request uses it: those have no session.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle
 */
import { initialTransition, transition, type SnapshotFrom } from 'xstate';
import { sessionMachine, type PeerInfo, type SessionRole } from '../../machines/session.machine.js';

type SessionSnapshot = SnapshotFrom<typeof sessionMachine>;

/** The session's own facts the snapshot carries. */
export interface OperatingInput {
  role: SessionRole;
  supportedVersions: string[];
  localInfo: PeerInfo;
  localCapabilities: Record<string, unknown>;
  instructions: string | undefined;
}

/** What the handshake negotiated. */
export interface Negotiated {
  readonly revision: string;
  readonly clientCapabilities: Record<string, unknown>;
  readonly clientInfo: PeerInfo;
}

/**
 * Computed once by running the machine (TRANSPORT_OPEN, INITIALIZE_REQUEST, INITIALIZED), then
 * copied with the session's facts in the context (`spec/session/operating-snapshot.spec.ts`
 * checks both ways agree).
 */
let operatingTemplate: SessionSnapshot | undefined;
export function operatingSnapshot(input: OperatingInput, negotiated: Negotiated): SessionSnapshot {
  if (operatingTemplate === undefined) {
    let snap = initialTransition(sessionMachine, { role: 'server', supportedVersions: [negotiated.revision], localInfo: input.localInfo, localCapabilities: {}, instructions: undefined })[0];
    snap = transition(sessionMachine, snap, { type: 'TRANSPORT_OPEN' })[0];
    snap = transition(sessionMachine, snap, { type: 'INITIALIZE_REQUEST', params: { protocolVersion: negotiated.revision, capabilities: {}, clientInfo: negotiated.clientInfo } })[0];
    operatingTemplate = transition(sessionMachine, snap, { type: 'INITIALIZED' })[0];
  }
  return {
    ...operatingTemplate,
    context: {
      ...operatingTemplate.context,
      supportedVersions: input.supportedVersions,
      localInfo: input.localInfo,
      localCapabilities: input.localCapabilities,
      instructions: input.instructions,
      requestedVersion: negotiated.revision,
      protocolVersion: negotiated.revision,
      peerCapabilities: negotiated.clientCapabilities,
      peerInfo: negotiated.clientInfo,
    },
  } as SessionSnapshot;
}
