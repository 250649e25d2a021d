/**
 * `mcp-actors replay --check` speed: a client session journal of CHECK_CALLS tool calls (recorded
 * in memory with `journal: true`), re-executed through our machines on the simulated clock, as the
 * CLI does it (frames compared as they come, none kept).
 *
 *   npm run build && node dist/bench/replay-check.js      CHECK_CALLS (34000 → ~100,000 entries)
 */
import { availableParallelism, loadavg } from 'node:os';
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
  // Wall-clock rate (what the person sees; it falls with the machine's load) and the rate per
  // second of CPU this process used (steadier on a shared machine). The first run is the one the
  // CLI makes: a fresh process, nothing compiled yet.
  const rate = (ms: number) => Math.round(parsed.entries.length / (ms / 1000));
  const runs: { wall: number; cpu: number }[] = [];
  for (let r = 0; r < 4; r++) {
    const cpu0 = process.cpuUsage();
    const start = performance.now();
    const result = await replay(parsed, { keepFrames: false });
    const ms = performance.now() - start;
    const cpu = process.cpuUsage(cpu0);
    await result.session.close();
    if (!result.matches) throw new Error(`replay diverged at frame ${result.firstDifference?.index}`);
    runs.push({ wall: rate(ms), cpu: rate((cpu.user + cpu.system) / 1000) });
  }
  const warm = runs.slice(1).sort((x, y) => x.wall - y.wall)[1]!;
  console.log(
    `replay --check: ${parsed.entries.length} entries, ${(text.length / 1e6).toFixed(1)} MB; first run ${runs[0]!.wall} entries/s (${runs[0]!.cpu} per CPU-second), ` +
      `warm median ${warm.wall} entries/s (${warm.cpu} per CPU-second); load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores`,
  );
  // What --check does with a proxy recording (no session options): the lifecycle machines only.
  const lifecycle: number[] = [];
  for (let r = 0; r < 3; r++) {
    const start = performance.now();
    const tracker = trackStates({ role: parsed.role }, parsed.entries);
    lifecycle.push(rate(performance.now() - start));
    if (tracker.problems.length) throw new Error(`lifecycle check flagged ${tracker.problems[0]!.message}`);
  }
  console.log(`replay --check (proxy recording, session and request machines): first run ${lifecycle[0]} entries/s, median ${[...lifecycle].sort((x, y) => x - y)[1]} entries/s`);
}
