/**
 * The recorder's own CPU per frame, without any process around it. Two figures:
 *   writer  the journal writer alone on one thread, from decoded chunks (capture, then split,
 *           parse, redact and write in a batch): the HTTP proxy's path;
 *   tap     the stdio path (`record --in-process` and `record -- <server>`): what the capturing
 *           thread pays for copying each frame into the shared ring, measured on that thread
 *           alone (Linux: /proc/thread-self/schedstat), and the worker that reads the ring and
 *           journals (with the rest of the process: its garbage collection) beside it; one tap,
 *           warmed up, as a server has.
 * CPU time is steadier than throughput on a shared machine, so these are the figures to set beside
 * a stdio round trip's CPU (bench/record-overhead.ts, `direct`).
 *
 *   npm run build && node dist/bench/record-writer.js     WRITER_CALLS (20000), WRITER_REPS (5)
 */
import { mkdtempSync, openSync, readFileSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { RecordingWriter } from '../lib/cli/recording.js';
import { Redactor } from '../lib/shared/redactor.js';
import { Tap } from '../lib/cli/tap-handover.js';

const CALLS = Number(process.env.WRITER_CALLS ?? 20000);
const REPS = Number(process.env.WRITER_REPS ?? 5);
const dir = mkdtempSync(join(tmpdir(), 'record-writer-'));
const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
// The echo bench's frames as they cross the pipe: a request and its answer, one line each.
const request = (id: number) => Buffer.from(JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hello' }, _meta: meta } }) + '\n');
const answer = (id: number) => Buffer.from(JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: 'hello' }], resultType: 'complete' } }) + '\n');

const perFrame: number[] = [];
let bytes = 0;
for (let r = 0; r < REPS; r++) {
  const file = join(dir, `w${r}.jsonl`);
  const chunks = Array.from({ length: CALLS }, (_v, i) => [request(i), answer(i)] as const);
  const writer = new RecordingWriter(file, { transport: 'stdio', target: 'bench' }, new Redactor());
  const cpu0 = process.cpuUsage();
  // Frames arrive a few at a time between batches, as they do on a live pipe.
  for (let i = 0; i < CALLS; i += 50) {
    for (let j = i; j < Math.min(CALLS, i + 50); j++) {
      writer.capture('client', chunks[j]![0]);
      writer.capture('server', chunks[j]![1]);
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  await new Promise((resolve) => setTimeout(resolve, 30));
  writer.flush();
  const cpu = process.cpuUsage(cpu0);
  writer.close();
  bytes = statSync(file).size;
  perFrame.push((cpu.user + cpu.system) / (CALLS * 2));
}
perFrame.sort((a, b) => a - b);
console.log(
  `record writer: ${CALLS * 2} frames x ${REPS} runs, ${(bytes / 1024).toFixed(0)} KB journal; CPU per frame ${perFrame[Math.floor(REPS / 2)]!.toFixed(2)} µs median ` +
    `(${perFrame.map((x) => x.toFixed(2)).join(', ')}); load ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores`,
);

/** This thread's CPU time in µs (Linux), or the process's where threads cannot be told apart. */
function threadCpuUs(): number {
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1000;
  } catch {
    const u = process.cpuUsage();
    return u.user + u.system;
  }
}

const onThread: number[] = [];
const onWorker: number[] = [];
{
  // One tap, as a server has one, warmed up first: a fresh worker's first frames run before its
  // JIT has compiled the journaling code, which a long session does not see.
  const file = join(dir, 'tap.jsonl');
  const frames = Array.from({ length: CALLS }, (_v, i) => [request(i), answer(i)] as const);
  const tap = new Tap({ out: file, redact: [], target: 'bench', startedAt: performance.timeOrigin + performance.now(), inProcess: true }, openSync(file, 'w'));
  await tap.settled;
  const feed = async () => {
    for (let i = 0; i < CALLS; i += 50) {
      for (let j = i; j < Math.min(CALLS, i + 50); j++) {
        tap.capture(0, frames[j]![0]);
        tap.capture(1, frames[j]![1]);
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    // Let the worker read what is left (its CPU lands in this window, not the next).
    await new Promise((resolve) => setTimeout(resolve, 120));
  };
  await feed();
  for (let r = 0; r < REPS; r++) {
    const cpu0 = process.cpuUsage();
    const thread0 = threadCpuUs();
    await feed();
    const thread = threadCpuUs() - thread0;
    const cpu = process.cpuUsage(cpu0);
    onThread.push(thread / (CALLS * 2));
    onWorker.push((cpu.user + cpu.system - thread) / (CALLS * 2));
  }
  tap.close();
}
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`tap: capturing thread ${med(onThread).toFixed(2)} µs per frame median (${onThread.map((x) => x.toFixed(2)).join(', ')}); worker and the rest of the process ${med(onWorker).toFixed(2)} µs per frame (${onWorker.map((x) => x.toFixed(2)).join(', ')})`);
rmSync(dir, { recursive: true, force: true });
