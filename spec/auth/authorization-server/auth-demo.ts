// The demo server with --auth as a real child process, for the specs that sign in to it. Its
// resource URL and issuer are printed to clients, so it needs fixed PORT and AUTH_PORT (not 0):
// they are picked free first, and when either is taken before the child binds it (the child exits
// with EADDRINUSE), the start is retried on new ports (startOnFreePorts).
import { spawn, type ChildProcess } from 'node:child_process';
import { PortTaken, startOnFreePorts } from '../../helpers/free-port.js';
import { tsArgs } from '../../helpers/ts-child.js';
import { USER } from './helpers.js';

export interface AuthDemo {
  child: ChildProcess;
  port: number;
  authPort: number;
  /** What the child printed so far, ANSI colours stripped. */
  output(): string;
}

/** Start `examples/everything.ts --auth` signed in as {@link USER}; resolves once it prints its MCP URL. */
export function startAuthDemo(): Promise<AuthDemo> {
  return startOnFreePorts(2, ([port, authPort]) => startAuthDemoOn(port!, authPort!));
}

/** One start on given ports; a taken port is a {@link PortTaken}. */
export async function startAuthDemoOn(port: number, authPort: number): Promise<AuthDemo> {
  const child = spawn(process.execPath, [...tsArgs('examples/everything.ts'), '--auth'], {
    env: { ...process.env, PORT: String(port), AUTH_PORT: String(authPort), MCP_DEMO_USER: USER.name, MCP_DEMO_PASSWORD: USER.password },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  // eslint-disable-next-line no-control-regex
  const add = (c: Buffer) => (out = (out + c.toString()).replace(/\x1b\[[0-9;]*m/g, ''));
  child.stdout!.on('data', add);
  child.stderr!.on('data', add);
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the demo did not start:\n${out}`)), 30_000);
      const look = () => {
        if (out.includes(`at http://127.0.0.1:${port}/mcp`)) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout!.on('data', look);
      child.stderr!.on('data', look);
      child.once('exit', (code) => {
        clearTimeout(timer);
        // Either listen failing (the authorization server's or the MCP endpoint's) ends the process with the error.
        const inUse = /.*EADDRINUSE.*/.exec(out);
        reject(inUse ? new PortTaken(port, inUse[0].trim()) : new Error(`the demo exited (${code}):\n${out}`));
      });
    });
  } catch (e) {
    child.kill('SIGKILL');
    throw e;
  }
  return { child, port, authPort, output: () => out };
}
