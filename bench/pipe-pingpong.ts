/**
 * What a round trip over a child's pipes costs with no MCP and no JSON at all: the parent writes
 * one line, the child writes it back, N times. Run it both ways to see what placement does:
 *
 *   node dist/bench/pipe-pingpong.js              # wherever the scheduler puts the two processes
 *   taskset -c 1 node dist/bench/pipe-pingpong.js # both on one CPU (the child inherits it)
 *
 * Prints round trips per second for each of 5 runs of PINGPONG_N (20000) round trips.
 */
import { spawn } from 'node:child_process';

const N = Number(process.env.PINGPONG_N ?? 20_000);
const LINE = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}\n';
const CHILD = `process.stdin.on('data', (c) => process.stdout.write(c)); process.stdin.on('end', () => process.exit(0));`;

const child = spawn(process.execPath, ['-e', CHILD], { stdio: ['pipe', 'pipe', 'inherit'] });

function run(): Promise<number> {
  return new Promise((resolve) => {
    let left = N;
    const started = process.hrtime.bigint();
    const onData = (): void => {
      if (--left === 0) {
        child.stdout.off('data', onData);
        resolve(N / (Number(process.hrtime.bigint() - started) / 1e9));
        return;
      }
      child.stdin.write(LINE);
    };
    child.stdout.on('data', onData);
    child.stdin.write(LINE);
  });
}

await run(); // warm-up
for (let i = 0; i < 5; i++) console.log(`pipe ping-pong: ${Math.round(await run()).toLocaleString('en-US')} round trips/s`);
child.stdin.end();
