// createRedisStore as a server's one `store` option, on a real redis-server: several McpServers
// on one prefix stand for the processes of one deployment (each with its own connections and
// subscriptions). What a client would notice: a listen stream on one hears changes made on
// another, a multi round-trip request started on one completes on another with no key
// configured and its state is used once, a task is reachable (get, update, cancel, result) from
// any of them.
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import type { JsonObject, JsonRpcNotification, JsonRpcResponse } from '../../lib/jsonrpc/message.js';
import { createMcpServer, type McpServer } from '../../lib/mcp-server.js';
import { META } from '../../lib/protocol/schema/modern.js';
import { RedisUnavailableError } from '../../lib/redis/redis-connection.js';
import { createRedisStore, type RedisStore } from '../../lib/redis/store.js';
import { RedisReplayGuard } from '../../lib/redis/replay-guard.js';
import { TASKS_EXTENSION, startTask } from '../../lib/tasks/modern-tasks.js';
import { startRedis, type RunningRedis } from '../../scripts/real-parts/redis-server.js';
import { deferred, link } from '../tasks/helpers.js';

const EXT = { extensions: { [TASKS_EXTENSION]: {} }, elicitation: {} };
const NAME_SCHEMA = { type: 'object' as const, properties: { name: { type: 'string' as const } } };

describe('Redis store: one option shares a deployment between processes (a real redis-server)', function () {
  this.timeout(20_000);
  let redis: RunningRedis;
  const stores: RedisStore[] = [];
  const servers: McpServer[] = [];
  let prefix: string;
  let nextId = 0;

  before(async () => {
    redis = await startRedis();
  });
  beforeEach(() => {
    prefix = `s-${randomBytes(4).toString('hex')}:`;
  });
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
    await Promise.all(stores.splice(0).map((s) => s.close()));
  });
  after(async () => {
    await redis.stop();
  });

  /** One "process": its own store (connections, subscriptions) on the shared prefix, and a server. */
  async function process(options: { key?: string } = {}): Promise<{ mcp: McpServer; store: RedisStore; work: { started: number; aborted: unknown; gate: ReturnType<typeof deferred<void>> } }> {
    const store = await createRedisStore({ url: redis.url, prefix, tasks: { pollInterval: 10 } });
    stores.push(store);
    const mcp = createMcpServer(
      { name: 'node', version: '1.0.0' },
      {
        store,
        listChangedDebounceMs: 0,
        capabilities: { tools: { listChanged: true }, resources: { subscribe: true, listChanged: true } },
        ...(options.key !== undefined && { modern: { requestState: { key: options.key } } }),
      },
    );
    servers.push(mcp);
    const work = { started: 0, aborted: undefined as unknown, gate: deferred<void>() };
    mcp.registerResource('status', 'station://status', { mimeType: 'text/plain' }, (uri) => ({ contents: [{ uri, text: 'ok' }] }));
    mcp.registerTool('greet', { description: 'asks a name' }, async (_a, ctx) => {
      const r = await ctx.elicit({ message: 'Your name?', requestedSchema: NAME_SCHEMA });
      return `Hi ${String(r.content?.name)}`;
    });
    mcp.registerTool('work', { description: 'works until released', execution: { taskSupport: 'optional' } }, async (_a, ctx) => {
      work.started++;
      await startTask(ctx);
      await new Promise<void>((resolve, reject) => {
        void work.gate.promise.then(resolve);
        ctx.signal.addEventListener('abort', () => ((work.aborted = ctx.signal.reason), reject(ctx.signal.reason as Error)));
      });
      return 'worked';
    });
    mcp.registerTool('ask_in_task', { description: 'asks as a task', execution: { taskSupport: 'optional' } }, async (_a, ctx) => {
      await startTask(ctx);
      const r = await ctx.elicit({ message: 'Name for the report?', requestedSchema: NAME_SCHEMA }, { inputKey: 'who' });
      return `Report for ${String(r.content?.name)}`;
    });
    return { mcp, store, work };
  }

  function msg(method: string, params: JsonObject, capabilities: JsonObject = EXT) {
    return { jsonrpc: '2.0' as const, id: ++nextId, method, params: { ...params, _meta: { [META.protocolVersion]: '2026-07-28', [META.clientCapabilities]: capabilities } } };
  }
  async function answer(mcp: McpServer, method: string, params: JsonObject, capabilities?: JsonObject): Promise<JsonRpcResponse> {
    return (await mcp.server.core.answer(msg(method, params, capabilities), { notify: () => {} })).response!;
  }
  async function result(mcp: McpServer, method: string, params: JsonObject): Promise<JsonObject> {
    const r = await answer(mcp, method, params);
    if (!('result' in r)) throw new Error(`${method}: ${JSON.stringify(r.error)}`);
    return r.result;
  }
  async function until(mcp: McpServer, taskId: string, done: (t: JsonObject) => boolean): Promise<JsonObject> {
    const deadline = Date.now() + 5_000;
    for (;;) {
      const t = await result(mcp, 'tasks/get', { taskId });
      if (done(t)) return t;
      if (Date.now() > deadline) throw new Error(`task ${taskId} stayed ${JSON.stringify(t)}`);
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  it('[TOOL-044] a listen stream on A hears a resource update and a list change made on B, and not a process starting up', async () => {
    const [a, b] = [await process(), await process()];
    const frames: JsonRpcNotification[] = [];
    const stop = new AbortController();
    const listenRequest = msg('subscriptions/listen', { notifications: { toolsListChanged: true, resourceSubscriptions: ['station://status'] } });
    const heard = (method: string) =>
      new Promise<JsonRpcNotification>((resolve) => {
        const check = setInterval(() => {
          const f = frames.find((x) => x.method === method);
          if (!f) return;
          clearInterval(check);
          resolve(f);
        }, 2);
      });
    void a.mcp.server.core.answer(listenRequest, {
      notify: (f) => frames.push(f),
      signal: stop.signal,
    });
    await heard('notifications/subscriptions/acknowledged');
    // A process starting now registers its tools: its own setup, not a change to the deployment's lists.
    const c = await process();
    c.mcp.registerTool('setup', { description: 'registered at start, on C' }, () => 'setup');
    await new Promise((r) => setTimeout(r, 100));
    b.mcp.resources.notifyUpdated('station://status');
    const updated = await heard('notifications/resources/updated');
    expect(updated.params).to.deep.include({ uri: 'station://status' });
    expect(frames.filter((f) => f.method === 'notifications/tools/list_changed'), 'C starting up is not a list change').to.deep.equal([]);
    // B has served a request: a tool it registers now is a change every listener hears.
    await answer(b.mcp, 'server/discover', {});
    b.mcp.registerTool('late', { description: 'registered later, on B' }, () => 'late');
    const listChanged = await heard('notifications/tools/list_changed');
    expect((listChanged.params!._meta as JsonObject)[META.subscriptionId]).to.equal(listenRequest.id);
    stop.abort();
  });

  it('[MRTR-011] a round started on A completes on B with no key configured; the same state again is refused on C', async () => {
    const [a, b, c] = [await process(), await process(), await process()];
    const round1 = await result(a.mcp, 'tools/call', { name: 'greet', arguments: {} });
    expect(round1.resultType).to.equal('input_required');
    const retry = { name: 'greet', arguments: {}, inputResponses: { 'elicitation-1': { action: 'accept', content: { name: 'Ann' } } }, requestState: round1.requestState! };
    const done = await result(b.mcp, 'tools/call', retry);
    expect(done.content).to.deep.equal([{ type: 'text', text: 'Hi Ann' }]);
    const replay = await answer(c.mcp, 'tools/call', retry);
    expect('error' in replay && replay.error).to.deep.include({ code: -32602 });
    expect('error' in replay && (replay.error.data as JsonObject).reason).to.equal('replayed');
  });

  it('a key given in the options wins over the shared one: that process refuses the others\' states', async () => {
    const [a, own] = [await process(), await process({ key: 'k'.repeat(32) })];
    const round1 = await result(a.mcp, 'tools/call', { name: 'greet', arguments: {} });
    const refused = await answer(own.mcp, 'tools/call', { name: 'greet', arguments: {}, inputResponses: {}, requestState: round1.requestState! });
    expect('error' in refused && (refused.error.data as JsonObject).reason).to.equal('signature');
    expect(Buffer.from(a.store.requestState.key).equals(Buffer.from(own.store.requestState.key))).to.equal(true);
  });

  it('tasks/get and tasks/cancel on B reach a task running on A: the cancel aborts its handler there', async () => {
    const [a, b] = [await process(), await process()];
    const created = await result(a.mcp, 'tools/call', { name: 'work', arguments: {} });
    expect(created.resultType).to.equal('task');
    const taskId = created.taskId as string;
    expect((await result(b.mcp, 'tasks/get', { taskId })).status).to.equal('working');
    await result(b.mcp, 'tasks/cancel', { taskId });
    const deadline = Date.now() + 5_000;
    while (a.work.aborted === undefined && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2));
    expect(a.work.aborted, 'the handler on A was aborted').to.be.instanceOf(Error);
    expect([a.work.started, b.work.started]).to.deep.equal([1, 0]);
    expect((await result(a.mcp, 'tasks/get', { taskId })).status).to.equal('cancelled');
  });

  it('a task on A waiting for input shows its inputRequests on B; tasks/update on B resumes it on A; its result is on B', async () => {
    const [a, b] = [await process(), await process()];
    const taskId = (await result(a.mcp, 'tools/call', { name: 'ask_in_task', arguments: {} })).taskId as string;
    const waiting = await until(b.mcp, taskId, (t) => t.status === 'input_required');
    expect((waiting.inputRequests as Record<string, JsonObject>).who!.method).to.equal('elicitation/create');
    await result(b.mcp, 'tasks/update', { taskId, inputResponses: { who: { action: 'accept', content: { name: 'Bea' } } } });
    const done = await until(b.mcp, taskId, (t) => t.status === 'completed');
    expect((done.result as JsonObject).content).to.deep.equal([{ type: 'text', text: 'Report for Bea' }]);
  });

  it('a server that closes fails the tasks it was running (another process says so), rather than leaving them working', async () => {
    const [a, b] = [await process(), await process()];
    const taskId = (await result(a.mcp, 'tools/call', { name: 'work', arguments: {} })).taskId as string;
    await a.mcp.close();
    const t = await until(b.mcp, taskId, (x) => x.status !== 'working');
    expect(t.status).to.equal('failed');
    expect(t.statusMessage).to.match(/stopped before the task finished/);
  });

  it('2025-11-25 tasks: a tasks/result waiting on B (same user) gets the result of the task running on A', async () => {
    const [a, b] = [await process(), await process()];
    const onA = await link(a.mcp, { subject: 'alice' });
    const onB = await link(b.mcp, { subject: 'alice' });
    const handle = await onA.client.callToolAsTask('work');
    // B's server waits for the task's end (it runs on A): still waiting after a while.
    let settled = false;
    const waiting = onB.client.request('tasks/result', { taskId: handle.taskId }).finally(() => (settled = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(settled).to.equal(false);
    a.work.gate.resolve();
    const r = await waiting;
    expect(r.content).to.deep.equal([{ type: 'text', text: 'worked' }]);
    expect((r._meta as JsonObject)['io.modelcontextprotocol/related-task']).to.deep.equal({ taskId: handle.taskId });
    await onA.client.close();
    await onB.client.close();
  });

  it('close() closes what the store opened, once; an unreachable Redis is a RedisUnavailableError at creation', async () => {
    const store = await createRedisStore({ url: redis.url, prefix });
    expect(store.client.isOpen).to.equal(true);
    await Promise.all([store.close(), store.close()]);
    expect(store.client.isOpen).to.equal(false);
    const error = await createRedisStore({ url: 'redis://:secret@127.0.0.1:1' }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(RedisUnavailableError);
    expect((error as Error).message).not.to.contain('secret');
  });

  it('Redis going away: task requests fail at once with an error saying so (no waiting), and close() does not wait for Redis', async () => {
    const own = await startRedis();
    const store = await createRedisStore({ url: own.url, prefix });
    const mcp = createMcpServer({ name: 'alone', version: '1.0.0' }, { store });
    mcp.registerTool('work', { description: 'a task', execution: { taskSupport: 'optional' } }, async (_a, ctx) => {
      await startTask(ctx);
      return 'done';
    });
    const taskId = (await result(mcp, 'tools/call', { name: 'work', arguments: {} })).taskId as string;
    await own.stop();
    const started = Date.now();
    const refused = await answer(mcp, 'tasks/get', { taskId });
    expect('error' in refused && refused.error.message).to.match(/cannot reach Redis/);
    expect(Date.now() - started).to.be.below(1_000);
    await mcp.close();
    const closing = Date.now();
    await store.close();
    // At most a second per connection that has not noticed yet that Redis went away.
    expect(Date.now() - closing).to.be.below(3_500);
  });

  it('[MRTR-011] the replay guard: a nonce is claimed once across processes, for as long as the state is valid', async () => {
    const [a, b] = [await process(), await process()];
    const guardA = a.store.requestState.replayGuard;
    const guardB = new RedisReplayGuard(b.store.client, { prefix });
    const expiresAt = Date.now() + 60_000;
    expect(await guardA.claim('n-1', expiresAt)).to.equal(true);
    expect(await guardB.claim('n-1', expiresAt)).to.equal(false);
    expect(await guardB.claim('n-2', expiresAt)).to.equal(true);
    const ttl = await a.store.client.pTTL(`${prefix}request-state:n-1`);
    expect(ttl).to.be.within(55_000, 60_000);
    // Kept at least a minute, even when this clock says the state is about to expire (clock skew).
    expect(await guardA.claim('n-3', Date.now() + 5)).to.equal(true);
    expect(await a.store.client.pTTL(`${prefix}request-state:n-3`)).to.be.within(55_000, 60_000);
    const later = new RedisReplayGuard(b.store.client, { prefix, clock: { now: () => Date.now() + 3_600_000, setTimeout, clearTimeout } });
    expect(await later.claim('n-3', Date.now() + 5)).to.equal(false);
  });
});
