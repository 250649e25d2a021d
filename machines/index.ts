/**
 * `mcp-actors/machines`: every XState machine of the runtime, with its types.
 *
 * The machines name their effects by string; supply them with `machine.provide({ actions })`.
 * `machines` maps each machine's id to the machine, for tooling (`npm run machines` exports
 * them as JSON for Stately's editor, see docs/machines/README.md).
 */
import type { requestMachine } from './request.machine.js';
import type { sessionMachine } from './session.machine.js';

export * from './app-bridge.machine.js';
export * from './child-process.machine.js';
export * from './client-elicitation.machine.js';
export * from './host-server.machine.js';
export * from './input-round.machine.js';
export * from './http-session.machine.js';
export * from './oauth-client.machine.js';
export * from './reconnect.machine.js';
export * from './request.machine.js';
export * from './server-elicitation.machine.js';
export * from './server-request.machine.js';
export * from './session.machine.js';
export * from './task.machine.js';
export * from './terminal.machine.js';
export * from './version-negotiation.machine.js';
export * from './client-input-rounds.machine.js';

export type RequestMachine = typeof requestMachine;
export type SessionMachine = typeof sessionMachine;

export { machines, type MachineName } from './registry.js';

// The machines as JSON for Stately's editor (docs/machines/README.md says how to open them).
export { machinesJSON, machineConfigJSON, renderMachineJSON, type Json } from './json.js';

// What each machine's JSON names (guards, actions, actors, delays), and running it from its JSON.
export { machineManifest, machinesManifest, manifestFromJson, renderManifest, type MachineManifest, type ManifestKind } from './manifest.js';
export { runnableFromJson, type RunnableOverrides } from './runnable.js';
