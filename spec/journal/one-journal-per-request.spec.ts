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
