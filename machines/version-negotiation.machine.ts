/**
 * How a client finds out which era and revision a server speaks (both eras, revision 2026-07-28).
 *
 * The client offers its newest modern revision first: on stdio as a `server/discover` probe, on
 * HTTP as the first request itself, the version in `_meta` (and the `MCP-Protocol-Version`
 * header). A modern answer (a result, or a recognized modern error) settles the modern era. An
 * `UnsupportedProtocolVersionError` (-32022) names the versions the server supports: the client
 * retries once with the first version it also speaks, and fails with a typed error when none is common.
 * Anything else (another error, an HTTP 4xx without a modern error body, on stdio no answer in
 * time) is a legacy server: the client runs `initialize` and a session. (An HTTP probe that gets no
 * answer at all is no evidence either way: the runtime sends FAILED.) The era is kept for the life of the
 * connection.
 *
 * The client drives it with events and acts on the state it reaches (`lib/client-modern/negotiation.ts`).
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/stdio#backward-compatibility
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#backward-compatibility
 */
import { assign, setup } from 'xstate';

export interface VersionNegotiationContext {
  /** Modern revisions the client speaks, preferred first. */
  offered: string[];
  /** The revision the current attempt names. */
  version: string | undefined;
  /** Versions already tried (each at most once). */
  tried: string[];
  /** Versions the server said it supports (from -32022), if it said. */
  serverSupported: string[] | undefined;
  /** Why negotiation failed. */
  problem: string | undefined;
}

export type VersionNegotiationEvent =
  /** The probe (or first request) got a modern answer. */
  | { type: 'MODERN_ANSWER' }
  /** -32022: the server speaks other versions. */
  | { type: 'VERSION_UNSUPPORTED'; supported: string[] }
  /** Anything that is not a recognized modern answer: a legacy server. */
  | { type: 'LEGACY_EVIDENCE'; reason: string }
  /** `initialize` succeeded (legacy era). */
  | { type: 'INITIALIZED' }
  /** The transport or `initialize` failed. */
  | { type: 'FAILED'; reason: string };

export interface VersionNegotiationInput {
  offered: string[];
  /** Skip discovery and speak the legacy era at once (a client configured legacy-only). */
  legacyOnly?: boolean;
}

const firstCommon = (context: VersionNegotiationContext, supported: string[]): string | undefined => context.offered.find((v) => supported.includes(v));

export const versionNegotiationMachine = setup({
  types: {
    context: {} as VersionNegotiationContext,
    events: {} as VersionNegotiationEvent,
    input: {} as VersionNegotiationInput,
  },
  guards: {
    legacyOnly: ({ context }) => context.offered.length === 0,
    // A version the server supports and the client speaks (even the one just refused: retried once).
    hasCommonVersion: ({ context, event }) => event.type === 'VERSION_UNSUPPORTED' && firstCommon(context, event.supported) !== undefined,
  },
  actions: {
    chooseCommon: assign(({ context, event }) => {
      if (event.type !== 'VERSION_UNSUPPORTED') return {};
      const version = firstCommon(context, event.supported)!;
      return { version, tried: [...context.tried, version], serverSupported: event.supported };
    }),
    recordNoCommon: assign(({ context, event }) =>
      event.type === 'VERSION_UNSUPPORTED'
        ? { serverSupported: event.supported, problem: `The server supports ${event.supported.join(', ') || 'no version'}; this client speaks ${context.offered.join(', ')} (and the session revisions through initialize)` }
        : {},
    ),
    recordFailure: assign(({ event }) => ({ problem: event.type === 'FAILED' ? event.reason : undefined })),
    // Supplied by the runtime: send the probe (or the first request) with context.version.
    sendAttempt: () => {},
    // Supplied by the runtime: send `initialize` (the session era).
    startInitialize: () => {},
  },
}).createMachine({
  id: 'versionNegotiation',
  context: ({ input }) => ({
    offered: input.legacyOnly ? [] : [...input.offered],
    version: input.legacyOnly ? undefined : input.offered[0],
    tried: input.legacyOnly || input.offered[0] === undefined ? [] : [input.offered[0]],
    serverSupported: undefined,
    problem: undefined,
  }),
  initial: 'start',
  states: {
    start: {
      always: [{ guard: 'legacyOnly', target: 'legacy' }, { target: 'probing' }],
    },
    probing: {
      entry: ['sendAttempt'],
      on: {
        MODERN_ANSWER: { target: 'modern' },
        VERSION_UNSUPPORTED: [
          { guard: 'hasCommonVersion', target: 'retrying', actions: ['chooseCommon'] },
          { target: 'failed', actions: ['recordNoCommon'] },
        ],
        LEGACY_EVIDENCE: { target: 'legacy' },
        FAILED: { target: 'failed', actions: ['recordFailure'] },
      },
    },
    retrying: {
      entry: ['sendAttempt'],
      on: {
        MODERN_ANSWER: { target: 'modern' },
        // Refused again even with a version from its own list: nothing left to try.
        VERSION_UNSUPPORTED: { target: 'failed', actions: ['recordNoCommon'] },
        LEGACY_EVIDENCE: { target: 'legacy' },
        FAILED: { target: 'failed', actions: ['recordFailure'] },
      },
    },
    legacy: {
      initial: 'initializing',
      states: {
        initializing: {
          entry: ['startInitialize'],
          on: {
            INITIALIZED: { target: 'operating' },
            FAILED: { target: '#versionNegotiation.failed', actions: ['recordFailure'] },
          },
        },
        operating: { type: 'final' },
      },
    },
    modern: { type: 'final' },
    failed: { type: 'final' },
  },
});
