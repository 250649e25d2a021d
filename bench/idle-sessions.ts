/**
 * Idle legacy Streamable HTTP sessions at scale: the resident memory and heap of our server, in a
 * process of its own (`servers/ours-http.ts`, JSON mode, as a user's server runs, with
 * `--expose-gc` and a heap limit far above what it needs), holding N idle sessions. Raw undici
 * requests open them (initialize, then `notifications/initialized`: 202), 64 at a time over 16
 * keep-alive connections; at each checkpoint the server collects until its heap settles and
 * reports `process.memoryUsage()`. Per-session figures are over the baseline of `warmup` sessions.
 *
 *   npm run build
 *   node dist/bench/idle-sessions.js [checkpoints=20000,50000,100000] [--warmup 1000]
 *
 * Issue 26's bound: 100,000 idle sessions in one process under 512 MB RSS.
 */
import { Agent } from 'undici';
import { forkServer, rawSession } from './http-drivers.js';

const positional = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && !all[i - 1]?.startsWith('--'));
const checkpoints = (positional[0] ?? '20000,50000,100000').split(',').map(Number);
const warmupArg = process.argv.indexOf('--warmup');
const warmup = warmupArg >= 0 ? Number(process.argv[warmupArg + 1]) : 1000;
const RSS_BOUND_MB = 512;
const CONCURRENCY = 64;

const server = await forkServer('ours-http', ['--mode', 'json'], ['--expose-gc', '--max-old-space-size=4096']);
const agent = new Agent({ connections: 16 });
const mb = (bytes: number): string => (bytes / 2 ** 20).toFixed(1);
const kb = (bytes: number): string => (bytes / 1024).toFixed(2);
/** Idle sessions hibernate once quiet for `hibernateAfterMs` (default 1 s): measured as they then stay. */
const quiet = (): Promise<void> => new Promise((r) => setTimeout(r, 1500));

/** Opens `count` more sessions, `CONCURRENCY` in flight. */
async function open(count: number): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < count) {
      next++;
      await rawSession(server.url, agent, false);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, count) }, lane));
}

try {
  await open(warmup);
  await quiet();
  const base = await server.memory();
  console.log(`baseline (${warmup} sessions): RSS ${mb(base.rss)} MB, heap ${mb(base.heapUsed)} MB (committed ${mb(base.heapTotal)} MB)`);
  console.log('| sessions | RSS MB | heap MB | heap committed MB | external MB | RSS KB/session | heap KB/session | open s |');
  console.log('|---:|---:|---:|---:|---:|---:|---:|---:|');
  let held = warmup;
  for (const target of checkpoints) {
    const t0 = performance.now();
    await open(target - held);
    const seconds = (performance.now() - t0) / 1000;
    held = target;
    await quiet();
    const m = await server.memory();
    if (m.sessions !== held) throw new Error(`the server holds ${m.sessions} sessions, expected ${held}`);
    const extra = held - warmup;
    console.log(`| ${held} | ${mb(m.rss)} | ${mb(m.heapUsed)} | ${mb(m.heapTotal)} | ${mb(m.external)} | ${kb((m.rss - base.rss) / extra)} | ${kb((m.heapUsed - base.heapUsed) / extra)} | ${seconds.toFixed(1)} |`);
    if (held === 100_000) console.log(`100,000 idle sessions: RSS ${mb(m.rss)} MB, ${m.rss < RSS_BOUND_MB * 2 ** 20 ? 'under' : 'OVER'} the ${RSS_BOUND_MB} MB bound`);
  }
} finally {
  await agent.close();
  await server.close();
}
