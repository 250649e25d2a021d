import { expect } from 'chai';
import { z } from 'zod';
import { ManualClock } from '../../lib/clock.js';
import { McpError } from '../../lib/errors.js';
import { RELATED_TASK } from '../../lib/tasks/wire-2025-11-25.js';
import { TASK_LIMIT_REACHED } from '../../lib/entries/server.js';
import { RawPeer, initializeRaw } from '../helpers/raw-peer.js';
import { deferred, link, taskServer, until } from './helpers.js';

async function rejection(p: Promise<unknown>): Promise<any> {
  return p.then(
    (v) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(v)}`);
    },
    (e: unknown) => e,
  );
}

describe('tasks (2025-11-25): server and client', () => {
  it('a quick tool is done by the first tasks/get: result() needs no poll interval (client clock never advanced)', async () => {
    const { mcp } = taskServer({ pollInterval: 60_000 });
    mcp.registerTool('quick', { execution: { taskSupport: 'optional' } }, () => 'at once');
    const { client, sent } = await link(mcp, { client: { clock: new ManualClock(0) } });
    const handle = await client.callToolAsTask('quick', {});
    const result = await handle.result();
    expect(result.content).to.deep.equal([{ type: 'text', text: 'at once' }]);
    expect(sent.filter((f) => f.method === 'tasks/get').length).to.be.at.most(1);
  });

  it('[TASK-001] a tool with taskSupport declares the tasks capability; tools/list shows execution', async () => {
    const { mcp } = taskServer();
    mcp.registerTool('plain', {}, () => 'x');
    let { client } = await link(mcp);
    expect(client.serverCapabilities).to.not.have.property('tasks');
    mcp.registerTool('slow', { execution: { taskSupport: 'optional' } }, () => 'done');
    ({ client } = await link(mcp));
    expect(client.serverCapabilities!.tasks).to.deep.equal({ cancel: {}, requests: { tools: { call: {} } }, list: {} });
    const tools = await client.listTools();
    expect(tools.find((t) => t.name === 'slow')!.execution).to.deep.equal({ taskSupport: 'optional' });
  });

  it('[TASK-007] [TASK-035] [TASK-057] [TASK-044] callTool on a required-task tool follows the task and returns the final result', async () => {
    const { mcp } = taskServer();
    mcp.registerTool('build', { execution: { taskSupport: 'required' }, inputSchema: z.object({ target: z.string() }) }, ({ target }) => `built ${target}`);
    const { client, sent, received } = await link(mcp);
    await client.listTools();
    const result = await client.callTool('build', { target: 'app' });
    expect(result.content).to.deep.equal([{ type: 'text', text: 'built app' }]);
    const call = sent.find((f) => f.method === 'tools/call');
    expect(call.params.task).to.deep.equal({});
    const created = received.find((f) => f.id === call.id);
    expect(created.result.task).to.include.keys('taskId', 'status', 'createdAt', 'lastUpdatedAt', 'ttl', 'pollInterval');
    expect(created.result.task.status).to.equal('working');
    expect(created.result).to.not.have.property('content');
    expect(sent.map((f) => f.method)).to.include.members(['tasks/get', 'tasks/result']);
    // tasks/result carries the related-task metadata; tasks/get does not.
    const resultReq = sent.find((f) => f.method === 'tasks/result');
    const resultRes = received.find((f) => f.id === resultReq.id);
    expect(resultRes.result._meta[RELATED_TASK]).to.deep.equal({ taskId: created.result.task.taskId });
    const getReq = sent.find((f) => f.method === 'tasks/get');
    expect(received.find((f) => f.id === getReq.id).result).to.not.have.property('_meta');
  });

  it('[TASK-006] [TASK-008] a required-task tool called without a task is -32601; a forbidden one called with a task is -32601', async () => {
    const { mcp } = taskServer();
    mcp.registerTool('req', { execution: { taskSupport: 'required' } }, () => 'r');
    mcp.registerTool('plain', {}, () => 'p');
    mcp.registerTool('forbid', { execution: { taskSupport: 'forbidden' } }, () => 'f');
    const { client } = await link(mcp);
    for (const [name, task] of [['req', undefined], ['plain', {}], ['forbid', {}]] as const) {
      const params: any = { name };
      if (task) params.task = task;
      const e = await rejection(client.request('tools/call', params));
      expect(e, name).to.be.instanceOf(McpError);
      expect(e.code, name).to.equal(-32601);
    }
    // Nothing else is affected.
    expect((await client.callTool('plain')).content).to.deep.equal([{ type: 'text', text: 'p' }]);
  });

  it('[TASK-016] a session of an older revision is served normally: the task param is ignored', async () => {
    const { mcp } = taskServer();
    mcp.registerTool('opt', { execution: { taskSupport: 'optional' } }, () => 'ok');
    const peer = new RawPeer();
    await mcp.connect(peer.transport);
    await initializeRaw(peer, '2025-06-18');
    peer.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'opt', task: { ttl: 1000 } } });
    const res = await peer.response(2);
    expect(res.result.content).to.deep.equal([{ type: 'text', text: 'ok' }]);
  });

  it('a 2025-06-18 session has no tasks/* methods: each is -32601 naming the revision, not "Task not found"', async () => {
    const { mcp } = taskServer();
    // A task tool: tasks are served (to 2025-11-25 sessions) from here on.
    mcp.registerTool('opt', { execution: { taskSupport: 'optional' } }, () => 'ok');
    const peer = new RawPeer();
    await mcp.connect(peer.transport);
    await initializeRaw(peer, '2025-06-18');
    const methods = ['tasks/get', 'tasks/result', 'tasks/cancel', 'tasks/list'];
    methods.forEach((method, i) => peer.send({ jsonrpc: '2.0', id: 10 + i, method, params: method === 'tasks/list' ? {} : { taskId: 'nope' } }));
    for (let i = 0; i < methods.length; i++) {
      const res = await peer.response(10 + i);
      expect(res.error.code, methods[i]).to.equal(-32601);
      expect(res.error.message).to.include('2025-06-18');
    }
  });

  it('[TASK-020] [TASK-031] [TASK-032] [TASK-033] [TASK-036] callToolAsTask: status$ goes working → completed; result() returns the tool result', async () => {
    const { mcp } = taskServer();
    const go = deferred();
    mcp.registerTool('job', { execution: { taskSupport: 'optional' } }, async (_a, ctx) => {
      await (ctx as any).status('Compiling');
      await go.promise;
      return 'finished';
    });
    const { client } = await link(mcp);
    const handle = await client.callToolAsTask('job', {}, { ttl: 30_000 });
    expect(handle.current!.status).to.equal('working');
    expect(handle.current!.ttl).to.equal(30_000);
    const seen: string[] = [];
    handle.status$.subscribe((t) => seen.push(`${t.status}:${t.statusMessage ?? ''}`));
    await until(() => seen.includes('working:Compiling'));
    go.resolve();
    const result = await handle.result();
    expect(result.content).to.deep.equal([{ type: 'text', text: 'finished' }]);
    expect(seen[seen.length - 1]).to.equal('completed:Completed');
    expect((await client.getTask(handle.taskId)).status).to.equal('completed');
  });

  it('[TASK-063] [TASK-039] [TASK-065] a tool result with isError fails the task; tasks/result returns that same result', async () => {
    const { mcp } = taskServer();
    mcp.registerTool('bad', { execution: { taskSupport: 'optional' } }, () => {
      throw new Error('disk full');
    });
    const { client } = await link(mcp);
    const handle = await client.callToolAsTask('bad');
    const result = await handle.result();
    expect(result.isError).to.equal(true);
    const task = await client.getTask(handle.taskId);
    expect(task.status).to.equal('failed');
    expect(task.statusMessage).to.match(/disk full/);
  });

  it('[TASK-058] [TASK-070] unknown ids, another identity\'s task and an expired task are -32602; nothing else is affected', async () => {
    const { mcp, clock } = taskServer();
    mcp.registerTool('job', { execution: { taskSupport: 'optional' } }, () => 'ok');
    const alice = await link(mcp);
    const bob = await link(mcp);
    const handle = await alice.client.callToolAsTask('job', {}, { ttl: 10_000 });
    await handle.result();
    for (const method of ['tasks/get', 'tasks/result', 'tasks/cancel']) {
      const unknown = await rejection(alice.client.request(method, { taskId: 'no-such-task' }));
      expect(unknown.code, method).to.equal(-32602);
      expect(unknown.message, method).to.match(/Task not found/);
      const foreign = await rejection(bob.client.request(method, { taskId: handle.taskId }));
      expect(foreign.code, method).to.equal(-32602);
      expect(foreign.message, method).to.match(/Task not found/);
    }
    expect(await bob.client.listTasks()).to.deep.equal([]);
    expect((await alice.client.getTask(handle.taskId)).status).to.equal('completed');
    clock.advance(10_000);
    const expired = await rejection(alice.client.getTask(handle.taskId));
    expect(expired.code).to.equal(-32602);
    expect(expired.message).to.match(/expired/);
    expect((await alice.client.callTool('job', {}, { task: false })).content).to.have.length(1);
  });

  it('[TASK-052] [TASK-053] [TASK-051] tasks/cancel stops the work and answers cancelled; the task stays cancelled; cancelling again is -32602', async () => {
    const { mcp } = taskServer();
    const started = deferred();
    let aborted: unknown;
    const finish = deferred();
    mcp.registerTool('long', { execution: { taskSupport: 'optional' } }, async (_a, ctx) => {
      ctx.signal.addEventListener('abort', () => (aborted = ctx.signal.reason));
      started.resolve();
      await finish.promise;
      return 'late result';
    });
    const { client } = await link(mcp);
    const handle = await client.callToolAsTask('long');
    await started.promise;
    const cancelled = await handle.cancel();
    expect(cancelled.status).to.equal('cancelled');
    expect(aborted).to.be.instanceOf(Error);
    finish.resolve();
    await new Promise((r) => setImmediate(r));
    expect((await client.getTask(handle.taskId)).status).to.equal('cancelled');
    const again = await rejection(handle.cancel());
    expect(again.code).to.equal(-32602);
    expect(again.message).to.equal("Cannot cancel task: already in terminal status 'cancelled'");
    const result = await rejection(handle.result());
    expect(result.message).to.match(/cancelled/);
  });

  it('[TASK-060] cancel after completion is -32602 naming the status', async () => {
    const { mcp } = taskServer();
    mcp.registerTool('quick', { execution: { taskSupport: 'optional' } }, () => 'ok');
    const { client } = await link(mcp);
    const handle = await client.callToolAsTask('quick');
    await handle.result();
    const e = await rejection(handle.cancel());
    expect(e.code).to.equal(-32602);
    expect(e.message).to.equal("Cannot cancel task: already in terminal status 'completed'");
  });

  it('[TASK-027] [TASK-028] [TASK-029] [TASK-030] [TASK-041] an elicitation moves the task to input_required, travels on tasks/result with related-task, and resumes it', async () => {
    const { mcp, store } = taskServer();
    mcp.registerTool('deploy', { execution: { taskSupport: 'optional' } }, async (_a, ctx) => {
      const answer = await ctx.elicit({ message: 'Deploy to which region?', requestedSchema: { type: 'object', properties: { region: { type: 'string' } }, required: ['region'] } });
      return `deployed to ${(answer.content as any).region}`;
    });
    const statuses: string[] = [];
    store.changes$.subscribe((c) => statuses.push(c.record?.status ?? 'purged'));
    const asked: any[] = [];
    const { client, sent, received } = await link(mcp, {
      setup: (c) =>
        c.onElicitation({
          form: async (req: any) => {
            asked.push(req);
            return { action: 'accept', content: { region: 'eu-west' } };
          },
        }),
    });
    const result = await client.callTool('deploy', {}, { task: true });
    expect(result.content).to.deep.equal([{ type: 'text', text: 'deployed to eu-west' }]);
    expect(asked).to.have.length(1);
    const elicitation = received.find((f) => f.method === 'elicitation/create');
    const taskId = sent.find((f) => f.method === 'tasks/get').params.taskId;
    expect(elicitation.params._meta[RELATED_TASK]).to.deep.equal({ taskId });
    expect(statuses).to.deep.equal(['input_required', 'working', 'completed']);
  });

  it('[TASK-047] [TASK-048] [TASK-050] [TASK-059] [TASK-071] tasks/list shows only the caller\'s tasks, in pages; a bad cursor is -32602', async () => {
    const { mcp } = taskServer({ pageSize: 2 });
    mcp.registerTool('job', { execution: { taskSupport: 'optional' } }, () => 'ok');
    const alice = await link(mcp);
    const bob = await link(mcp);
    const mine = [];
    for (let i = 0; i < 5; i++) mine.push((await alice.client.callToolAsTask('job')).taskId);
    await bob.client.callToolAsTask('job');
    const page = (await alice.client.request('tasks/list')) as any;
    expect(page.tasks).to.have.length(2);
    expect(page.nextCursor).to.be.a('string');
    expect((await alice.client.listTasks()).map((t) => t.taskId)).to.deep.equal(mine);
    expect(await bob.client.listTasks()).to.have.length(1);
    const bad = await rejection(alice.client.request('tasks/list', { cursor: 'not-a-cursor' }));
    expect(bad.code).to.equal(-32602);
  });

  it('[TASK-072] a poll storm is rate limited (-32090 TASK_LIMIT_REACHED, not an internal error, saying when to retry); other sessions are not affected', async () => {
    const { mcp } = taskServer({ rateLimit: { limit: 5, windowMs: 1000 } });
    mcp.registerTool('job', { execution: { taskSupport: 'optional' } }, () => new Promise(() => {}));
    const storm = await link(mcp);
    const calm = await link(mcp);
    const handle = await storm.client.callToolAsTask('job');
    const calmHandle = await calm.client.callToolAsTask('job');
    const outcomes = await Promise.allSettled(Array.from({ length: 20 }, () => storm.client.getTask(handle.taskId)));
    const refused = outcomes.filter((o) => o.status === 'rejected') as PromiseRejectedResult[];
    expect(refused.length).to.equal(15);
    expect(refused[0]!.reason.code).to.equal(TASK_LIMIT_REACHED).and.to.equal(-32090);
    expect(refused[0]!.reason.message).to.match(/retry in \d+ ms/);
    const { taskLimit } = refused[0]!.reason.data as { taskLimit: { scope: string; limit: number; windowMs: number; retryAfterMs: number } };
    expect([taskLimit.scope, taskLimit.limit, taskLimit.windowMs]).to.deep.equal(['rate', 5, 1000]);
    expect(taskLimit.retryAfterMs).to.be.a('number').and.to.be.greaterThan(0);
    expect((await calm.client.getTask(calmHandle.taskId)).status).to.equal('working');
  });

  it('[TASK-066] a task bound to the authorization subject is found again from a new connection', async () => {
    const { mcp } = taskServer();
    const go = deferred();
    mcp.registerTool('job', { execution: { taskSupport: 'optional' } }, async () => {
      await go.promise;
      return 'survived';
    });
    const first = await link(mcp, { subject: 'alice' });
    const handle = await first.client.callToolAsTask('job');
    await first.client.close();
    const second = await link(mcp, { subject: 'alice' });
    const stranger = await link(mcp, { subject: 'mallory' });
    const resumed = second.client.task(handle.taskId);
    go.resolve();
    expect((await resumed.result()).content).to.deep.equal([{ type: 'text', text: 'survived' }]);
    expect((await rejection(stranger.client.getTask(handle.taskId))).code).to.equal(-32602);
  });

  it('a task bound to a session (no authorization) is cancelled when that session ends', async () => {
    const { mcp, store } = taskServer();
    let aborted = false;
    const started = deferred();
    mcp.registerTool('job', { execution: { taskSupport: 'optional' } }, (_a, ctx) => {
      started.resolve();
      return new Promise((_r, reject) => ctx.signal.addEventListener('abort', () => ((aborted = true), reject(new Error('stop')))));
    });
    const { client } = await link(mcp);
    const handle = await client.callToolAsTask('job');
    const statuses: string[] = [];
    store.changes$.subscribe((c) => statuses.push(c.record?.status ?? 'purged'));
    await started.promise;
    await client.close();
    await until(() => aborted);
    expect(statuses).to.deep.equal(['cancelled']);
    expect(mcp.tasks.running).to.equal(0);
    void handle;
  });

  it('progress reported by a task reaches the caller with the original progress token', async () => {
    const { mcp } = taskServer();
    const go = deferred();
    mcp.registerTool('job', { execution: { taskSupport: 'optional' } }, async (_a, ctx) => {
      await go.promise;
      ctx.progress(1, 2, 'half');
      ctx.progress(2, 2, 'all');
      return 'ok';
    });
    const { client } = await link(mcp);
    const progress: any[] = [];
    const result = client.callTool('job', {}, { task: true, onprogress: (p) => progress.push(p) });
    await until(() => mcp.tasks.running === 1);
    go.resolve();
    await result;
    expect(progress.map((p) => p.message)).to.deep.equal(['half', 'all']);
  });

  it('[TASK-064] a JSON-RPC error of the tool call fails the task, and tasks/result returns that same error', async () => {
    const { mcp } = taskServer();
    mcp.registerTool('needs-login', { execution: { taskSupport: 'optional' } }, () => {
      throw new McpError(-32042, 'This request requires more information.', { elicitations: [] });
    });
    const { client } = await link(mcp);
    const handle = await client.callToolAsTask('needs-login');
    const e = await rejection(handle.result());
    expect(e.code).to.equal(-32042);
    expect(e.message).to.equal('This request requires more information.');
    const task = await client.getTask(handle.taskId);
    expect(task.status).to.equal('failed');
    const again = await rejection(client.request('tasks/result', { taskId: handle.taskId }));
    expect(again.code).to.equal(-32042);
  });

  it('[TASK-002] [TASK-003] [TASK-004] [TASK-005] our client asks for a task only where the server and the tool allow one', async () => {
    const plainServer = taskServer();
    plainServer.mcp.registerTool('x', {}, () => 'plain');
    const a = await link(plainServer.mcp);
    expect(a.client.serverCapabilities).to.not.have.property('tasks');
    expect((await a.client.callTool('x', {}, { task: true })).content).to.deep.equal([{ type: 'text', text: 'plain' }]);
    expect((await rejection(a.client.callToolAsTask('x'))).code).to.equal(-32601);
    expect(a.sent.find((f) => f.method === 'tools/call').params).to.not.have.property('task');

    const { mcp } = taskServer();
    mcp.registerTool('opt', { execution: { taskSupport: 'optional' } }, () => 'o');
    mcp.registerTool('never', {}, () => 'n');
    const b = await link(mcp);
    await b.client.listTools();
    expect((await b.client.callTool('never', {}, { task: true })).content).to.deep.equal([{ type: 'text', text: 'n' }]);
    expect((await rejection(b.client.callToolAsTask('never'))).code).to.equal(-32601);
    expect((await b.client.callTool('opt')).content).to.deep.equal([{ type: 'text', text: 'o' }]);
    const calls = b.sent.filter((f) => f.method === 'tools/call');
    expect(calls.map((f) => 'task' in f.params)).to.deep.equal([false, false]);
  });

  it('[TASK-010] [TASK-034] [TASK-011] the client polls at the server\'s pollInterval, on its own clock, until the task ends', async () => {
    const clock = new ManualClock(0);
    const { mcp, store } = taskServer({ pollInterval: 1_000 });
    const go = deferred();
    mcp.registerTool('job', { execution: { taskSupport: 'optional' } }, () => go.promise.then(() => 'ok'));
    const { client, sent } = await link(mcp, { client: { clock } });
    const gets = () => sent.filter((f) => f.method === 'tasks/get').length;
    const handle = await client.callToolAsTask('job');
    expect(handle.current!.pollInterval).to.equal(1_000);
    const result = handle.result();
    await until(() => gets() === 1);
    await new Promise((r) => setImmediate(r));
    clock.advance(999);
    await new Promise((r) => setImmediate(r));
    expect(gets()).to.equal(1);
    clock.advance(1);
    await until(() => gets() === 2);
    go.resolve();
    await until(() => (store as any).tasks.get(handle.taskId).record.status === 'completed');
    await new Promise((r) => setImmediate(r));
    clock.advance(1_000);
    expect((await result).content).to.deep.equal([{ type: 'text', text: 'ok' }]);
    expect(gets()).to.equal(3);
    clock.advance(10_000);
    await new Promise((r) => setImmediate(r));
    expect(gets(), 'no polling after a terminal status').to.equal(3);
  });

  it('[TASK-040] [TASK-055] [TASK-056] every message about a task names it in related-task, both ways, except tasks/get, tasks/list and tasks/cancel', async () => {
    const { mcp } = taskServer();
    mcp.registerTool('chatty', { execution: { taskSupport: 'optional' } }, async (_a, ctx) => {
      ctx.sendProgress(1, 2);
      ctx.log.info('half way');
      const answer = await ctx.elicit({ message: 'Go on?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } });
      ctx.sendProgress(2, 2);
      return `answer ${answer.action}`;
    });
    const { client, sent, received } = await link(mcp, { setup: (c) => c.onElicitation({ form: async () => ({ action: 'accept', content: { ok: true } }) }) });
    await client.setLoggingLevel('info');
    const handle = await client.callToolAsTask('chatty', {}, { onprogress: () => undefined } as never);
    expect((await handle.result()).content).to.deep.equal([{ type: 'text', text: 'answer accept' }]);
    await client.listTasks();
    await rejection(handle.cancel());
    const taskId = handle.taskId;
    const related = (f: any) => (f.params ?? f.result)?._meta?.[RELATED_TASK];
    // The task's request to the client, the client's answer, the task's notifications, tasks/result's answer.
    const elicitation = received.find((f) => f.method === 'elicitation/create');
    expect(related(elicitation)).to.deep.equal({ taskId });
    expect(related(sent.find((f) => f.id === elicitation.id && 'result' in f))).to.deep.equal({ taskId });
    const notes = received.filter((f) => f.method === 'notifications/message' || f.method === 'notifications/progress');
    expect(notes.map((n) => n.method)).to.include.members(['notifications/message', 'notifications/progress']);
    for (const n of notes) expect(related(n), n.method).to.deep.equal({ taskId });
    const resultCall = sent.find((f) => f.method === 'tasks/result');
    if (resultCall) expect(related(received.find((f) => f.id === resultCall.id))).to.deep.equal({ taskId });
    // Not on the operations whose params name the task, in either direction.
    const plain = sent.filter((f) => ['tasks/get', 'tasks/list', 'tasks/cancel'].includes(f.method));
    expect(plain.map((f) => f.method)).to.include.members(['tasks/get', 'tasks/list', 'tasks/cancel']);
    for (const f of plain) {
      expect(related(f), f.method).to.equal(undefined);
      expect(related(received.find((r) => r.id === f.id)), `${f.method} answer`).to.equal(undefined);
    }
  });

  it('[TASK-061] [TASK-062] a task store that fails answers -32603 saying what failed, and the server stays up', async () => {
    const { mcp, store } = taskServer();
    mcp.registerTool('job', { execution: { taskSupport: 'optional' } }, () => 'ok');
    const { client } = await link(mcp);
    const handle = await client.callToolAsTask('job');
    await handle.result();
    const get = store.get.bind(store);
    store.get = () => Promise.reject(new Error('task store unreachable (connection refused)'));
    const e = await rejection(client.getTask(handle.taskId));
    expect(e).to.be.instanceOf(McpError);
    expect(e.code).to.equal(-32603);
    expect(e.message).to.match(/task store unreachable \(connection refused\)/);
    store.get = get;
    expect((await client.getTask(handle.taskId)).status).to.equal('completed');
  });

  it('[TASK-079] [TASK-080] [TASK-081] audits every task created, ended and retrieved, and every refused lookup or poll, with the caller\'s identity', async () => {
    const { mcp } = taskServer({ rateLimit: { limit: 6, windowMs: 60_000 } });
    mcp.registerTool('job', { execution: { taskSupport: 'optional' } }, () => 'ok');
    const events: any[] = [];
    mcp.tasks.audit$.subscribe((e) => events.push(e));
    const alice = await link(mcp, { subject: 'alice' });
    const bob = await link(mcp, { subject: 'bob' });
    const handle = await alice.client.callToolAsTask('job');
    await handle.result();
    await alice.client.listTasks();
    await rejection(bob.client.getTask(handle.taskId));
    await rejection(bob.client.getTask('made-up-id'));
    // Bob keeps guessing: the rate limit stops him, and that is in the trail too.
    for (let i = 0; i < 6; i++) await bob.client.getTask(`guess-${i}`).catch(() => undefined);
    const by = (owner: string) => events.filter((e) => e.owner === owner).map((e) => [e.type, e.method ?? '', e.status ?? e.reason ?? '']);
    expect(by('sub:alice')).to.deep.include.members([
      ['created', 'tools/call', 'working'],
      ['ended', '', 'completed'],
      ['retrieved', 'tasks/get', 'completed'],
      ['retrieved', 'tasks/result', 'completed'],
      ['retrieved', 'tasks/list', ''],
    ]);
    const bobs = by('sub:bob');
    expect(bobs.slice(0, 2)).to.deep.equal([
      ['refused', 'tasks/get', 'not found'],
      ['refused', 'tasks/get', 'not found'],
    ]);
    expect(bobs.filter(([, , why]) => why === 'rate limited')).to.have.length.at.least(1);
    expect(events.find((e) => e.type === 'refused' && e.taskId === handle.taskId).owner).to.equal('sub:bob');
    for (const e of events) expect(e.at).to.be.a('number');
  });

  it('[TASK-046] status notifications carry the task, without related-task metadata', async () => {
    const { mcp } = taskServer();
    mcp.registerTool('job', { execution: { taskSupport: 'optional' } }, () => 'ok');
    const { client, received } = await link(mcp);
    const handle = await client.callToolAsTask('job');
    await handle.result();
    const notes = received.filter((f) => f.method === 'notifications/tasks/status');
    expect(notes.map((n) => n.params.status)).to.include('completed');
    for (const n of notes) {
      expect(n.params.taskId).to.equal(handle.taskId);
      expect(n.params._meta?.[RELATED_TASK]).to.equal(undefined);
    }
  });

  it('[TASK-037] [TASK-038] [TASK-042] [TASK-043] tasks/result blocks until the task ends; the taskId param wins over related-task metadata', async () => {
    const { mcp } = taskServer();
    const go = deferred();
    mcp.registerTool('job', { execution: { taskSupport: 'optional' } }, async () => {
      await go.promise;
      return 'late';
    });
    const { client } = await link(mcp);
    const a = await client.callToolAsTask('job');
    const b = await client.callToolAsTask('job');
    let answered = false;
    const blocked = client.request('tasks/result', { taskId: a.taskId, _meta: { [RELATED_TASK]: { taskId: b.taskId } } }, { timeout: 60_000 }).then((r) => {
      answered = true;
      return r;
    });
    const got = (await client.request('tasks/get', { taskId: a.taskId, _meta: { [RELATED_TASK]: { taskId: b.taskId } } })) as any;
    expect(got.taskId).to.equal(a.taskId);
    // tasks/get was answered after tasks/result arrived (one ordered transport): that one still waits.
    expect(answered).to.equal(false);
    go.resolve();
    const result = (await blocked) as any;
    expect(result.content).to.deep.equal([{ type: 'text', text: 'late' }]);
    expect(result._meta[RELATED_TASK]).to.deep.equal({ taskId: a.taskId });
    // Terminal now: answered at once, the same result.
    expect(((await client.request('tasks/result', { taskId: a.taskId })) as any).content).to.deep.equal(result.content);
  });
});
