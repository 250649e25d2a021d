// Journal and replay in both eras (issue 26): our client against our server (a tool that elicits,
// one that samples, a slow one the client cancels, a task), in memory, over a real stdio child
// and over real HTTP on 127.0.0.1; the journal replays to the same frames, input-round moves and
// call outcomes on the simulated clock, and a changed inbound frame is named.
import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import { Client } from '../../lib/client.js';
import { ManualClock } from '../../lib/clock.js';
import { listen, type Listening } from '../../lib/http/listen-port.js';
import { Journal } from '../../lib/journal/journal.js';
import { replay, UnreplayableJournalError } from '../../lib/journal/replay.js';
import type { McpServer } from '../../lib/mcp-server.js';
import { createMemoryPair } from '../../streams/memory.js';
import { createStdioClientTransport } from '../../streams/stdio-client.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';
import { askerServer } from '../fixtures/journal/asker.js';
import { scriptedRun } from '../fixtures/journal/scripted-run.js';
import { tsArgs } from '../helpers/ts-child.js';

const askerStdio = fileURLToPath(new URL('../fixtures/journal/asker-stdio.ts', import.meta.url));

function tamperedResult(journal: Journal, text: string): { jsonl: string; seq: number } {
  const j = Journal.parse(journal.toJSONL());
  const entry = j.entries.find((e) => e.kind === 'in' && 'frame' in e && JSON.stringify(e.frame).includes(text))!;
  expect(entry, `an inbound frame with ${text}`).to.not.equal(undefined);
  (entry as { frame: unknown }).frame = JSON.parse(JSON.stringify((entry as { frame: unknown }).frame).replace(text, 'hi Eve'));
  return { jsonl: j.toJSONL(), seq: entry.seq };
}

for (const era of ['modern', 'legacy'] as const) {
  describe(`journal and replay of our client against our server (${era} era)`, () => {
    let mcp: McpServer;
    let http: Listening | undefined;
    beforeEach(() => {
      mcp = askerServer();
    });
    afterEach(async () => {
      await http?.close();
      http = undefined;
      await mcp.close();
    });

    it(`in memory: elicitation, sampling, a cancelled call and a task replay to the same frames${era === 'modern' ? ', input rounds and outcomes' : ''}`, async () => {
      const [a, b] = createMemoryPair();
      await mcp.connect(a);
      const { journal } = await scriptedRun(era, b);
      const kinds = new Set(journal.entries.map((e) => e.kind));
      if (era === 'modern') {
        expect(journal.header).to.include({ version: 2, era: 'modern', revision: '2026-07-28' });
        expect([...kinds]).to.include.members(['call', 'out', 'in', 'answer', 'round', 'result']);
        const answers = journal.entries.filter((e) => e.kind === 'answer').map((e) => (e as { method: string }).method);
        expect(answers).to.deep.equal(['elicitation/create', 'sampling/createMessage']);
        expect(journal.entries.some((e) => e.kind === 'call' && e.op === 'abort')).to.equal(true);
        const retried = journal.entries.filter((e) => e.kind === 'out' && JSON.stringify(e.frame).includes('"requestState"'));
        expect(retried.length, 'retries with requestState').to.equal(2);
      } else {
        expect(journal.header).to.include({ version: 1 });
        expect(journal.header).to.not.have.property('era');
      }
      const result = await replay(journal.toJSONL());
      expect(result.firstDifference).to.equal(undefined);
      expect(result.matches).to.equal(true);
      expect(result.outbound.length).to.equal(result.recorded.length).and.to.be.greaterThan(8);
    });

    it('a journal whose inbound answer was changed replays matches: false, naming that entry', async () => {
      const [a, b] = createMemoryPair();
      await mcp.connect(a);
      const { journal } = await scriptedRun(era, b);
      if (era === 'legacy') {
        // A session's replay compares frames: the changed frame is the server's elicitation request (its id), which the answer echoes.
        const j = Journal.parse(journal.toJSONL());
        const asked = j.entries.find((e) => e.kind === 'in' && 'frame' in e && (e.frame as { method?: string }).method === 'elicitation/create') as { frame: { id: number } };
        asked.frame.id += 1000;
        const result = await replay(j.toJSONL());
        expect(result.matches).to.equal(false);
        expect(result.firstDifference).to.not.equal(undefined);
        return;
      }
      const { jsonl, seq } = tamperedResult(journal, 'hi Ada');
      const result = await replay(jsonl);
      expect(result.matches).to.equal(false);
      {
        // The client sends nothing different after it: the call's outcome shows the change.
        expect(result.firstDifference).to.include({ stream: 'result', after: seq });
        expect(JSON.stringify(result.firstDifference!.replayed)).to.include('hi Eve');
      }
    });

    it('over a real stdio child process: journal then replay identical', async () => {
      const transport = createStdioClientTransport({ command: process.execPath, args: [...tsArgs(askerStdio)], stderr: 'pipe' });
      const { journal } = await scriptedRun(era, transport);
      const result = await replay(journal.toJSONL());
      expect(result.firstDifference).to.equal(undefined);
      expect(result.matches).to.equal(true);
    });

    it('over real HTTP on 127.0.0.1: journal then replay identical', async () => {
      http = await listen(createStreamableHttpHandler(mcp.server), { port: 0, logger: false });
      const { journal } = await scriptedRun(era, createStreamableHttpClientTransport(http.url));
      if (era === 'modern') expect(journal.header.link).to.include({ http: true });
      const result = await replay(journal.toJSONL());
      expect(result.firstDifference).to.equal(undefined);
      expect(result.matches).to.equal(true);
    });
  });
}

describe('journal: true keeps the era the client would pick', () => {
  it('connects in 2026-07-28 to a modern server (the journal no longer forces initialize) and replays', async () => {
    const mcp = askerServer();
    const [a, b] = createMemoryPair();
    await mcp.connect(a);
    const client = new Client({ info: { name: 'journal-spec', version: '1' }, journal: true });
    await client.connect(b);
    expect(client.era).to.equal('modern');
    await client.listTools();
    await client.close();
    await mcp.close();
    expect((await replay(client.journal!)).matches).to.equal(true);
  });
});

describe('journal of a modern client with a listen stream', () => {
  it('records the listen filter, the stream and its notifications, and replays them to the same frames', async () => {
    const mcp = askerServer();
    const [a, b] = createMemoryPair();
    await mcp.connect(a);
    const clock = new ManualClock(0);
    const client = new Client({ info: { name: 'journal-spec', version: '1' }, journal: true, clock });
    await client.connect(b);
    const seen: string[][] = [];
    const sub = client.tools$.subscribe((tools) => seen.push(tools.map((t) => t.name)));
    for (let i = 0; i < 50 && seen.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
    mcp.registerTool('later', { description: 'added while listening' }, () => 'late');
    for (let i = 0; i < 100 && !seen.at(-1)?.includes('later'); i++) {
      await new Promise((r) => setTimeout(r, 5));
      clock.advance(100);
    }
    expect(seen.at(-1)).to.include('later');
    sub.unsubscribe();
    await client.close();
    await mcp.close();
    const journal = client.journal!;
    expect(journal.entries.some((e) => e.kind === 'call' && e.op === 'listen' && e.filter?.toolsListChanged === true)).to.equal(true);
    expect(journal.entries.some((e) => e.kind === 'in' && JSON.stringify((e as { frame?: unknown }).frame).includes('notifications/tools/list_changed'))).to.equal(true);
    const result = await replay(journal.toJSONL());
    expect(result.firstDifference).to.equal(undefined);
    expect(result.matches).to.equal(true);
  });
});

describe('journal: true against a server of the session era only', () => {
  it('journals the legacy session from initialize (the era probe left out) and replays it', async () => {
    // A scripted server of 2025-11-25: server/discover is an unknown method to it.
    const [a, b] = createMemoryPair();
    a.inbound$.subscribe((raw) => {
      const m = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { id?: number | string; method?: string };
      if (m.id === undefined) return;
      const answer =
        m.method === 'initialize'
          ? { result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'old', version: '1' } } }
          : m.method === 'ping'
            ? { result: {} }
            : { error: { code: -32601, message: 'Method not found' } };
      void a.send({ jsonrpc: '2.0', id: m.id, ...answer } as never);
    });
    const client = new Client({ info: { name: 'journal-spec', version: '1' }, journal: true, eraCache: false });
    await client.connect(b);
    expect(client.era).to.equal('legacy');
    await client.ping();
    await client.close();
    const journal = client.journal!;
    expect(journal.header).to.not.have.property('era');
    const methods = journal.entries.filter((e) => e.kind === 'out').map((e) => (e.frame as { method?: string }).method);
    expect(methods).to.not.include('server/discover');
    expect(methods[0]).to.equal('initialize');
    const result = await replay(journal.toJSONL());
    expect(result.firstDifference).to.equal(undefined);
    expect(result.matches).to.equal(true);
  });
});

describe('replay of a 2026-07-28 client journal written before the request era was journaled', () => {
  it('says why it cannot replay it instead of a silent mismatch', async () => {
    const text = [
      JSON.stringify({ format: 'mcp-actors/journal', version: 1, role: 'client', startedAt: 0, revision: '2026-07-28', session: { info: { name: 'c', version: '1' }, capabilities: {}, supportedVersions: ['2025-11-25'] } }),
      JSON.stringify({ seq: 0, t: 0, kind: 'transport', phase: 'open' }),
    ].join('\n');
    let err: unknown;
    await replay(text).catch((e: unknown) => (err = e));
    expect(err).to.be.instanceOf(UnreplayableJournalError);
    expect((err as Error).message).to.match(/no era header/);
  });
});

describe('frames$ of a journaling modern client', () => {
  it('shows each frame once (the journal holds the link frames too)', async () => {
    const mcp = askerServer();
    const [a, b] = createMemoryPair();
    await mcp.connect(a);
    const client = new Client({ info: { name: 'journal-spec', version: '1' }, journal: true });
    const seen: string[] = [];
    client.frames$.subscribe((f) => seen.push(`${f.direction} ${JSON.stringify(f.frame)}`));
    await client.connect(b);
    await client.listTools();
    await client.close();
    await mcp.close();
    const frames = client.journal!.entries.filter((e) => e.kind === 'in' || e.kind === 'out');
    expect(seen.length).to.equal(frames.length);
    expect(new Set(seen).size).to.equal(seen.length);
  });
});

describe('journal of a modern client: progress and a timeout over stdio', () => {
  it('records the timer that fired and the progress, and replays them to the same frames and outcomes', async () => {
    const echoServer = fileURLToPath(new URL('../../examples/echo-server.ts', import.meta.url));
    const transport = createStdioClientTransport({ command: process.execPath, args: [...tsArgs(echoServer)], stderr: 'pipe' });
    const client = new Client({ info: { name: 'journal-spec', version: '1' }, era: 'modern', journal: true });
    await client.connect(transport);
    const progress: number[] = [];
    await client.request('tools/call', { name: 'slow', arguments: { steps: 3 } }, { onprogress: (p) => progress.push(p.progress) });
    const timedOut = await client.request('tools/call', { name: 'hang' }, { timeout: 100 }).then(
      () => undefined,
      (e: Error) => e,
    );
    await client.close();
    expect(progress).to.deep.equal([1, 2, 3]);
    expect(timedOut?.name).to.equal('RequestTimeoutError');
    const journal = client.journal!;
    expect(journal.entries.some((e) => e.kind === 'timer')).to.equal(true);
    const result = await replay(journal.toJSONL());
    expect(result.firstDifference).to.equal(undefined);
    expect(result.matches).to.equal(true);
  });
});
