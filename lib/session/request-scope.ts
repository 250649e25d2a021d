/**
 * How a session meets the request-scoped core of revision 2026-07-28: the dispatch a Server shares
 * with its sessions (modern requests on a session's transport), what a request-scoped session is
 * given to serve one request, and the session machine's operating snapshot such a session starts
 * in without running the handshake.
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic
 */
import { initialTransition, transition, type SnapshotFrom } from 'xstate';
import { sessionMachine, type PeerInfo, type SessionRole } from '../../machines/session.machine.js';
import type { Frame, JsonObject, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from '../jsonrpc/message.js';
import type { RequestOptions } from './request-registry.js';
import type { ServerRequest } from './server-request.js';
import type { TransportPeer } from '../../streams/transport.js';

type SessionSnapshot = SnapshotFrom<typeof sessionMachine>;

/** The request-scoped core as a session sees it (`lib/modern/request-core.ts`). */
export interface ModernDispatch {
  /** Whether `msg` belongs to the modern era (decided from the body). */
  claims(msg: JsonRpcRequest): boolean;
  /**
   * Answer it; `notify` carries its notifications; `cancellation` says when the peer cancels it,
   * and `signal` (made on first read) aborts then.
   */
  serve(
    msg: JsonRpcRequest,
    io: {
      notify(frame: JsonRpcNotification): void;
      authInfo: unknown;
      readonly signal: AbortSignal;
      readonly cancellation: { readonly aborted: boolean; readonly reason: unknown; onAbort(end: () => void): () => void };
    },
  ): Promise<JsonRpcResponse | undefined>;
}

/** What a request-scoped session serves one modern request with (see {@link Session.serveRequestScope}). */
export interface RequestScope {
  /** The request's client capabilities and info, standing in for `initialize`'s. */
  readonly revision: string;
  readonly clientCapabilities: Record<string, unknown>;
  readonly clientInfo: { name: string; version: string };
  readonly authInfo: unknown;
  /** What the transport knows of the caller (channel kind, address), for interceptors. */
  readonly peerFacts?: TransportPeer | undefined;
  /** Frames the handler sends (notifications related to the request, the response). */
  send(frame: Frame): void;
  /** Where `ctx.elicit/sample/listRoots` go instead of becoming server-to-client requests. */
  readonly inputs: {
    ask(method: string, params: JsonObject | undefined, options?: RequestOptions): Promise<JsonObject>;
    /** The id of the URL elicitation about to be asked, the same on every retry of the request. */
    urlElicitationId?(options?: RequestOptions): string;
  };
  /** The request's actor, which the core created and ends (the handler's `ctx.request`). */
  readonly request?: ServerRequest;
  /**
   * Resolves with the round's `input_required` result when the handler's asks end the round
   * (the handler itself never settles then): the interceptor chain answers with it.
   */
  readonly inputRequired?: Promise<JsonObject>;
  /** OpenTelemetry context of the request (`ctx.trace`). */
  readonly trace?: { traceparent?: string; tracestate?: string; baggage?: string } | undefined;
}

/** The session machine's input, as a request-scoped session keeps it until it is placed. */
export interface RequestScopedInput {
  role: SessionRole;
  supportedVersions: string[];
  localInfo: PeerInfo;
  localCapabilities: Record<string, unknown>;
  instructions: string | undefined;
}

/**
 * The session machine's `operating` snapshot as a handshake would leave it: computed once by
 * running the machine (TRANSPORT_OPEN, INITIALIZE_REQUEST, INITIALIZED), then copied per request
 * with the request's envelope in the context (a spec checks both ways agree).
 */
let operatingTemplate: SessionSnapshot | undefined;
export function operatingSnapshot(
  input: { role: SessionRole; supportedVersions: string[]; localInfo: PeerInfo; localCapabilities: Record<string, unknown>; instructions: string | undefined },
  scope: Pick<RequestScope, 'revision' | 'clientCapabilities' | 'clientInfo'>,
): SessionSnapshot {
  if (operatingTemplate === undefined) {
    let snap = initialTransition(sessionMachine, { role: 'server', supportedVersions: [scope.revision], localInfo: input.localInfo, localCapabilities: {}, instructions: undefined })[0];
    snap = transition(sessionMachine, snap, { type: 'TRANSPORT_OPEN' })[0];
    snap = transition(sessionMachine, snap, { type: 'INITIALIZE_REQUEST', params: { protocolVersion: scope.revision, capabilities: {}, clientInfo: scope.clientInfo } })[0];
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
      requestedVersion: scope.revision,
      protocolVersion: scope.revision,
      peerCapabilities: scope.clientCapabilities,
      peerInfo: scope.clientInfo,
    },
  } as SessionSnapshot;
}
