/**
 * A terminal server: real terminals for an agent, each a shell in a pseudo-terminal whose screen
 * is rendered as a person would see it (see lib/terminal/). This example allows one shell, the
 * user's login shell (`$SHELL -l`, else /bin/sh), started in a fresh temporary directory, with a
 * few harmless environment variables; `rm`, `sudo`, `git push` and friends ask the user first.
 *
 *   node dist/examples/terminal.js --stdio    # stdio (logs on stderr)
 *   PORT=3001 node dist/examples/terminal.js  # Streamable HTTP on http://127.0.0.1:$PORT/mcp
 *
 * Tools: terminal_open, terminal_send, terminal_read, terminal_run (a task when the client
 * supports tasks, progress otherwise), terminal_resize, terminal_close; resources
 * terminal://<id>/screen (subscribe to hear it change).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listen } from '../lib/http/listen-port.js';
import { createMcpServer } from '../lib/mcp-server.js';
import { addTerminals, type CommandVerdict } from '../lib/terminal/index.js';
import { createStdioServerTransport } from '../streams/stdio-server.js';
import { createStreamableHttpHandler } from '../lib/server-bindings/streamable-http-server.js';

const stdio = process.argv.includes('--stdio');
const log = (line: string) => (stdio ? process.stderr : process.stdout).write(line + '\n');

const home = mkdtempSync(join(tmpdir(), 'mcp-terminal-'));
const cleanup = () => rmSync(home, { recursive: true, force: true });

/** Commands that change things outside the sandbox (or irreversibly) need the user's yes. */
const CONFIRM = [/\brm\b/, /\bsudo\b/, /\bgit\s+push\b/, /\bcurl\b.*\|\s*(ba)?sh/, /\bchmod\b/, /\bchown\b/, /\bmkfs\b/, /\bdd\b/];
const policy = (command: string): CommandVerdict => (CONFIRM.some((re) => re.test(command)) ? 'confirm' : 'allow');

const mcp = createMcpServer({ info: { name: 'mcp-actors-terminal', version: '0.1.0' }, instructions: `Terminals on this machine, starting in ${home}. Open one with terminal_open.` });
const terminals = addTerminals(mcp, {
  shells: { login: { file: process.env.SHELL || '/bin/sh', args: ['-l'] } },
  cwds: [home],
  env: { MCP_TERMINAL: '1' },
  commandPolicy: policy,
});

mcp.sessions$.subscribe((session) => {
  session.state$.subscribe({ complete: () => log('terminal: a session ended') });
});

const shutdown = () => {
  terminals.closeAll();
  cleanup();
};

if (stdio) {
  const session = await mcp.connect(createStdioServerTransport());
  log(`terminal: serving over stdio; terminals start in ${home}`);
  session.state$.subscribe({
    complete: () => {
      shutdown();
      process.exit(0);
    },
  });
} else {
  const handler = createStreamableHttpHandler(mcp.server, { onError: (e) => log(`http error: ${e.message}`) });
  const server = await listen(handler, { port: Number(process.env.PORT ?? 3001), logger: false });
  log(`terminal: MCP server (Streamable HTTP) at ${server.url}; terminals start in ${home}; Ctrl+C stops it`);
  const stop = () => {
    shutdown();
    void server.close().then(() => process.exit(0));
    setTimeout(() => process.exit(0), 2000).unref();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
