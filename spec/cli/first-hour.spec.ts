// What a new user meets first when a server is not there, not MCP, or broken (issue 32).
import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '../../lib/entries/client.js';
import { TransportError } from '../../lib/errors.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';
import { everythingEntry } from '../fixtures/interop-everything/everything.js';
import { listen } from '../../lib/http/listen-port.js';
import { createMcpServer } from '../../lib/mcp-server.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';
import { plain, runCli, runInProcess, Terminal, TERMINAL_SERVER_CMD } from './helpers.js';

const EVERYTHING = [process.execPath, everythingEntry(), 'stdio'];

/** A port on 127.0.0.1 that nothing listens on (it was free a moment ago). */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

/** A plain HTTP server that is not an MCP server: every request gets 501. */
async function notMcp(): Promise<{ server: Server; port: number }> {
  const server = createServer((_req, res) => {
    res.writeHead(501, { 'content-type': 'text/plain' });
    res.end('Unsupported method');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, port: (server.address() as AddressInfo).port };
}

describe('a first hour with mcp-actors: servers that are not there or not MCP', function () {
  this.timeout(30000);

  it('list --url with nothing listening exits 3 (cannot reach), not 4 (server answered)', async () => {
    const port = await closedPort();
    const run = await runCli(['list', '--url', `http://127.0.0.1:${port}/mcp`]);
    expect(run.code).to.equal(3);
    expect(run.stderr).to.include('ECONNREFUSED');
    expect(run.stderr).not.to.include('answered error');
    expect(run.stderr).not.to.include('?.');
  });

  it('list --url against a non-MCP server (HTTP 501) and https against plain HTTP exit 3', async () => {
    const { server, port } = await notMcp();
    try {
      const plain = await runCli(['list', '--url', `http://127.0.0.1:${port}/mcp`]);
      expect(plain.code).to.equal(3);
      expect(plain.stderr).to.include('HTTP 501');
      const tls = await runCli(['list', '--url', `https://127.0.0.1:${port}/mcp`]);
      expect(tls.code).to.equal(3);
      expect(tls.stderr).not.to.include('answered error');
    } finally {
      server.close();
    }
  });

  for (const era of ['auto', 'legacy'] as const) {
    it(`the library: connect() to a refused URL rejects with TransportError (era ${era}), as the README says`, async () => {
      const port = await closedPort();
      const client = new Client({ info: { name: 'spec', version: '1' }, era, eraCache: false });
      const error = await client.connect(createStreamableHttpClientTransport(`http://127.0.0.1:${port}/mcp`)).then(
        () => undefined,
        (e: unknown) => e,
      );
      await client.close();
      expect(error).to.be.instanceOf(TransportError);
      expect((error as Error).message).to.include('ECONNREFUSED');
    });
  }
});

describe('a first hour with mcp-actors: stdio servers that misbehave', function () {
  this.timeout(30000);

  it('a server that prints junk and then nothing: --timeout bounds the era probe, and the junk line is named', async () => {
    const started = Date.now();
    const run = await runCli(['list', '--timeout', '1000', '--', process.execPath, '-e', 'console.log("hello"); setInterval(() => {}, 1000)'], { timeoutMs: 20000 });
    const elapsed = Date.now() - started;
    expect(run.code).to.equal(3);
    expect(elapsed).to.be.below(12000); // two timeouts of 1 s and start-up, not the 30 s probe
    expect(run.stderr).to.include('"hello"');
    expect(run.stderr).to.include('not JSON-RPC');
    expect(run.stderr).to.include('did not answer initialize within 1000 ms');
  });

  it('a server that ignores the end of its stdin: the failed connect stops it before the CLI exits (no process left behind)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-actors-orphan-'));
    const pidFile = join(dir, 'pid');
    try {
      const script = `require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); console.log('hello'); setInterval(() => {}, 1000)`;
      const run = await runCli(['list', '--timeout', '500', '--', process.execPath, '-e', script], { timeoutMs: 20000 });
      expect(run.code).to.equal(3);
      const pid = Number(readFileSync(pidFile, 'utf8'));
      expect(pid).to.be.above(0);
      let alive = true;
      try {
        process.kill(pid, 0);
      } catch (e) {
        alive = (e as NodeJS.ErrnoException).code !== 'ESRCH';
      }
      if (alive) process.kill(pid, 'SIGKILL');
      expect(alive, 'the server process outlived the CLI').to.equal(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a server that cannot start: its stderr is shown once, the message speaks CLI (no library options)', async () => {
    const run = await runCli(['list', '--', process.execPath, '/nonexistent/mcp-server-missing.js']);
    expect(run.code).to.equal(3);
    expect(run.stderr.split('Cannot find module').length - 1).to.equal(1);
    expect(run.stderr).not.to.include("era: 'legacy'");
    expect(run.stderr).to.include('exited with code 1');
  });
});

describe('a first hour with mcp-actors: complete takes key=value like call and get', function () {
  this.timeout(30000);

  it('ARGUMENT=VALUE completes, further key=value words are the context, and ARGUMENT VALUE still works with a note', async () => {
    const done = await runInProcess(['complete', '--prompt', 'completable-prompt', 'department=E', '--', ...EVERYTHING]);
    expect(done.code).to.equal(0);
    expect(done.stdout.trim().split('\n')).to.deep.equal(['Engineering']);
    expect(done.stderr).not.to.include('older form');
    const names = await runInProcess(['complete', '--prompt', 'completable-prompt', 'name=', 'department=Engineering', '--', ...EVERYTHING]);
    expect(names.stdout.trim().split('\n')).to.deep.equal(['Alice', 'Bob', 'Charlie']);
    const older = await runInProcess(['complete', '--prompt', 'completable-prompt', 'department', 'E', '--', ...EVERYTHING]);
    expect(older.stdout.trim().split('\n')).to.deep.equal(['Engineering']);
    expect(older.stderr).to.include('write department=E');
    const bad = await runInProcess(['complete', '--prompt', 'completable-prompt', 'department=E', 'x', '--', ...EVERYTHING]);
    expect(bad.code).to.equal(2);
    expect(bad.stderr).to.include('key=value');
  });
});

describe('a first hour with mcp-actors: Ctrl-C says what was done, per era', function () {
  this.timeout(30000);
  let term: Terminal | undefined;
  afterEach(() => term?.kill());

  it('2026-07-28 over HTTP: the request\'s stream is closed (not notifications/cancelled), and the server\'s handler stops', async () => {
    const mcp = createMcpServer({ info: { name: 'hang-http', version: '1.0.0' } });
    let resolveStopped: (reason: string) => void = () => undefined;
    const stopped = new Promise<string>((r) => (resolveStopped = r));
    mcp.registerTool('hang', { description: 'Waits for cancellation' }, async (_args, ctx) => {
      ctx.sendProgress(1, 4, 'waiting');
      await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
      resolveStopped(String(ctx.signal.reason));
      return 'never seen';
    });
    const listening = await listen(createStreamableHttpHandler(mcp.server), { port: 0, logger: false });
    try {
      term = new Terminal(['call', 'hang', '--era', 'modern', '--url', listening.url]);
      await term.waitFor('waiting');
      term.type('\x03');
      expect(await term.exited).to.equal(130);
      const text = plain(term.output);
      expect(text).to.include("Cancelled: the request's response stream was closed");
      expect(text).not.to.include('notifications/cancelled');
      expect(await stopped).to.be.a('string');
    } finally {
      await listening.close();
    }
  });

  it('2026-07-28 over stdio still says notifications/cancelled, which is what is sent there', async () => {
    term = new Terminal(['call', 'hang', '--era', 'modern', '--', ...TERMINAL_SERVER_CMD]);
    await term.waitFor('waiting');
    term.type('\x03');
    expect(await term.exited).to.equal(130);
    expect(plain(term.output)).to.include('Cancelled: the server was told (notifications/cancelled).');
  });
});
