// One journal per request (issue 26): a 2026-07-28 server on a session's transport (in memory,
// stdio framing) with `journal: true` keeps each frame of a modern request once, in its request
// journal (`server.journal`, the one that replays it), not again in the session's journal; the
// session's `frames$` still shows every frame, and the request journal still replays identical.
import { expect } from 'chai';
import { PassThrough } from 'node:stream';
import { Client } from '../../lib/client.js';
import { ManualClock, type Clock } from '../../lib/clock.js';
import { replay } from '../../lib/journal/replay.js';
import { createMcpServer } from '../../lib/mcp-server.js';
import type { ServerSession } from '../../lib/server.js';
import { createStdioServerTransport } from '../../streams/stdio-server.js';
import { createMemoryPair } from '../../streams/memory.js';
import type { Transport } from '../../streams/transport.js';

function echoServer(clock: Clock, journal: true | { redact: false } = true) {
  const mcp = createMcpServer({ info: { name: 'echo', version: '1' }, clock, journal });
  mcp.registerTool('echo', { description: 'echo' }, (args, ctx) => {
    ctx.progress(1, 2);
    return String(args.text);
  });
  return mcp;
}

/** The server's end and the client's end of `wire`. */
function wires(wire: 'memory' | 'stdio'): [Transport, Transport] {
  if (wire === 'memory') return createMemoryPair();
  const up = new PassThrough();
  const down = new PassThrough();
  return [createStdioServerTransport({ stdin: up, stdout: down, redirectConsole: false }), createStdioServerTransport({ stdin: down, stdout: up, redirectConsole: false })];
}

for (const [wire, journal] of [['memory', true], ['stdio', true], ['memory', { redact: false }]] as const) {
  describe(`one journal per 2026-07-28 request on a session's transport (${wire}, journal ${JSON.stringify(journal)})`, () => {
    it('each call adds its request, its answer and its end to the server journal only; that journal replays identical', async () => {
      const clock = new ManualClock(1_000);
      const mcp = echoServer(clock, journal);
      const sessions: ServerSession[] = [];
      mcp.sessions$.subscribe((s) => sessions.push(s));
      const [server, client] = wires(wire);
      await mcp.connect(server);
      const c = new Client({ info: { name: 'spec', version: '1' }, era: 'modern', clock, eraCache: false });
      await c.connect(client);
      const frames: unknown[] = [];
      sessions[0]!.frames$.subscribe((f) => frames.push(f.frame));
      const kept = () => mcp.journal!.size + sessions[0]!.journal!.size;
      const before = kept();
      const CALLS = 5;
      let progressed = 0;
      for (let i = 0; i < CALLS; i++) await c.callTool('echo', { text: `t${i}` }, { onprogress: () => progressed++ });
      expect(progressed).to.equal(CALLS);
      // in, out (its progress), out (the answer), state: 4 entries per call, in the journal that replays them.
      expect((kept() - before) / CALLS).to.equal(4);
      expect(sessions[0]!.journal!.entries.filter((e) => e.kind === 'in' || e.kind === 'out')).to.deep.equal([]);
      // Nothing hidden from those who watch the session's frames.
      expect(frames.length).to.equal(3 * CALLS);
      await c.close();
      await mcp.close();
      const result = await replay(mcp.journal!.toJSONL(), { server: ({ clock }) => echoServer(clock) });
      expect(result.firstDifference, JSON.stringify(result.firstDifference)).to.equal(undefined);
      expect(result.matches).to.equal(true);
      expect(result.compared).to.be.greaterThanOrEqual(3 * CALLS);
    });
  });
}

describe("a session's journal around 2026-07-28 requests another journal keeps", () => {
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
  const frames = [
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'a' }, _meta: { ...meta, progressToken: 'p' } } },
    // Claims the era but is no request (a JSON-RPC version this server does not speak): refused by the session, kept by it.
    { jsonrpc: '1.0', id: 2, method: 'tools/call', params: { name: 'echo', _meta: meta } },
    // No claim: the session's own.
    { jsonrpc: '2.0', id: 3, method: 'tools/list' },
    { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'echo', arguments: { text: 'b' }, _meta: meta } },
  ];

  for (const watched of [false, true]) {
    it(`keeps what it shows on journal$ but the modern requests' frames, in order, with their seq (journal$ ${watched ? 'watched' : 'unwatched'})`, async () => {
      const clock = new ManualClock(1_000);
      const mcp = echoServer(clock);
      const sessions: ServerSession[] = [];
      mcp.sessions$.subscribe((s) => sessions.push(s));
      const [server, client] = createMemoryPair();
      await mcp.connect(server);
      const shown: { kind: string; seq: number; frame?: unknown }[] = [];
      if (watched) sessions[0]!.journal$.subscribe((e) => shown.push(e as (typeof shown)[number]));
      const answers: { id?: unknown; method?: string }[] = [];
      client.inbound$.subscribe((f) => answers.push(f as (typeof answers)[number]));
      await client.start();
      for (const f of frames) client.send(f as never);
      for (let i = 0; i < 50 && answers.filter((a) => a.id !== undefined).length < 4; i++) await new Promise((r) => setImmediate(r));
      expect(answers.map((a) => a.id ?? a.method)).to.have.members(['notifications/progress', 1, 2, 3, 4]);

      const kept = sessions[0]!.journal!.entries.filter((e) => e.kind === 'in' || e.kind === 'out') as { kind: string; seq: number; frame: { id?: unknown; method?: string } }[];
      // The refused claim and the claim-less request, each with its answer; none of the modern requests' four frames.
      expect(kept.map((e) => [e.kind, e.frame.id])).to.deep.equal([['in', 2], ['out', 2], ['in', 3], ['out', 3]]);
      // Each modern frame spent its seq (shown on journal$, or as if shown): the seqs read as they always did.
      expect(kept.map((e) => e.seq)).to.deep.equal([3, 4, 5, 6]);
      expect(mcp.journal!.entries.filter((e) => e.kind === 'in').map((e) => (e as { frame: { id: number } }).frame.id)).to.deep.equal([1, 4]);
      if (watched) {
        const modern = (e: (typeof shown)[number]) => [1, 4].includes((e.frame as { id?: number; params?: { progressToken?: string } } | undefined)?.id ?? -1) || (e.frame as { method?: string } | undefined)?.method === 'notifications/progress';
        // Every frame shown, the modern ones too (in, its progress, 2's and 3's, in, the two answers).
        expect(shown.map((e) => e.seq)).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 8, 9]);
        expect(kept).to.deep.equal(shown.filter((e) => !modern(e)));
      }
      await client.close();
      await mcp.close();
    });
  }
});
