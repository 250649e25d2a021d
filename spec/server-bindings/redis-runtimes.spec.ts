// One deployment across runtimes and both handlers: the demo (examples/everything.ts --redis) as
// four processes sharing one real redis-server (the `store` option, given to either handler), the
// node handler on Node, and the fetch handler on Node (--fetch), Bun and Deno, behind a real
// HAProxy balancing every request round-robin with no sticky sessions. Each client completes the
// demo session through the front door only, so its requests land on every runtime in turn.
import { expect } from 'chai';
import { startHaproxy, type RunningHaproxy } from '../../scripts/real-parts/haproxy.js';
import { startRedis, type RunningRedis } from '../../scripts/real-parts/redis-server.js';
import { bundle, mountRuntime, removeBundles, type Mounted } from './adapters.js';
import { DEMO_CLIENTS, demoSession } from './demo-session.js';

const BACKENDS: Array<['Node' | 'Bun' | 'Deno', string[]]> = [
  ['Node', []],
  ['Node', ['--fetch']],
  ['Bun', []],
  ['Deno', []],
];

describe('one deployment on Redis: the node handler on Node and the fetch handler on Node, Bun and Deno behind HAProxy', function () {
  this.timeout(90_000);
  let redis: RunningRedis;
  let haproxy: RunningHaproxy;
  const servers: Mounted[] = [];
  let url: string;

  before(async function () {
    this.timeout(180_000);
    redis = await startRedis();
    const script = await bundle('examples/everything.ts');
    for (const [runtime, args] of BACKENDS) servers.push(await mountRuntime(runtime, script, [...args, '--redis', redis.url]));
    haproxy = await startHaproxy({ backends: servers.map((s) => Number(new URL(s.url).port)) });
    url = `${haproxy.url}/mcp`;
    // Every backend passes HAProxy's health checks before a session starts.
    const deadline = Date.now() + 20_000;
    const seen = new Set<string>();
    while (seen.size < BACKENDS.length) {
      if (Date.now() > deadline) throw new Error(`not every backend is up: ${[...seen].join(', ')}`);
      const res = await fetch(url, { method: 'GET' });
      await res.body?.cancel();
      seen.add(res.headers.get('x-served-by') ?? '?');
    }
  });
  after(async () => {
    await Promise.all(servers.map((s) => s.close()));
    await haproxy?.stop();
    await redis?.stop();
    removeBundles();
  });
  afterEach(function () {
    if (this.currentTest?.state === 'failed') servers.forEach((s, i) => console.error(`--- ${BACKENDS[i]!.join(' ')}:\n${s.output().slice(-3000)}`));
  });

  for (const client of DEMO_CLIENTS) {
    it(`${client}: tools, progress, an elicitation, a resource, a prompt, its requests served by every backend`, async () => {
      const before = servers.map((s) => s.output().length);
      await demoSession(client, url);
      if (client.endsWith('2026-07-28')) return;
      // Round-robin over a whole session (a dozen requests and more): each process logged frames
      // of it (the demo prints a session's frames; HAProxy's health checks print nothing). A
      // 2026-07-28 request is no session and is not logged: there, each request goes to the next
      // backend, so the elicitation's retry (with its requestState) reaches another process than
      // the round that asked, on the key the store shares.
      servers.forEach((s, i) => expect(s.output().length, `frames logged by ${BACKENDS[i]!.join(' ')}`).to.be.greaterThan(before[i]!));
    });
  }
});
