/**
 * The session lifecycle for both roles: connect, initialize (with version negotiation),
 * operate, close. The negotiated revision and both sides' capabilities live in its context.
 *
 * I/O is not imported here: sending `initialize`, answering it, and closing the transport are
 * named actions the runtime supplies with `machine.provide(...)`.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle
 */
import { produce } from 'immer';
import { assign, setup } from 'xstate';

export type SessionRole = 'client' | 'server';

/** Name, version and the optional descriptive fields of an MCP implementation. */
export interface PeerInfo {
  name: string;
  version: string;
  [key: string]: unknown;
}

/** A serializable record of why a session failed. */
export interface SessionFailure {
  name: string;
  message: string;
  data?: unknown;
}

export interface SessionContext {
  role: SessionRole;
  /** Versions we speak, latest first. A client offers the first. */
  supportedVersions: string[];
  /** The negotiated revision, once known. */
  protocolVersion: string | undefined;
  localInfo: PeerInfo;
  localCapabilities: Record<string, unknown>;
  peerInfo: PeerInfo | undefined;
  peerCapabilities: Record<string, unknown> | undefined;
  /** Server instructions (set on the server from options, on the client from the result). */
  instructions: string | undefined;
  /** The version the client asked for (server side), kept for diagnostics. */
  requestedVersion: string | undefined;
  error: SessionFailure | undefined;
}

export interface SessionInput {
  role: SessionRole;
  supportedVersions: string[];
  localInfo: PeerInfo;
  localCapabilities: Record<string, unknown>;
  instructions?: string;
}

export interface InitializeResultLike {
  protocolVersion: string;
  capabilities: Record<string, unknown>;
  serverInfo: PeerInfo;
  instructions?: string;
}

export interface InitializeParamsLike {
  protocolVersion: string;
  capabilities: Record<string, unknown>;
  clientInfo: PeerInfo;
}

export type SessionEvent =
  | { type: 'TRANSPORT_OPEN' }
  | { type: 'INITIALIZE_RESULT'; result: InitializeResultLike }
  | { type: 'INITIALIZE_FAILED'; error: SessionFailure }
  | { type: 'INITIALIZE_REQUEST'; params: InitializeParamsLike; id?: string | number }
  | { type: 'INITIALIZED' }
  | { type: 'DECLARE_CAPABILITIES'; capabilities: Record<string, unknown> }
  | { type: 'CLOSE' }
  | { type: 'TRANSPORT_CLOSED'; error?: SessionFailure }
  /**
   * Client, revision 2026-07-28: the era probe found a modern server. No handshake and no
   * protocol session: the connection operates at once, with what `server/discover` said.
   */
  | { type: 'MODERN_DISCOVERED'; result: InitializeResultLike };

/**
 * The session lifecycle of one MCP connection, either role: `connecting`, then `initializing`
 * (client: `initialize` sent, awaiting the result) or `awaitingInitialize` → `awaitingInitialized`
 * (server: negotiates the revision), then `operating`, `closing`, and `closed`, or `failed` with
 * a serializable reason. A client that found a modern (2026-07-28) server goes from `connecting`
 * straight to `operating` (`MODERN_DISCOVERED`: no handshake). Its context holds the role, both sides'
 * info and capabilities and the negotiated revision. Effects are named (`sendInitialize`,
 * `answerInitialize`, `closeTransport`...) and supplied by the runtime with `provide`; open it in
 * Stately from `machinesJSON().session` (mcp-actors/machines).
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle
 */
export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as SessionInput,
  },
  actions: {
    // Effects supplied by the runtime through `provide`.
    sendInitialize: () => {},
    sendInitialized: () => {},
    answerInitialize: () => {},
    closeTransport: () => {},
    releaseAll: () => {},
    storeInitializeResult: assign(({ context, event }) =>
      produce(context, (draft) => {
        if (event.type !== 'INITIALIZE_RESULT' && event.type !== 'MODERN_DISCOVERED') return;
        draft.protocolVersion = event.result.protocolVersion;
        draft.peerCapabilities = event.result.capabilities ?? {};
        draft.peerInfo = event.result.serverInfo;
        draft.instructions = event.result.instructions;
      }),
    ),
    recordVersionMismatch: assign(({ context, event }) =>
      produce(context, (draft) => {
        if (event.type !== 'INITIALIZE_RESULT') return;
        draft.error = {
          name: 'VersionMismatchError',
          message:
            `Protocol version mismatch: the client supports ${context.supportedVersions.join(', ')} ` +
            `but the server answered ${String(event.result.protocolVersion)}. Upgrade one side or configure a common version.`,
          data: { supported: context.supportedVersions, answered: event.result.protocolVersion },
        };
      }),
    ),
    // The server answers with the client's version when it speaks it, else its own latest.
    negotiate: assign(({ context, event }) =>
      produce(context, (draft) => {
        if (event.type !== 'INITIALIZE_REQUEST') return;
        const asked = event.params.protocolVersion;
        draft.requestedVersion = asked;
        draft.protocolVersion = context.supportedVersions.includes(asked) ? asked : context.supportedVersions[0];
        draft.peerCapabilities = event.params.capabilities ?? {};
        draft.peerInfo = event.params.clientInfo;
      }),
    ),
    // Capabilities come from what the user registers, until initialization fixes them.
    mergeLocalCapabilities: assign(({ context, event }) =>
      produce(context, (draft) => {
        if (event.type !== 'DECLARE_CAPABILITIES') return;
        for (const [key, value] of Object.entries(event.capabilities)) {
          const prev = draft.localCapabilities[key];
          draft.localCapabilities[key] =
            prev && typeof prev === 'object' && value && typeof value === 'object' ? { ...prev, ...value } : value;
        }
      }),
    ),
    recordError: assign(({ context, event }) =>
      produce(context, (draft) => {
        if ((event.type === 'TRANSPORT_CLOSED' || event.type === 'INITIALIZE_FAILED') && event.error) {
          draft.error = event.error;
        }
      }),
    ),
  },
  guards: {
    isClient: ({ context }) => context.role === 'client',
    answeredVersionSupported: ({ context, event }) =>
      event.type === 'INITIALIZE_RESULT' && context.supportedVersions.includes(event.result.protocolVersion),
    closedWithError: ({ event }) => event.type === 'TRANSPORT_CLOSED' && event.error !== undefined,
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => ({
    role: input.role,
    supportedVersions: input.supportedVersions,
    protocolVersion: undefined,
    localInfo: input.localInfo,
    localCapabilities: input.localCapabilities,
    peerInfo: undefined,
    peerCapabilities: undefined,
    instructions: input.instructions,
    requestedVersion: undefined,
    error: undefined,
  }),
  initial: 'connecting',
  on: {
    CLOSE: { target: '.closing' },
    TRANSPORT_CLOSED: [
      { guard: 'closedWithError', target: '.failed', actions: ['recordError'] },
      { target: '.closed' },
    ],
  },
  states: {
    connecting: {
      on: {
        TRANSPORT_OPEN: [{ guard: 'isClient', target: 'initializing' }, { target: 'awaitingInitialize' }],
        MODERN_DISCOVERED: { guard: 'isClient', target: 'operating', actions: ['storeInitializeResult'] },
        DECLARE_CAPABILITIES: { actions: ['mergeLocalCapabilities'] },
      },
    },
    // Client: `initialize` sent, waiting for the result. Only `ping` may go out meanwhile.
    initializing: {
      entry: ['sendInitialize'],
      on: {
        INITIALIZE_RESULT: [
          { guard: 'answeredVersionSupported', target: 'operating', actions: ['storeInitializeResult', 'sendInitialized'] },
          // The client cannot speak the answered version: it disconnects, naming both sides' versions.
          { target: 'failed', actions: ['recordVersionMismatch'] },
        ],
        INITIALIZE_FAILED: { target: 'failed', actions: ['recordError'] },
      },
    },
    // Server: waiting for the client's `initialize`.
    awaitingInitialize: {
      on: {
        INITIALIZE_REQUEST: { target: 'awaitingInitialized', actions: ['negotiate', 'answerInitialize'] },
        DECLARE_CAPABILITIES: { actions: ['mergeLocalCapabilities'] },
      },
    },
    // Server: result sent, waiting for `notifications/initialized`. Only ping and logging go out.
    awaitingInitialized: {
      on: { INITIALIZED: { target: 'operating' } },
    },
    operating: {},
    closing: {
      entry: ['closeTransport'],
      on: {
        TRANSPORT_CLOSED: { target: 'closed' },
        CLOSE: {},
      },
    },
    closed: { type: 'final', entry: ['releaseAll'] },
    failed: { type: 'final', entry: ['releaseAll', 'closeTransport'] },
  },
});

/** The states of the session machine, as the runtime reads them. */
export type SessionPhase =
  | 'connecting'
  | 'initializing'
  | 'awaitingInitialize'
  | 'awaitingInitialized'
  | 'operating'
  | 'closing'
  | 'closed'
  | 'failed';
