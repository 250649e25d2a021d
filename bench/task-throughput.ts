/**
 * Tasks per second for "create a task, it completes, fetch its result" (2025-11-25 tasks), side
 * by side in one run: our createMcpServer + Client.callToolAsTask → handle.result() over
 * createMemoryPair, and the official SDK 1.32.2's experimental tasks (McpServer with an
 * InMemoryTaskStore, experimental.tasks.registerToolTask; Client experimental.tasks.callToolStream)
 * over its InMemoryTransport, each written as a user of that SDK writes it. The SDK v2
 * (@modelcontextprotocol/server 2.4.0) has no tasks extension, so it has no row.
 *
 *   npx tsx bench/task-throughput.ts     (BENCH_TASKS per run, default 1000; BENCH_TASK_WINDOW, 32;
 *                                          BENCH_TASK_REPS, 5; BENCH_TASK_POLL_MS, 10)
 *
 * Both clients follow a task by polling `tasks/get` at the pollInterval the server suggests, so
 * both servers suggest the same one (BENCH_TASK_POLL_MS; 10 ms is our client's floor), and the
 * run reports how many `tasks/get` each client sent per task.
 */
import os from 'node:os';
import { concurrent, fmt, median, ours, oursDirect, sdk1, sequential, type RunTask } from './task-impls.js';

const N = Number(process.env.BENCH_TASKS ?? 1000);
const WINDOW = Number(process.env.BENCH_TASK_WINDOW ?? 32);
const REPS = Number(process.env.BENCH_TASK_REPS ?? 5);
const POLL_MS = Number(process.env.BENCH_TASK_POLL_MS ?? 10);

const [load1, load5] = os.loadavg();
console.log(`${os.cpus().length} CPUs, Node ${process.version}, load ${load1!.toFixed(2)} ${load5!.toFixed(2)}; ${N} tasks per run, ${REPS} reps, ${WINDOW} in flight when concurrent, servers suggest pollInterval ${POLL_MS} ms`);
console.log('sdk v2 (@modelcontextprotocol/server 2.4.0): no tasks extension, no row');

const impls = [await ours(POLL_MS), await sdk1(POLL_MS), await oursDirect(POLL_MS)];
const workloads = [
  { name: 'sequential', go: (run: RunTask) => sequential(run, N) },
  { name: `concurrent x${WINDOW}`, go: (run: RunTask) => concurrent(run, N, WINDOW) },
];
for (const w of workloads) {
  for (const impl of impls) await w.go(impl.run); // warm-up
  const rates = impls.map(() => [] as number[]);
  const getsBefore = impls.map((impl) => impl.gets());
  for (let rep = 0; rep < REPS; rep++) {
    for (let k = 0; k < impls.length; k++) {
      const i = (rep + k) % impls.length; // rotating order
      rates[i]!.push(await w.go(impls[i]!.run));
    }
  }
  const medians = rates.map(median);
  for (let i = 0; i < impls.length; i++) {
    const spread = ((Math.max(...rates[i]!) - Math.min(...rates[i]!)) / medians[i]!) * 100;
    console.log(`${w.name.padEnd(15)} ${impls[i]!.label.padEnd(38)} ${fmt(medians[i]!).padStart(8)} tasks/s  ±${spread.toFixed(0)}%  (${rates[i]!.map(fmt).join(', ')})`);
  }
  const perTask = impls.map((impl, i) => ((impl.gets() - getsBefore[i]!) / (N * REPS)).toFixed(2));
  console.log(`${w.name.padEnd(15)} ratio ours/sdk: ${(medians[0]! / medians[1]!).toFixed(2)}x (tasks/result at once: ${(medians[2]! / medians[1]!).toFixed(2)}x); tasks/get per task: ours ${perTask[0]}, sdk ${perTask[1]} (above 1: the first found the task still working and the client waited a pollInterval)`);
}
process.exit(0);
