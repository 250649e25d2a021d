/**
 * What `mcp-actors record` costs on the stdio echo (our Client → bench/servers/ours-stdio), by
 * way of recording; calls/s and the CPU time of everything involved (client, server and whatever
 * sits between) per 1,000 calls:
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
 * How, since on a small shared machine the spread between two runs of the same build is larger
 * than the effect measured: in each wave a fresh server (and recorder) per mode is started and
 * warmed, then the modes take turns with short blocks of calls (the order reversed every round),
 * so the machine's drift falls on all of them alike; a wave's overhead compares the medians of
 * its blocks. A process's own luck (where the scheduler puts it, what its JIT made) differs from
 * one start to the next by several percent, so the figure is the mean over many waves, with its
 * standard error.
 *
 *   npm run build && node dist/bench/record-overhead.js
 * Settings: RECORD_WAVES (10), RECORD_ROUNDS (8), RECORD_BLOCK (2000 calls), RECORD_WARM (1000
 * calls first), RECORD_MODES (direct,in-process,cat,pass-through,recorded; the first is the
 * base), RECORD_WINDOWS (1,64).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { cpuSpeedsLine } from './cpu-speeds.js';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '../lib/entries/client.js';
import { READ_EVERY_MS } from '../lib/cli/tap-handover.js';
import { createStdioClientTransport } from '../streams/stdio-client.js';

const WAVES = Number(process.env.RECORD_WAVES ?? 10);
const ROUNDS = Number(process.env.RECORD_ROUNDS ?? 8);
// Long enough that the recorder's work for a turn falls inside it: its worker journals every
// READ_EVERY_MS (100 ms), so at most the last 100 ms of a turn's frames are journaled after it.
const BLOCK = Number(process.env.RECORD_BLOCK ?? 2000);
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

/** One server (with its recorder) of a wave, warmed up, taking its turns. */
interface Instance {
  mode: Mode;
  client: Client;
  pid: number | undefined;
  out: string;
  /** Per block: ms, and CPU ms of the client, the server and whatever sits between. */
  ms: number[];
  cpu: number[];
}

async function start(mode: Mode): Promise<Instance> {
  const out = join(dir, `r-${Math.random().toString(36).slice(2)}.jsonl`);
  const spec = command(mode, out);
  const client = new Client({ info: { name: 'bench', version: '1' } });
  const transport = createStdioClientTransport({ command: spec.command, args: spec.args, inheritEnv: true, ...(spec.env && { env: spec.env }) });
  await client.connect(transport);
  // Warm up (the JIT compiles the recorder's code too).
  for (let i = 0; i < WARM; i++) await client.callTool('echo', { text: 'warm' });
  return { mode, client, pid: transport.pid, out, ms: [], cpu: [] };
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function block(x: Instance, window: number): Promise<void> {
  // The recorder journals what it has up to READ_EVERY_MS behind the wire: let the last turn's
  // tail land before this turn starts (not on another mode's turn), and this turn's before its CPU is read.
  await pause(READ_EVERY_MS + 20);
  const cpu0 = process.cpuUsage();
  const tree0 = treeCpuMs(x.pid);
  const start = performance.now();
  let next = 0;
  const caller = async () => {
    while (next < BLOCK) {
      next++;
      await x.client.callTool('echo', { text: 'hello' });
    }
  };
  await Promise.all(Array.from({ length: window }, caller));
  x.ms.push(performance.now() - start);
  const cpu = process.cpuUsage(cpu0);
  await pause(READ_EVERY_MS + 20);
  x.cpu.push((cpu.user + cpu.system) / 1000 + treeCpuMs(x.pid) - tree0);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const stderr = (xs: number[]) => (xs.length < 2 ? 0 : Math.sqrt(xs.reduce((a, b) => a + (b - mean(xs)) ** 2, 0) / (xs.length - 1) / xs.length));

console.log(`record overhead, stdio echo: ${WAVES} waves x ${ROUNDS} turns of ${BLOCK} calls per mode (fresh processes per wave, turns interleaved), node ${process.version}, load ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores`);
console.log(cpuSpeedsLine());
const windows = (process.env.RECORD_WINDOWS ?? '1,64').split(',').map(Number);
for (const window of windows) {
  const label = window === 1 ? 'sequential' : `pipelined (${window})`;
  const rates = new Map<Mode, number[]>(modes.map((m) => [m, []]));
  const cpus = new Map<Mode, number[]>(modes.map((m) => [m, []]));
  const lost = new Map<Mode, number[]>(modes.map((m) => [m, []]));
  const added = new Map<Mode, number[]>(modes.map((m) => [m, []]));
  let bytes = 0;
  for (let w = 0; w < WAVES; w++) {
    const wave: Instance[] = [];
    for (const m of modes) wave.push(await start(m));
    for (let r = 0; r < ROUNDS; r++) for (const x of r % 2 === 0 ? wave : [...wave].reverse()) await block(x, window);
    const base = wave[0]!;
    for (const x of wave) {
      rates.get(x.mode)!.push((BLOCK / median(x.ms)) * 1000);
      cpus.get(x.mode)!.push((median(x.cpu) / BLOCK) * 1000);
      lost.get(x.mode)!.push((1 - median(base.ms) / median(x.ms)) * 100);
      added.get(x.mode)!.push((median(x.cpu) / median(base.cpu) - 1) * 100);
      await x.client.close();
      if (x.mode === 'recorded' || x.mode === 'in-process') bytes = Math.max(bytes, statSync(x.out).size);
    }
  }
  console.log(`${label}: calls/s, throughput lost vs ${modes[0]} (mean of ${WAVES} waves ± standard error), CPU ms per 1000 calls of client + server + anything between (CPU added); journal ${(bytes / 1024).toFixed(0)} KB`);
  for (const m of modes) {
    const vs = (xs: number[]) => (m === modes[0] ? '' : `(${mean(xs) >= 0 ? '+' : ''}${mean(xs).toFixed(1)}% ± ${stderr(xs).toFixed(1)})`);
    console.log(`  ${m.padEnd(17)} ${median(rates.get(m)!).toFixed(0).padStart(6)}/s ${vs(lost.get(m)!).padEnd(16)}  ${median(cpus.get(m)!).toFixed(0).padStart(5)} ms CPU ${vs(added.get(m)!)}`);
  }
}
rmSync(dir, { recursive: true, force: true });
