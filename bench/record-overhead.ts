/**
 * What `mcp-actors record` costs on the stdio echo (our Client → bench/servers/ours-stdio), by
 * way of recording, modes interleaved, overheads as the median of each run's ratio to the base
 * mode's run next to it; calls/s and the CPU time of everything involved (client, server and
 * whatever sits between) per 1,000 calls:
 *
 *   direct            the client spawns the server (the base)
 *   in-process        `record --in-process`: the recorder inside the server's process, no hop
 *   cat               `cat | server | cat`: the floor of any process in the path (two minimal
 *                     C forwarders, blocking read/write)
 *   pass-through      a Node.js process piping bytes both ways (what any Node proxy costs before
 *                     it records)
 *   pass-sync         the same, forwarding with synchronous writes to the pipes' fds
 *   recorded          `record`: the recording proxy
 *   recorded-devnull  the proxy writing its journal to /dev/null (what the disk costs)
 *
 * Sequential (one call at a time: a hop's extra pipe writes and wake-ups show fully) and
 * pipelined (64 in flight: throughput).
 *
 *   npm run build && node dist/bench/record-overhead.js
 * Settings: RECORD_CALLS (3000), RECORD_REPS (5), RECORD_WARM (1000 calls first),
 * RECORD_MODES (direct,in-process,cat,pass-through,recorded; the first is the base),
 * RECORD_WINDOWS (1,64).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '../lib/client.js';
import { createStdioClientTransport } from '../streams/stdio-client.js';

const CALLS = Number(process.env.RECORD_CALLS ?? 3000);
const REPS = Number(process.env.RECORD_REPS ?? 5);
const WARM = Number(process.env.RECORD_WARM ?? 1000);
const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
const execArgv = ext === '.ts' ? ['--import', 'tsx'] : [];
const SERVER = [...execArgv, here(`./servers/ours-stdio${ext}`)];
const CLI = [...execArgv, here(`../lib/cli/main${ext}`)];
const dir = mkdtempSync(join(tmpdir(), 'record-bench-'));

const PASS = [...execArgv, here(`./servers/pass-through${ext}`)];
const PASS_SYNC = [...execArgv, here(`./servers/pass-sync${ext}`)];

const MODES = ['direct', 'cat', 'pass-through', 'pass-sync', 'recorded', 'recorded-devnull', 'in-process'] as const;
type Mode = (typeof MODES)[number];
const modes = (process.env.RECORD_MODES?.split(',') ?? ['direct', 'in-process', 'cat', 'pass-through', 'recorded']) as Mode[];
for (const m of modes) if (!(MODES as readonly string[]).includes(m)) throw new Error(`RECORD_MODES: unknown mode ${m}; the modes are ${MODES.join(', ')}`);

function command(mode: Mode, out: string): { command: string; args: string[]; env?: Record<string, string> } {
  switch (mode) {
    case 'direct':
      return { command: process.execPath, args: SERVER };
    case 'cat': // the floor of any extra process in the path: two `cat`s, one per direction
      return { command: 'sh', args: ['-c', `cat | ${[process.execPath, ...SERVER].map((w) => `'${w}'`).join(' ')} | cat`] };
    case 'pass-through':
      return { command: process.execPath, args: [...PASS, process.execPath, ...SERVER] };
    case 'pass-sync':
      return { command: process.execPath, args: [...PASS_SYNC, process.execPath, ...SERVER] };
    case 'recorded':
      return { command: process.execPath, args: [...CLI, 'record', '--out', out, '--', process.execPath, ...SERVER] };
    case 'recorded-devnull': // the same, the journal thrown away: what the disk costs
      return { command: process.execPath, args: [...CLI, 'record', '--out', '/dev/null', '--', process.execPath, ...SERVER] };
    case 'in-process': // record --in-process: the recorder inside the server's process, no hop
      return { command: process.execPath, args: [...CLI, 'record', '--in-process', '--out', out, '--', process.execPath, ...SERVER] };
  }
}

/** CPU time (ms) of a process and all its descendants so far (Linux /proc; 0 elsewhere). */
function treeCpuMs(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    let ms = ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      for (const child of readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean)) ms += treeCpuMs(Number(child));
    }
    return ms;
  } catch {
    return 0;
  }
}

async function run(mode: Mode, window: number): Promise<{ perSec: number; bytes: number; cpuPer1000: number }> {
  const out = join(dir, `r-${Math.random().toString(36).slice(2)}.jsonl`);
  const recorded = mode === 'recorded' || mode === 'in-process';
  const spec = command(mode, out);
  const client = new Client({ info: { name: 'bench', version: '1' } });
  const transport = createStdioClientTransport({ command: spec.command, args: spec.args, inheritEnv: true, ...(spec.env && { env: spec.env }) });
  await client.connect(transport);
  // Warm up (the JIT compiles the recorder's batch code too), then measure.
  for (let i = 0; i < WARM; i++) await client.callTool('echo', { text: 'warm' });
  await new Promise((r) => setTimeout(r, 50));
  const start = performance.now();
  const cpu0 = process.cpuUsage();
  const tree0 = treeCpuMs(transport.pid);
  let next = 0;
  const worker = async () => {
    while (next < CALLS) {
      next++;
      await client.callTool('echo', { text: 'hello' });
    }
  };
  await Promise.all(Array.from({ length: window }, worker));
  const ms = performance.now() - start;
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1000 + treeCpuMs(transport.pid) - tree0;
  await client.close();
  const bytes = recorded ? statSync(out).size : 0;
  return { perSec: (CALLS / ms) * 1000, bytes, cpuPer1000: (cpuMs / CALLS) * 1000 };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`record overhead, stdio echo, ${CALLS} calls x ${REPS} runs (median, modes interleaved), node ${process.version}, load ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores`);
const windows = (process.env.RECORD_WINDOWS ?? '1,64').split(',').map(Number);
for (const window of windows) {
  const label = window === 1 ? 'sequential' : `pipelined (${window})`;
  const rates = new Map<Mode, number[]>(modes.map((m) => [m, []]));
  const cpus = new Map<Mode, number[]>(modes.map((m) => [m, []]));
  let bytes = 0;
  for (let r = 0; r < REPS; r++) {
    for (const mode of modes) {
      const x = await run(mode, window);
      rates.get(mode)!.push(x.perSec);
      cpus.get(mode)!.push(x.cpuPer1000);
      if (x.bytes) bytes = x.bytes;
    }
  }
  // Overheads are medians of each run's ratio to the base run next to it (paired: the machine's
  // load drifts less between two neighbouring runs than over the whole bench).
  const paired = (series: Map<Mode, number[]>, m: Mode, lost: boolean) =>
    median(series.get(m)!.map((v, i) => {
      const b = series.get(modes[0]!)![i]!;
      return lost ? ((b - v) / b) * 100 : ((v - b) / b) * 100;
    }));
  console.log(`${label}: calls/s (throughput lost vs ${modes[0]}), CPU ms per 1000 calls, client + server + anything between (CPU added vs ${modes[0]}); journal ${(bytes / 1024).toFixed(0)} KB`);
  for (const m of modes) {
    const vs = (x: number) => (m === modes[0] ? '' : ` (${x >= 0 ? '+' : ''}${x.toFixed(1)}%)`);
    console.log(`  ${m.padEnd(17)} ${median(rates.get(m)!).toFixed(0).padStart(6)}/s${vs(paired(rates, m, true)).padEnd(10)}  ${median(cpus.get(m)!).toFixed(0).padStart(5)} ms CPU${vs(paired(cpus, m, false))}`);
  }
}
rmSync(dir, { recursive: true, force: true });
