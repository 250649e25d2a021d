// Shared bits of the demo interop specs: starting examples/everything.ts (stdio command or an HTTP
// child on port 0, reading its URL from what it prints) and running @modelcontextprotocol/inspector-cli against it.
import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { dirname } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { tsArgs } from '../../helpers/ts-child.js';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const EVERYTHING = fileURLToPath(new URL('../../../examples/everything.ts', import.meta.url));
export const INSPECTOR_CLI = fileURLToPath(new URL('../../../node_modules/@modelcontextprotocol/inspector-cli/build/cli.js', import.meta.url));
/**
 * The inspector-cli's build/index.js picks its package.json by `fs.existsSync('../package.json')`,
 * a path relative to the *working directory*, then imports it relative to the module: run from
 * anywhere but its build/ folder it fails ("Cannot find module …/@modelcontextprotocol/package.json").
 */
export const INSPECTOR_CWD = dirname(INSPECTOR_CLI);

/** The demo server over stdio: node itself, tsx as a loader. */
export const STDIO_COMMAND = { command: process.execPath, args: [...tsArgs(EVERYTHING), '--stdio'] };

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Wait for a child to exit, at most `ms`; true if it did. */
export function exited(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** Stop a child we started: SIGTERM, then SIGKILL if it lingers. */
export async function stopChild(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  if (!(await exited(child, 3000))) {
    child.kill('SIGKILL');
    await exited(child, 3000);
  }
}

export interface HttpDemo {
  child: ChildProcess;
  url: string;
  output: string[];
  stop(): Promise<void>;
}

/**
 * Start the demo server over Streamable HTTP on port 0 (the kernel picks a free one, so no other
 * process can take it first); resolves once it prints its URL and that port accepts connections.
 */
export async function startHttpDemo(): Promise<HttpDemo> {
  const child = spawn(process.execPath, [...tsArgs(EVERYTHING)], {
    cwd: REPO_ROOT,
    env: { ...process.env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout!.setEncoding('utf8').on('data', (s: string) => output.push(s));
  child.stderr!.setEncoding('utf8').on('data', (s: string) => output.push(s));
  const demo: HttpDemo = { child, url: '', output, stop: () => stopChild(child) };
  // Bounded polling: up to 300 × 100 ms for the "at http://…" line and an accepting socket.
  for (let attempt = 0; attempt < 300; attempt++) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`demo server exited early (${child.exitCode ?? child.signalCode}):\n${output.join('')}`);
    }
    const m = /\bat (http:\/\/127\.0\.0\.1:(\d+)\/mcp)/.exec(output.join('').replace(/\x1b\[\d+m/g, '')); // eslint-disable-line no-control-regex
    if (m && (await canConnect(Number(m[2])))) {
      demo.url = m[1]!;
      return demo;
    }
    await sleep(100);
  }
  await demo.stop();
  throw new Error(`demo server printed no URL:\n${output.join('')}`);
}

export interface InspectorRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON (the inspector prints its result pretty-printed). */
  json: any;
}

/**
 * Run `node inspector-cli/build/cli.js --cli <target…> <options…>`; cli.js spawns `node build/index.js`
 * (found on PATH, so the folder of process.execPath goes first). The child gets its own process group,
 * killed whole (by its id) if it overruns `timeoutMs`, so the server it spawned cannot linger.
 */
export async function runInspector(target: string[], options: string[], timeoutMs = 25_000): Promise<InspectorRun> {
  const child = spawn(process.execPath, [INSPECTOR_CLI, '--cli', ...target, ...options], {
    cwd: INSPECTOR_CWD,
    env: { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}` },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (s: string) => (stdout += s));
  child.stderr!.setEncoding('utf8').on('data', (s: string) => (stderr += s));
  const closed = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }, timeoutMs);
  const code = await closed.finally(() => clearTimeout(timer));
  try {
    process.kill(-child.pid!, 'SIGKILL'); // anything of its group still there (normally nothing)
  } catch {
    // the group is gone, as it should be
  }
  let json: unknown;
  try {
    json = JSON.parse(stdout);
  } catch {
    throw new Error(`inspector-cli ${options.join(' ')}: exit ${code}, stdout not JSON:\n${stdout}\nstderr:\n${stderr}`);
  }
  if (code !== 0) throw new Error(`inspector-cli ${options.join(' ')}: exit ${code}\nstderr:\n${stderr}`);
  return { code, stdout, stderr, json };
}
