// Every way a user serves an MCP server over HTTP, each mounted the way the README shows it: the
// node handler on node:http, the fetch handler on Node (serveFetch's bridge), Express 5, Fastify 5,
// Hono 4 on @hono/node-server and as a plain fetch app; and, in a child process, the fetch handler
// on Bun (Bun.serve) and on Deno (Deno.serve). Each mount gets the same server and options.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve as honoServe } from '@hono/node-server';
import { build } from 'esbuild';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { listen } from '../../lib/http/listen-port.js';
import { serveFetch } from '../../lib/http/serve-fetch.js';
import type { McpServer } from '../../lib/mcp-server.js';
import { createMcpFetchHandler } from '../../lib/server-bindings/fetch-handler.js';
import { createStreamableHttpHandler, type StreamableHttpOptions } from '../../lib/server-bindings/streamable-http-server.js';

export type AdapterName = 'node handler' | 'fetch handler on Node' | 'Express 5' | 'Fastify 5' | 'Hono on Node' | 'Hono fetch app' | 'Bun' | 'Deno';
export const IN_PROCESS: readonly AdapterName[] = ['node handler', 'fetch handler on Node', 'Express 5', 'Fastify 5', 'Hono on Node', 'Hono fetch app'];
export const RUNTIMES: readonly AdapterName[] = ['Bun', 'Deno'];

export interface Mounted {
  /** The MCP endpoint. */
  url: string;
  /** What the server process printed (child processes only). */
  output(): string;
  close(): Promise<void>;
}

const REPO = fileURLToPath(new URL('../../', import.meta.url));
export const BUN = join(REPO, 'node_modules', '.bin', 'bun');
export const DENO = join(REPO, 'node_modules', '.bin', 'deno');

/** Serve `mcp` with `options` through one in-process adapter, on 127.0.0.1 and a free port. */
export async function mountInProcess(name: AdapterName, mcp: McpServer, options: StreamableHttpOptions): Promise<Mounted> {
  const quiet = () => '';
  switch (name) {
    case 'node handler': {
      const served = await listen(createStreamableHttpHandler(mcp.server, options), { logger: false });
      return { url: served.url, output: quiet, close: () => served.close() };
    }
    case 'fetch handler on Node': {
      const served = await serveFetch(createMcpFetchHandler(mcp, options), { logger: false });
      return { url: served.url, output: quiet, close: () => served.close() };
    }
    case 'Express 5': {
      // As the README: the handler before any body parser (it reads and limits the body itself).
      const handler = createStreamableHttpHandler(mcp.server, options);
      const app = express();
      app.all('/mcp', handler);
      return nodeServer(createHttpServer(app), () => handler.close());
    }
    case 'Fastify 5': {
      // As the README: the route's content-type parsers hand the body over unread; the handler
      // answers on the raw node objects (reply.hijack: Fastify sends nothing itself).
      const handler = createStreamableHttpHandler(mcp.server, options);
      const app = Fastify();
      await app.register(async (scope) => {
        scope.removeAllContentTypeParsers();
        scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
        scope.all('/mcp', (request, reply) => {
          reply.hijack();
          handler(request.raw, reply.raw);
        });
      });
      await app.listen({ port: 0, host: '127.0.0.1' });
      const port = (app.server.address() as AddressInfo).port;
      return {
        url: `http://127.0.0.1:${port}/mcp`,
        output: quiet,
        close: async () => {
          await handler.close();
          app.server.closeAllConnections();
          await app.close();
        },
      };
    }
    case 'Hono on Node':
    case 'Hono fetch app': {
      const handler = createMcpFetchHandler(mcp, options);
      const app = new Hono();
      app.all('/mcp', (c) => handler(c.req.raw));
      if (name === 'Hono fetch app') {
        // A plain fetch app (`export default app` on Workers, Bun, Deno): here through serveFetch.
        const served = await serveFetch(app.fetch, { logger: false });
        return { url: `${served.url}/mcp`, output: quiet, close: async () => void (await Promise.all([handler.close(), served.close()])) };
      }
      const server = await new Promise<ReturnType<typeof honoServe>>((resolve) => {
        const s = honoServe({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
      });
      return nodeServer(server as HttpServer, () => handler.close(), true);
    }
    default:
      throw new Error(`${name} runs in a child process: use mountRuntime`);
  }
}

async function nodeServer(server: HttpServer, closeHandler: () => Promise<void>, listening = false): Promise<Mounted> {
  if (!listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    output: () => '',
    close: async () => {
      await closeHandler();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

let bundleDir: string | undefined;
const bundles = new Map<string, Promise<string>>();

/**
 * One file for Bun and Deno to run: `entry` (TypeScript of this repository) bundled with its
 * dependencies by esbuild. Side-effect annotations are ignored: the package's `sideEffects` list
 * names dist/ files, and immer's Map support is enabled by an import it would drop from sources.
 */
export function bundle(entry: string): Promise<string> {
  let file = bundles.get(entry);
  if (file === undefined) {
    if (bundleDir === undefined) {
      bundleDir = mkdtempSync(join(tmpdir(), 'mcp-actors-runtime-'));
      // What stays outside the bundle (the optional peers) resolves from here.
      symlinkSync(join(REPO, 'node_modules'), join(bundleDir, 'node_modules'), 'dir');
    }
    const out = join(bundleDir, `${entry.replace(/[^a-z0-9]+/gi, '-')}.mjs`);
    file = build({
      entryPoints: [join(REPO, entry)],
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile: out,
      logLevel: 'error',
      ignoreAnnotations: true,
      // Optional peers with native parts, loaded on first use (and refused on Bun and Deno).
      external: ['node-pty', '@xterm/headless'],
      // CommonJS dependencies call require(): give the ESM bundle one.
      banner: { js: "import { createRequire as __mcpRequire } from 'node:module'; const require = __mcpRequire(import.meta.url);" },
    }).then(() => out);
    bundles.set(entry, file);
  }
  return file;
}

/** Remove the bundles (after the specs). */
export function removeBundles(): void {
  if (bundleDir !== undefined) rmSync(bundleDir, { recursive: true, force: true });
  bundleDir = undefined;
  bundles.clear();
}

/** Start a script under Node, Bun or Deno with `env`; resolves with the URL it prints (`… at http://…/mcp`). */
export async function mountRuntime(name: 'Node' | 'Bun' | 'Deno', script: string, args: string[] = [], env: Record<string, string> = {}): Promise<Mounted> {
  const command = name === 'Node' ? process.execPath : name === 'Bun' ? BUN : DENO;
  const argv = name === 'Deno' ? ['run', '-A', script, ...args] : [script, ...args];
  const child = spawn(command, argv, { cwd: REPO, env: { ...process.env, PORT: '0', NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (s: string) => (output += s));
  child.stderr!.setEncoding('utf8').on('data', (s: string) => (output += s));
  const deadline = Date.now() + 30_000;
  for (;;) {
    // eslint-disable-next-line no-control-regex
    const m = /\bat (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(output.replace(/\x1b\[[0-9;]*m/g, ''));
    if (m) return { url: m[1]!, output: () => output, close: () => stop(child) };
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${name} exited (${child.exitCode ?? child.signalCode}):\n${output}`);
    if (Date.now() > deadline) {
      await stop(child);
      throw new Error(`${name} did not print its URL within 30 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Run `script URL KIND` under Bun or Deno (a client session, spec/fixtures/fetch/client-session.ts):
 * resolves with what it printed once it exits 0, rejects with its output otherwise.
 */
export function runOn(name: 'Bun' | 'Deno', script: string, args: string[]): Promise<string> {
  const [command, argv] = name === 'Bun' ? [BUN, [script, ...args]] : [DENO, ['run', '-A', script, ...args]];
  return new Promise((resolve, reject) =>
    execFile(command, argv, { cwd: REPO, env: { ...process.env, NO_COLOR: '1' }, timeout: 60_000 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${name}: ${error.message}\n${stdout}\n${stderr}`)) : resolve(stdout),
    ),
  );
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
  await exited;
  clearTimeout(timer);
}
