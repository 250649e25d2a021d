/**
 * The server's own cost per `tools/call` over our stdio server transport, fed canned lines
 * in-process (no client, no pipe, no child): the bench's echo server (`bench/echo/ours.ts`) on a
 * stdin it reads in chunks of `BENCH_WINDOW` (256) lines, as a pipelined client's writes arrive,
 * and a stdout that only counts the answers. Both eras' requests are the frames our client sends
 * (2026-07-28: the `_meta` envelope; legacy: after `initialize` at 2025-11-25). One era per
 * process, so the JIT's feedback is that era's alone; run both in turn and under `--cpu-prof`:
 *
 *   node dist/bench/stdio-server-feed.js <legacy|modern> [runs=10] [dist ...]     (BENCH_CALLS=20000 per run)
 *   node --cpu-prof --cpu-prof-dir=bench/results/prof dist/bench/stdio-server-feed.js modern 12
 *
 * With `BENCH_FEED=memory`, the same server on our in-memory transport instead, fed the requests
 * as objects (made before the clock starts; the 2026-07-28 ones share one `_meta` object, as our
 * client's sealed envelope is one object): the server's own path without any JSON.
 *
 * Prints CPU µs and heap bytes per call of each run (the first is a warm-up). Given builds (their
 * `dist` folders, e.g. main's and this branch's), each gets its own server in this process and
 * their runs alternate, so that the load of a shared machine falls on both alike; then each
 * build's minimum and median.
 */
import { PassThrough, Writable } from 'node:stream';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CLIENT_INFO, TEXT, TOOL } from './common.js';

type Era = 'legacy' | 'modern';
const era = (process.argv[2] ?? 'modern') as Era;
if (era !== 'legacy' && era !== 'modern') throw new Error(`era must be legacy or modern, not ${era}`);
const runs = Number(process.argv[3] ?? 10);
const builds = process.argv.slice(4);
const calls = Number(process.env.BENCH_CALLS ?? 20_000);
const window = Number(process.env.BENCH_WINDOW ?? 256);
const overMemory = process.env.BENCH_FEED === 'memory';

// The envelope as our client writes it (`client-core.ts` seals the same three keys).
const META = JSON.stringify({
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
});
const ARGS = JSON.stringify({ name: TOOL, arguments: { text: TEXT } });
const line = (id: number): string =>
  era === 'modern'
    ? `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":${ARGS.slice(0, -1)},"_meta":${META}}}\n`
    : `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":${ARGS}}\n`;

/**
 * Counts the answer lines written and wakes whoever waits for a number of them. Takes the strings
 * as written (`decodeStrings: false`, as a pipe's socket does): no Buffer made per chunk here.
 */
class Counter extends Writable {
  lines = 0;
  constructor() {
    super({ decodeStrings: false });
  }
  private want = Infinity;
  private wake: (() => void) | undefined;
  override _write(chunk: Buffer | string, _enc: BufferEncoding, done: () => void): void {
    const text = typeof chunk === 'string' ? chunk : chunk.toString('latin1');
    if (process.env.BENCH_SHOW && this.lines < 3) process.stderr.write(text.slice(0, 400) + '\n');
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.lines++;
    if (this.lines >= this.want) {
      const wake = this.wake;
      this.wake = undefined;
      this.want = Infinity;
      wake?.();
    }
    done();
  }
  until(n: number): Promise<void> {
    if (this.lines >= n) return Promise.resolve();
    this.want = n;
    return new Promise((resolve) => (this.wake = resolve));
  }
}

interface Fed {
  label: string;
  /** One run of `calls`: CPU µs and heap bytes per call. */
  run(): Promise<{ cpu: number; heap: number }>;
}

/** The echo server of the build at `root` (a `dist` folder; this build's own when undefined), on a fed stdin. */
async function feed(root: string | undefined): Promise<Fed> {
  const from = (path: string): Promise<Record<string, unknown>> =>
    root === undefined ? import(new URL(`../${path}`, import.meta.url).href) : import(pathToFileURL(resolve(root, path)).href);
  if (overMemory) return feedMemory(root, from);
  const { createStdioServerTransport } = (await from('streams/stdio-server.js')) as typeof import('../streams/stdio-server.js');
  const { createOursServer } = (await from('bench/echo/ours.js')) as typeof import('./echo/ours.js');
  const stdin = new PassThrough();
  const stdout = new Counter();
  await createOursServer().connect(createStdioServerTransport({ stdin, stdout, redirectConsole: false }));
  let expected = 0;
  if (era === 'legacy') {
    stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: CLIENT_INFO } })}\n` +
        `{"jsonrpc":"2.0","method":"notifications/initialized"}\n`,
    );
    await stdout.until(++expected);
  }
  let id = 1;
  return {
    label: root ?? 'this build',
    async run() {
      // The chunks are made before the clock starts, as Buffers (as a pipe delivers them): the
      // run measures the server alone, not the making of its input.
      const chunks: Buffer[] = [];
      for (let done = 0; done < calls; done += window) {
        let chunk = '';
        for (let i = 0; i < window; i++) chunk += line(id++);
        chunks.push(Buffer.from(chunk));
      }
      const cpu0 = process.cpuUsage();
      const heap0 = process.memoryUsage().heapUsed;
      for (const chunk of chunks) {
        stdin.write(chunk);
        expected += window;
        await stdout.until(expected);
      }
      const cpu = process.cpuUsage(cpu0);
      const n = Math.ceil(calls / window) * window;
      return { cpu: (cpu.user + cpu.system) / n, heap: (process.memoryUsage().heapUsed - heap0) / n };
    },
  };
}

/** The same server on an in-memory pair, fed request objects from the other end. */
async function feedMemory(root: string | undefined, from: (path: string) => Promise<Record<string, unknown>>): Promise<Fed> {
  const { createMemoryPair } = (await from('streams/memory.js')) as typeof import('../streams/memory.js');
  const { createOursServer } = (await from('bench/echo/ours.js')) as typeof import('./echo/ours.js');
  const [ours, theirs] = createMemoryPair();
  let answers = 0;
  let want = Infinity;
  let wake: (() => void) | undefined;
  theirs.inbound$.subscribe(() => {
    if (++answers < want) return;
    want = Infinity;
    const w = wake;
    wake = undefined;
    w?.();
  });
  const until = (n: number): Promise<void> => (answers >= n ? Promise.resolve() : new Promise((r) => ((want = n), (wake = r))));
  await createOursServer().connect(ours);
  let expected = 0;
  if (era === 'legacy') {
    theirs.send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: CLIENT_INFO } });
    theirs.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await until(++expected);
  }
  const meta = JSON.parse(META) as object;
  let id = 1;
  const request = (): object => ({
    jsonrpc: '2.0',
    id: id++,
    method: 'tools/call',
    params: era === 'modern' ? { name: TOOL, arguments: { text: TEXT }, _meta: meta } : { name: TOOL, arguments: { text: TEXT } },
  });
  return {
    label: root ?? 'this build',
    async run() {
      const frames: object[] = [];
      const n = Math.ceil(calls / window) * window;
      for (let i = 0; i < n; i++) frames.push(request());
      const cpu0 = process.cpuUsage();
      const heap0 = process.memoryUsage().heapUsed;
      for (let at = 0; at < n; at += window) {
        for (let i = at; i < at + window; i++) void theirs.send(frames[i] as never);
        expected += window;
        await until(expected);
      }
      const cpu = process.cpuUsage(cpu0);
      return { cpu: (cpu.user + cpu.system) / n, heap: (process.memoryUsage().heapUsed - heap0) / n };
    },
  };
}

const fed: Fed[] = [];
for (const root of builds.length === 0 ? [undefined] : builds) fed.push(await feed(root));
const cpus: number[][] = fed.map(() => []);
for (let r = 0; r < runs; r++) {
  // Alternate which build goes first, so neither always follows the other.
  const order = r % 2 === 0 ? fed.map((_, i) => i) : fed.map((_, i) => fed.length - 1 - i);
  for (const i of order) {
    const { cpu, heap } = await fed[i]!.run();
    if (r > 0) cpus[i]!.push(cpu);
    console.log(`${era} ${fed[i]!.label} run ${r}: cpu ${cpu.toFixed(2)} µs/call, heap ${Math.round(heap)} B/call`);
  }
}
if (fed.length > 1 && runs > 1) {
  for (let i = 0; i < fed.length; i++) {
    const xs = [...cpus[i]!].sort((a, b) => a - b);
    console.log(`${era} ${fed[i]!.label}: min ${xs[0]!.toFixed(2)}, median ${xs[xs.length >> 1]!.toFixed(2)} µs/call`);
  }
}
