// Cassettes: the first run records a session with the real server, later runs replay it without
// the server; a changed request fails with a readable diff. And `mcp-actors machines`.
import { expect } from 'chai';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMachine } from 'xstate';
import { Client } from '../../lib/entries/client.js';
import { cassette } from '../../lib/entries/cassette.js';
import { TERMINAL_SERVER_CMD, runInProcess } from './helpers.js';

const info = { name: 'cassette-test', version: '1.0.0' };

describe('cassettes for tests, and mcp-actors machines', function () {
  this.timeout(30000);
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'mcp-tape-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('records on the first run, replays without the server on later runs; a changed request fails with a readable diff', async () => {
    const file = join(dir, 'tape.jsonl');
    const server = { command: TERMINAL_SERVER_CMD[0]!, args: TERMINAL_SERVER_CMD.slice(1) };
    const first = await cassette(file, { server });
    expect(first.mode).to.equal('record');
    const c1 = new Client({ era: 'legacy', info });
    await c1.connect(first.transport());
    const recorded = await c1.callTool('echo', { text: 'hello' });
    await c1.close();
    await first.close();
    expect(readFileSync(file, 'utf8')).to.include('"method":"tools/call"');

    // The server is gone for the second run: a command that cannot start proves it is not needed.
    const second = await cassette(file, { server: { command: '/nonexistent/server' } });
    expect(second.mode).to.equal('replay');
    const c2 = new Client({ era: 'legacy', info });
    await c2.connect(second.transport());
    expect(c2.serverInfo?.name).to.equal('terminal-fixture');
    expect(await c2.callTool('echo', { text: 'hello' })).to.deep.equal(recorded);
    const changed = await c2.callTool('echo', { text: 'bye' }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(changed?.message).to.include('Closest recorded request:');
    expect(changed?.message).to.include('params.arguments.text: recorded "hello", sent "bye"');
    await c2.close();
    await second.close();
  });

  it('machines: every machine as JSON for Stately (the same files as npm run machines), one by name, usage errors', async () => {
    const out = join(dir, 'machines');
    expect((await runInProcess(['machines', '--out', out])).code).to.equal(0);
    for (const name of readdirSync('docs/machines')) expect(readFileSync(join(out, name), 'utf8'), name).to.equal(readFileSync(join('docs/machines', name), 'utf8'));
    const one = await runInProcess(['machines', 'session']);
    const machine = createMachine(JSON.parse(one.stdout));
    expect(Object.keys(machine.states)).to.include.members(['connecting', 'operating', 'closed']);
    const bad = await runInProcess(['machines', 'nope']);
    expect(bad.code).to.equal(2);
    expect(bad.stderr).to.include('one of session, request');
    expect((await runInProcess(['machines', '--help'])).stdout).to.include('createSkyInspector');
  });
});
