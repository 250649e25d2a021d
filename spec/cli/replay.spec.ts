// `mcp-actors replay`: a recording of the real server-everything (made through `record`, driven by
// the official SDK client) served back as a mock server to the SDK client, verified against
// server-everything again, and the bad inputs: unrecorded requests, changed answers, corrupted,
// truncated and newer journals; `--check` of a session journal.
import { expect } from 'chai';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as SdkStdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '../../lib/entries/client.js';
import { createMcpServer } from '../../lib/mcp-server.js';
import { Server } from '../../lib/server.js';
import { createMemoryPair } from '../../streams/memory.js';
import { everythingEntry } from '../fixtures/interop-everything/everything.js';
import { CLI, runInProcess } from './helpers.js';
import { tsArgs } from '../helpers/ts-child.js';

const EVERYTHING = [process.execPath, everythingEntry(), 'stdio'];
const cli = (...args: string[]) => ({ command: process.execPath, args: [...tsArgs(CLI), ...args] });

/** One SDK client session: the same calls each time, their results in order. */
async function sdkSession(server: { command: string; args: string[] }): Promise<unknown[]> {
  const client = new SdkClient({ name: 'sdk-client', version: '1.0.0' });
  await client.connect(new SdkStdio({ ...server, stderr: 'ignore' }));
  try {
    const progress: unknown[] = [];
    return [
      (await client.listTools()).tools.map((t) => t.name),
      await client.callTool({ name: 'echo', arguments: { message: 'hello replay' } }),
      await client.callTool({ name: 'get-sum', arguments: { a: 19, b: 23 } }),
      await client.readResource({ uri: 'demo://resource/dynamic/text/2' }),
      await client.getPrompt({ name: 'args-prompt', arguments: { city: 'Lyon' } }),
      await client.complete({ ref: { type: 'ref/prompt', name: 'completable-prompt' }, argument: { name: 'department', value: 'E' } }),
      await client.callTool({ name: 'trigger-long-running-operation', arguments: { duration: 0.4, steps: 2 } }, undefined, { onprogress: (p) => progress.push(p.progress) }),
      progress,
    ];
  } finally {
    await client.close();
  }
}

describe('mcp-actors replay', function () {
  this.timeout(60000);
  let dir: string;
  let recording: string;
  let recordedResults: unknown[];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcp-replay-'));
    recording = join(dir, 'everything.jsonl');
    recordedResults = await sdkSession(cli('record', '--out', recording, '--', ...EVERYTHING));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('serves a recording of server-everything as a mock server: the official SDK client gets the same answers, progress included (recorded pace, by default)', async () => {
    // Paced as recorded without being asked: progress arrives spaced as it did (the SDK client
    // drops progress that comes in the same read as the response).
    const replayed = await sdkSession(cli('replay', recording, '--as', 'server'));
    expect(replayed.slice(0, -1)).to.deep.equal(recordedResults.slice(0, -1));
    expect(replayed.at(-1)).to.include(1);
    expect(recordedResults.at(-1)).to.include(1);
  });

  it('verifies the recording against server-everything again: zero differences after normalization', async () => {
    const run = await runInProcess(['replay', recording, '--as', 'client', '--', ...EVERYTHING]);
    expect(run.stdout, run.stdout + run.stderr).to.match(/8 requests, no differences after normalization/);
    expect(run.code).to.equal(0);
  });

  it('reports every difference by request and JSON path, exit 1, when the live server answers otherwise', async () => {
    const changed = join(dir, 'changed.jsonl');
    writeFileSync(changed, readFileSync(recording, 'utf8').replace('The sum of 19 and 23 is 42.', 'The sum of 19 and 23 is 43.'));
    const run = await runInProcess(['replay', changed, '--as', 'client', '--', ...EVERYTHING]);
    expect(run.code).to.equal(1);
    expect(run.stdout).to.match(/✗ #\d+ tools\/call get-sum\n/);
    expect(run.stdout).to.include('result.content[0].text');
    expect(run.stdout).to.include('"The sum of 19 and 23 is 43."');
    expect(run.stdout, run.stdout).to.include('1 difference in 8 requests');
  });

  it('a request the recording does not hold gets an error naming what it holds; --ignore widens the match', async () => {
    const client = new SdkClient({ name: 'sdk-client', version: '1.0.0' });
    await client.connect(new SdkStdio({ ...cli('replay', recording, '--as', 'server'), stderr: 'ignore' }));
    try {
      const err = await client.callTool({ name: 'get-sum', arguments: { a: 1, b: 1 } }).then(() => undefined, (e: Error) => e);
      expect(err?.message).to.include('the recording holds no tools/call request with params {"name":"get-sum","arguments":{"a":1,"b":1}}');
      expect(err?.message).to.include('"arguments":{"a":19,"b":23}');
    } finally {
      await client.close();
    }
    const loose = new SdkClient({ name: 'sdk-client', version: '1.0.0' });
    await loose.connect(new SdkStdio({ ...cli('replay', recording, '--as', 'server', '--ignore', 'params.arguments'), stderr: 'ignore' }));
    try {
      const r = (await loose.callTool({ name: 'get-sum', arguments: { a: 1, b: 1 } })) as { content: { text: string }[] };
      expect(r.content[0]!.text).to.equal('The sum of 19 and 23 is 42.');
    } finally {
      await loose.close();
    }
  });

  it('bad input: truncated and corrupted lines are skipped with their line numbers (errors with --strict); a newer format says to upgrade', async () => {
    const text = readFileSync(recording, 'utf8');
    const lines = text.trim().split('\n');
    const truncated = join(dir, 'truncated.jsonl');
    writeFileSync(truncated, text.slice(0, text.length - 30));
    const corrupted = join(dir, 'corrupted.jsonl');
    writeFileSync(corrupted, [...lines.slice(0, 3), '{"seq": 3, "t": oops', ...lines.slice(3)].join('\n') + '\n');
    const t = await runInProcess(['replay', truncated, '--as', 'client', '--', ...EVERYTHING]);
    expect(t.stderr).to.include(`line ${lines.length} is truncated (the recording was cut off there); skipped`);
    expect(t.stdout).to.match(/\d+ requests/);
    const c = await runInProcess(['replay', corrupted, '--as', 'client', '--strict', '--', ...EVERYTHING]);
    expect(c.code).to.equal(5);
    expect(c.stderr).to.include('line 4 is not JSON (corrupted)');
    const newer = join(dir, 'newer.jsonl');
    writeFileSync(newer, text.replace('"version":1', '"version":7'));
    const n = await runInProcess(['replay', newer, '--as', 'server']);
    expect(n.code).to.equal(5);
    expect(n.stderr).to.include('journal format version 7, newer than this mcp-actors reads (2). Upgrade: npm install mcp-actors@latest');
    const notJournal = join(dir, 'x.jsonl');
    writeFileSync(notJournal, '{"hello":1}\n');
    expect((await runInProcess(['replay', notJournal, '--check'])).stderr).to.include('is not an mcp-actors journal');
  });

  it('bad input: an entry nested 100,000 deep is inspected, checked and drawn (cut at 1,000 levels in the page), not a stack overflow', async () => {
    const lines = readFileSync(recording, 'utf8').trim().split('\n');
    const deepEntry = `{"seq":${lines.length},"t":1,"kind":"note","note":"ignored","detail":{"from":"server","a":${'['.repeat(100_000)}${']'.repeat(100_000)}}}`;
    const deep = join(dir, 'deep.jsonl');
    writeFileSync(deep, [...lines, deepEntry].join('\n') + '\n');
    expect((await runInProcess(['inspect', deep])).code).to.equal(0); // the timeline's note printed the detail: an internal error
    const at = await runInProcess(['inspect', deep, '--at', String(lines.length)]);
    expect(at.code, at.stderr).to.equal(0);
    expect(at.stdout).to.include('[not shown: nested deeper than 1000 levels]');
    const checked = await runInProcess(['replay', deep, '--check']);
    expect(checked.code, checked.stdout + checked.stderr).to.equal(0);
    const html = join(dir, 'deep.html');
    const drawn = await runInProcess(['inspect', deep, '--html', html]);
    expect(drawn.code, drawn.stderr).to.equal(0); // it said "Cannot write …: Maximum call stack size exceeded"
    expect(readFileSync(html, 'utf8')).to.include('[not shown: nested deeper than 1000 levels]');
  });

  it('--check re-executes a session journal on the simulated clock; a changed frame is reported as the first divergence', async () => {
    const mcp = createMcpServer({ info: { name: 'check-fixture', version: '1.0.0' } });
    mcp.registerTool('twice', { inputSchema: { type: 'object', properties: { n: { type: 'number' } } } }, (args: any) => String(args.n * 2));
    const [a, b] = createMemoryPair();
    await mcp.connect(a);
    const client = new Client({ era: 'legacy', info: { name: 'check-client', version: '1.0.0' }, journal: true });
    await client.connect(b);
    for (let n = 1; n <= 5; n++) await client.callTool('twice', { n });
    await client.close();
    const ok = join(dir, 'session.jsonl');
    writeFileSync(ok, client.journal!.toJSONL());
    const good = await runInProcess(['replay', ok, '--check']);
    expect(good.code).to.equal(0);
    expect(good.stdout).to.match(/entries re-executed on a simulated clock .* all \d+ frames identical/);
    const tampered = join(dir, 'tampered.jsonl');
    const lines = client.journal!.toJSONL().trim().split('\n');
    const i = lines.findIndex((l) => l.includes('"kind":"out"') && l.includes('"n":3'));
    lines[i] = lines[i]!.replace('"n":3', '"n":33');
    writeFileSync(tampered, lines.join('\n') + '\n');
    const bad = await runInProcess(['replay', tampered, '--check']);
    expect(bad.code).to.equal(1);
    expect(bad.stdout).to.include('first divergent frame');
    expect(bad.stdout).to.include('params.arguments.n: 33 → 3');
    // A proxy recording goes through the session and request machines.
    const proxy = await runInProcess(['replay', recording, '--check']);
    expect(proxy.stdout, proxy.stdout + proxy.stderr).to.match(/✓ \d+ entries through the session and request machines .* every frame allowed/);
    expect(proxy.code).to.equal(0);
    const early = join(dir, 'early.jsonl');
    const rec = readFileSync(recording, 'utf8').trim().split('\n');
    const init = rec.findIndex((l) => l.includes('"method":"initialize"'));
    const call = rec.findIndex((l) => l.includes('"method":"tools/list"'));
    writeFileSync(early, [...rec.slice(0, init), rec[call], ...rec.slice(init)].join('\n') + '\n');
    const bad2 = await runInProcess(['replay', early, '--check']);
    expect(bad2.code).to.equal(1);
    expect(bad2.stdout).to.include('first divergent frame');
    expect(bad2.stdout).to.include('the client sent tools/list before initialization');
  });

  it('--check reads a session journal as it replays: damaged lines are skipped with their line numbers (errors with --strict); aborted requests are found however the abort is written', async () => {
    const mcp = createMcpServer({ info: { name: 'check-fixture', version: '1.0.0' } });
    mcp.registerTool('twice', { inputSchema: { type: 'object', properties: { n: { type: 'number' } } } }, (args: any) => String(args.n * 2));
    mcp.registerTool('hang', { inputSchema: { type: 'object' } }, () => new Promise<string>(() => {}));
    const [a, b] = createMemoryPair();
    await mcp.connect(a);
    const client = new Client({ era: 'legacy', info: { name: 'check-client', version: '1.0.0' }, journal: true });
    await client.connect(b);
    await client.callTool('twice', { n: 1 });
    const ac = new AbortController();
    const hung = client.request('tools/call', { name: 'hang', arguments: {} }, { signal: ac.signal }).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 10));
    ac.abort('stop');
    await hung;
    await client.callTool('twice', { n: 2 });
    await client.close();
    const text = client.journal!.toJSONL();
    expect(text).to.include('"op":"abort"');
    expect(text).to.include('notifications/cancelled');

    // The abort is what makes the session send notifications/cancelled: replay must give that
    // request its signal when it starts, before the abort is read.
    const aborted = join(dir, 'aborted.jsonl');
    writeFileSync(aborted, text);
    const ok = await runInProcess(['replay', aborted, '--check']);
    expect(ok.stdout + ok.stderr).to.match(/✓ \d+ entries re-executed on a simulated clock .* all \d+ frames identical/);
    expect(ok.code).to.equal(0);
    // The same journal with the abort's name written as a JSON escape.
    const escaped = join(dir, 'aborted-escaped.jsonl');
    writeFileSync(escaped, text.replace('"op":"abort"', '"op":"\\u0061bort"'));
    expect(readFileSync(escaped, 'utf8')).not.to.include('"op":"abort"');
    const esc = await runInProcess(['replay', escaped, '--check']);
    expect(esc.stdout + esc.stderr).to.match(/all \d+ frames identical/);
    expect(esc.code).to.equal(0);

    // A corrupted line in the middle and the last line cut off.
    const lines = text.trim().split('\n');
    const damaged = join(dir, 'damaged.jsonl');
    const damagedText = [...lines.slice(0, 3), '{"seq": 3, "t": oops', ...lines.slice(3)].join('\n');
    writeFileSync(damaged, damagedText.slice(0, damagedText.length - 5));
    const d = await runInProcess(['replay', damaged, '--check']);
    expect(d.stderr).to.include(`warning: ${damaged}: line 4 is not JSON (corrupted); skipped`);
    expect(d.stderr).to.include(`warning: ${damaged}: line ${lines.length + 1} is truncated (the recording was cut off there); skipped`);
    expect(d.stdout).to.include(`✓ ${lines.length - 2} entries re-executed`);
    expect(d.code).to.equal(0);
    const strict = await runInProcess(['replay', damaged, '--check', '--strict']);
    expect(strict.code).to.equal(5);
    expect(strict.stderr).to.include(`line 4 is not JSON (corrupted); skipped; line ${lines.length + 1} is truncated`);
    expect(strict.stdout).to.equal('');
  });

  it('--check re-executes a server session journal too: the requests it served are answered as recorded', async () => {
    const [a, b] = createMemoryPair();
    const server = new Server({ info: { name: 'check-server', version: '1.0.0' }, capabilities: { tools: {} }, journal: true });
    server.onRequest('tools/call', (p: any) => ({ content: [{ type: 'text', text: String(p.arguments.text).toUpperCase() }] }));
    const session = await server.connect(a);
    const client = new Client({ era: 'legacy', info: { name: 'check-client', version: '1.0.0' } });
    await client.connect(b);
    await client.request('tools/call', { name: 'up', arguments: { text: 'abc' } });
    await client.close();
    const deadline = Date.now() + 5000;
    while (session.currentPhase !== 'closed' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    const text = session.journal!.toJSONL();
    expect(text).to.include('"role":"server"');
    const file = join(dir, 'server-session.jsonl');
    writeFileSync(file, text);
    const ok = await runInProcess(['replay', file, '--check']);
    expect(ok.stdout, ok.stdout + ok.stderr).to.match(/✓ \d+ entries re-executed on a simulated clock .* all \d+ frames identical/);
    expect(ok.code).to.equal(0);
    // The client asks for an older revision: the replayed server agrees to it, the recording did not.
    const changed = join(dir, 'server-session-changed.jsonl');
    const initialize = text.split('\n').find((l) => l.includes('"kind":"in"') && l.includes('"method":"initialize"'))!;
    writeFileSync(changed, text.replace(initialize, initialize.replace('"protocolVersion":"2025-11-25"', '"protocolVersion":"2025-06-18"')));
    const bad = await runInProcess(['replay', changed, '--check']);
    expect(bad.code).to.equal(1);
    expect(bad.stdout).to.include('result.protocolVersion: "2025-11-25" → "2025-06-18"');
  });
});
