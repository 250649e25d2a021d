// The findings, against the demo server as a user runs it (examples/everything.ts
// --stdio, a real process): a 10,000-deep request took the process down through the demo's
// live log; list_changed notifications went out right after initialize with nothing changed.
import { expect } from 'chai';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { EVERYTHING } from './fuzz/stdio-run.js';
import { tsArgs } from '../helpers/ts-child.js';

interface Line {
  id?: unknown;
  method?: string;
  result?: unknown;
  error?: { code: number; message: string };
}

function start(): { child: ChildProcessWithoutNullStreams; lines: Line[]; send(frame: string): void; next(id: unknown, ms?: number): Promise<Line> } {
  const child = spawn(process.execPath, [...tsArgs(EVERYTHING), '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
  child.stderr.resume();
  const lines: Line[] = [];
  let rest = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (s: string) => {
    const parts = (rest + s).split('\n');
    rest = parts.pop()!;
    for (const p of parts) lines.push(JSON.parse(p) as Line);
  });
  return {
    child,
    lines,
    send: (frame) => void child.stdin.write(frame + '\n'),
    async next(id, ms = 30_000) {
      const deadline = Date.now() + ms;
      for (;;) {
        const found = lines.find((l) => l.id === id && l.method === undefined);
        if (found) return found;
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`no answer to ${String(id)} (exit ${child.exitCode}); got ${JSON.stringify(lines).slice(0, 500)}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
  };
}

describe('robustness: the findings, on the demo server process', function () {
  this.timeout(60_000);
  let server: ReturnType<typeof start>;

  beforeEach(async () => {
    server = start();
    server.send(JSON.stringify({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'spec', version: '1' } } }));
    expect((await server.next('init')).result).to.be.an('object');
    server.send('{"jsonrpc":"2.0","method":"notifications/initialized"}');
  });
  afterEach(() => {
    server.child.kill('SIGKILL');
  });

  it('[BASE-002] a request nested 10,000 deep, as params and as a bare array: -32600 under its id, or id null, and the process stays up', async () => {
    const deep = '['.repeat(10_000) + ']'.repeat(10_000);
    server.send(`{"jsonrpc":"2.0","id":"deep","method":"tools/call","params":{"name":"convert_units","arguments":${deep}}}`);
    expect((await server.next('deep')).error?.code).to.equal(-32600);
    server.send(deep);
    server.send('{"jsonrpc":"2.0","id":"after","method":"ping"}');
    expect((await server.next('after')).result).to.deep.equal({});
    expect(server.lines.some((l) => l.id === null && l.error?.code === -32600), 'the bare array').to.equal(true);
    expect(server.child.exitCode).to.equal(null);
  });

  it('sends no list_changed after initialize when nothing changed', async () => {
    // Past the list-change debounce: whatever the start-up registrations would announce is out by now.
    await new Promise((r) => setTimeout(r, 1500));
    server.send('{"jsonrpc":"2.0","id":"p","method":"ping"}');
    await server.next('p');
    expect(server.lines.filter((l) => l.method?.endsWith('/list_changed')).map((l) => l.method)).to.deep.equal([]);
  });
});
