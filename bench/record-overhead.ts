/**
 * What `mcp-actors record` costs: the stdio echo (our Client → bench/servers/ours-stdio) direct,
 * and through the recording proxy (`record --out tmp -- <server>`), interleaved, median of runs.
 * Sequential (one call at a time: the proxy's two extra pipe hops per round trip show fully) and
 * pipelined (64 in flight: throughput).
 *
 *   npm run build && node dist/bench/record-overhead.js
 * Settings: RECORD_CALLS (3000), RECORD_REPS (5).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '../lib/client.js';
import { createStdioClientTransport } from '../streams/stdio-client.js';

const CALLS = Number(process.env.RECORD_CALLS ?? 3000);
const REPS = Number(process.env.RECORD_REPS ?? 5);
const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
const execArgv = ext === '.ts' ? ['--import', 'tsx'] : [];
const SERVER = [...execArgv, here(`./servers/ours-stdio${ext}`)];
const CLI = [...execArgv, here(`../lib/cli/main${ext}`)];
const dir = mkdtempSync(join(tmpdir(), 'record-bench-'));

const PASS = [...execArgv, here(`./servers/pass-through${ext}`)];

type Mode = 'direct' | 'pass-through' | 'recorded';

async function run(mode: Mode, window: number): Promise<{ perSec: number; bytes: number }> {
  const out = join(dir, `r-${Math.random().toString(36).slice(2)}.jsonl`);
  const recorded = mode === 'recorded';
  const args = recorded ? [...CLI, 'record', '--out', out, '--', process.execPath, ...SERVER] : mode === 'pass-through' ? [...PASS, process.execPath, ...SERVER] : SERVER;
  const client = new Client({ info: { name: 'bench', version: '1' } });
  await client.connect(createStdioClientTransport({ command: process.execPath, args, inheritEnv: true }));
  for (let i = 0; i < 200; i++) await client.callTool('echo', { text: 'warm' });
  const start = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < CALLS) {
      next++;
      await client.callTool('echo', { text: 'hello' });
    }
  };
  await Promise.all(Array.from({ length: window }, worker));
  const ms = performance.now() - start;
  await client.close();
  const bytes = recorded ? statSync(out).size : 0;
  return { perSec: (CALLS / ms) * 1000, bytes };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`record overhead, stdio echo, ${CALLS} calls x ${REPS} runs (median), node ${process.version}`);
for (const [label, window] of [['sequential', 1], ['pipelined (64)', 64]] as const) {
  const direct: number[] = [];
  const pass: number[] = [];
  const rec: number[] = [];
  let bytes = 0;
  for (let r = 0; r < REPS; r++) {
    direct.push((await run('direct', window)).perSec);
    pass.push((await run('pass-through', window)).perSec);
    const x = await run('recorded', window);
    rec.push(x.perSec);
    bytes = x.bytes;
  }
  const d = median(direct);
  const t = median(pass);
  const p = median(rec);
  const pct = (a: number, b: number) => `${(((a - b) / a) * 100).toFixed(1)}%`;
  console.log(
    `${label.padEnd(16)} direct ${d.toFixed(0).padStart(6)}/s  pass-through ${t.toFixed(0).padStart(6)}/s  recorded ${p.toFixed(0).padStart(6)}/s  ` +
      `recorded vs direct ${pct(d, p)}, vs pass-through ${pct(t, p)}  journal ${(bytes / 1024).toFixed(0)} KB`,
  );
}
rmSync(dir, { recursive: true, force: true });
