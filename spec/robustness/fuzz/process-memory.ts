/**
 * A child process's peak resident memory, for the fuzzers' "memory bounded" invariant: the
 * kernel's high-water mark (`VmHWM` in /proc/<pid>/status), so a spike between two samples is
 * not missed. Linux only; undefined elsewhere or once the process is gone.
 */
import { readFileSync } from 'node:fs';

/** Peak RSS of `pid` in MiB, or undefined when /proc cannot say. */
export function peakRssMiB(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const m = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m === null ? undefined : Number(m[1]) / 1024;
  } catch {
    return undefined;
  }
}
