/**
 * The recorder's worker journals in the background: on Linux it asks to run at `SCHED_IDLE`, so
 * that it takes only CPU time nobody else wants, and the server's thread (and its client) never
 * wait to be scheduled behind it. On the 2-core machine this was measured on, a worker at normal
 * priority cost a sequential stdio round trip most of the recorder's overhead that way.
 *
 * An idle thread can starve on a busy machine, so it only goes idle where it can be brought back:
 * the capturing thread restores normal scheduling when it has to wait for the worker (a full
 * ring, the process exiting). Bringing a thread back from `SCHED_IDLE` needs `CAP_SYS_NICE`, or a
 * `RLIMIT_NICE` that allows nice 0; without either the worker stays at normal priority.
 * https://man7.org/linux/man-pages/man7/sched.7.html
 */
import { execFile, execFileSync } from 'node:child_process';
import { readFileSync, readlinkSync } from 'node:fs';

/** This thread's kernel id (Linux), or undefined. */
export function threadId(): number | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a thread of this process that went idle could be brought back to normal scheduling. */
export function canComeBack(): boolean {
  if (process.getuid?.() === 0) return true;
  try {
    // "Max nice priority <soft> <hard>": nice 0 is allowed back when the soft limit is 20 or more.
    const m = /^Max nice priority\s+(\d+|unlimited)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    return m !== null && (m[1] === 'unlimited' || Number(m[1]) >= 20);
  } catch {
    return false;
  }
}

/** Ask for `SCHED_IDLE` for thread `tid` (with `chrt`, from util-linux); `done` says whether it took. */
export function runIdle(tid: number, done: (ok: boolean) => void): void {
  execFile('chrt', ['--idle', '--pid', '0', String(tid)], { timeout: 5000 }, (e) => done(!e));
}

/** Normal scheduling (`SCHED_OTHER`) for thread `tid` again, now; false when it could not be done. */
export function runNormal(tid: number): boolean {
  try {
    execFileSync('chrt', ['--other', '--pid', '0', String(tid)], { stdio: 'ignore', timeout: 5000 });
    return true;
  } catch {
    return false;
  }
}

/** The scheduling policy of thread `tid` of this process (0 normal, 5 idle), or undefined. */
export function policyOf(tid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    // The 41st field; fields after the command name (in parentheses) start with the 3rd.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[38]);
  } catch {
    return undefined;
  }
}
