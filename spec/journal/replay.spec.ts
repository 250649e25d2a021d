import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import { Client } from '../../lib/entries/client.js';
import { McpError } from '../../lib/errors.js';
import { ManualClock } from '../../lib/clock.js';
import { Journal } from '../../lib/journal/journal.js';
import { replay } from '../../lib/journal/replay.js';
import { Server } from '../../lib/server.js';
import { createMemoryPair } from '../../streams/memory.js';
import { createStdioClientTransport } from '../../streams/stdio-client.js';
import { CLIENT_INFO, SERVER_INFO, settle } from '../helpers/raw-peer.js';
import { tsArgs } from '../helpers/ts-child.js';

const echoServer = fileURLToPath(new URL('../../examples/echo-server.ts', import.meta.url));

describe('journal and replay', () => {
  it('writes versioned JSONL: a header with format, version, role and revision, then stamped entries', async () => {
    const [a, b] = createMemoryPair();
    await new Server({ info: SERVER_INFO }).connect(a);
    const client = new Client({ era: 'legacy', info: CLIENT_INFO, journal: true, supportedVersions: ['2025-06-18'] });
    await client.connect(b);
    await client.ping();
    const lines = client.journal!.toJSONL().trim().split('\n').map((l) => JSON.parse(l));
    expect(lines[0]).to.include({ format: 'mcp-actors/journal', version: 1, role: 'client', revision: '2025-06-18' });
    const seqs = lines.slice(1).map((e) => e.seq);
    expect(seqs).to.deep.equal([...seqs].sort((x, y) => x - y));
    expect(new Set(seqs).size).to.equal(seqs.length);
    expect(lines.slice(1).map((e) => e.kind)).to.include.members(['transport', 'out', 'in', 'call']);
    const back = Journal.parse(client.journal!.toJSONL());
    expect(back.entries).to.deep.equal(client.journal!.entries);
  });

  it('refuses a journal of another format or version with a clear error', () => {
    expect(() => Journal.parse('{"format":"other"}\n')).to.throw(/Not an mcp-actors journal/);
    expect(() => Journal.parse('{"format":"mcp-actors/journal","version":99}\n')).to.throw(/Unsupported journal version 99/);
    expect(() => Journal.parse('{"format":"mcp-actors/journal","version":1}\nnot json\n')).to.throw(/line 2/);
  });

  it('replays a client session with a timeout, a cancellation and progress to the same frames (memory, manual clock)', async () => {
    const clock = new ManualClock(5000);
    const [a, b] = createMemoryPair();
    const server = new Server({ info: SERVER_INFO, capabilities: { tools: {} }, clock });
    const release: (() => void)[] = [];
    server.onRequest('tools/call', async (p, ctx) => {
      if ((p as any).name === 'slow') {
        for (let i = 1; i <= 3; i++) {
          await new Promise<void>((r) => release.push(r));
          ctx.sendProgress(i, 3);
        }
        return { content: [{ type: 'text', text: 'done' }] };
      }
      return new Promise(() => {});
    });
    await server.connect(a);
    const client = new Client({ era: 'legacy', info: CLIENT_INFO, clock, journal: true });
    await client.connect(b);
    const slow = client.request('tools/call', { name: 'slow' }, { timeout: 1000, resetTimeoutOnProgress: true });
    await settle();
    for (let i = 0; i < 3; i++) {
      clock.advance(700);
      release.shift()!();
      await settle();
    }
    await slow;
    const timedOut = client.request('tools/call', { name: 'hang' }, { timeout: 300 });
    await settle();
    clock.advance(300);
    await timedOut.catch(() => {});
    const ac = new AbortController();
    const cancelled = client.request('tools/call', { name: 'hang' }, { signal: ac.signal });
    await settle();
    clock.advance(10);
    ac.abort('stop');
    await cancelled.catch(() => {});
    await client.close();

    const result = await replay(client.journal!.toJSONL());
    expect(result.recorded.map((f: any) => f.method ?? 'response')).to.deep.equal([
      'initialize',
      'notifications/initialized',
      'tools/call',
      'tools/call',
      'notifications/cancelled',
      'tools/call',
      'notifications/cancelled',
    ]);
    expect(result.firstDifference).to.equal(undefined);
    expect(result.matches).to.equal(true);
    expect(result.session.currentPhase).to.equal('closed');
  });

  it('detects a difference: a replay with other options does not match', async () => {
    const [a, b] = createMemoryPair();
    await new Server({ info: SERVER_INFO }).connect(a);
    const client = new Client({ era: 'legacy', info: CLIENT_INFO, journal: true });
    await client.connect(b);
    await client.ping();
    const journal = Journal.parse(client.journal!.toJSONL());
    journal.session!.info = { name: 'someone-else', version: '9' };
    const result = await replay(journal);
    expect(result.matches).to.equal(false);
    expect(result.firstDifference!.index).to.equal(0);
  });

  it('replays a server session (handlers supplied by setup) to the same frames', async () => {
    const [a, b] = createMemoryPair();
    const server = new Server({ info: SERVER_INFO, capabilities: { tools: {} }, journal: true });
    const handler = (p: any, ctx: any) => {
      ctx.sendProgress(1, 2);
      return { content: [{ type: 'text', text: String(p.arguments.text).toUpperCase() }] };
    };
    server.onRequest('tools/call', handler);
    const session = await server.connect(a);
    const client = new Client({ era: 'legacy', info: CLIENT_INFO });
    await client.connect(b);
    await client.request('tools/call', { name: 'up', arguments: { text: 'abc' } }, { onprogress: () => {} });
    await client.request('nope/nope').catch(() => {});
    await client.close();
    await settle();
    const result = await replay(session.journal!.toJSONL(), { setup: (s) => s.onRequest('tools/call', handler) });
    expect(result.recorded.length).to.be.greaterThan(3);
    expect(result.matches).to.equal(true);
  });

  it('records a real stdio session (progress, timeout, cancellation) and the replay emits the same frames', async function () {
    this.timeout(30_000);
    const transport = createStdioClientTransport({ command: process.execPath, args: [...tsArgs(echoServer)], stderr: 'pipe' });
    const client = new Client({ era: 'legacy', info: CLIENT_INFO, journal: true });
    await client.connect(transport);
    const progress: number[] = [];
    await client.request('tools/call', { name: 'slow', arguments: { steps: 3, delayMs: 5 } }, { onprogress: (p) => progress.push(p.progress) });
    expect(progress).to.deep.equal([1, 2, 3]);
    // A real timeout: the server never answers "hang" until cancelled.
    const timedOut = await client.request('tools/call', { name: 'hang' }, { timeout: 100 }).then(() => null, (e) => e);
    expect(timedOut.name).to.equal('RequestTimeoutError');
    const ac = new AbortController();
    const pending = client.request('tools/call', { name: 'hang' }, { signal: ac.signal });
    await client.ping();
    ac.abort('stop');
    expect((await pending.then(() => null, (e) => e)).name).to.equal('RequestCancelledError');
    await client.close();

    const journal = client.journal!;
    expect(journal.entries.some((e) => e.kind === 'timer')).to.equal(true);
    const result = await replay(journal.toJSONL());
    expect(result.firstDifference).to.equal(undefined);
    expect(result.outbound.length).to.equal(result.recorded.length);
    expect(result.recorded.filter((f: any) => f.method === 'notifications/cancelled')).to.have.length(2);
  });
});

describe('journal and replay: user decisions', () => {
  it('replays a client whose user answered sampling requests, with no handler: the recorded answers stand in', async () => {
    const [a, b] = createMemoryPair();
    const server = new Server({ info: SERVER_INFO, capabilities: { tools: {} } });
    server.onRequest('tools/call', async (_p, ctx) => {
      const first = await ctx.sendRequest('sampling/createMessage', { messages: [{ role: 'user', content: { type: 'text', text: 'one?' } }], maxTokens: 5 });
      const second = await ctx.sendRequest('sampling/createMessage', { messages: [{ role: 'user', content: { type: 'text', text: 'two?' } }], maxTokens: 5 }).catch((e) => ({ refused: e.message }));
      return { content: [{ type: 'text', text: JSON.stringify([first, second]) }] };
    });
    await server.connect(a);
    const client = new Client({ era: 'legacy', info: CLIENT_INFO, journal: true });
    // A person's decisions: the first answer is typed in, the second is refused.
    let asked = 0;
    client.onRequest('sampling/createMessage', () => {
      asked++;
      if (asked === 2) throw new McpError(-1, 'the user declined');
      return { role: 'assistant', content: { type: 'text', text: 'typed by a human' }, model: 'person' };
    });
    client.declareCapabilities({ sampling: {} });
    await client.connect(b);
    await client.request('tools/call', { name: 'ask' });
    await client.close();
    expect(asked).to.equal(2);

    const result = await replay(client.journal!.toJSONL());
    expect(result.firstDifference).to.equal(undefined);
    const answers = result.outbound.filter((f: any) => f.id !== undefined && !f.method);
    expect(answers).to.have.length(2);
    expect((answers[0] as any).result.content.text).to.equal('typed by a human');
    expect((answers[1] as any).error).to.deep.include({ code: -1, message: 'the user declined' });
    expect(asked).to.equal(2);
  });
});
