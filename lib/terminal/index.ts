/**
 * `mcp-actors/terminal`: terminals for MCP servers (node-pty and @xterm/headless, optional peer
 * dependencies loaded on first use).
 */
export * from './terminal.js';
export * from './terminal-server.js';
export { TerminalDependencyError, loadTerminalModules } from './modules.js';
export { terminalMachine, type TerminalMachineContext, type TerminalMachineEvent, type TerminalMachineInput } from '../../machines/terminal.machine.js';
