// record / replay --as server / replay --as client / replay --check / inspect in the 2026-07-28
// era: a session of the official SDK v2 client (pinned to 2026-07-28) recorded over stdio, and
// one of our Client recorded over Streamable HTTP (one POST per request, Mcp-* headers, listen
// streams, input-required rounds), both against our dual-era examples/everything.ts; served back
// as mock servers to both clients, verified against everything.ts again, checked and inspected.
import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStdioClientTransport } from '../../streams/stdio-client.js';
import type { Transport } from '../../streams/transport.js';
import { background, CLI, runInProcess } from './helpers.js';
import { EVERYTHING_STDIO, oursModernSession, SAMPLED, sdkServerSession, sdkV2Session, type SessionOutcome } from './modern-sessions.js';
import { tsArgs } from '../helpers/ts-child.js';

const cli = (...args: string[]) => ({ command: process.execPath, args: [...tsArgs(CLI), ...args] });
const lines = (file: string) => readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
/**
 * The session without its progress count. The SDK v2 client handles a notification a microtask
 * after reading it but a response at once (dropping the request's progress handler), so progress
 * read in the same chunk as its response never reaches it: how much it sees depends on timing.
 */
const noProgress = (o: SessionOutcome) => ({ ...o, progress: undefined });
const ENVELOPE = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } } };

/** Everything.ts over HTTP on a free port. */
const everythingHttp = () => background([...tsArgs('examples/everything.ts')], /(http:\/\/127\.0\.0\.1:\d+\/mcp)/, { PORT: '0' });

/** Frames in, answers out, over a raw stdio transport (for what no client would send). */
async function rawSession(server: { command: string; args: string[] }) {
  const transport: Transport = createStdioClientTransport({ ...server, stderr: 'ignore' });
  const answers = new Map<unknown, Record<string, any>>();
  transport.inbound$.subscribe((raw) => {
    const f = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Record<string, any>;
    if (f.id !== undefined && f.method === undefined) answers.set(f.id, f);
  });
  await transport.start();
  let id = 0;
  return {
    async call(method: string, params: Record<string, unknown>): Promise<Record<string, any>> {
      const mine = ++id;
      transport.send({ jsonrpc: '2.0', id: mine, method, params: { ...params, _meta: ENVELOPE } } as never);
      const deadline = Date.now() + 20000;
      while (!answers.has(mine) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      return answers.get(mine) ?? { timeout: true };
    },
    close: () => transport.close(),
  };
}

describe('mcp-actors in the 2026-07-28 era: record, replay, verify, check, inspect', function () {
  this.timeout(120000);
  let dir: string;
  let stdioRec: string;
  let httpRec: string;
  let recordedSdk: SessionOutcome;
  let recordedOurs: SessionOutcome;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcp-modern-'));
    stdioRec = join(dir, 'sdk-stdio.jsonl');
    httpRec = join(dir, 'ours-http.jsonl');
    recordedSdk = await sdkV2Session(cli('record', '--out', stdioRec, '--', ...EVERYTHING_STDIO));
    const server = await everythingHttp();
    try {
      const proxy = await background([...tsArgs(CLI), 'record', '--out', httpRec, '--target', server.match[1]!], /Point your client at (\S+)/);
      try {
        recordedOurs = await oursModernSession({ url: proxy.match[1]! });
        // The proxy sees the listen stream's socket close a moment after the client has closed: wait for
        // that note (bounded) before stopping the proxy, as a person would let the recorder catch up.
        const deadline = Date.now() + 10000;
        // Every listen stream's close (both clients opened one), not just the first to land.
        const count = (text: string, what: string) => text.split(what).length - 1;
        const allClosed = () => {
          const text = readFileSync(httpRec, 'utf8');
          return count(text, 'stream closed by client') >= Math.max(1, count(text, '"method":"subscriptions/listen"'));
        };
        while (!allClosed() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      } finally {
        await proxy.stop();
      }
    } finally {
      await server.stop();
    }
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('the sessions went through the recorders unchanged: rounds answered by the clients, listen notifications delivered', () => {
    for (const outcome of [recordedSdk, recordedOurs]) {
      expect(outcome.added).to.include('Added n4: "Dawn count" (high)');
      expect(outcome.summary).to.equal('n1 (test-model): Herons are nesting.');
      expect(outcome.asked).to.deep.equal(['elicitation', 'sampling']);
      expect(outcome.notifications).to.include('resources/updated notes://index');
    }
    expect(recordedSdk.notifications).to.include('resources/list_changed');
  });

  it('HTTP: one POST per request with its envelope and Mcp-* headers; rounds, listen stream and its closing journaled with the request they belong to', () => {
    const entries = lines(httpRec).slice(1);
    const first = entries.find((e) => e.frame?.method === 'tools/call' && e.frame.params.name === 'add_note');
    expect(first.http).to.include({ method: 'POST', path: '/mcp' });
    expect(first.http.sessionId).to.equal(undefined);
    expect(first.headers).to.include({ 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'add_note' });
    expect(first.frame.params._meta['io.modelcontextprotocol/protocolVersion']).to.equal('2026-07-28');
    const round = entries.find((e) => e.kind === 'out' && e.frame.id === first.frame.id);
    expect(round.frame.result.resultType).to.equal('input_required');
    expect(round.http.requestId).to.equal(first.frame.id);
    const retry = entries.find((e) => e.frame?.params?.requestState === round.frame.result.requestState);
    expect(retry.frame.id).to.not.equal(first.frame.id);
    expect(Object.keys(retry.frame.params.inputResponses)).to.deep.equal(Object.keys(round.frame.result.inputRequests));
    const listen = entries.find((e) => e.frame?.method === 'subscriptions/listen');
    const update = entries.find((e) => e.frame?.method === 'notifications/resources/updated');
    expect(update.http.requestId).to.equal(listen.frame.id);
    expect(update.frame.params._meta['io.modelcontextprotocol/subscriptionId']).to.equal(listen.frame.id);
    // Our client ends a listen stream over HTTP by closing it (no notifications/cancelled in this era's HTTP).
    expect(entries.some((e) => e.detail?.event === 'stream closed by client' && e.detail.requestId === listen.frame.id)).to.equal(true);
  });

  it('replay --as server (stdio): the SDK v2 client and ours get the recorded answers, through the mock\'s own rounds and a live listen stream', async () => {
    const sdk = await sdkV2Session(cli('replay', stdioRec, '--as', 'server'));
    expect(noProgress(sdk)).to.deep.equal(noProgress(recordedSdk));
    const ours = await oursModernSession(cli('replay', stdioRec, '--as', 'server'));
    expect({ ...noProgress(ours), notifications: [] }).to.deep.equal({ ...noProgress(recordedSdk), notifications: [] });
    expect(ours.progress).to.equal(1);
    expect(ours.notifications).to.include('resources/updated notes://index');
  });

  it('replay --as server --port (HTTP): both clients get the recorded answers, the listen notifications on their stream', async () => {
    const mock = await background([...tsArgs(CLI), 'replay', httpRec, '--as', 'server', '--port', '0'], /mock server at (\S+)/);
    try {
      const ours = await oursModernSession({ url: mock.match[1]! });
      expect(ours).to.deep.equal(recordedOurs);
      const sdk = await sdkV2Session({ url: mock.match[1]! });
      expect({ ...noProgress(sdk), notifications: [] }).to.deep.equal({ ...noProgress(recordedOurs), notifications: [] });
      expect(sdk.notifications).to.include('resources/updated notes://index');
    } finally {
      await mock.stop();
    }
  });

  it('replay --as client verifies both recordings against everything.ts: zero differences after normalization', async () => {
    const stdio = await runInProcess(['replay', stdioRec, '--as', 'client', '--', ...EVERYTHING_STDIO]);
    expect(stdio.stdout, stdio.stdout + stdio.stderr).to.match(/✓ #\d+ subscriptions\/listen \(notifications\)/);
    expect(stdio.stdout).to.match(/\d+ requests, no differences after normalization/);
    expect(stdio.code).to.equal(0);
    // A debounced list change that came twice when recorded (the server's timing) is one change.
    const doubled = join(dir, 'doubled.jsonl');
    const all = readFileSync(stdioRec, 'utf8').trim().split('\n');
    const change = all.findIndex((l) => l.includes('"method":"notifications/resources/list_changed"'));
    expect(change).to.be.greaterThan(0);
    writeFileSync(doubled, [...all.slice(0, change + 1), all[change]!.replace(/"seq":(\d+)/, (_m, n) => `"seq":${Number(n) + 0.5}`), ...all.slice(change + 1)].join('\n') + '\n');
    const again = await runInProcess(['replay', doubled, '--as', 'client', '--', ...EVERYTHING_STDIO]);
    expect(again.stdout, again.stdout + again.stderr).to.match(/\d+ requests, no differences after normalization/);
    const server = await everythingHttp();
    try {
      const http = await runInProcess(['replay', httpRec, '--as', 'client', '--url', server.match[1]!]);
      expect(http.stdout, http.stdout + http.stderr).to.match(/\d+ requests, no differences after normalization/);
      expect(http.code).to.equal(0);
    } finally {
      await server.stop();
    }
  });

  it('verify reports a changed round by JSON path: the answer given after the recorded elicitation differs', async () => {
    const changed = join(dir, 'changed.jsonl');
    writeFileSync(changed, readFileSync(stdioRec, 'utf8').replace('Added n4: \\"Dawn count\\" (high).', 'Added n4: \\"Dusk count\\" (high).'));
    const run = await runInProcess(['replay', changed, '--as', 'client', '--', ...EVERYTHING_STDIO]);
    expect(run.code).to.equal(1);
    expect(run.stdout).to.include('result.content[0].text');
    expect(run.stdout).to.include('Dusk count');
  });

  it('the mock hands out requestStates of its own: a tampered or the recorded one is refused -32602; its own continues the round it came from', async () => {
    const recordedState = lines(stdioRec).find((e) => e.frame?.result?.resultType === 'input_required')!.frame.result.requestState as string;
    const raw = await rawSession(cli('replay', stdioRec, '--as', 'server'));
    try {
      const args = { name: 'add_note', arguments: { body: 'Two otters at the weir.' } };
      const round = await raw.call('tools/call', args);
      const state = round.result.requestState as string;
      expect(round.result.resultType).to.equal('input_required');
      expect(state).to.be.a('string').and.not.equal(recordedState);
      const answers = { 'elicitation-1': { action: 'accept', content: { title: 'Dawn count', priority: 'high' } } };
      const tampered = await raw.call('tools/call', { ...args, inputResponses: answers, requestState: state + 'x' });
      expect(tampered.error.code).to.equal(-32602);
      const foreign = await raw.call('tools/call', { ...args, inputResponses: answers, requestState: recordedState });
      expect(foreign.error.code).to.equal(-32602);
      const other = await raw.call('tools/call', { ...args, inputResponses: { 'elicitation-1': { action: 'decline' } }, requestState: state });
      expect(other.error.message).to.include('params.inputResponses');
      const done = await raw.call('tools/call', { ...args, inputResponses: answers, requestState: state });
      expect(done.result.resultType).to.equal('complete');
      expect(done.result.content[0].text).to.equal('Added n4: "Dawn count" (high).');
    } finally {
      await raw.close();
    }
  });

  it('replay --check: both recordings pass the request and input-round machines; a state not echoed byte for byte, a notification before the acknowledgement and a server request are divergences', async () => {
    for (const file of [stdioRec, httpRec]) {
      const ok = await runInProcess(['replay', file, '--check']);
      expect(ok.stdout, ok.stdout + ok.stderr).to.match(/✓ \d+ entries through the session and request machines/);
      expect(ok.code).to.equal(0);
    }
    const text = readFileSync(stdioRec, 'utf8');
    const state = lines(stdioRec).find((e) => e.frame?.result?.resultType === 'input_required')!.frame.result.requestState as string;
    const retrySeq = lines(stdioRec).find((e) => e.frame?.params?.requestState === state)!.seq;
    const edited = join(dir, 'edited.jsonl');
    writeFileSync(edited, text.split('\n').map((l) => (l.includes(`"seq":${retrySeq},`) ? l.replace(state, state.slice(0, -2) + 'AA') : l)).join('\n'));
    const bad = await runInProcess(['replay', edited, '--check']);
    expect(bad.code).to.equal(1);
    expect(bad.stdout).to.include(`first divergent frame: #${retrySeq}: the client retried tools/call with a requestState the server never handed out`);
    const all = text.trim().split('\n');
    const ack = all.findIndex((l) => l.includes('notifications/subscriptions/acknowledged'));
    const update = all.findIndex((l) => l.includes('notifications/resources/updated'));
    const swapped = [...all];
    swapped.splice(ack, 0, swapped.splice(update, 1)[0]!);
    writeFileSync(edited, swapped.join('\n') + '\n');
    const early = await runInProcess(['replay', edited, '--check']);
    expect(early.stdout).to.match(/the server sent notifications\/resources\/updated on subscription "listen:0" before acknowledging it/);
    const asking = all.map((l) => l.replace('"method":"notifications/resources/list_changed","params"', '"id":"s1","method":"roots/list","params"'));
    writeFileSync(edited, asking.join('\n') + '\n');
    const request = await runInProcess(['replay', edited, '--check']);
    expect(request.stdout).to.include('the server sent a roots/list request; in revision 2026-07-28 servers send no requests');
  });

  it('inspect: no session, input-required rounds and retries named, the input-rounds machine at each point', async () => {
    const run = await runInProcess(['inspect', stdioRec]);
    expect(run.stdout).to.include('session machine: none (2026-07-28: no session)');
    expect(run.stdout).to.not.include('session machine → ');
    expect(run.stdout).to.match(/server → client {2}input_required #\d+ \(tools\/call\): elicitation-1 \+requestState/);
    expect(run.stdout).to.match(/client → server {2}tools\/call #\d+ add_note \(retry: elicitation-1\)/);
    expect(run.stdout).to.match(/input rounds of tools\/call #\d+ → answering/);
    expect(run.stdout).to.match(/input rounds of tools\/call #\d+ → complete/);
    const round = lines(stdioRec).find((e) => e.frame?.result?.resultType === 'input_required')!;
    const at = JSON.parse((await runInProcess(['inspect', stdioRec, '--at', String(round.seq), '--json'])).stdout);
    expect(at.session).to.equal('none (2026-07-28: no session)');
    expect(at.requests).to.deep.include({ id: String(round.frame.id), method: 'tools/call', from: 'client', state: 'settled', rounds: 'answering' });
    expect(at.requests.find((r: { method: string }) => r.method === 'subscriptions/listen').state).to.equal('active.pending');
  });
});

describe('mcp-actors in the 2026-07-28 era against the official SDK v2 server', function () {
  this.timeout(120000);
  const SDK_SERVER = [process.execPath, ...tsArgs('spec/fixtures/client-modern/sdk-v2-server.ts')];
  let dir: string;
  let rec: string;
  let recorded: string[];
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcp-modern-sdk-'));
    rec = join(dir, 'sdk-server.jsonl');
    recorded = await sdkServerSession('ours', cli('record', '--out', rec, '--', ...SDK_SERVER, '--stdio'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('records our client with the SDK v2 server (its own requestState, a sampling round without one)', () => {
    expect(recorded[1]).to.equal('delete: confirmed (state pending:delete)');
    expect(recorded[2]).to.equal(`summary by test-model: ${SAMPLED}`);
    const rounds = lines(rec).filter((e) => e.frame?.result?.resultType === 'input_required');
    expect(rounds.map((e) => typeof e.frame.result.requestState)).to.deep.equal(['string', 'undefined']);
  });

  it('verifies the recording against the SDK v2 server over stdio and over HTTP: zero differences after normalization', async () => {
    const stdio = await runInProcess(['replay', rec, '--as', 'client', '--', ...SDK_SERVER, '--stdio']);
    expect(stdio.stdout, stdio.stdout + stdio.stderr).to.match(/\d+ requests, no differences after normalization/);
    const server = await background([...tsArgs('spec/fixtures/client-modern/sdk-v2-server.ts')], /URL (\S+)/);
    try {
      const http = await runInProcess(['replay', rec, '--as', 'client', '--url', server.match[1]!]);
      expect(http.stdout, http.stdout + http.stderr).to.match(/\d+ requests, no differences after normalization/);
    } finally {
      await server.stop();
    }
  });

  it('serves the recording to the SDK v2 client as a mock: the same answers, the round without a state continued by its answers', async () => {
    expect(await sdkServerSession('sdk', cli('replay', rec, '--as', 'server'))).to.deep.equal(recorded);
  });
});
