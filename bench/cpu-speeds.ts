/**
 * How fast each CPU of this machine runs the same loop. On the 2-vCPU machine these benches were
 * written on, vCPU 1 ran it 1.4x slower than vCPU 0 (and the recorder's journaling 1.85x slower),
 * persistently: a process's speed depended on where the scheduler put it, which is most of the
 * run-to-run spread of a small bench. Printed with a bench's results so that a reader can see it.
 */
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

const LOOP = 'let s=performance.now(),x=0;for(let i=0;i<1e8;i++)x+=i%7;process.stdout.write(String(performance.now()-s))';

/** Milliseconds of the same loop on each CPU (pinned with `taskset`), or undefined where `taskset` is missing. */
export function cpuSpeeds(): number[] | undefined {
  try {
    return Array.from({ length: availableParallelism() }, (_v, cpu) => Number(execFileSync('taskset', ['-c', String(cpu), process.execPath, '-e', LOOP], { encoding: 'utf8' })));
  } catch {
    return undefined;
  }
}

/** One line for a bench's header: each CPU's time for the loop, and how much slower the slowest is. */
export function cpuSpeedsLine(): string {
  const ms = cpuSpeeds();
  if (!ms) return 'CPU speeds: not measured (no taskset)';
  const ratio = Math.max(...ms) / Math.min(...ms);
  return `CPU speeds (the same loop pinned to each CPU): ${ms.map((m, i) => `cpu${i} ${m.toFixed(0)} ms`).join(', ')}; the slowest takes ${ratio.toFixed(2)}x the fastest`;
}
