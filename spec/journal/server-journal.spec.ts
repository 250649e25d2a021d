// The server's journal: our client and our server, both `journal: true`, over stdio
// framing, real HTTP on 127.0.0.1 and the fetch handler; an elicitation and a sampling through
// input rounds (legacy: requests to the client), a cancelled call and a task. Both journals replay
// identical on the simulated clock, the server's through a server its factory builds; a sealed
// requestState never reaches the server's journal; a changed answer is named.
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { ManualClock } from '../../lib/clock.js';
import { listen, type Listening } from '../../lib/http/listen-port.js';
import { Journal } from '../../lib/journal/journal.js';
import { replay, ServerFactoryMissingError } from '../../lib/journal/replay.js';
import type { McpServer } from '../../lib/mcp-server.js';
import type { ServerSession } from '../../lib/server.js';
import { createMcpFetchHandler } from '../../lib/server-bindings/fetch-handler.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';
import { createStdioServerTransport } from '../../streams/stdio-server.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';
import type { Transport } from '../../streams/transport.js';
import { runInProcess } from '../cli/helpers.js';
import { askerServer } from '../fixtures/journal/asker.js';
import { scriptedRun } from '../fixtures/journal/scripted-run.js';

type Wire = 'stdio' | 'http' | 'fetch';

/** Serve `mcp` over `wire`; the client's end of it, and how to stop serving. */
async function serve(mcp: McpServer, wire: Wire): Promise<{ transport: Transport; close: () => Promise<void> }> {
  if (wire === 'stdio') {
    const up = new PassThrough();
    const down = new PassThrough();
    await mcp.connect(createStdioServerTransport({ stdin: up, stdout: down, redirectConsole: false }));
    return { transport: createStdioServerTransport({ stdin: down, stdout: up, redirectConsole: false }), close: async () => {} };
  }
  if (wire === 'http') {
    const http: Listening = await listen(createStreamableHttpHandler(mcp.server), { port: 0, logger: false });
    return { transport: createStreamableHttpClientTransport(http.url), close: () => http.close() };
  }
  const handler = createMcpFetchHandler(mcp);
  const fetch = (input: string | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    // A fetch runtime's request carries its Host header; one made here does not until it is sent.
    request.headers.set('host', '127.0.0.1');
    return handler(request);
  };
  return { transport: createStreamableHttpClientTransport('http://127.0.0.1/mcp', { fetch }), close: () => handler.close() };
}

/** The scripted run against the asker server with `journal: true` on both sides (2026-07-28: the server on the client's clock). */
async function recorded(era: 'modern' | 'legacy', wire: Wire, task = true) {
  const clock = new ManualClock(1_000);
  // Legacy: the server on a clock of its own. A session's journal records the timers the session
  // names, not those of the features around it, which the client's clock would fire when it moves.
  const mcp = askerServer({ clock: era === 'modern' ? clock : new ManualClock(1_000), journal: true });
  const sessions: ServerSession[] = [];
  mcp.sessions$.subscribe((s) => sessions.push(s));
  const served = await serve(mcp, wire);
  try {
    const { journal } = await scriptedRun(era, served.transport, clock, { task });
    return { client: journal, server: mcp.journal!, sessions };
  } finally {
    await served.close();
    await mcp.close();
  }
}

const factory = ({ clock }: { clock: import('../../lib/clock.js').Clock }) => askerServer({ clock, journal: true });

for (const wire of ['stdio', 'http', 'fetch'] as const) {
  describe(`server journal of 2026-07-28 requests over ${wire}`, () => {
    it('records input rounds, a cancelled call and a task; client and server journals replay identical', async () => {
      const { client, server } = await recorded('modern', wire);
      expect(server.header).to.include({ role: 'server', era: 'modern', version: 2, revision: '2026-07-28', redacted: true });
      const ins = server.entries.filter((e) => e.kind === 'in') as { frame: { method: string; params?: Record<string, unknown> } }[];
      const methods = ins.map((e) => e.frame.method);
      expect(methods).to.include.members(['tools/call', 'tasks/get']);
      // Each input round: the input_required answer with a placeholder, the retry carrying it back.
      const asked = server.entries.filter((e) => e.kind === 'out' && JSON.stringify(e.frame).includes('input_required'));
      expect(asked.map((e) => (e as { frame: { result: { requestState: string } } }).frame.result.requestState)).to.deep.equal(['<requestState #1>', '<requestState #2>']);
      const retries = ins.filter((e) => e.frame.params?.requestState !== undefined).map((e) => e.frame.params!.requestState);
      expect(retries).to.deep.equal(['<requestState #1>', '<requestState #2>']);
      expect(ins.some((e) => e.frame.params?.inputResponses !== undefined)).to.equal(true);
      // The sealed states the client received are nowhere in the server's journal.
      const sealed = client.entries.flatMap((e) => (e.kind === 'out' ? [(e.frame as { params?: { requestState?: string } }).params?.requestState] : [])).filter((s): s is string => s !== undefined);
      expect(sealed.length).to.equal(2);
      for (const token of sealed) expect(server.toJSONL()).to.not.include(token);
      // The slow call: the client went away, the request machine ended cancelled.
      expect(server.entries.some((e) => e.kind === 'cancel')).to.equal(true);
      const states = server.entries.filter((e) => e.kind === 'state').map((e) => (e as { state: string }).state);
      expect(states).to.include.members(['inputRequired', 'answered', 'cancelled']);
      // Every request ends in a final state, those answered without a handler too (server/discover, tasks/get).
      const ended = new Map(server.entries.flatMap((e) => (e.kind === 'state' ? [[e.rq, e.state] as const] : [])));
      const rqs = [...new Set(ins.map((e) => (e as { rq?: number }).rq))];
      expect(rqs.map((rq) => [rq, methods[rqs.indexOf(rq)], ended.get(rq!)]).filter(([, , state]) => !['answered', 'inputRequired', 'failed', 'cancelled'].includes(state as string))).to.deep.equal([]);

      const clientReplay = await replay(client.toJSONL());
      expect(clientReplay.firstDifference).to.equal(undefined);
      expect(clientReplay.matches).to.equal(true);
      const serverReplay = await replay(server.toJSONL(), { server: factory });
      expect(serverReplay.firstDifference).to.equal(undefined);
      expect(serverReplay.matches).to.equal(true);
      expect(serverReplay.outbound.length).to.equal(serverReplay.recorded.length).and.to.be.greaterThan(6);
    });

    // The task's status notification is the server's own doing (derived, not journaled as a call):
    // the replaying server sends it as its task ends, once.
    it('the same scenario in the legacy era: client and server session journals replay identical', async () => {
      const { client, server, sessions } = await recorded('legacy', wire);
      expect(server.entries.length, 'no 2026-07-28 request').to.equal(0);
      const journals = sessions.map((s) => s.journal!).filter((j) => j.entries.some((e) => e.kind === 'in'));
      expect(journals.length).to.equal(1);
      const clientReplay = await replay(client.toJSONL());
      expect(clientReplay.firstDifference).to.equal(undefined);
      expect(clientReplay.matches).to.equal(true);
      // Through a server the factory builds: its handlers run again, the client's answers given as recorded.
      const serverReplay = await replay(journals[0]!.toJSONL(), { server: factory });
      expect(serverReplay.firstDifference, JSON.stringify(serverReplay.firstDifference)).to.equal(undefined);
      expect(serverReplay.matches).to.equal(true);
      expect(serverReplay.compared).to.be.greaterThanOrEqual(5);
    });
  });
}

describe('server journal replay', () => {
  it('names the first entry of a tampered server journal (a changed answer)', async () => {
    const { server } = await recorded('modern', 'stdio');
    const j = Journal.parse(server.toJSONL());
    const entry = j.entries.find((e) => e.kind === 'out' && JSON.stringify(e.frame).includes('hi Ada'))!;
    expect(entry, 'the answer to the elicitation round').to.not.equal(undefined);
    (entry as { frame: unknown }).frame = JSON.parse(JSON.stringify((entry as { frame: unknown }).frame).replace('hi Ada', 'hi Eve'));
    const result = await replay(j.toJSONL(), { server: factory });
    expect(result.matches).to.equal(false);
    expect(result.firstDifference).to.include({ seq: entry.seq });
    expect(JSON.stringify(result.firstDifference!.replayed)).to.include('hi Ada');
  });

  it('says what it needs without a factory, and keeps the option to server journals', async () => {
    const { client, server } = await recorded('modern', 'stdio');
    let thrown: unknown;
    await replay(server).catch((e: unknown) => (thrown = e));
    expect(thrown).to.be.instanceOf(ServerFactoryMissingError);
    expect((thrown as Error).message).to.include('server: ({ clock })');
    await replay(client, { server: factory }).then(
      () => expect.fail('a client journal has no server to rebuild'),
      (e: unknown) => expect((e as Error).message).to.include('client journal'),
    );
  });
});

describe('mcp-actors inspect and replay --check on a server journal of 2026-07-28 requests', () => {
  let dir: string;
  let file: string;
  let server: Journal;
  const factoryModule = fileURLToPath(new URL('../fixtures/journal/asker-factory.ts', import.meta.url));
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'server-journal-cli-'));
    ({ server } = await recorded('modern', 'stdio'));
    file = join(dir, 'server.jsonl');
    writeFileSync(file, server.toJSONL());
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('inspect shows the requests, the cancelled one and each request machine\'s final state', async () => {
    const run = await runInProcess(['inspect', file, '--no-color']);
    expect(run.code, run.stderr).to.equal(0);
    expect(run.stdout).to.include('server journal (2026-07-28 requests)');
    expect(run.stdout).to.match(/cancel +request \d+ cancelled: enough/);
    expect(run.stdout).to.match(/state +request \d+ inputRequired/);
    expect(run.stdout).to.include('+requestState');
  });

  it('replay --check re-runs it through the --factory server (exit 0), names a changed answer (exit 1), and asks for the factory without one (exit 2)', async () => {
    const ok = await runInProcess(['replay', file, '--check', '--factory', factoryModule, '--no-color']);
    expect(ok.code, ok.stdout + ok.stderr).to.equal(0);
    expect(ok.stdout).to.include('frames and request states identical');
    const j = Journal.parse(server.toJSONL());
    const changed = j.entries.find((e) => e.kind === 'out' && JSON.stringify(e.frame).includes('hi Ada'))!;
    (changed as { frame: unknown }).frame = JSON.parse(JSON.stringify((changed as { frame: unknown }).frame).replace('hi Ada', 'hi Eve'));
    const bad = join(dir, 'changed.jsonl');
    writeFileSync(bad, j.toJSONL());
    const run = await runInProcess(['replay', bad, '--check', '--factory', factoryModule, '--no-color']);
    expect(run.code).to.equal(1);
    expect(run.stdout).to.include(`recorded entry #${changed.seq}`);
    const none = await runInProcess(['replay', file, '--check', '--no-color']);
    expect(none.code).to.equal(2);
    expect(none.stderr).to.include('--factory MODULE');
  });
});

describe('mcp-actors inspect and replay --check on a legacy server session journal', () => {
  let dir: string;
  let file: string;
  const factoryModule = fileURLToPath(new URL('../fixtures/journal/asker-factory.ts', import.meta.url));
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'server-session-cli-'));
    const { sessions } = await recorded('legacy', 'stdio');
    const journal = sessions.map((s) => s.journal!).find((j) => j.entries.some((e) => e.kind === 'in'))!;
    file = join(dir, 'session.jsonl');
    writeFileSync(file, journal.toJSONL());
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('inspect prints its entries at times since the start; replay --check --factory runs its handlers again (exit 0)', async () => {
    const run = await runInProcess(['inspect', file, '--no-color']);
    expect(run.code, run.stderr).to.equal(0);
    expect(run.stdout).to.include('server session journal');
    expect(run.stdout).to.match(/^# +\d+ +\+\d+\.\d+ ms +server → client +elicitation\/create/m);
    const ok = await runInProcess(['replay', file, '--check', '--factory', factoryModule, '--no-color']);
    expect(ok.code, ok.stdout + ok.stderr).to.equal(0);
    expect(ok.stdout).to.match(/all \d+ frames identical/);
  });

  it('replay --check without --factory: the handlers\' own requests differ, and it says to give --factory (exit 1)', async () => {
    const run = await runInProcess(['replay', file, '--check', '--no-color']);
    expect(run.code).to.equal(1);
    expect(run.stdout).to.include('elicitation/create').and.to.include('give --factory MODULE');
  });
});
