// End to end (issue 13): three processes of the demo server (examples/everything.ts --redis)
// behind a real HAProxy balancing every request round-robin, with no sticky sessions, on a real
// redis-server. The official SDK client (1.32.2) and ours go through the front door only; which
// backend served each request is read from HAProxy's x-served-by header.
import { expect } from 'chai';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client } from '../../lib/entries/client.js';
import { PROCESS_ENDED_MESSAGE } from '../../lib/redis/stream-event-store.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';
import { firstValueFrom, take, toArray } from 'rxjs';
import { startEverything, type ServerProcess } from '../../scripts/real-parts/server-process.js';
import { startHaproxy, type RunningHaproxy } from '../../scripts/real-parts/haproxy.js';
import { startRedis, type RunningRedis } from '../../scripts/real-parts/redis-server.js';

interface Seen {
  http: string;
  /** The JSON-RPC method of a POST, `response` for an answer, '' for GET and DELETE. */
  rpc: string;
  servedBy: string;
  lastEventId?: string;
}

/** A fetch that notes which backend served each request. */
function recordingFetch(seen: Seen[]): typeof fetch {
  return async (input, init) => {
    const res = await fetch(input, init);
    let rpc = '';
    if (typeof init?.body === 'string') {
      const body = JSON.parse(init.body) as { method?: string };
      rpc = body.method ?? 'response';
    }
    const headers = new Headers(init?.headers);
    const entry: Seen = { http: init?.method ?? 'GET', rpc, servedBy: res.headers.get('x-served-by') ?? '?' };
    const last = headers.get('last-event-id');
    if (last !== null) entry.lastEventId = last;
    seen.push(entry);
    return res;
  };
}

async function eventually(check: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const texts = (r: unknown) => ((r as { content: { type: string; text?: string }[] }).content ?? []).map((c) => c.text ?? '').join('\n');

describe('three demo server processes behind HAProxy, no sticky sessions (real redis-server and haproxy)', function () {
  this.timeout(60_000);
  let redis: RunningRedis;
  let haproxy: RunningHaproxy;
  let servers: ServerProcess[] = [];
  /** HAProxy's server names (s1, s2, s3) → the processes, in backend order. */
  const byName = new Map<string, ServerProcess>();
  let url: string;

  before(async () => {
    redis = await startRedis();
    servers = await Promise.all([0, 1, 2].map(() => startEverything({ redisUrl: redis.url })));
    servers.forEach((s, i) => byName.set(`s${i + 1}`, s));
    haproxy = await startHaproxy({ backends: servers.map((s) => s.port) });
    url = `${haproxy.url}/mcp`;
  });
  after(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await haproxy?.stop();
    await redis?.stop();
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') {
      for (const [name, s] of byName) console.error(`--- ${name} (pid ${s.pid}):\n${s.output().slice(-3000)}`);
    }
    // A killed process comes back on its port, as an orchestrator would restart it.
    for (const [i, s] of servers.entries()) {
      if (s.child.exitCode === null && s.child.signalCode === null) continue;
      const again = await startEverything({ redisUrl: redis.url, port: s.port });
      servers[i] = again;
      byName.set(`s${i + 1}`, again);
    }
  });

  /** Which backend a request to `url` lands on next is HAProxy's business; wait until all three answer checks. */
  async function allUp(): Promise<void> {
    const deadline = Date.now() + 10_000;
    const seen = new Set<string>();
    while (seen.size < 3 && Date.now() < deadline) {
      const res = await fetch(url, { method: 'GET' });
      await res.body?.cancel();
      seen.add(res.headers.get('x-served-by') ?? '?');
    }
    if (seen.size < 3) throw new Error(`not every backend is up: ${[...seen].join(', ')}`);
  }

  it('our client (sessions era): initializes, calls tools, answers elicitations and gets resource updates across processes; its GET stream survives a SIGKILL of its process', async () => {
    const seen: Seen[] = [];
    // The sessions (legacy) era: by default our client speaks 2026-07-28 to this server, with no
    // session at all (spec/redis/cluster-modern.spec.ts covers that era behind the same HAProxy).
    const client = new Client({ info: { name: 'ours-through-haproxy', version: '1.0.0' }, era: 'legacy' });
    client.onElicitation({ form: () => ({ action: 'accept', content: { title: 'Badger sett', priority: 'low' } }) });
    await client.connect(createStreamableHttpClientTransport(url, { fetch: recordingFetch(seen) as never, reconnect: { maxAttempts: 10 } }));
    try {
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name)).to.include.members(['convert_units', 'add_note', 'rebuild_index']);
      const six = firstValueFrom(client.subscribe('notes://index').pipe(take(6), toArray()));
      await eventually(() => seen.some((s) => s.http === 'GET'), 5000, 'the GET stream');
      for (let i = 0; i < 3; i++) {
        const result = await client.callTool('add_note', { body: `Fresh badger spoil heap ${i}.` });
        expect(texts(result)).to.match(/^Added n\d+: "Badger sett" \(low\)/);
      }
      expect(new Set(seen.map((s) => s.servedBy)).size).to.equal(3);
      const holder = seen.filter((s) => s.http === 'GET').at(-1)!.servedBy;
      await byName.get(holder)!.kill();
      for (let i = 0; i < 3; i++) await client.callTool('add_note', { body: `After the crash ${i}.` });
      expect((await six).map((u) => u.uri)).to.deep.equal(Array(6).fill('notes://index'));
      const resumed = seen.filter((s) => s.http === 'GET' && s.lastEventId !== undefined);
      expect(resumed.at(-1)?.servedBy).to.be.a('string').and.not.equal(holder);
    } finally {
      await client.close();
    }
  });

  it('the official SDK client: lists and calls tools; elicitation answers and resource updates cross processes; the GET stream survives a SIGKILL of its process', async () => {
    await allUp();
    const seen: Seen[] = [];
    const updates: string[] = [];
    const client = new SdkClient({ name: 'sdk-through-haproxy', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { title: 'Otter tracks', priority: 'high' } }));
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updates.push(n.params.uri);
    });
    const transport = new StreamableHTTPClientTransport(new URL(url), { fetch: recordingFetch(seen) });
    await client.connect(transport);
    try {
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name)).to.include('add_note');
      const converted = await client.callTool({ name: 'convert_units', arguments: { value: 100, from: 'celsius', to: 'fahrenheit' } });
      expect(JSON.stringify(converted.structuredContent)).to.contain('212');
      await client.subscribeResource({ uri: 'notes://index' });
      await eventually(() => seen.some((s) => s.http === 'GET'), 5000, 'the GET stream');
      for (let i = 0; i < 3; i++) {
        const added = await client.callTool({ name: 'add_note', arguments: { body: `Otter spraint on the weir ${i}.` } });
        expect(texts(added)).to.match(/^Added n\d+: "Otter tracks" \(high\)/);
      }
      // Each tools/call and the POST carrying its elicitation answer: some answers reached another process.
      // (An answer POST is recorded when its 202 arrives, which may be after the call's result.)
      await eventually(() => seen.filter((s) => s.rpc === 'response').length >= 3, 5000, 'three elicitation answers');
      const calls = seen.filter((s) => s.rpc === 'tools/call').slice(-3);
      const answers = seen.filter((s) => s.rpc === 'response');
      expect(answers).to.have.length(3);
      expect(calls.some((c, i) => c.servedBy !== answers[i]!.servedBy)).to.equal(true);
      // One update per note, from whichever process added it, on the GET stream held by one process.
      await eventually(() => updates.length === 3, 5000, 'three resource updates');
      const holder = seen.filter((s) => s.http === 'GET').at(-1)!.servedBy;
      expect(calls.some((c) => c.servedBy !== holder)).to.equal(true);

      // SIGKILL the process holding the GET stream, then change the resource from the others.
      const victim = byName.get(holder)!;
      await victim.kill();
      for (let i = 0; i < 3; i++) await client.callTool({ name: 'add_note', arguments: { body: `After the crash ${i}.` } });
      await eventually(() => updates.length === 6, 15_000, 'the updates sent while the stream was down');
      await new Promise((r) => setTimeout(r, 200));
      expect(updates).to.have.length(6);
      const resumed = seen.filter((s) => s.http === 'GET' && s.lastEventId !== undefined);
      expect(resumed.length).to.be.greaterThan(0);
      expect(resumed.at(-1)!.servedBy).to.not.equal(holder);
    } finally {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    }
  });

  it('SIGKILL of each process in turn between two calls: every call of the SDK client right after it is answered (none fails with a dropped connection)', async function () {
    this.timeout(150_000);
    await allUp();
    const client = new SdkClient({ name: 'sdk-kill-between', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(url));
    await client.connect(transport);
    const failed: string[] = [];
    let answered = 0;
    try {
      for (let k = 0; k < 3; k++) {
        for (let i = 0; i < 3; i++) await client.callTool({ name: 'convert_units', arguments: { value: i, from: 'mile', to: 'kilometre' } });
        // No wait for the exit: requests go out while the process is dying, as they would in production.
        const dead = servers[k]!.kill();
        for (let i = 0; i < 6; i++) {
          try {
            const r = await client.callTool({ name: 'convert_units', arguments: { value: 1, from: 'mile', to: 'metre' } });
            expect(JSON.stringify(r.structuredContent)).to.contain('1609.344');
            answered++;
          } catch (e) {
            failed.push(`kill ${k + 1}, call ${i + 1}: ${(e as Error).message} (${String((e as { cause?: unknown }).cause)})`);
          }
        }
        await dead;
        // Back on its port, as an orchestrator restarts it, before the next one goes.
        servers[k] = await startEverything({ redisUrl: redis.url, port: servers[k]!.port });
        byName.set(`s${k + 1}`, servers[k]!);
        await allUp();
      }
      expect(failed).to.deep.equal([]);
      expect(answered).to.equal(18);
    } finally {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    }
  });

  it('a request whose process is SIGKILLed mid-way: the SDK client resumes its stream elsewhere and gets a clear error, not a hang', async () => {
    await allUp();
    const seen: Seen[] = [];
    const client = new SdkClient({ name: 'sdk-kill', version: '1.0.0' });
    // More reconnection attempts than the SDK's default two, as a user of a cluster would set.
    const transport = new StreamableHTTPClientTransport(new URL(url), {
      fetch: recordingFetch(seen),
      reconnectionOptions: { maxRetries: 10, initialReconnectionDelay: 200, maxReconnectionDelay: 1000, reconnectionDelayGrowFactor: 1.5 },
    });
    await client.connect(transport);
    try {
      let killed: Promise<void> | undefined;
      const progress: number[] = [];
      const call = client.callTool({ name: 'rebuild_index', arguments: { delayMs: 2000 } }, undefined, {
        onprogress: (p) => {
          progress.push(p.progress);
          if (killed === undefined) {
            const owner = seen.filter((s) => s.rpc === 'tools/call').at(-1)!.servedBy;
            killed = byName.get(owner)!.kill();
          }
        },
      });
      const outcome = await call.then(
        () => new Error('the call was answered, though its process was killed'),
        (e: unknown) => e as Error,
      );
      await killed;
      expect(outcome.message).to.contain(PROCESS_ENDED_MESSAGE);
      expect(progress[0]).to.equal(0);
      expect(seen.some((s) => s.http === 'GET' && s.lastEventId !== undefined)).to.equal(true);
    } finally {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    }
  });
});
