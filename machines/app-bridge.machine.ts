/**
 * One MCP App view as a host runs it (the `io.modelcontextprotocol/ui` extension), from the
 * sandbox proxy's start to the view's teardown.
 *
 * - `awaitingProxy`: the sandbox proxy iframe (another origin) is loading; its
 *   `ui/notifications/sandbox-proxy-ready` (`PROXY_READY`) lets the host send the view's HTML
 *   with its CSP (entry of `awaitingView`: `sendResource`).
 * - `awaitingView`: the view loads; its `ui/initialize` (`VIEW_INITIALIZE`) is answered with the
 *   host's capabilities and context (`answerInitialize`), then `initializing` waits for
 *   `ui/notifications/initialized`. The host sends nothing to the view before that.
 * - `ready`: the view is live. The tool's arguments go first (`sendToolInput`, once), then its
 *   result (`TOOL_RESULT` → `sendToolResult`) or its cancellation (`TOOL_CANCELLED` →
 *   `sendToolCancelled`); one that came before the view was ready is held and sent then.
 *   The view's requests (tools/call, resources/read, ui/open-link...) are served by the bridge
 *   outside the machine: they do not change its state.
 * - `tearingDown`: `ui/resource-teardown` went out (`TEARDOWN` → `sendTeardown`); the view's
 *   answer (`TEARDOWN_ACK`) or `teardownTimeout` ends in `closed`, where the iframe is removed
 *   (`removeFrame`).
 * - `failed`: the proxy or the view never came (`loadTimeout`), or the view broke the protocol
 *   (`VIEW_FAILED`); the frame is removed. The host page goes on either way.
 *
 * No I/O here: the actions are supplied with `appBridgeMachine.provide({ actions })`.
 *
 * @see https://modelcontextprotocol.io/extensions/apps
 */
import { assign, setup } from 'xstate';

/** Default wait for the proxy and the view to start: 10 s. */
export const DEFAULT_APP_LOAD_TIMEOUT_MS = 10_000;
/** Default wait for the view to answer `ui/resource-teardown`: 2 s. */
export const DEFAULT_APP_TEARDOWN_TIMEOUT_MS = 2_000;

export interface AppBridgeInput {
  /** Whether the host renders through a sandbox proxy (web hosts must). */
  proxied: boolean;
  loadTimeout?: number;
  teardownTimeout?: number;
}

export interface AppBridgeContext {
  proxied: boolean;
  loadTimeout: number;
  teardownTimeout: number;
  /** A tool result or cancellation that arrived before the view was ready. */
  pending: { kind: 'result'; result: Record<string, unknown> } | { kind: 'cancelled'; reason: string } | undefined;
  /** Whether the tool's outcome was sent to the view. */
  delivered: boolean;
  /** Why the view failed or closed. */
  reason: string | undefined;
}

export type AppBridgeEvent =
  | { type: 'PROXY_READY' }
  | { type: 'VIEW_INITIALIZE' }
  | { type: 'VIEW_INITIALIZED' }
  | { type: 'TOOL_RESULT'; result: Record<string, unknown> }
  | { type: 'TOOL_CANCELLED'; reason: string }
  | { type: 'TEARDOWN'; reason: string }
  | { type: 'TEARDOWN_ACK' }
  | { type: 'VIEW_FAILED'; reason: string };

export const appBridgeMachine = setup({
  types: {
    context: {} as AppBridgeContext,
    events: {} as AppBridgeEvent,
    input: {} as AppBridgeInput,
  },
  actions: {
    // I/O placeholders, supplied by the bridge through `.provide({ actions })`.
    sendResource: () => {},
    answerInitialize: () => {},
    sendToolInput: () => {},
    sendToolResult: () => {},
    sendToolCancelled: () => {},
    sendTeardown: () => {},
    removeFrame: () => {},
    holdOutcome: assign({
      pending: ({ event }) =>
        event.type === 'TOOL_RESULT' ? { kind: 'result' as const, result: event.result } : event.type === 'TOOL_CANCELLED' ? { kind: 'cancelled' as const, reason: event.reason } : undefined,
    }),
    markDelivered: assign({ delivered: true, pending: undefined }),
    assignReason: assign({
      reason: ({ event }) => (event.type === 'VIEW_FAILED' || event.type === 'TEARDOWN' ? event.reason : undefined),
    }),
    assignLoadTimeout: assign({ reason: 'the view did not start in time' }),
    assignTeardownTimeout: assign({ reason: ({ context }) => context.reason ?? 'torn down' }),
  },
  guards: {
    isProxied: ({ context }) => context.proxied,
    hasPendingResult: ({ context }) => context.pending?.kind === 'result',
    hasPendingCancel: ({ context }) => context.pending?.kind === 'cancelled',
    notDelivered: ({ context }) => !context.delivered,
  },
  delays: {
    loadTimeout: ({ context }) => context.loadTimeout,
    teardownTimeout: ({ context }) => context.teardownTimeout,
  },
}).createMachine({
  id: 'appBridge',
  context: ({ input }) => ({
    proxied: input.proxied,
    loadTimeout: input.loadTimeout ?? DEFAULT_APP_LOAD_TIMEOUT_MS,
    teardownTimeout: input.teardownTimeout ?? DEFAULT_APP_TEARDOWN_TIMEOUT_MS,
    pending: undefined,
    delivered: false,
    reason: undefined,
  }),
  initial: 'starting',
  on: {
    VIEW_FAILED: { target: '.failed', actions: 'assignReason' },
  },
  states: {
    starting: {
      always: [{ guard: 'isProxied', target: 'awaitingProxy' }, { target: 'awaitingView' }],
    },
    awaitingProxy: {
      after: { loadTimeout: { target: 'failed', actions: 'assignLoadTimeout' } },
      on: {
        PROXY_READY: { target: 'awaitingView' },
        TOOL_RESULT: { actions: 'holdOutcome' },
        TOOL_CANCELLED: { actions: 'holdOutcome' },
        TEARDOWN: { target: 'closed', actions: 'assignReason' },
      },
    },
    awaitingView: {
      entry: 'sendResource',
      after: { loadTimeout: { target: 'failed', actions: 'assignLoadTimeout' } },
      on: {
        VIEW_INITIALIZE: { target: 'initializing', actions: 'answerInitialize' },
        TOOL_RESULT: { actions: 'holdOutcome' },
        TOOL_CANCELLED: { actions: 'holdOutcome' },
        TEARDOWN: { target: 'closed', actions: 'assignReason' },
      },
    },
    initializing: {
      after: { loadTimeout: { target: 'failed', actions: 'assignLoadTimeout' } },
      on: {
        VIEW_INITIALIZE: { actions: 'answerInitialize' },
        VIEW_INITIALIZED: { target: 'ready' },
        TOOL_RESULT: { actions: 'holdOutcome' },
        TOOL_CANCELLED: { actions: 'holdOutcome' },
        TEARDOWN: { target: 'tearingDown', actions: 'assignReason' },
      },
    },
    ready: {
      entry: 'sendToolInput',
      always: [
        { guard: 'hasPendingResult', actions: ['sendToolResult', 'markDelivered'] },
        { guard: 'hasPendingCancel', actions: ['sendToolCancelled', 'markDelivered'] },
      ],
      on: {
        TOOL_RESULT: { guard: 'notDelivered', actions: ['holdOutcome', 'sendToolResult', 'markDelivered'] },
        TOOL_CANCELLED: { guard: 'notDelivered', actions: ['holdOutcome', 'sendToolCancelled', 'markDelivered'] },
        TEARDOWN: { target: 'tearingDown', actions: 'assignReason' },
      },
    },
    tearingDown: {
      entry: 'sendTeardown',
      after: { teardownTimeout: { target: 'closed', actions: 'assignTeardownTimeout' } },
      on: {
        TEARDOWN_ACK: { target: 'closed' },
        VIEW_FAILED: { target: 'closed' },
      },
    },
    closed: { type: 'final', entry: 'removeFrame' },
    failed: { type: 'final', entry: 'removeFrame' },
  },
});
