/**
 * `replay --check` of a proxy recording: it has no session options to rebuild its sessions from,
 * so its frames go through the session and request machines (as the recording side's session
 * would run them) and the first frame they would not let through is the divergence.
 */
import type { Parsed } from './args.js';
import type { CliContext } from './cli-context.js';
import { ExitCode } from './exit-codes.js';
import { short } from './format.js';
import type { JournalFile } from './journal-file.js';
import { trackStates } from './session-states.js';

export function checkLifecycle(file: JournalFile, p: Parsed, ctx: CliContext): number {
  const start = performance.now();
  const tracker = trackStates(file.header, file.entries);
  const ms = performance.now() - start;
  const rate = Math.round(file.entries.length / (ms / 1000));
  const first = tracker.problems[0];
  const s = ctx.style;
  if (p.values.json) {
    ctx.stdout.write(JSON.stringify({ entries: file.entries.length, ms: Math.round(ms), entriesPerSecond: rate, matches: !first, problems: tracker.problems.map((x) => ({ seq: file.entries[x.index]!.seq, message: x.message })) }, null, 2) + '\n');
  } else if (!first) {
    ctx.stdout.write(`${s.green('✓')} ${file.entries.length} entries through the session and request machines in ${ms.toFixed(0)} ms (${rate} entries/s): every frame allowed (lifecycle, ids, progress)\n`);
  } else {
    const e = file.entries[first.index]!;
    ctx.stdout.write(`${s.red('✗')} first divergent frame: #${e.seq}: ${first.message}\n  ${short(e)}\n`);
    if (tracker.problems.length > 1) ctx.stdout.write(s.dim(`  (${tracker.problems.length - 1} more)\n`));
  }
  return first ? ExitCode.Difference : ExitCode.Ok;
}
