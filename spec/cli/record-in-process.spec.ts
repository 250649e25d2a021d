// `mcp-actors record --in-process`: the recorder inside a Node.js server's process (no process
// between client and server): both directions journaled in order with times and secrets hidden,
// the end of the server recorded by the launching process, only the process that speaks on stdio
// recording behind a launcher (as npx is), and a clear message when the server is no Node.js one.
import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLI, runCli, runInProcess, TERMINAL_SERVER_CMD } from './helpers.js';
import { tsArgs } from '../helpers/ts-child.js';

const LAUNCHER = fileURLToPath(new URL('../fixtures/cli/launcher.ts', import.meta.url));
const q = (words: string[]) => words.map((w) => JSON.stringify(w)).join(' ');
const recordCmd = (out: string, server: string[] = TERMINAL_SERVER_CMD) => q([process.execPath, ...tsArgs(CLI), 'record', '--in-process', '--out', out, '--', ...server]);
const lines = (file: string) => readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));

describe('mcp-actors record --in-process', function () {
  this.timeout(60000);
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'mcp-rec-ip-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('journals both directions in order with times, secrets hidden, from inside the server; the recording verifies against the server', async () => {
    const out = join(dir, 's.jsonl');
    const run = await runInProcess(['call', 'echo', 'password=hunter2-secret', 'city=Paris', '--era', 'legacy', '--stdio', recordCmd(out)]);
    expect(run.code, run.stderr).to.equal(0);
    expect(run.stdout).to.include('got city,password');
    const [header, ...entries] = lines(out);
    expect(header.recorder).to.include({ kind: 'proxy', transport: 'stdio', inProcess: true });
    const frames = entries.filter((e) => e.kind === 'in' || e.kind === 'out').map((e) => `${e.kind} ${e.frame.method ?? `#${e.frame.id}`}`);
    expect(frames).to.deep.equal(['in initialize', 'out #0', 'in notifications/initialized', 'in tools/list', 'out #1', 'in tools/call', 'out #2']);
    expect(entries.map((e) => e.seq)).to.deep.equal(entries.map((_e, i) => i));
    const times = entries.map((e) => e.t);
    expect(times).to.deep.equal([...times].sort((a, b) => a - b));
    expect(readFileSync(out, 'utf8')).to.not.include('hunter2-secret');
    expect(entries.find((e) => e.frame?.method === 'tools/call').frame.params.arguments.password).to.equal('[REDACTED]');
    expect(entries.at(-1)).to.include({ kind: 'transport', phase: 'closed' });
    const verified = await runInProcess(['replay', out, '--as', 'client', '--', ...TERMINAL_SERVER_CMD]);
    expect(verified.stdout, verified.stdout + verified.stderr).to.match(/3 requests, no differences after normalization/);
  });

  it('a server that dies midway: the client is told, the journal keeps what it sent and ends with how it died', async () => {
    const out = join(dir, 'crash.jsonl');
    const run = await runInProcess(['call', 'crash', '--era', 'legacy', '--stdio', recordCmd(out)]);
    expect(run.code).to.equal(3);
    const entries = lines(out).slice(1);
    expect(entries.map((e) => e.frame?.method).filter(Boolean)).to.include.members(['initialize', 'tools/list', 'tools/call']);
    expect(entries.at(-1)).to.deep.include({ kind: 'transport', phase: 'failed', error: 'server exited with code 3' });
  });

  it('a long multi-byte answer, more than one batch holds, is journaled whole', async () => {
    const out = join(dir, 'big.jsonl');
    const run = await runInProcess(['call', 'big', 'chars=600000', '--json', '--era', 'legacy', '--stdio', recordCmd(out)]);
    expect(run.code, run.stderr).to.equal(0);
    const expected = 'é✓日🎉'.repeat(120000);
    expect(Buffer.byteLength(expected)).to.be.greaterThan(1 << 20);
    const answer = lines(out).find((e) => e.kind === 'out' && e.frame.result?.content);
    expect(answer.frame.result.content[0].text).to.equal(expected);
  });

  it('a server that exits right after answering: the answer and how it ended are in the journal', async () => {
    const out = join(dir, 'exit.jsonl');
    const run = await runInProcess(['call', 'answer-and-exit', '--era', 'legacy', '--stdio', recordCmd(out)]);
    expect(run.stdout).to.include('bye');
    const entries = lines(out).slice(1);
    expect(entries.filter((e) => e.kind === 'out').map((e) => e.frame.result?.content?.[0]?.text)).to.include('bye');
    expect(entries.map((e) => e.seq)).to.deep.equal(entries.map((_e, i) => i));
    expect(entries.at(-1)).to.include({ kind: 'transport', phase: 'closed' });
  });

  it('behind a launcher (as npx is), only the process that speaks on stdio records', async () => {
    const out = join(dir, 'launched.jsonl');
    const run = await runInProcess(['call', 'echo', 'a=1', '--era', 'legacy', '--stdio', recordCmd(out, [process.execPath, ...tsArgs(LAUNCHER), ...TERMINAL_SERVER_CMD])]);
    expect(run.code, run.stderr).to.equal(0);
    const entries = lines(out).slice(1);
    expect(entries.filter((e) => e.kind === 'transport' && e.phase === 'open')).to.have.length(1);
    expect(entries.filter((e) => e.frame?.method === 'initialize')).to.have.length(1);
    expect(entries.at(-1)).to.include({ kind: 'transport', phase: 'closed' });
  });

  it('a server that is no Node.js program: it still serves, and the journal and the message say nothing was recorded', async () => {
    const out = join(dir, 'sh.jsonl');
    const run = await runCli(['record', '--in-process', '--out', out, '--', 'sh', '-c', 'read line; echo "{\\"jsonrpc\\":\\"2.0\\",\\"id\\":1,\\"result\\":{}}"'], { input: '{"jsonrpc":"2.0","id":1,"method":"ping"}\n' });
    expect(run.code).to.equal(0);
    expect(run.stdout).to.include('"result":{}');
    expect(run.stderr).to.include('nothing was recorded');
    expect(run.stderr).to.include('Record without --in-process');
    const [header, ...entries] = lines(out);
    expect(header.recorder.inProcess).to.equal(true);
    expect(entries).to.have.length(1);
    expect(entries[0]).to.include({ kind: 'transport', phase: 'failed' });
    expect(entries[0].error).to.include('nothing was recorded');
  });

  it('--in-process is for stdio servers', async () => {
    const run = await runInProcess(['record', '--in-process', '--out', join(dir, 'x.jsonl'), '--target', 'http://127.0.0.1:1/mcp']);
    expect(run.code).to.equal(2);
    expect(run.stderr).to.include('--in-process records a stdio server');
  });
});
