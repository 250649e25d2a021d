/**
 * `mcp-actors replay --check` speed: a client session journal of CHECK_CALLS tool calls (recorded
 * in memory with `journal: true`), re-executed through our machines on the simulated clock, as the
 * CLI does it (frames compared as they come, none kept).
 *
 * Then the whole command as a person runs it, `node dist/lib/cli/main.js replay FILE --check` in a
 * child process, timed from spawn to exit (Node's start-up, loading the modules, reading and
 * parsing the file, re-executing, printing): CHECK_CLI_RUNS runs (default 5) of each CLI in
 * CHECK_CLI (comma-separated main.js paths, default this build's), interleaved, so a copy of an
 * older dist/ compares before and after in the same minutes. CPU time (user + system) is the
 * child's, from /usr/bin/time when it exists. CHECK_OUT=FILE keeps the journal there.
 *
 *   npm run build && node dist/bench/replay-check.js      CHECK_CALLS (34000 → ~100,000 entries)
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { cpuSpeedsLine } from './cpu-speeds.js';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '../lib/entries/client.js';
import { replay } from '../lib/journal/replay.js';
import { Journal } from '../lib/journal/journal.js';
import { createMcpServer } from '../lib/mcp-server.js';
import { createMemoryPair } from '../streams/memory.js';
import { trackStates } from '../lib/cli/session-states.js';

const CALLS = Number(process.env.CHECK_CALLS ?? 34000);
const CLI_RUNS = Number(process.env.CHECK_CLI_RUNS ?? 5);

/** One run of `replay FILE --check` in a child process: wall ms, and the child's CPU ms when /usr/bin/time can say. */
function runCli(main: string, file: string): { wall: number; cpu: number | undefined } {
  const time = existsSync('/usr/bin/time');
  const args = [process.execPath, main, 'replay', file, '--check'];
  const start = performance.now();
  const r = time ? spawnSync('/usr/bin/time', ['-f', 'cpu %U %S', ...args], { encoding: 'utf8' }) : spawnSync(args[0]!, args.slice(1), { encoding: 'utf8' });
  const wall = performance.now() - start;
  if (r.status !== 0 || !r.stdout.includes('frames identical')) throw new Error(`${main} replay --check failed (${r.status}): ${r.stdout}${r.stderr}`);
  const m = /cpu ([\d.]+) ([\d.]+)/.exec(r.stderr);
  return { wall, cpu: m ? (Number(m[1]) + Number(m[2])) * 1000 : undefined };
}

/** Each CLI `runs` times, round-robin; a line per CLI with medians. */
function timeCli(mains: string[], file: string, entries: number, runs: number): void {
  const results = new Map<string, { wall: number; cpu: number | undefined }[]>(mains.map((m) => [m, []]));
  const load0 = loadavg()[0]!;
  for (let r = 0; r < runs; r++) for (const main of mains) results.get(main)!.push(runCli(main, file));
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  for (const [main, rs] of results) {
    const wall = median(rs.map((x) => x.wall));
    const cpus = rs.flatMap((x) => (x.cpu === undefined ? [] : [x.cpu]));
    const cpu = cpus.length ? median(cpus) : undefined;
    console.log(
      `${main}: replay --check, whole command: median ${wall.toFixed(0)} ms wall (${rs.map((x) => x.wall.toFixed(0)).join(' / ')}), ${Math.round(entries / (wall / 1000))} entries/s end to end` +
        (cpu === undefined ? '' : `; median ${cpu.toFixed(0)} ms CPU (${Math.round(entries / (cpu / 1000))} entries per CPU-second)`),
    );
  }
  console.log(`load average ${load0.toFixed(1)} → ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores`);
  console.log(cpuSpeedsLine());
}

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

  const dir = mkdtempSync(join(tmpdir(), 'replay-check-'));
  const file = process.env.CHECK_OUT ?? join(dir, 'session.jsonl');
  writeFileSync(file, text);
  const mains = process.env.CHECK_CLI ? process.env.CHECK_CLI.split(',') : [fileURLToPath(new URL('../lib/cli/main.js', import.meta.url))];
  try {
    if (CLI_RUNS > 0) timeCli(mains, file, parsed.entries.length, CLI_RUNS);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
