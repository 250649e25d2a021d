/**
 * The table of every machine by its `id`, for tooling (JSON for Stately's editor, manifests, the
 * CLI's `machines` command). Apart from the entry (index.ts) so that json.ts and manifest.ts,
 * which the entry re-exports, can read it without importing the entry back.
 */
import { appBridgeMachine } from './app-bridge.machine.js';
import { childProcessMachine } from './child-process.machine.js';
import { clientElicitationMachine } from './client-elicitation.machine.js';
import { clientRequestMachine } from './client-request.machine.js';
import { hostServerMachine } from './host-server.machine.js';
import { inputRoundMachine } from './input-round.machine.js';
import { httpSessionMachine } from './http-session.machine.js';
import { oauthClientMachine } from './oauth-client.machine.js';
import { reconnectMachine } from './reconnect.machine.js';
import { requestMachine } from './request.machine.js';
import { serverElicitationMachine } from './server-elicitation.machine.js';
import { serverRequestMachine } from './server-request.machine.js';
import { sessionMachine } from './session.machine.js';
import { taskMachine } from './task.machine.js';
import { terminalMachine } from './terminal.machine.js';
import { versionNegotiationMachine } from './version-negotiation.machine.js';
import { clientInputRoundsMachine } from './client-input-rounds.machine.js';

/** Every machine, keyed by its `id`. */
export const machines = {
  session: sessionMachine,
  request: requestMachine,
  childProcess: childProcessMachine,
  clientElicitation: clientElicitationMachine,
  reconnect: reconnectMachine,
  httpSession: httpSessionMachine,
  serverElicitation: serverElicitationMachine,
  hostServer: hostServerMachine,
  oauthClient: oauthClientMachine,
  task: taskMachine,
  terminal: terminalMachine,
  inputRound: inputRoundMachine,
  versionNegotiation: versionNegotiationMachine,
  clientInputRounds: clientInputRoundsMachine,
  appBridge: appBridgeMachine,
  serverRequest: serverRequestMachine,
  clientRequest: clientRequestMachine,
} as const;

export type MachineName = keyof typeof machines;
