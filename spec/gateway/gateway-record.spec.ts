// Recording at the gateway: a legacy stdio upstream (official SDK) and a 2026-07-28 upstream of
// ours over HTTP, one downstream legacy caller. Each side of each bridged call is in a journal
// file `mcp-actors inspect` reads: the downstream session (role server) and both upstream clients
// (role client, one of them modern-era).
import { expect } from 'chai';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { Client } from '../../lib/client.js';
import { createGateway } from '../../lib/gateway/gateway.js';
import { listen, type Listening } from '../../lib/http/listen-port.js';
import { Journal } from '../../lib/journal/journal.js';
import { createMcpServer, type McpServer } from '../../lib/mcp-server.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';
import { runInProcess } from '../cli/helpers.js';
import { everythingEntry } from '../fixtures/interop-everything/everything.js';
import { tsArgs } from '../helpers/ts-child.js';

const path = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const COUNTER = { command: process.execPath, args: [...tsArgs(path('fixtures/counter-server.ts'))] };
const textOf = (r: { content?: unknown }) => ((r.content ?? []) as { text?: string }[]).map((b) => b.text ?? '').join('\n');
/** The JSON of every entry of a journal file, one string each. */
const linesOf = (file: string) => readFileSync(file, 'utf8').trim().split('\n');

describe('gateway: record journals both sides of every bridged exchange', function () {
  this.timeout(60_000);
  let dir: string;
  let upstream: McpServer;
  let upstreamWeb: Listening;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gateway-record-'));
    upstream = createMcpServer({ info: { name: 'modern-echo', version: '1.0.0' }, supportedVersions: ['2026-07-28'] });
    upstream.registerTool('echo', { inputSchema: { text: z.string() } }, ({ text }) => ({ content: [{ type: 'text', text: `echo:${text}` }] }));
    upstreamWeb = await listen(createStreamableHttpHandler(upstream.server), { port: 0 });
  });
  after(async () => {
    await upstreamWeb?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes the downstream session and each upstream client (both eras) as journals inspect reads', async () => {
    const out = join(dir, 'rec');
    const gateway = createGateway({ servers: { counter: COUNTER, echo: { url: upstreamWeb.url } }, stderr: 'ignore', record: out });
    await gateway.start();
    const web = await listen(createStreamableHttpHandler(gateway.server.server), { port: 0 });
    const client = new Client({ info: { name: 'downstream', version: '1.0.0' }, era: 'legacy' });
    await client.connect(createStreamableHttpClientTransport(web.url));
    expect(textOf(await client.callTool('counter__next', {}))).to.equal('1');
    expect(textOf(await client.callTool('echo__echo', { text: 'hi' }))).to.equal('echo:hi');
    await client.close();
    await web.close();
    await gateway.close();

    const files = readdirSync(out).sort();
    expect(files.filter((f) => f.startsWith('downstream-'))).to.have.length(1);
    expect(files.filter((f) => /^upstream-\d+-counter\.jsonl$/.test(f))).to.have.length(1);
    expect(files.filter((f) => /^upstream-\d+-echo\.jsonl$/.test(f))).to.have.length(1);
    const file = (re: RegExp) => join(out, files.find((f) => re.test(f))!);

    const down = Journal.parse(readFileSync(file(/^downstream-/), 'utf8'));
    expect(down.role).to.equal('server');
    const downText = linesOf(file(/^downstream-/)).join('\n');
    expect(downText).to.contain('"name":"counter__next"').and.to.contain('"name":"echo__echo"').and.to.contain('echo:hi');

    const counter = Journal.parse(readFileSync(file(/-counter\.jsonl$/), 'utf8'));
    expect(counter.role).to.equal('client');
    expect(counter.era).to.equal(undefined);
    expect(linesOf(file(/-counter\.jsonl$/)).join('\n')).to.contain('"name":"next"');

    const echo = Journal.parse(readFileSync(file(/-echo\.jsonl$/), 'utf8'));
    expect(echo.era).to.equal('modern');
    expect(echo.revision).to.equal('2026-07-28');
    expect(linesOf(file(/-echo\.jsonl$/)).join('\n')).to.contain('"name":"echo"').and.to.contain('echo:hi');
    expect(gateway.recorded).to.have.length(3);

    for (const f of files) {
      const shown = await runInProcess(['inspect', join(out, f), '--json']);
      expect(shown.code, `${f}: ${shown.stderr}`).to.equal(0);
      expect(shown.stdout).to.contain('tools/call');
    }
  });

  it('writes the 2026-07-28 downstream requests (request, input round, answer) as a journal inspect reads', async () => {
    const out = join(dir, 'modern');
    const ELICIT = 'everything__trigger-elicitation-request';
    const gateway = createGateway({ servers: { everything: { command: process.execPath, args: [everythingEntry(), 'stdio'] } }, stderr: 'ignore', record: out });
    await gateway.start();
    const web = await listen(createStreamableHttpHandler(gateway.server.server), { port: 0 });
    const client = new Client({ info: { name: 'downstream-modern', version: '1.0.0' }, era: 'modern' });
    client.onElicitation({ form: () => ({ action: 'accept', content: { name: 'Grace Hopper' } }) });
    await client.connect(createStreamableHttpClientTransport(web.url));
    expect(textOf(await client.callTool(ELICIT, {}))).to.contain('Grace Hopper');
    await client.close();
    await web.close();
    await gateway.close();

    const file = join(out, 'downstream-modern.jsonl');
    expect(gateway.recorded).to.include(file);
    expect(statSync(file).mode & 0o777).to.equal(0o600);
    const down = Journal.parse(readFileSync(file, 'utf8'));
    expect(down.role).to.equal('server');
    expect(down.era).to.equal('modern');
    const frames = down.entries.flatMap((e) => ('frame' in e ? [{ kind: e.kind, rq: e.rq, frame: e.frame as { method?: string; params?: { name?: string; inputResponses?: unknown }; result?: { resultType?: string; inputRequests?: unknown; content?: unknown } } }] : []));
    const calls = frames.filter((f) => f.kind === 'in' && f.frame.method === 'tools/call' && f.frame.params?.name === ELICIT);
    // The first round asks for input; the retry carries the answer and gets the tool's result.
    expect(calls).to.have.length(2);
    const [first, retry] = calls as [(typeof calls)[0], (typeof calls)[0]];
    const asked = frames.find((f) => f.kind === 'out' && f.rq === first.rq && f.frame.result !== undefined);
    expect(asked?.frame.result?.resultType).to.equal('input_required');
    expect(JSON.stringify(asked?.frame.result?.inputRequests)).to.contain('elicitation/create');
    expect(JSON.stringify(retry.frame.params?.inputResponses)).to.contain('Grace Hopper');
    const answer = frames.find((f) => f.kind === 'out' && f.rq === retry.rq && f.frame.result !== undefined);
    expect(JSON.stringify(answer?.frame.result?.content)).to.contain('Grace Hopper');

    const shown = await runInProcess(['inspect', file, '--json']);
    expect(shown.code, shown.stderr).to.equal(0);
    expect(shown.stdout).to.contain('tools/call');
  });

  it('the files are the record: after many calls the journals in memory hold no entries (a long-running gateway does not grow)', async () => {
    const out = join(dir, 'flat');
    const gateway = createGateway({ servers: { echo: { url: upstreamWeb.url } }, record: out });
    await gateway.start();
    const web = await listen(createStreamableHttpHandler(gateway.server.server), { port: 0 });
    const legacy = new Client({ info: { name: 'downstream', version: '1.0.0' }, era: 'legacy' });
    const modern = new Client({ info: { name: 'downstream-modern', version: '1.0.0' }, era: 'modern' });
    try {
      await legacy.connect(createStreamableHttpClientTransport(web.url));
      await modern.connect(createStreamableHttpClientTransport(web.url));
      const CALLS = 20;
      for (let i = 0; i < CALLS; i++) {
        expect(textOf(await legacy.callTool('echo__echo', { text: `l${i}` }))).to.equal(`echo:l${i}`);
        expect(textOf(await modern.callTool('echo__echo', { text: `m${i}` }))).to.equal(`echo:m${i}`);
      }
      // Kept in memory: nothing, on every side (the downstream session, the 2026-07-28 requests, the upstream client).
      const session = [...gateway.server.server.sessions][0]!;
      const journals = { downstream: session.journal, modern: gateway.server.server.journal, upstream: gateway.host.client('echo')!.journal };
      for (const [side, journal] of Object.entries(journals)) {
        expect(journal, side).not.to.equal(undefined);
        expect(journal!.entries, side).to.have.length(0);
      }
      // Written: each call on each side, while the gateway runs.
      const calls = (re: RegExp, text: string) => readFileSync(join(out, readdirSync(out).find((f) => re.test(f))!), 'utf8').split('\n').filter((l) => l.includes(text)).length;
      expect(calls(/^downstream-\d+-/, '"method":"tools/call"')).to.equal(CALLS);
      expect(calls(/^downstream-modern/, '"method":"tools/call"')).to.equal(CALLS);
      // (A 2026-07-28 client journals each call and its frame: both name the arguments.)
      for (let i = 0; i < CALLS; i++) for (const text of [`l${i}`, `m${i}`]) expect(calls(/^upstream-\d+-echo/, `"text":"${text}"`), text).to.be.greaterThan(0);
    } finally {
      await legacy.close();
      await modern.close();
      await web.close();
      await gateway.close();
    }
  });

  it('refuses a directory that already holds journals (an older recording is never overwritten)', () => {
    const used = join(dir, 'used');
    const gateway = () => createGateway({ servers: { counter: COUNTER }, record: used });
    gateway().close().catch(() => undefined);
    // Made but empty: still usable.
    writeFileSync(join(used, 'old.jsonl'), '{}\n');
    expect(gateway).to.throw(/already holds journals/);
  });
});
