// Issue 26: an idle legacy HTTP session holds no request-side state, so 100,000 of them fit in
// one process under 512 MB RSS (bench/idle-sessions.ts measures that). This spec keeps the heap
// one idle session retains from growing back: a real server process (forked, --expose-gc),
// sessions opened over real HTTP as a client does (initialize, notifications/initialized), the
// heap in use after full collections compared before and after, once the sessions have hibernated
// (the fixture waits for that: a second of quiet, on the real clock).
import { expect } from 'chai';
import { build } from 'esbuild';
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';

const SERVER = fileURLToPath(new URL('../fixtures/http-server/idle-server.ts', import.meta.url));
/**
 * Heap retained per idle session, bytes, once it has hibernated (after the default second of
 * quiet). Measured here: 7.75 KB before issue 26, 4.57 KB with the request-side state gone, 2.04 KB
 * hibernated (node 20); the bound leaves a margin for other node versions and collector noise.
 */
const BOUND = 2.75 * 1024;
const WARMUP = 200;
const SESSIONS = 2000;

interface Memory {
  heapUsed: number;
  sessions: number;
}

describe('http server: memory of idle sessions', function () {
  this.timeout(60_000);
  let child: ChildProcess;
  let url: string;
  const agent = new Agent({ connections: 8 });

  const dir = mkdtempSync(join(tmpdir(), 'mcp-actors-idle-'));

  before(async () => {
    // Bundled plain JavaScript, as a user's built server runs: under tsx every closure would
    // carry a `name` property (esbuild's keepNames) and the session would look 40% heavier.
    const script = join(dir, 'idle-server.mjs');
    await build({
      entryPoints: [SERVER],
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile: script,
      logLevel: 'error',
      external: ['node-pty', '@xterm/headless'],
      // CommonJS dependencies call require(): give the ESM bundle one.
      banner: { js: "import { createRequire as __require_ } from 'node:module'; const require = __require_(import.meta.url);" },
    });
    child = fork(script, [], { execArgv: ['--expose-gc'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const [hello] = (await once(child, 'message')) as [{ url: string }];
    url = hello.url;
  });
  after(async () => {
    child.kill();
    await agent.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const memory = async (): Promise<Memory> => {
    const reply = once(child, 'message');
    child.send('memory');
    return ((await reply) as [Memory])[0];
  };

  const accept = 'application/json, text/event-stream';
  async function openSession(): Promise<void> {
    const init = await request(url, {
      method: 'POST',
      dispatcher: agent,
      headers: { 'content-type': 'application/json', accept },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } }),
    });
    const answer = (await init.body.json()) as { result?: unknown };
    expect(answer.result, 'initialize answered').to.be.an('object');
    const headers = { 'content-type': 'application/json', accept, 'mcp-session-id': String(init.headers['mcp-session-id']), 'mcp-protocol-version': '2025-11-25' };
    const done = await request(url, { method: 'POST', dispatcher: agent, headers, body: '{"jsonrpc":"2.0","method":"notifications/initialized"}' });
    await done.body.dump();
    expect(done.statusCode).to.equal(202);
  }
  async function open(count: number): Promise<void> {
    let started = 0;
    const lane = async (): Promise<void> => {
      while (started < count) {
        started++;
        await openSession();
      }
    };
    await Promise.all(Array.from({ length: 16 }, lane));
  }

  it(`an initialized idle session retains under ${BOUND / 1024} KB of heap (${SESSIONS} sessions, after GC)`, async () => {
    await open(WARMUP);
    const before = await memory();
    await open(SESSIONS);
    const after = await memory();
    expect(after.sessions - before.sessions, 'every session is still held').to.equal(SESSIONS);
    const perSession = (after.heapUsed - before.heapUsed) / SESSIONS;
    expect(perSession, `${(perSession / 1024).toFixed(2)} KB per idle session`).to.be.below(BOUND);
  });
});
