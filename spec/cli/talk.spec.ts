// list / call / read / get / complete for scripts: --json output, exit codes, usage errors that
// say what to do, servers from an mcpServers file.
import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { everythingEntry } from '../fixtures/interop-everything/everything.js';
import { Client } from '../../lib/entries/client.js';
import { createStdioClientTransport } from '../../streams/stdio-client.js';
import { CLI, runInProcess, TERMINAL_SERVER_CMD } from './helpers.js';
import { tsArgs } from '../helpers/ts-child.js';

const EVERYTHING = [process.execPath, everythingEntry(), 'stdio'];

describe('mcp-actors list/call/read/get/complete', function () {
  this.timeout(30000);

  it('talks to server-everything over stdio: --json lists, calls, reads, gets and completes', async () => {
    const tools = await runInProcess(['list', 'tools', '--json', '--', ...EVERYTHING]);
    expect(tools.code).to.equal(0);
    expect((JSON.parse(tools.stdout) as { name: string }[]).map((t) => t.name)).to.include('get-sum');
    const sum = await runInProcess(['call', 'get-sum', 'a=2', 'b=40', '--json', '--', ...EVERYTHING]);
    expect(JSON.parse(sum.stdout).content[0].text).to.include('42');
    const read = await runInProcess(['read', 'demo://resource/dynamic/text/3', '--stdio', EVERYTHING.map((w) => JSON.stringify(w)).join(' ')]);
    expect(read.code).to.equal(0);
    expect(read.stdout).to.include('demo://resource/dynamic/text/3');
    const prompt = await runInProcess(['get', 'args-prompt', 'city=Paris', '--json', '--', ...EVERYTHING]);
    expect(JSON.parse(prompt.stdout).messages[0].content.text).to.include('Paris');
    const done = await runInProcess(['complete', '--prompt', 'completable-prompt', 'department', 'E', '--', ...EVERYTHING]);
    expect(done.stdout.trim().split('\n')).to.include('Engineering');
  });

  it('--era: modern speaks 2026-07-28 to a dual-era server and fails on a legacy-only one; auto falls back; a bad value is a usage error', async () => {
    const modern = await runInProcess(['call', 'echo', 'a=1', '--json', '--era', 'modern', '--', ...TERMINAL_SERVER_CMD]);
    expect(modern.code, modern.stderr).to.equal(0);
    expect(JSON.parse(modern.stdout).content[0].text).to.equal('got a');
    const legacyOnly = await runInProcess(['list', 'tools', '--json', '--era', 'modern', '--', ...EVERYTHING]);
    expect(legacyOnly.code).to.not.equal(0);
    const auto = await runInProcess(['list', 'tools', '--json', '--era', 'auto', '--', ...EVERYTHING]);
    expect(auto.code, auto.stderr).to.equal(0);
    expect((JSON.parse(auto.stdout) as { name: string }[]).map((t) => t.name)).to.include('get-sum');
    const bad = await runInProcess(['list', '--era', 'newest', '--', ...EVERYTHING]);
    expect(bad.code).to.equal(2);
    expect(bad.stderr).to.include('--era must be auto, legacy or modern');
  });

  it('without --era the talk commands speak our Client\'s default era: their first frame is the one the Client sends', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-cli-'));
    try {
      const q = (w: string[]) => w.map((x) => JSON.stringify(x)).join(' ');
      const record = (out: string) => [process.execPath, ...tsArgs(CLI), 'record', '--out', out, '--', ...TERMINAL_SERVER_CMD];
      const first = (file: string) => (readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l)).find((e) => e.kind === 'in')?.frame?.method as string);
      const cliRec = join(dir, 'cli.jsonl');
      const run = await runInProcess(['call', 'echo', 'a=1', '--json', '--stdio', q(record(cliRec))]);
      expect(run.code, run.stderr).to.equal(0);
      const libRec = join(dir, 'lib.jsonl');
      const client = new Client({ info: { name: 'default-era', version: '1.0.0' } });
      const [command, ...args] = record(libRec);
      await client.connect(createStdioClientTransport({ command: command!, args, stderr: 'ignore' }));
      await client.callTool('echo', { a: 1 });
      await client.close();
      expect(first(cliRec)).to.equal(first(libRec));
      const legacy = join(dir, 'legacy.jsonl');
      await runInProcess(['call', 'echo', 'a=1', '--era', 'legacy', '--stdio', q(record(legacy))]);
      expect(first(legacy)).to.equal('initialize');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('exit codes: 1 for isError, 4 for a JSON-RPC error, 3 when the server cannot start, 2 for usage', async () => {
    expect((await runInProcess(['call', 'fail', '--', ...TERMINAL_SERVER_CMD])).code).to.equal(1);
    const unknown = await runInProcess(['get', 'no-such-prompt', '--', ...EVERYTHING]);
    expect(unknown.code).to.equal(4);
    expect(unknown.stderr).to.match(/The server answered error -326\d\d/);
    const missing = await runInProcess(['list', '--stdio', 'no-such-command-mcp-actors']);
    expect(missing.code).to.equal(3);
    expect(missing.stderr).to.match(/no-such-command-mcp-actors/);
    const usage = await runInProcess(['call', '--', ...EVERYTHING]);
    expect(usage.code).to.equal(2);
    expect(usage.stderr).to.include('Name the tool to call');
    expect(usage.stderr).to.include('mcp-actors call --help');
    const bad = await runInProcess(['list', '--bogus']);
    expect(bad.code).to.equal(2);
    expect(bad.stderr).to.match(/Unknown option '--bogus'/);
    const two = await runInProcess(['list', '--url', 'http://127.0.0.1:1/mcp', '--ws', 'ws://127.0.0.1:1']);
    expect(two.stderr).to.include('Give one server, not several');
  });

  it('every subcommand has --help with an example and the exit codes', async () => {
    const overview = await runInProcess(['--help']);
    const names = [...overview.stdout.matchAll(/^ {2}([a-z]+) {2,}/gm)].map((m) => m[1]!);
    expect(names).to.include.members(['list', 'call', 'read', 'get', 'complete']);
    for (const name of names) {
      const help = await runInProcess([name, '--help']);
      expect(help.code, name).to.equal(0);
      expect(help.stdout, name).to.include(`Usage: mcp-actors ${name}`);
      expect(help.stdout, name).to.include('Exit codes:');
    }
  });

  it('finds a server by name in an mcpServers file, and says which names exist when it is not there', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-cli-'));
    try {
      writeFileSync(join(dir, '.mcp.json'), JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [everythingEntry(), 'stdio'] } } }));
      const ok = await runInProcess(['list', 'prompts', '--server', 'everything', '--config', join(dir, '.mcp.json')]);
      expect(ok.code).to.equal(0);
      expect(ok.stdout).to.include('simple-prompt');
      const missing = await runInProcess(['list', '--server', 'other', '--config', join(dir, '.mcp.json')]);
      expect(missing.code).to.equal(5);
      expect(missing.stderr).to.include('No server "other"');
      expect(missing.stderr).to.include('it has: everything');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
