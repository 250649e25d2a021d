/**
 * `mcp-actors/machines`: every XState machine of the runtime, with its types.
 *
 * The machines name their effects by string; supply them with `machine.provide({ actions })`.
 * `machines` maps each machine's id to the machine, for tooling (`npm run machines` exports
 * them as JSON for Stately's editor, see docs/machines/README.md).
 */
import type { requestMachine } from './request.machine.js';
import type { sessionMachine } from './session.machine.js';

export {
  type AppBridgeContext,
  type AppBridgeEvent,
  type AppBridgeInput,
  appBridgeMachine,
  DEFAULT_APP_LOAD_TIMEOUT_MS,
  DEFAULT_APP_TEARDOWN_TIMEOUT_MS,
} from './app-bridge.machine.js';
export {
  type ChildProcessContext,
  type ChildProcessEvent,
  type ChildProcessInput,
  childProcessMachine,
  type ChildProcessMachine,
  DEFAULT_CLOSE_TIMEOUT_MS,
  DEFAULT_TERM_TIMEOUT_MS,
} from './child-process.machine.js';
export {
  type ClientElicitationContext,
  type ClientElicitationEvent,
  type ClientElicitationInput,
  clientElicitationMachine,
  type ClientElicitationMachine,
  DEFAULT_ELICITATION_COMPLETION_TIMEOUT_MS,
  DEFAULT_ELICITATION_MAX_ATTEMPTS,
  type ElicitationOutcome,
} from './client-elicitation.machine.js';
export {
  DEFAULT_RESTART_OPTIONS,
  type HostServerContext,
  type HostServerEvent,
  type HostServerInput,
  hostServerMachine,
  type HostServerMachine,
  type HostServerPhase,
  restartDelay,
  type RestartOptions,
} from './host-server.machine.js';
export { type InputRoundContext, type InputRoundEvent, inputRoundMachine } from './input-round.machine.js';
export {
  httpSessionMachine,
  type HttpSessionMachineContext,
  type HttpSessionMachineEvent,
  type HttpSessionMachineInput,
} from './http-session.machine.js';
export {
  DEFAULT_MAX_AUTHORIZATIONS,
  type OAuthClientContext,
  type OAuthClientEvent,
  type OAuthClientFlow,
  type OAuthClientInput,
  oauthClientMachine,
  type TokenGrantSummary,
} from './oauth-client.machine.js';
export {
  DEFAULT_RECONNECT_OPTIONS,
  type ReconnectContext,
  reconnectDelay,
  type ReconnectEvent,
  type ReconnectInput,
  reconnectMachine,
  type ReconnectMachine,
  type ReconnectOptions,
} from './reconnect.machine.js';
export { requestMachine, type RequestMachineContext, type RequestMachineEvent, type RequestMachineInput } from './request.machine.js';
export {
  DEFAULT_SERVER_ELICITATION_COMPLETION_TIMEOUT_MS,
  type ServerElicitationContext,
  type ServerElicitationError,
  type ServerElicitationEvent,
  type ServerElicitationInput,
  serverElicitationMachine,
  type ServerElicitationMachine,
} from './server-elicitation.machine.js';
export { type ClientRequestEvent, clientRequestMachine } from './client-request.machine.js';
export { type ServerRequestEvent, serverRequestMachine } from './server-request.machine.js';
export {
  type InitializeParamsLike,
  type InitializeResultLike,
  type PeerInfo,
  type SessionContext,
  type SessionEvent,
  type SessionFailure,
  type SessionInput,
  sessionMachine,
  type SessionPhase,
  type SessionRole,
} from './session.machine.js';
export {
  taskMachine,
  type TaskMachineContext,
  type TaskMachineEvent,
  type TaskMachineInput,
  type TaskOutcome,
  type TaskStatusName,
} from './task.machine.js';
export {
  terminalMachine,
  type TerminalMachineContext,
  type TerminalMachineEvent,
  type TerminalMachineInput,
} from './terminal.machine.js';
export {
  type VersionNegotiationContext,
  type VersionNegotiationEvent,
  type VersionNegotiationInput,
  versionNegotiationMachine,
} from './version-negotiation.machine.js';
export { type ClientInputRoundsContext, type ClientInputRoundsEvent, clientInputRoundsMachine } from './client-input-rounds.machine.js';

export type RequestMachine = typeof requestMachine;
export type SessionMachine = typeof sessionMachine;

export { machines, type MachineName } from './machine-table.js';

// The machines as JSON for Stately's editor (docs/machines/README.md says how to open them).
export { machinesJSON, machineConfigJSON, renderMachineJSON, type Json } from './json.js';

// What each machine's JSON names (guards, actions, actors, delays), and running it from its JSON.
export { machineManifest, machinesManifest, manifestFromJson, renderManifest, type MachineManifest, type ManifestKind } from './manifest.js';
export { runnableFromJson, type RunnableOverrides } from './runnable.js';
