// `mcp-actors serve` as a user runs it: a real child process mounting real stdio servers, served
// over HTTP, WebSocket or stdio, reached by clients of both eras; the Host/Origin checks on by
// default; bad command lines and config files refused with a clear error and an exit code.
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '../../lib/client.js';
import { createStdioClientTransport } from '../../streams/stdio-client.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';
import { createWebSocketClientTransport } from '../../streams/websocket-client.js';
import { ExitCode } from '../../lib/cli/exit-codes.js';
import { CLI, runCli, runInProcess } from '../cli/helpers.js';
import { tsArgs } from '../helpers/ts-child.js';

const path = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const ECHO = [process.execPath, ...tsArgs(path('../../examples/echo-server.ts'))];
const CALC = [process.execPath, ...tsArgs(path('../fixtures/host/calc-server.ts'))];
const ASKER = [process.execPath, ...tsArgs(path('./fixtures/asking-server.ts'))];
const textOf = (r: { content?: unknown }) => ((r.content ?? []) as { text?: string }[]).map((b) => b.text ?? '').join('\n');

interface Served {
  child: ChildProcess;
  url: string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** Start `mcp-actors serve ARGS` and wait for the URL it prints. */
async function serve(args: string[]): Promise<Served> {
  const child = spawn(process.execPath, [...tsArgs(CLI), 'serve', ...args], { env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  const exited = new Promise<number | null>((done) => child.on('close', done));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve printed no URL:\n${err}`)), 30_000);
    child.stderr!.on('data', (d) => {
      err += d;
      const m = /Serving .* at ((?:http|ws):\/\/\S+)/.exec(err);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    void exited.then((code) => reject(new Error(`serve exited with ${code}:\n${err}`)));
  });
  return { child, url, stderr: () => err, exited };
}

async function stop(s: Served | undefined): Promise<number | null> {
  if (!s) return null;
  s.child.kill('SIGTERM');
  return s.exited;
}

describe('mcp-actors serve', function () {
  this.timeout(60_000);

  describe('over HTTP, one stdio upstream', () => {
    let served: Served;
    before(async () => {
      served = await serve(['--http', '0', '--name', 'echo', '--', ...ECHO]);
    });
    after(async () => {
      await stop(served);
    });

    for (const era of ['modern', 'legacy'] as const) {
      it(`a ${era}-era client lists and calls the upstream's tools, namespaced`, async () => {
        const client = new Client({ info: { name: 'downstream', version: '1.0.0' }, era });
        await client.connect(createStreamableHttpClientTransport(served.url));
        try {
          expect(client.era).to.equal(era);
          expect((await client.listTools()).map((t) => t.name)).to.include.members(['echo__echo', 'echo__slow']);
          expect(textOf(await client.callTool('echo__echo', { text: `hello ${era}` }))).to.equal(`hello ${era}`);
        } finally {
          await client.close();
        }
      });
    }

    it('binds 127.0.0.1 and refuses a foreign Host or Origin (DNS rebinding protection)', async () => {
      expect(new URL(served.url).hostname).to.equal('127.0.0.1');
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      const { request } = await import('node:http');
      const post = (extra: Record<string, string>) =>
        new Promise<number>((resolve, reject) => {
          const req = request(served.url, { method: 'POST', headers: { ...headers, ...extra } }, (res) => {
            res.resume();
            resolve(res.statusCode!);
          });
          req.on('error', reject);
          req.end(body);
        });
      expect(await post({ host: 'evil.example' })).to.equal(403);
      expect(await post({ origin: 'http://evil.example' })).to.equal(403);
    });

    it('stops on SIGTERM with exit code 0', async () => {
      const other = await serve(['--http', '0', '--', ...ECHO]);
      expect(await stop(other)).to.equal(0);
    });
  });

  it('mounts the servers of an mcpServers file beside the -- command, each namespaced', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'serve-config-'));
    let served: Served | undefined;
    try {
      const config = join(dir, 'mcp.json');
      writeFileSync(config, JSON.stringify({ mcpServers: { calc: { command: CALC[0], args: CALC.slice(1) } } }));
      served = await serve(['--http', '0', '--config', config, '--name', 'echo', '--', ...ECHO]);
      const client = new Client({ info: { name: 'downstream', version: '1.0.0' } });
      await client.connect(createStreamableHttpClientTransport(served.url));
      try {
        expect((await client.listTools()).map((t) => t.name)).to.include.members(['calc__add', 'echo__echo']);
        expect(textOf(await client.callTool('calc__add', { a: 2, b: 3 }))).to.equal('5');
      } finally {
        await client.close();
      }
    } finally {
      await stop(served);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('--record DIR: a journal per downstream session and upstream client, which inspect reads', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'serve-record-'));
    try {
      const served = await serve(['--http', '0', '--record', join(dir, 'rec'), '--name', 'echo', '--', ...ECHO]);
      const client = new Client({ info: { name: 'downstream', version: '1.0.0' }, era: 'legacy' });
      await client.connect(createStreamableHttpClientTransport(served.url));
      expect(textOf(await client.callTool('echo__echo', { text: 'recorded' }))).to.equal('recorded');
      await client.close();
      expect(await stop(served)).to.equal(0);
      expect(served.stderr()).to.match(/Recorded 2 journal\(s\) in /);
      const files = readdirSync(join(dir, 'rec')).sort();
      expect(files).to.have.length(2);
      for (const f of files) {
        expect(readFileSync(join(dir, 'rec', f), 'utf8')).to.contain('recorded');
        const shown = await runCli(['inspect', join(dir, 'rec', f)]);
        expect(shown.code, shown.stderr).to.equal(0);
        expect(shown.stdout).to.contain('tools/call');
      }
      // The same directory again: refused, the recording kept.
      const again = await runCli(['serve', '--http', '0', '--record', join(dir, 'rec'), '--', ...ECHO]);
      expect(again.code).to.equal(ExitCode.BadInput);
      expect(again.stderr).to.contain('already holds journals');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('--record DIR is written as it goes: after SIGKILL each journal reads up to the last exchange (mode 0600)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'serve-killed-'));
    try {
      const served = await serve(['--http', '0', '--record', join(dir, 'rec'), '--name', 'echo', '--', ...ECHO]);
      for (const era of ['legacy', 'modern'] as const) {
        const client = new Client({ info: { name: 'downstream', version: '1.0.0' }, era });
        await client.connect(createStreamableHttpClientTransport(served.url));
        expect(textOf(await client.callTool('echo__echo', { text: `last ${era}` }))).to.equal(`last ${era}`);
        // Not closed: the gateway dies with the session open.
      }
      served.child.kill('SIGKILL');
      await served.exited;
      const files = readdirSync(join(dir, 'rec')).sort();
      expect(files).to.have.length(3);
      expect(files).to.include('downstream-modern.jsonl');
      for (const f of files) {
        const file = join(dir, 'rec', f);
        expect(statSync(file).mode & 0o777, f).to.equal(0o600);
        const text = readFileSync(file, 'utf8');
        // The answer is there, not only the call: the last exchange is whole.
        expect(text.split('\n').filter((line) => line.includes('result') && line.includes('last ')), f).to.have.length.greaterThan(0);
        const shown = await runInProcess(['inspect', file]);
        expect(shown.code, `${f}: ${shown.stderr}`).to.equal(0);
        expect(shown.stdout).to.contain('tools/call');
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('over WebSocket', async () => {
    const served = await serve(['--ws', '0', '--name', 'echo', '--', ...ECHO]);
    try {
      expect(served.url).to.match(/^ws:\/\/127\.0\.0\.1:\d+\/mcp$/);
      const client = new Client({ info: { name: 'downstream', version: '1.0.0' } });
      await client.connect(createWebSocketClientTransport(served.url));
      try {
        expect(textOf(await client.callTool('echo__echo', { text: 'over ws' }))).to.equal('over ws');
      } finally {
        await client.close();
      }
    } finally {
      await stop(served);
    }
  });

  it('over stdio (the default): a client launches it in place of the server', async () => {
    const client = new Client({ info: { name: 'downstream', version: '1.0.0' } });
    await client.connect(createStdioClientTransport({ command: process.execPath, args: [...tsArgs(CLI), 'serve', '--name', 'echo', '--', ...ECHO], stderr: 'ignore' }));
    try {
      expect(textOf(await client.callTool('echo__echo', { text: 'over stdio' }))).to.equal('over stdio');
    } finally {
      await client.close();
    }
  });

  it('--upstreams perSession: each downstream session gets its own upstream', async () => {
    const counter = [process.execPath, ...tsArgs(path('./fixtures/counter-server.ts'))];
    const served = await serve(['--http', '0', '--upstreams', 'perSession', '--name', 'counter', '--', ...counter]);
    const clients = [new Client({ info: { name: 'a', version: '1.0.0' }, era: 'legacy' }), new Client({ info: { name: 'b', version: '1.0.0' }, era: 'legacy' })];
    try {
      for (const c of clients) await c.connect(createStreamableHttpClientTransport(served.url));
      const counts = [];
      for (const c of [...clients, ...clients]) counts.push(textOf(await c.callTool('counter__next', {})));
      expect(counts).to.deep.equal(['1', '1', '2', '2']);
    } finally {
      await Promise.all(clients.map((c) => c.close()));
      await stop(served);
    }
  });

  it('--input-wait-ms: a 2026-07-28 caller\'s retry after that long finds the upstream call cancelled; answered in time, it completes', async () => {
    // The wait covers a round trip to the serve process (a loaded machine can take a few hundred ms);
    // the slow answer comes surely after it (real time: the child runs on its own clock).
    const served = await serve(['--http', '0', '--name', 'asker', '--input-wait-ms', '1000', '--', ...ASKER]);
    const client = new Client({ info: { name: 'downstream', version: '1.0.0' }, era: 'modern' });
    let slow = false;
    client.onElicitation({ form: async () => {
      if (slow) await new Promise((r) => setTimeout(r, 1_300));
      return { action: 'accept', content: { name: 'Ada' } };
    } });
    try {
      await client.connect(createStreamableHttpClientTransport(served.url));
      expect(textOf(await client.callTool('asker__ask', {}))).to.equal('for Ada');
      slow = true;
      const late = await client.callTool('asker__ask', {});
      expect(late.isError).to.equal(true);
      expect(textOf(late)).to.match(/upstream call this retry continues has ended \(no retry came within 1000 ms/);
    } finally {
      await client.close();
      await stop(served);
    }
  });

  it('--tools-exclude / --tools-rename: the view of the served tools; a hidden one is unknown', async () => {
    const served = await serve(['--http', '0', '--name', 'echo', '--tools-exclude', 'sl*', '--tools-rename', 'echo=say', '--', ...ECHO]);
    const client = new Client({ info: { name: 'downstream', version: '1.0.0' }, era: 'modern' });
    try {
      await client.connect(createStreamableHttpClientTransport(served.url));
      const names = (await client.listTools()).map((t) => t.name);
      expect(names).to.include('echo__say').and.not.include.members(['echo__echo', 'echo__slow']);
      expect(textOf(await client.callTool('echo__say', { text: 'renamed' }))).to.equal('renamed');
      expect(await client.callTool('echo__slow', {}).then(() => 0, (e: { code?: number }) => e.code)).to.equal(-32602);
    } finally {
      await client.close();
      await stop(served);
    }
  });

  describe('bad input: a clear error and an exit code, nothing started', () => {
    let dir: string;
    before(() => {
      dir = mkdtempSync(join(tmpdir(), 'serve-bad-'));
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('no upstream: usage error (2)', async () => {
      const run = await runCli(['serve', '--http', '0']);
      expect(run.code).to.equal(2);
      expect(run.stderr).to.contain('Give the server(s) to serve');
    });

    it('two transports: usage error (2)', async () => {
      const run = await runCli(['serve', '--http', '0', '--stdio', '--', ...ECHO]);
      expect(run.code).to.equal(2);
      expect(run.stderr).to.contain('one of --stdio, --http PORT or --ws PORT');
    });

    it('--upstreams other than shared or perSession: usage error (2)', async () => {
      const run = await runCli(['serve', '--upstreams', 'some', '--', ...ECHO]);
      expect(run.code).to.equal(2);
      expect(run.stderr).to.contain('--upstreams must be shared or perSession');
    });

    it('--input-wait-ms not a positive number of ms within a timer\'s range: usage error (2), nothing started', async () => {
      for (const [value, message] of [['0', 'must be a positive number of ms'], ['3000000000', 'must be a positive number of ms, at most 2147483647; got 3000000000'], ['soon', 'must be a whole number']]) {
        const run = await runInProcess(['serve', '--input-wait-ms', value!, '--', ...ECHO]);
        expect(run.code, value).to.equal(2);
        expect(run.stderr, value).to.contain(`--input-wait-ms ${message}`);
      }
    });

    it('a config file that is not JSON, or names a server wrongly: bad input (5), the file named', async () => {
      const notJson = join(dir, 'broken.json');
      writeFileSync(notJson, '{ "mcpServers": ');
      const run1 = await runCli(['serve', '--config', notJson]);
      expect(run1.code).to.equal(5);
      expect(run1.stderr).to.contain(notJson);
      const wrong = join(dir, 'wrong.json');
      writeFileSync(wrong, JSON.stringify({ mcpServers: { a__b: { command: 'x' }, c: { url: 'ftp://x' } } }));
      const run2 = await runCli(['serve', '--config', wrong]);
      expect(run2.code).to.equal(5);
      expect(run2.stderr).to.contain('MCP server "a__b"').and.to.contain('namespace separator');
    });

    it('a bad view: in a config entry, bad input (5) naming the file; --tools-* without -- or --url, usage error (2)', async () => {
      const config = join(dir, 'views.json');
      writeFileSync(config, JSON.stringify({ mcpServers: { echo: { command: ECHO[0], args: ECHO.slice(1), tools: { exclude: 'slow' } } } }));
      const run1 = await runCli(['serve', '--config', config]);
      expect(run1.code).to.equal(5);
      expect(run1.stderr).to.contain(config).and.to.contain('echo.tools.exclude must be an array');
      const run2 = await runCli(['serve', '--config', config, '--tools-exclude', 'x']);
      expect(run2.code).to.equal(2);
      expect(run2.stderr).to.contain('--tools-include, --tools-exclude and --tools-rename are for the server given after --');
    });

    it('a port in use: connection error (3)', async () => {
      const served = await serve(['--http', '0', '--', ...ECHO]);
      try {
        const run = await runCli(['serve', '--http', new URL(served.url).port, '--', ...ECHO], { timeoutMs: 30_000 });
        expect(run.code).to.equal(3);
        expect(run.stderr).to.contain('EADDRINUSE');
      } finally {
        await stop(served);
      }
    });
  });
});
