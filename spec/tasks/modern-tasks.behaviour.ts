// The tasks extension (io.modelcontextprotocol/tasks) on the modern request path, through the
// request-scoped core as every transport drives it (`server.core.answer`). Run against each task
// store (modern-tasks.spec.ts: in memory; spec/redis/modern-tasks.spec.ts: on Redis).
import { expect } from 'chai';
import { McpError } from '../../lib/errors.js';
import type { JsonObject, JsonRpcResponse } from '../../lib/jsonrpc/message.js';
import { createMcpServer, type McpServer } from '../../lib/mcp-server.js';
import { META } from '../../lib/protocol/schema/modern.js';
import { TASKS_EXTENSION, startTask } from '../../lib/tasks/modern-tasks.js';
import { checkRequestHeaders } from '../../lib/server-bindings/modern-http.js';
import type { IncomingMessage } from 'node:http';
import type { TaskStore } from '../../lib/tasks/task-store.js';

const EXT = { extensions: { [TASKS_EXTENSION]: {} } };
const EXT_ELICIT = { ...EXT, elicitation: {} };

/** A promise settled from outside: tools wait on it instead of on the clock. */
function gate<T>() {
  let open!: (v: T) => void;
  const p = new Promise<T>((r) => (open = r));
  return { p, open };
}

/** A fresh task store for one test, and how to dispose of it (undefined: the server's own, in memory). */
export type StoreFactory = () => Promise<{ store: TaskStore; dispose(): Promise<void> }>;

export function describeModernTasks(label: string, storeFactory?: StoreFactory): void {
  describe(`tasks/modern-tasks: the tasks extension on 2026-07-28 requests (${label})`, () => {
    let mcp: McpServer;
    let release: ReturnType<typeof gate<void>>;
    let started: number;
    let nextId = 0;
    let dispose: (() => Promise<void>) | undefined;

    beforeEach(async () => {
      started = 0;
      release = gate<void>();
      const made = await storeFactory?.();
      dispose = made?.dispose;
      mcp = createMcpServer({ name: 'tasks-ext', version: '1.0.0' }, made ? { tasks: { store: made.store } } : {});
      mcp.registerTool('sync_only', { description: 'never a task' }, () => 'plain');
      mcp.registerTool('work', { description: 'waits for the gate', execution: { taskSupport: 'optional' } }, async (_a, ctx) => {
        started++;
        await Promise.race([release.p, new Promise((_r, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason as Error)))]);
        return 'worked';
      });
      mcp.registerTool('only_task', { description: 'required', execution: { taskSupport: 'required' } }, async () => {
        await release.p;
        throw new Error('tool broke');
      });
      mcp.registerTool('protocol_fail', { description: 'protocol error', execution: { taskSupport: 'optional' } }, async () => {
        await release.p;
        throw new McpError(-32603, 'internal trouble');
      });
      mcp.registerTool('ask_in_task', { description: 'asks two things as a task', execution: { taskSupport: 'optional' } }, async (_a, ctx) => {
        await startTask(ctx);
        const schema = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } } };
        const [a, b] = await Promise.all([ctx.elicit({ message: 'a?', requestedSchema: schema }, { inputKey: 'a' }), ctx.elicit({ message: 'b?', requestedSchema: schema }, { inputKey: 'b' })]);
        return `${a.action}/${b.action}`;
      });
      mcp.registerTool('mrtr_then_task', { description: 'MRTR, then a task', execution: { taskSupport: 'required' } }, async (_a, ctx) => {
        const r = await ctx.elicit({ message: 'name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } }, { inputKey: 'user_name' });
        await startTask(ctx);
        return `Hi ${String(r.content?.name)}`;
      });
    });

    afterEach(async () => {
      release.open();
      await mcp.close();
      await dispose?.();
    });

    async function call(method: string, params: JsonObject, capabilities: JsonObject = EXT, authInfo?: unknown): Promise<{ response: JsonRpcResponse; status: number }> {
      const msg = { jsonrpc: '2.0' as const, id: ++nextId, method, params: { ...params, _meta: { [META.protocolVersion]: '2026-07-28', [META.clientCapabilities]: capabilities } } };
      const a = await mcp.server.core.answer(msg, { notify: () => {}, authInfo });
      return { response: a.response!, status: a.status };
    }
    async function result(method: string, params: JsonObject, capabilities: JsonObject = EXT): Promise<JsonObject> {
      const { response } = await call(method, params, capabilities);
      if (!('result' in response)) throw new Error(`expected a result, got ${JSON.stringify(response.error)}`);
      return response.result;
    }
    async function errorCode(method: string, params: JsonObject, capabilities: JsonObject = EXT): Promise<number> {
      const { response } = await call(method, params, capabilities);
      if (!('error' in response)) throw new Error(`expected an error, got ${JSON.stringify(response.result)}`);
      return response.error.code;
    }
    async function until(taskId: string, done: (t: JsonObject) => boolean): Promise<JsonObject> {
      const deadline = Date.now() + 5_000;
      for (;;) {
        const t = await result('tasks/get', { taskId });
        if (done(t)) return t;
        if (Date.now() > deadline) throw new Error(`task ${taskId} did not get there: ${JSON.stringify(t)}`);
        await new Promise((r) => setTimeout(r, 1));
      }
    }

    it('advertises the extension under capabilities.extensions and no v1 capabilities.tasks in server/discover', async () => {
      const d = await result('server/discover', {});
      const caps = d.capabilities as JsonObject;
      expect((caps.extensions as JsonObject)[TASKS_EXTENSION]).to.deep.equal({});
      expect(caps).not.to.have.property('tasks');
    });

    it('[TASK-089] [TASK-092] [TASK-098] [TASK-101] [TASK-104] answers a still-working task-supporting call with a flat CreateTaskResult that tasks/get finds at once, then inlines the result', async () => {
      const created = await result('tools/call', { name: 'work', arguments: {} });
      expect(created.resultType).to.equal('task');
      expect(created).to.include.keys('taskId', 'status', 'createdAt', 'lastUpdatedAt', 'ttlMs');
      expect(created).not.to.have.any.keys('task', 'result', 'requestState', 'ttl', 'pollInterval');
      const taskId = created.taskId as string;
      const working = await result('tasks/get', { taskId });
      expect([working.resultType, working.status]).to.deep.equal(['complete', 'working']);
      expect(working).not.to.have.any.keys('result', 'error');
      release.open();
      const done = await until(taskId, (t) => t.status === 'completed');
      expect((done.result as JsonObject).content).to.deep.equal([{ type: 'text', text: 'worked' }]);
    });

    it('[TASK-084] [TASK-127] [TASK-129] refuses tasks/* with -32021 to a request without the extension, and runs optional tools synchronously for it', async () => {
      for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
        expect(await errorCode(method, { taskId: 'x', inputResponses: {} }, {}), method).to.equal(-32021);
      }
      release.open();
      const plain = await result('tools/call', { name: 'work', arguments: {} }, {});
      expect(plain.resultType).to.equal('complete');
      expect(plain).not.to.have.property('taskId');
    });

    it('[TASK-087] refuses a task-required tool with -32021 naming the extension when the request did not declare it', async () => {
      const { response, status } = await call('tools/call', { name: 'only_task', arguments: {} }, {});
      expect(status).to.equal(400);
      expect('error' in response && response.error).to.deep.include({ code: -32021 });
      expect('error' in response && (response.error.data as JsonObject).requiredCapabilities).to.deep.equal(EXT);
      expect(started).to.equal(0);
    });

    it('[TASK-091] [TASK-103] [TASK-131] [TASK-132] [TASK-133] [TASK-134] [TASK-135] completes a task whose tool reported an error (isError) and fails one that threw a JSON-RPC error', async () => {
      const toolError = (await result('tools/call', { name: 'only_task', arguments: {} })).taskId as string;
      const protocol = (await result('tools/call', { name: 'protocol_fail', arguments: {} })).taskId as string;
      release.open();
      const a = await until(toolError, (t) => t.status !== 'working');
      expect(a.status).to.equal('completed');
      expect((a.result as JsonObject).isError).to.equal(true);
      const b = await until(protocol, (t) => t.status !== 'working');
      expect(b.status).to.equal('failed');
      expect(b.error).to.deep.include({ code: -32603, message: 'internal trouble' });
      expect(b.statusMessage).to.be.a('string').and.contain('internal trouble');
      expect(b).not.to.have.property('result');
    });

    it('[TASK-102] [TASK-117] [TASK-119] acknowledges tasks/cancel with an empty complete result, aborts the work, and acknowledges again on a terminal task', async () => {
      const taskId = (await result('tools/call', { name: 'work', arguments: {} })).taskId as string;
      const ack = await result('tasks/cancel', { taskId });
      expect(Object.keys(ack).filter((k) => k !== '_meta')).to.deep.equal(['resultType']);
      expect((await until(taskId, () => true)).status).to.equal('cancelled');
      const again = await result('tasks/cancel', { taskId });
      expect(again.resultType).to.equal('complete');
      expect((await result('tasks/get', { taskId })).status).to.equal('cancelled');
    });

    it('[TASK-112] [TASK-118] [TASK-123] [TASK-124] [TASK-125] answers -32602 for an unknown task id (get, update, cancel), and -32601 for tasks/list and tasks/result', async () => {
      expect(await errorCode('tasks/get', { taskId: 'no-such-task' })).to.equal(-32602);
      expect(await errorCode('tasks/update', { taskId: 'no-such-task', inputResponses: {} })).to.equal(-32602);
      expect(await errorCode('tasks/cancel', { taskId: 'no-such-task' })).to.equal(-32602);
      expect(await errorCode('tasks/list', {})).to.equal(-32601);
      expect(await errorCode('tasks/result', { taskId: 'x' })).to.equal(-32601);
    });

    it('[TASK-099] [TASK-100] [TASK-111] [TASK-114] [TASK-115] parks a task in input_required with its inputRequests, keeps unanswered keys after a partial tasks/update, and resumes', async () => {
      const taskId = (await result('tools/call', { name: 'ask_in_task', arguments: {} }, EXT_ELICIT)).taskId as string;
      const waiting = await until(taskId, (t) => t.status === 'input_required' && Object.keys((t.inputRequests as JsonObject) ?? {}).length === 2);
      expect((waiting.inputRequests as Record<string, JsonObject>).a!.method).to.equal('elicitation/create');
      const ack = await result('tasks/update', { taskId, inputResponses: { a: { action: 'accept', content: { ok: true } }, unknown: { x: 1 } } });
      expect(ack).not.to.have.any.keys('taskId', 'status');
      expect(ack.resultType).to.equal('complete');
      // tasks/update is acknowledged at once and applied by the task (eventually consistent, as the extension allows).
      const partial = await until(taskId, (t) => Object.keys((t.inputRequests as JsonObject) ?? {}).length < 2);
      expect(partial.status).to.equal('input_required');
      expect(Object.keys(partial.inputRequests as JsonObject)).to.deep.equal(['b']);
      await result('tasks/update', { taskId, inputResponses: { b: { action: 'decline' } } });
      const done = await until(taskId, (t) => t.status === 'completed');
      expect((done.result as JsonObject).content).to.deep.equal([{ type: 'text', text: 'accept/decline' }]);
    });

    it('[TASK-094] gathers input through MRTR before the task exists, then answers CreateTaskResult without requestState', async () => {
      const round1 = await result('tools/call', { name: 'mrtr_then_task', arguments: {} }, EXT_ELICIT);
      expect(round1.resultType).to.equal('input_required');
      expect(round1).not.to.have.property('taskId');
      const round2 = await result('tools/call', { name: 'mrtr_then_task', arguments: {}, inputResponses: { user_name: { action: 'accept', content: { name: 'Alice' } } }, requestState: round1.requestState! }, EXT_ELICIT);
      expect(round2.resultType).to.equal('task');
      expect(round2).not.to.have.any.keys('requestState', 'inputRequests');
      const done = await until(round2.taskId as string, (t) => t.status === 'completed');
      expect((done.result as JsonObject).content).to.deep.equal([{ type: 'text', text: 'Hi Alice' }]);
    });

    it('[TASK-090] leaves tools without task support synchronous, with resultType "complete", even with a legacy task param', async () => {
      const r = await result('tools/call', { name: 'sync_only', arguments: {}, task: { ttl: 1000 } });
      expect(r.resultType).to.equal('complete');
      expect(r).not.to.have.property('taskId');
    });

    it('routes tasks/get, tasks/update and tasks/cancel by Mcp-Name = taskId on HTTP (-32020 when it differs)', () => {
      const req = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;
      for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
        const msg = { jsonrpc: '2.0' as const, id: 1, method, params: { taskId: 't-1' } };
        expect(() => checkRequestHeaders(req({ 'mcp-method': method, 'mcp-name': 't-1' }), msg)).not.to.throw();
        expect(() => checkRequestHeaders(req({ 'mcp-method': method, 'mcp-name': 'other' }), msg))
          .to.throw()
          .with.property('code', -32020);
      }
    });

    it('[TASK-137] binds a task to the authenticated caller: another subject gets -32602 as for an unknown id, and cannot cancel it', async () => {
      const alice = { sub: 'alice' };
      const created = await call('tools/call', { name: 'work', arguments: {} }, EXT, alice);
      const taskId = ('result' in created.response && created.response.result.taskId) as string;
      for (const method of ['tasks/get', 'tasks/cancel']) {
        const other = await call(method, { taskId }, EXT, { sub: 'mallory' });
        expect('error' in other.response && other.response.error.code, method).to.equal(-32602);
      }
      const own = await call('tasks/get', { taskId }, EXT, alice);
      expect('result' in own.response && own.response.result.status).to.equal('working');
    });

    it('[TASK-109] [TASK-110] gives every ask of a task its own key over the task\'s life, and refuses a handler reusing an answered key', async () => {
      const schema = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } } };
      mcp.registerTool('asks_in_turn', { description: 'asks twice without keys', execution: { taskSupport: 'optional' } }, async (_a, ctx) => {
        await startTask(ctx);
        const a = await ctx.elicit({ message: 'first?', requestedSchema: schema });
        const b = await ctx.elicit({ message: 'second?', requestedSchema: schema });
        return `${a.action}/${b.action}`;
      });
      mcp.registerTool('reuses_key', { description: 'asks twice with one key', execution: { taskSupport: 'optional' } }, async (_a, ctx) => {
        await startTask(ctx);
        await ctx.elicit({ message: 'once?', requestedSchema: schema }, { inputKey: 'confirm' });
        await ctx.elicit({ message: 'again?', requestedSchema: schema }, { inputKey: 'confirm' });
        return 'asked twice';
      });
      const keysOf = (t: JsonObject) => Object.keys((t.inputRequests as JsonObject) ?? {});
      const inTurn = (await result('tools/call', { name: 'asks_in_turn', arguments: {} }, EXT_ELICIT)).taskId as string;
      const first = await until(inTurn, (t) => t.status === 'input_required');
      const [k1] = keysOf(first);
      await result('tasks/update', { taskId: inTurn, inputResponses: { [k1!]: { action: 'accept', content: { ok: true } } } });
      const second = await until(inTurn, (t) => t.status === 'input_required' && keysOf(t)[0] !== k1);
      const [k2] = keysOf(second);
      expect(k2).to.be.a('string').and.not.equal(k1);
      // The old key answered again changes nothing: the second ask still waits.
      await result('tasks/update', { taskId: inTurn, inputResponses: { [k1!]: { action: 'decline' } } });
      expect(keysOf(await result('tasks/get', { taskId: inTurn }))).to.deep.equal([k2]);
      await result('tasks/update', { taskId: inTurn, inputResponses: { [k2!]: { action: 'decline' } } });
      expect(((await until(inTurn, (t) => t.status === 'completed')).result as JsonObject).content).to.deep.equal([{ type: 'text', text: 'accept/decline' }]);

      const reused = (await result('tools/call', { name: 'reuses_key', arguments: {} }, EXT_ELICIT)).taskId as string;
      await until(reused, (t) => t.status === 'input_required');
      await result('tasks/update', { taskId: reused, inputResponses: { confirm: { action: 'accept', content: { ok: true } } } });
      const failed = await until(reused, (t) => t.status === 'failed');
      expect((failed.error as JsonObject).message).to.match(/Input key "confirm" was used before in this task/);
    });

    /** A subscriptions/listen request kept open: what it sent, and how to end it. */
    async function framesAtLeast(frames: unknown[], n: number): Promise<void> {
      const deadline = Date.now() + 5_000;
      while (frames.length < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2));
    }

    function openListen(notifications: JsonObject, capabilities: JsonObject = EXT, authInfo?: unknown) {
      const frames: { method: string; params?: any }[] = [];
      const stop = new AbortController();
      const msg = { jsonrpc: '2.0' as const, id: `listen-${++nextId}`, method: 'subscriptions/listen', params: { notifications, _meta: { [META.protocolVersion]: '2026-07-28', [META.clientCapabilities]: capabilities } } };
      const answered = mcp.server.core.answer(msg, { notify: (f) => frames.push(f as (typeof frames)[number]), signal: stop.signal, authInfo });
      return { frames, answered, id: msg.id, end: () => stop.abort() };
    }

    it('[TASK-120] [TASK-128] refuses task notifications on subscriptions/listen with -32021 to a request without the extension; other opt-ins stay as they were', async () => {
      const refused = openListen({ taskIds: ['any'] }, {});
      const { response, status } = await refused.answered;
      expect(status).to.equal(400);
      expect('error' in response! && response.error).to.deep.include({ code: -32021, data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } } });
      expect(refused.frames).to.deep.equal([]);
      // Without taskIds the same client listens as before: acknowledged first, then only what it asked for (the
      // tools registered just before this spec may still announce their list change on the stream).
      const plain = openListen({ toolsListChanged: true }, {});
      await new Promise((r) => setImmediate(r));
      const methods = plain.frames.map((f) => f.method);
      expect(methods[0]).to.equal('notifications/subscriptions/acknowledged');
      expect(methods.slice(1).filter((m) => m !== 'notifications/tools/list_changed'), methods.join(', ')).to.deep.equal([]);
      plain.end();
      await plain.answered;
    });

    it('[TASK-121] sends notifications/tasks with the DetailedTask on a listen stream for the caller\'s tasks it acknowledged, and no progress or log messages', async () => {
      mcp.registerTool('noisy', { description: 'logs and reports progress as a task', execution: { taskSupport: 'optional' } }, async (_a, ctx) => {
        await startTask(ctx);
        ctx.log.info('working on it');
        ctx.progress(1, 2);
        await release.p;
        ctx.log.info('done');
        return 'noisy done';
      });
      const mine = (await result('tools/call', { name: 'noisy', arguments: {} })).taskId as string;
      const created = await call('tools/call', { name: 'work', arguments: {} }, EXT, { sub: 'alice' });
      const alices = ('result' in created.response && created.response.result.taskId) as string;
      const listening = openListen({ taskIds: [mine, 'no-such-task', alices] });
      // The lookups may go to a real Redis: wait for I/O, bounded, not for a number of turns.
      await framesAtLeast(listening.frames, 1);
      expect(listening.frames[0]).to.deep.equal({
        jsonrpc: '2.0',
        method: 'notifications/subscriptions/acknowledged',
        params: { notifications: { taskIds: [mine] }, _meta: { [META.subscriptionId]: listening.id } },
      } as never);
      release.open();
      const done = await until(mine, (t) => t.status === 'completed');
      await framesAtLeast(listening.frames, 2);
      const notes = listening.frames.slice(1);
      expect(notes.map((f) => f.method)).to.deep.equal(['notifications/tasks']);
      const { resultType: _r, _meta: _m, ...detailed } = done;
      expect(notes[0]!.params).to.deep.equal({ ...detailed, _meta: { [META.subscriptionId]: listening.id } });
      expect(notes[0]!.params.result.content).to.deep.equal([{ type: 'text', text: 'noisy done' }]);
      listening.end();
      await listening.answered;
    });

    it('[TASK-079] [TASK-080] audits the extension\'s tasks too: created, retrieved by its owner, refused to another caller', async () => {
      const events: { type: string; owner: string; method?: string; taskId?: string }[] = [];
      mcp.tasks.audit$.subscribe((e) => events.push(e));
      const created = await call('tools/call', { name: 'work', arguments: {} }, EXT, { sub: 'alice' });
      const taskId = ('result' in created.response && created.response.result.taskId) as string;
      await call('tasks/get', { taskId }, EXT, { sub: 'alice' });
      await call('tasks/get', { taskId }, EXT, { sub: 'mallory' });
      expect(events.map((e) => [e.type, e.owner, e.method, e.taskId])).to.deep.equal([
        ['created', 'sub:alice', 'tools/call', taskId],
        ['retrieved', 'sub:alice', 'tasks/get', taskId],
        ['refused', 'sub:mallory', 'tasks/get', taskId],
      ]);
    });

    it('a task asks for input long after its request was answered, and tasks/update resumes it', async () => {
      mcp.registerTool('ask_later', { description: 'works, then asks', execution: { taskSupport: 'optional' } }, async (_a, ctx) => {
        await startTask(ctx);
        await release.p;
        const r = await ctx.elicit({ message: 'Who?', requestedSchema: { type: 'object', properties: { who: { type: 'string' } } } }, { inputKey: 'who' });
        return `by ${String(r.content?.who)}`;
      });
      const taskId = (await result('tools/call', { name: 'ask_later', arguments: {} }, EXT_ELICIT)).taskId as string;
      await new Promise((r) => setTimeout(r, 20));
      release.open();
      await until(taskId, (t) => t.status === 'input_required');
      await result('tasks/update', { taskId, inputResponses: { who: { action: 'accept', content: { who: 'Ada' } } } });
      const done = await until(taskId, (t) => t.status === 'completed');
      expect((done.result as JsonObject).content).to.deep.equal([{ type: 'text', text: 'by Ada' }]);
    });

    it('cancelling a task that waits for input ends its ask with the cancellation, and the task stays cancelled', async () => {
      let askEnded: unknown;
      mcp.registerTool('waits_for_input', { description: 'asks, as a task', execution: { taskSupport: 'optional' } }, async (_a, ctx) => {
        await startTask(ctx);
        try {
          await ctx.elicit({ message: 'ok?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } });
        } catch (e) {
          askEnded = e;
          throw e;
        }
        return 'answered';
      });
      const taskId = (await result('tools/call', { name: 'waits_for_input', arguments: {} }, EXT_ELICIT)).taskId as string;
      await until(taskId, (t) => t.status === 'input_required');
      await result('tasks/cancel', { taskId });
      for (let i = 0; i < 2_000 && askEnded === undefined; i++) await new Promise((r) => setTimeout(r, 1));
      expect(askEnded).to.be.instanceOf(Error);
      const t = await result('tasks/get', { taskId });
      expect(t.status).to.equal('cancelled');
      expect(t).not.to.have.any.keys('inputRequests', 'result', 'error');
    });
  });
}
