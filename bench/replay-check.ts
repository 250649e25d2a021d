/**
 * `mcp-actors replay --check` speed: a client session journal of CHECK_CALLS tool calls (recorded
 * in memory with `journal: true`), re-executed through our machines on the simulated clock.
 *
 *   npm run build && node dist/bench/replay-check.js      CHECK_CALLS (34000 → ~100,000 entries)
 */
import { pathToFileURL } from 'node:url';
import { Client } from '../lib/client.js';
import { replay } from '../lib/journal/replay.js';
import { Journal } from '../lib/journal/journal.js';
import { createMcpServer } from '../lib/mcp-server.js';
import { createMemoryPair } from '../streams/memory.js';
import { trackStates } from '../lib/cli/session-states.js';

const CALLS = Number(process.env.CHECK_CALLS ?? 34000);

/** A session journal with about 3 entries per call (call, out, in). */
export async function recordSession(calls: number): Promise<Journal> {
  const mcp = createMcpServer({ info: { name: 'bench', version: '1' } });
  mcp.registerTool('echo', { inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }, (args: { text?: string }) => String(args.text));
  const [a, b] = createMemoryPair();
  await mcp.connect(a);
  const client = new Client({ info: { name: 'bench-client', version: '1' }, journal: true });
  await client.connect(b);
  const window = 64;
  let next = 0;
  await Promise.all(
    Array.from({ length: window }, async () => {
      while (next < calls) {
        next++;
        await client.callTool('echo', { text: `hello ${next}` });
      }
    }),
  );
  await client.close();
  return client.journal!;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const journal = await recordSession(CALLS);
  const text = journal.toJSONL();
  const parsed = Journal.parse(text);
  const runs: number[] = [];
  for (let r = 0; r < 3; r++) {
    const start = performance.now();
    const result = await replay(parsed);
    const ms = performance.now() - start;
    await result.session.close();
    if (!result.matches) throw new Error(`replay diverged at frame ${result.firstDifference?.index}`);
    runs.push(parsed.entries.length / (ms / 1000));
  }
  runs.sort((x, y) => x - y);
  console.log(`replay --check: ${parsed.entries.length} entries, ${(text.length / 1e6).toFixed(1)} MB; median ${Math.round(runs[1]!)} entries/s (runs: ${runs.map(Math.round).join(', ')})`);
  // What --check does with a proxy recording (no session options): the lifecycle machines only.
  const lifecycle: number[] = [];
  for (let r = 0; r < 3; r++) {
    const start = performance.now();
    const tracker = trackStates({ role: parsed.role }, parsed.entries);
    lifecycle.push(parsed.entries.length / ((performance.now() - start) / 1000));
    if (tracker.problems.length) throw new Error(`lifecycle check flagged ${tracker.problems[0]!.message}`);
  }
  lifecycle.sort((x, y) => x - y);
  console.log(`replay --check (proxy recording, session and request machines): median ${Math.round(lifecycle[1]!)} entries/s`);
}
