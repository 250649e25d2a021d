/**
 * `npm run demo:cluster`: one deployment of the demo server on three processes, for a person to
 * try: a redis-server, three `examples/everything.js --redis <url>` processes and an HAProxy in
 * front (round-robin per request, no sticky sessions), all on 127.0.0.1 and free ports (`PORT`
 * sets the front's). Prints the front URL and every pid; Ctrl-C or SIGTERM stops everything, and a
 * SIGKILL of the demo takes its children with it (a reaper child kills them when our pipe closes).
 *
 *   npm run demo:cluster                 # builds, then runs dist/examples/everything.js
 *   node --import tsx scripts/demo-cluster.ts --source [--quiet]
 *        --source: the TypeScript sources through tsx (no build); --quiet: no server logs
 *
 * Needs the Debian packages redis-server and haproxy (`apt-get install -y redis-server haproxy`).
 */
import { spawn } from 'node:child_process';
import { startHaproxy, type RunningHaproxy } from './real-parts/haproxy.js';
import { startRedis, type RunningRedis } from './real-parts/redis-server.js';
import { startEverything, type ServerProcess } from './real-parts/server-process.js';

const source = process.argv.includes('--source');
const quiet = process.argv.includes('--quiet');
const frontPort = process.env.PORT === undefined || process.env.PORT === '' ? undefined : Number(process.env.PORT);
if (frontPort !== undefined && !(Number.isInteger(frontPort) && frontPort > 0 && frontPort < 65536)) {
  console.error(`demo:cluster: PORT must be a port number; got ${JSON.stringify(process.env.PORT)}`);
  process.exit(2);
}

const tty = process.stdout.isTTY;
const paint = (code: number, s: string) => (tty ? `\x1b[${code}m${s}\x1b[0m` : s);
const COLORS = [36, 33, 35];

let redis: RunningRedis | undefined;
let haproxy: RunningHaproxy | undefined;
const servers: ServerProcess[] = [];
let stopping: Promise<void> | undefined;

/**
 * A reaper: a small node child reading our pids from a pipe. A SIGKILL of this process runs no
 * handler, but the kernel closes the pipe, and the reaper then kills every child we told it of
 * (without it, six orphans were once found 25 minutes after a killed demo).
 */
const REAPER = `const pids=new Set();let rest='';process.stdin.setEncoding('utf8');
process.stdin.on('data',(d)=>{rest+=d;const l=rest.split('\\n');rest=l.pop();for(const p of l)if(/^\\d+$/.test(p))pids.add(Number(p));});
process.stdin.on('end',()=>{for(const p of pids){try{process.kill(p,'SIGKILL')}catch{}}process.exit(0)});`;
const reaper = spawn(process.execPath, ['-e', REAPER], { stdio: ['pipe', 'ignore', 'ignore'] });
reaper.unref();
(reaper.stdin as unknown as { unref?: () => void }).unref?.();
/** Tell the reaper of a child, so that it dies with us however we die. */
const watch = (pid: number | undefined) => {
  if (pid !== undefined && pid > 0) reaper.stdin.write(`${pid}\n`);
};

/** Stop everything started so far (the front first, so no request lands on a stopping server). */
function stopAll(code: number): Promise<void> {
  stopping ??= (async () => {
    await haproxy?.stop().catch(() => undefined);
    await Promise.all(servers.map((s) => s.stop().catch(() => undefined)));
    await redis?.stop().catch(() => undefined);
    reaper.kill();
    process.exit(code);
  })();
  return stopping;
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    console.log(`\ndemo:cluster: ${signal}, stopping haproxy, the three servers and redis-server`);
    void stopAll(0);
  });
}

/** Each server's output, line by line, under its name. */
function printer(name: string, color: number): (text: string) => void {
  let rest = '';
  return (text) => {
    if (quiet) return;
    rest += text;
    const lines = rest.split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) process.stdout.write(`${paint(color, `[${name}]`)} ${line}\n`);
  };
}

try {
  redis = await startRedis();
  watch(redis.pid);
  const url = redis.url;
  const started = await Promise.allSettled([0, 1, 2].map((i) => startEverything({ redisUrl: url, built: !source, onOutput: printer(`s${i + 1}`, COLORS[i]!) })));
  for (const s of started) if (s.status === 'fulfilled') { servers.push(s.value); watch(s.value.pid); }
  const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed !== undefined) throw failed.reason;
  haproxy = await startHaproxy({ backends: servers.map((s) => s.port), ...(frontPort !== undefined && { port: frontPort }) });
  watch(haproxy.pid);
  for (const [i, s] of servers.entries()) {
    void s.exited.then(() => {
      if (stopping === undefined) console.log(`demo:cluster: s${i + 1} (pid ${s.pid}) exited; HAProxy sends its requests to the others`);
    });
  }
  console.log('');
  console.log(`MCP endpoint (HAProxy, round-robin per request, no sticky sessions): ${paint(32, `${haproxy.url}/mcp`)}`);
  console.log(`  haproxy       pid ${haproxy.pid}`);
  servers.forEach((s, i) => console.log(`  server s${i + 1}     pid ${s.pid}, ${s.url}, process ${s.processId ?? '?'}`));
  console.log(`  redis-server  pid ${redis.pid}, ${redis.url}`);
  console.log('Try: npx @modelcontextprotocol/inspector, or kill -9 one server pid and watch the others carry on. Ctrl-C stops everything.');
  console.log('');
} catch (error) {
  console.error(`demo:cluster: ${(error as Error).message}`);
  await stopAll(1);
}
