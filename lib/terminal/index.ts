/**
 * `mcp-actors/terminal`: terminals for MCP servers (node-pty and @xterm/headless, optional peer
 * dependencies loaded on first use).
 */
export {
  type CommandResult,
  KEYS,
  stripAnsi,
  Terminal,
  type TerminalSnapshot,
  type TerminalSpawn,
  TerminalStateError,
} from './terminal.js';
export {
  addTerminals,
  type CommandVerdict,
  screenUri,
  type ShellSpec,
  TerminalServer,
  type TerminalServerConfig,
} from './terminal-server.js';
export { TerminalDependencyError, loadTerminalModules } from './modules.js';
export { terminalMachine, type TerminalMachineContext, type TerminalMachineEvent, type TerminalMachineInput } from '../../machines/terminal.machine.js';
