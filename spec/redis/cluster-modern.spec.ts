// End to end, the modern era (2026-07-28) of one deployment served by three processes of the demo
// server (examples/everything.ts --redis URL) behind a real HAProxy in round-robin with no
// stickiness, sharing a real redis-server. HAProxy says which backend answered (X-Served-By), so
// each test checks that what it relies on really crossed processes:
//   1. a subscriptions/listen stream on one process hears a list change and a resource update
//      made through a request another process served;
//   2. a multi round-trip request started on one process completes on another with no key
//      configured (our Client, and the official SDK v2 client), and its requestState replayed is
//      refused everywhere, on a third process too;
//   3. a task created on one process is polled, answered (tasks/update) and cancelled through the
//      others;
//   4. SIGKILL of the process running a task: the task ends `failed` within its lease, and a
//      finished task it ran is still served.
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { Client } from '../../lib/entries/client.js';
import type { JsonObject } from '../../lib/jsonrpc/message.js';
import { TASKS_EXTENSION } from '../../lib/tasks/modern-tasks.js';
import { undiciFetch, type FetchLike } from '../../streams/http-fetch.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';
import { startHaproxy, type RunningHaproxy } from '../../scripts/real-parts/haproxy.js';
import { startRedis, type RunningRedis } from '../../scripts/real-parts/redis-server.js';
import { tsArgs } from '../helpers/ts-child.js';

const ENTRY = 'examples/everything.ts';
/** Short leases, so that a killed process's task fails within seconds (swept every 500 ms). */
const LEASE_MS = 1_500;

interface Backend {
  /** HAProxy's name for it: s1, s2, s3 in start order. */
  name: string;
  port: number;
  child: ChildProcess;
}

/** One POST as HAProxy routed it. */
interface Served {
  method: string;
  by: string;
  body: JsonObject;
  init: RequestInit;
}

function startBackend(name: string, redisUrl: string): Promise<Backend> {
  const child = spawn(process.execPath, [...tsArgs(ENTRY), '--redis', redisUrl], {
    env: { ...process.env, PORT: '0', MCP_TASK_LEASE_MS: String(LEASE_MS) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (chunk: Buffer) => {
      // eslint-disable-next-line no-control-regex
      out = (out + chunk.toString()).replace(/\x1b\[[0-9;]*m/g, '');
      const m = /http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(out);
      if (m) {
        child.stdout!.off('data', onData);
        child.stdout!.resume();
        resolve({ name, port: Number(m[1]), child });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    child.once('exit', (code) => reject(new Error(`${name} exited (${code}) before it listened:\n${out.slice(-2000)}`)));
  });
}

const textOf = (r: JsonObject) => ((r.content ?? []) as { type: string; text?: string }[]).map((b) => b.text ?? '').join('\n');

describe('cluster, modern era: three demo processes behind HAProxy on one Redis (real processes)', function () {
  this.timeout(60_000);
  let redis: RunningRedis;
  let haproxy: RunningHaproxy;
  let backends: Backend[] = [];
  let front: string;
  const served: Served[] = [];
  const clients: Array<{ close(): Promise<void> }> = [];

  /**
   * A fetch that notes, in the order they are sent, which backend answered each request (a POST
   * by its JSON-RPC method; `by` is filled in when the answer's headers arrive).
   */
  const recordingFetch: FetchLike = async (input, init) => {
    const { signal: _signal, ...kept } = init ?? {};
    const body = init?.method === 'POST' && typeof init.body === 'string' ? (JSON.parse(init.body) as JsonObject) : {};
    const entry: Served = { method: typeof body.method === 'string' ? body.method : `HTTP ${init?.method ?? 'GET'}`, by: '?', body, init: kept };
    served.push(entry);
    const res = await undiciFetch(input, init);
    entry.by = res.headers.get('x-served-by') ?? '?';
    return res;
  };
  const lastBy = () => served[served.length - 1]!.by;
  /**
   * Where round-robin sends the next request: of three backends, the one the last two sequential
   * requests did not go to (HAProxy's cycle order is its own, not the config's).
   */
  const predictedNext = (): string | undefined => {
    const [a, b] = served.slice(-2).map((s) => s.by);
    if (a === undefined || b === undefined || a === b || a === '?' || b === '?') return undefined;
    return backends.map((x) => x.name).find((n) => n !== a && n !== b);
  };
  const pidOf = (by: string) => backends.find((b) => b.name === by)!.child.pid!;

  before(async function () {
    this.timeout(120_000);
    redis = await startRedis();
    backends = await Promise.all(['s1', 's2', 's3'].map((name) => startBackend(name, redis.url)));
    haproxy = await startHaproxy({ backends: backends.map((b) => b.port) });
    front = `${haproxy.url}/mcp`;
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
  });
  after(async () => {
    for (const b of backends) if (b.child.exitCode === null && b.child.signalCode === null) b.child.kill('SIGTERM');
    await Promise.all(backends.map((b) => (b.child.exitCode !== null || b.child.signalCode !== null ? undefined : new Promise((r) => b.child.once('exit', r)))));
    await haproxy?.stop();
    await redis?.stop();
  });

  async function ourClient(): Promise<Client> {
    const client = new Client({ info: { name: 'cluster-spec', version: '1.0.0' }, era: 'modern', capabilities: { extensions: { [TASKS_EXTENSION]: {} } } });
    client.onElicitation({
      form: async (req) => (req.message.startsWith('Counted') ? { action: 'accept', content: { observer: 'Ada' } } : { action: 'accept', content: { title: 'Dawn count', priority: 'high' } }),
    });
    await client.connect(createStreamableHttpClientTransport(front, { fetch: recordingFetch }));
    clients.push(client);
    return client;
  }

  /**
   * Poll `tasks/get` through HAProxy until `done`; each poll goes to the next backend. With
   * `lost`, a poll that dies in transport (in flight to a process just killed: HAProxy does not
   * resend a POST) is counted there and polled again, as a client would.
   */
  async function pollTask(client: Client, taskId: string, done: (t: JsonObject) => boolean, ms = 15_000, lost?: Error[]): Promise<JsonObject> {
    const deadline = Date.now() + ms;
    for (;;) {
      let t: JsonObject;
      try {
        t = await client.request('tasks/get', { taskId });
      } catch (e) {
        if (lost === undefined || Date.now() > deadline || !/failed|closed|502|503/.test((e as Error).message)) throw e;
        lost.push(e as Error);
        continue;
      }
      if (done(t)) return t;
      if (Date.now() > deadline) throw new Error(`task ${taskId} stayed ${JSON.stringify(t).slice(0, 300)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Send cheap requests (two first, so the last two were sequential) until round-robin's next turn is `wanted(next)`. */
  async function turnUntil(client: Client, taskId: string, wanted: (next: string) => boolean): Promise<void> {
    await client.request('tasks/get', { taskId });
    await client.request('tasks/get', { taskId });
    for (let i = 0; i < 2 * backends.length; i++) {
      const next = predictedNext();
      if (next !== undefined && wanted(next)) return;
      await client.request('tasks/get', { taskId });
    }
    throw new Error(`round-robin never offered the turn wanted (${trail(served.length - 8)})`);
  }
  /** Make the next request land on some backend other than `by`. */
  const nextNotOn = (client: Client, by: string, taskId: string) => turnUntil(client, taskId, (next) => next !== by);
  /** What went through HAProxy since `from`, for a failure message. */
  const trail = (from: number) => served.slice(from).map((s) => `${s.method}@${s.by}`).join(' ');

  it('[TOOL-044] a listen stream on one process hears a list change and a resource update made through a request another served', async () => {
    const client = await ourClient();
    const updates: string[] = [];
    let listChanges = 0;
    client.onNotification('notifications/resources/list_changed', () => void listChanges++);
    const wanted = client.resources$.subscribe(() => {});
    const subscribed = client.subscribe('notes://index').subscribe((p) => updates.push(p.uri));
    // The stream that carries both opt-ins (it replaced the first one), once its answer began.
    const listenDeadline = Date.now() + 10_000;
    let listen: Served | undefined;
    while (!listen && Date.now() < listenDeadline) {
      const last = served.filter((s) => s.method === 'subscriptions/listen').pop();
      if (last && last.by !== '?' && JSON.stringify(last.body.params).includes('notes://index') && JSON.stringify(last.body.params).includes('resourcesListChanged')) listen = last;
      else await new Promise((r) => setTimeout(r, 20));
    }
    expect(listen, `a listen stream with both opt-ins was opened; sent: ${served.map((s) => `${s.method} ${JSON.stringify(s.body.params).slice(0, 120)}`).join(' | ')}`).to.not.equal(undefined);
    let by = listen!.by;
    for (let attempt = 0; attempt < 3 && by === listen!.by; attempt++) {
      await new Promise((r) => setTimeout(r, 100));
      updates.length = 0;
      listChanges = 0;
      // An attempt is often three requests (two tools/call and the re-listing its list change
      // causes), a whole round-robin cycle: shift each attempt by one more request, or all three
      // may land where the first did.
      for (let i = 0; i < attempt; i++) await client.request('tools/list', {});
      const from = served.length;
      await client.callTool('add_note', { body: `Two otters at the weir (${attempt})` });
      by = served.slice(from).filter((s) => s.method === 'tools/call').pop()!.by;
    }
    expect(by, 'the note was added by another process than the one holding the listen stream').to.not.equal(listen!.by);
    const deadline = Date.now() + 5_000;
    while ((updates.length === 0 || listChanges === 0) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(updates).to.include('notes://index');
    expect(listChanges).to.be.greaterThan(0);
    wanted.unsubscribe();
    subscribed.unsubscribe();
  });

  it('[MRTR-011] [BASE-081] an MRTR round started on one process completes on another with no key configured; the state replayed is refused on a third', async () => {
    const client = await ourClient();
    let round1: Served | undefined;
    let retry: Served | undefined;
    for (let attempt = 0; attempt < 3 && (round1 === undefined || round1.by === retry!.by); attempt++) {
      const from = served.length;
      const added = await client.callTool('add_note', { body: `A kingfisher on the bank (${attempt})` });
      expect(textOf(added as JsonObject)).to.contain('Dawn count');
      const calls = served.slice(from).filter((s) => s.method === 'tools/call');
      [round1, retry] = [calls[0]!, calls[calls.length - 1]!];
      expect(retry.body.params).to.have.property('requestState');
    }
    expect(round1!.by, 'the retry went to another process').to.not.equal(retry!.by);
    // The same retry again, three times: round-robin takes it to every process; each refuses it.
    const refusedBy: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await undiciFetch(front, retry!.init);
      const text = await res.text();
      const data = /^data: (.*)$/m.exec(text)?.[1] ?? text;
      const answer = JSON.parse(data) as { error?: { code: number; data?: { reason?: string } } };
      expect(answer.error, text).to.deep.include({ code: -32602 });
      expect(answer.error!.data?.reason).to.equal('replayed');
      refusedBy.push(res.headers.get('x-served-by')!);
    }
    expect(refusedBy.filter((b) => b !== round1!.by && b !== retry!.by), 'refused on a third process').to.not.deep.equal([]);
  });

  it('the official SDK v2 client (2.4.0): its MRTR rounds cross processes and complete', async () => {
    const client = new ClientV2({ name: 'sdk-v2-cluster', version: '2.4.0' }, { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } } as never);
    client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { title: 'From the SDK', priority: 'low' } }));
    await client.connect(new HttpV2(new URL(front), { fetch: recordingFetch }));
    clients.push(client);
    let bys: string[] = [];
    for (let attempt = 0; attempt < 3 && new Set(bys).size < 2; attempt++) {
      const from = served.length;
      const r = (await client.callTool({ name: 'add_note', arguments: { body: `Sand martins nesting (${attempt})` } })) as JsonObject;
      expect(textOf(r)).to.contain('From the SDK');
      bys = served.slice(from).filter((s) => s.method === 'tools/call').map((s) => s.by);
      expect(bys.length).to.be.greaterThanOrEqual(2);
    }
    expect(new Set(bys).size, `rounds served by ${bys.join(', ')}`).to.be.greaterThan(1);
  });

  it('[TASK-093] a task created on one process is found at once, polled, answered (tasks/update) and cancelled through others, and its result names the process that ran it', async () => {
    const client = await ourClient();
    const created = await client.request('tools/call', { name: 'survey_transect', arguments: { stops: 2, stopMs: 200, confirm: true } });
    expect(created.resultType).to.equal('task');
    const taskId = created.taskId as string;
    const runner = lastBy();
    const from = served.length;
    const waiting = await pollTask(client, taskId, (t) => t.status === 'input_required');
    expect(((waiting.inputRequests as JsonObject).observer as JsonObject).method).to.equal('elicitation/create');
    await nextNotOn(client, runner, taskId);
    expect(await client.request('tasks/update', { taskId, inputResponses: { observer: { action: 'accept', content: { observer: 'Ada' } } } })).to.be.an('object');
    expect(lastBy(), `tasks/update went to another process (${trail(from)})`).to.not.equal(runner);
    const done = await pollTask(client, taskId, (t) => t.status === 'completed');
    expect(textOf(done.result as JsonObject)).to.contain('by Ada').and.contain(`(process ${pidOf(runner)})`);
    const pollers = new Set(served.slice(from).filter((s) => s.method === 'tasks/get').map((s) => s.by));
    expect([...pollers].filter((b) => b !== runner), 'polled on other processes').to.not.deep.equal([]);

    // Cancel a long one through another process; every process then says cancelled.
    const long = (await client.request('tools/call', { name: 'survey_transect', arguments: { stops: 50, stopMs: 1000 } })).taskId as string;
    const longRunner = lastBy();
    await nextNotOn(client, longRunner, long);
    await client.request('tasks/cancel', { taskId: long });
    expect(lastBy()).to.not.equal(longRunner);
    const seen = new Set<string>();
    for (let i = 0; i < 3; i++) {
      expect((await client.request('tasks/get', { taskId: long })).status).to.equal('cancelled');
      seen.add(lastBy());
    }
    expect(seen.size).to.equal(3);
  });

  it('SIGKILL of the process running a task: it ends failed within the lease, and a task it finished is still served', async () => {
    const client = await ourClient();
    // A task that finishes on some process, then a long one on the same process (round-robin: wait its turn).
    const first = await client.request('tools/call', { name: 'survey_transect', arguments: { stops: 1, stopMs: 0 } });
    const quick = first.taskId as string;
    expect(first.resultType, JSON.stringify(first)).to.equal('task');
    const victim = lastBy();
    await pollTask(client, quick, (t) => t.status === 'completed');
    await turnUntil(client, quick, (next) => next === victim);
    const longCall = await client.request('tools/call', { name: 'survey_transect', arguments: { stops: 50, stopMs: 1000 } });
    expect(longCall.resultType, JSON.stringify(longCall)).to.equal('task');
    const long = longCall.taskId as string;
    expect(lastBy(), `the long task runs on the same process (${trail(0)})`).to.equal(victim);
    expect((await client.request('tasks/get', { taskId: long })).status).to.equal('working');

    const killed = Date.now();
    backends.find((b) => b.name === victim)!.child.kill('SIGKILL');
    const lost: Error[] = [];
    const failed = await pollTask(client, long, (t) => t.status !== 'working', 4 * LEASE_MS + 5_000, lost);
    const tookMs = Date.now() - killed;
    // At most the poll in flight to the killed process is lost; HAProxy's health check takes it out at once.
    expect(lost.length, lost.map((e) => e.message).join('; ')).to.be.at.most(2);
    expect(failed.status).to.equal('failed');
    expect(failed.statusMessage).to.match(/process running this task stopped/);
    expect((failed.error as JsonObject).code).to.equal(-32603);
    expect(tookMs, `failed after ${tookMs} ms`).to.be.below(LEASE_MS + 3_000);
    const kept = await client.request('tasks/get', { taskId: quick });
    expect(kept.status).to.equal('completed');
    expect(textOf(kept.result as JsonObject)).to.contain(`(process ${pidOf(victim)})`);
    expect(lastBy()).to.not.equal(victim);
  });
});
