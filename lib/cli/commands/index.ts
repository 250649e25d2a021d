/**
 * Every subcommand, in the order `mcp-actors --help` lists them. Each module is loaded only when
 * its command runs, so `call` does not pay for the viewer or the mock server at start-up.
 */
import type { Command } from '../cli-context.js';

function lazy(name: string, summary: string, load: () => Promise<Command>): Command {
  return { name, summary, run: async (argv, ctx) => (await load()).run(argv, ctx) };
}

export const commands: readonly Command[] = [
  lazy('list', 'list the tools, resources, resource templates and prompts of a server', async () => (await import('./list.js')).listCommand),
  lazy('call', 'call a tool', async () => (await import('./call.js')).callCommand),
  lazy('read', 'read a resource', async () => (await import('./read.js')).readCommand),
  lazy('get', 'get a prompt', async () => (await import('./get.js')).getCommand),
  lazy('app', "preview a tool's MCP App in a browser (served on 127.0.0.1)", async () => (await import('./app.js')).appCommand),
  lazy('complete', 'complete a prompt or resource-template argument', async () => (await import('./complete.js')).completeCommand),
  lazy('record', 'record a session through a stdio or HTTP proxy (secrets redacted)', async () => (await import('./record.js')).recordCommand),
  lazy('replay', 'serve a recording as a mock server, verify a live server against it, or --check it', async () => (await import('./replay.js')).replayCommand),
  lazy('serve', 'serve MCP servers through one gateway over stdio, HTTP or WebSocket, in both eras', async () => (await import('./serve.js')).serveCommand),
  lazy('inspect', 'show a recording: timeline, machine states at an entry, an HTML viewer, live', async () => (await import('./inspect.js')).inspectCommand),
  lazy('machines', 'export the state machines as JSON for Stately (and how to inspect a live session)', async () => (await import('./machines.js')).machinesCommand),
];
