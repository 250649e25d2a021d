// The task quota when callers cannot be told apart (issue 32, finding 5). Unauthenticated callers of
// a stateless server (2025-11-25) and of any 2026-07-28 request share one owner. Before, the
// per-owner bound (100) applied to that owner: one caller's 100 long tasks refused every other
// anonymous caller's task call with -32603 "Too many tasks in progress for this requestor", even
// for tools that could run without a task. Now they share a pool of their own
// (`maxLiveUnidentified`), an optional-task tool runs without a task when there is no room, and a
// refusal is -32090 with `data.taskLimit` saying which limit and what to do.
import { expect } from 'chai';
import { Client } from '../../lib/entries/client.js';
import { ManualClock } from '../../lib/clock.js';
import { McpError } from '../../lib/errors.js';
import type { JsonObject } from '../../lib/jsonrpc/message.js';
import { listen, type Listening } from '../../lib/http/listen-port.js';
import { createMcpServer, type McpServer } from '../../lib/mcp-server.js';
import { META } from '../../lib/protocol/schema/modern.js';
import { TASKS_EXTENSION } from '../../lib/tasks/modern-tasks.js';
import { MemoryTaskStore } from '../../lib/tasks/memory-task-store.js';
import { TASK_LIMIT_REACHED } from '../../lib/tasks/task-limit.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';
import { SERVER_INFO } from '../helpers/raw-peer.js';
import { post } from '../fixtures/http-server/raw.js';
import { deferred } from './helpers.js';

function tools(mcp: McpServer, gate: Promise<void>): void {
  mcp.registerTool('hold', { execution: { taskSupport: 'optional' } }, async () => {
    await gate;
    return 'held';
  });
  mcp.registerTool('quick', { execution: { taskSupport: 'optional' } }, () => 'quick');
  mcp.registerTool('must', { execution: { taskSupport: 'required' } }, async () => {
    await gate;
    return 'must';
  });
}

describe('tasks/task-quota: callers nobody can tell apart (2025-11-25, stateless HTTP)', function () {
  this.timeout(20_000);
  let listening: Listening;
  let store: MemoryTaskStore;
  const go = deferred();
  const headers = { 'mcp-protocol-version': '2025-11-25' };
  let id = 0;
  const rpc = (method: string, params: Record<string, unknown>) => post(listening.url, { jsonrpc: '2.0', id: ++id, method, params }, headers);

  before(async () => {
    store = new MemoryTaskStore({ maxLivePerOwner: 2, maxLiveUnidentified: 3 });
    const mcp = createMcpServer({ info: SERVER_INFO, tasks: { store } });
    tools(mcp, go.promise);
    listening = await listen(createStreamableHttpHandler(mcp.server, { stateless: true }), { port: 0, logger: false });
  });
  after(async () => {
    go.resolve();
    await listening.close();
    await store.close();
  });

  it('[TASK-073] one caller holding the shared pool leaves an optional tool working for the others (no task), and refuses a required one with -32090, not -32603', async () => {
    // One anonymous caller starts long tasks: 3, the pool's size (more than the per-owner bound of 2).
    for (let i = 0; i < 3; i++) {
      const created = await rpc('tools/call', { name: 'hold', arguments: {}, task: {} });
      expect(created.json.result?.task?.status, JSON.stringify(created.json)).to.equal('working');
    }
    // Another anonymous caller: the optional tool answers with its result, without a task.
    const plain = await rpc('tools/call', { name: 'quick', arguments: {}, task: {} });
    expect(plain.json.error, JSON.stringify(plain.json.error)).to.equal(undefined);
    expect(plain.json.result.content).to.deep.equal([{ type: 'text', text: 'quick' }]);
    expect(plain.json.result).to.not.have.property('task');
    // A required-task tool cannot run without one: a refusal that says which limit and what to do.
    const refused = await rpc('tools/call', { name: 'must', arguments: {}, task: {} });
    expect(refused.json.error.code).to.equal(TASK_LIMIT_REACHED);
    expect(refused.json.error.message).to.match(/unauthenticated callers \(at most 3, shared by all of them\); authenticate/);
    expect(refused.json.error.data).to.deep.equal({ taskLimit: { scope: 'unidentified', limit: 3 } });
  });

  it('our client: callToolAsTask on an optional tool gets a completed handle, callTool on a required one the -32090 refusal', async () => {
    const client = new Client({ era: 'legacy', info: { name: 'spec', version: '1' } });
    await client.connect(createStreamableHttpClientTransport(listening.url, { openStandaloneStream: false }));
    try {
      await client.listTools();
      const handle = await client.callToolAsTask('quick', {});
      expect((await handle.result()).content).to.deep.equal([{ type: 'text', text: 'quick' }]);
      const refused = await client.callTool('must', {}).then(
        () => undefined,
        (e: unknown) => e as McpError,
      );
      expect(refused).to.be.instanceOf(McpError);
      expect(refused!.code).to.equal(TASK_LIMIT_REACHED);
      expect(refused!.data).to.deep.equal({ taskLimit: { scope: 'unidentified', limit: 3 } });
    } finally {
      await client.close();
    }
  });
});

describe('tasks/task-quota: callers nobody can tell apart (2026-07-28, the tasks extension)', () => {
  let mcp: McpServer;
  let store: MemoryTaskStore;
  let go: ReturnType<typeof deferred<void>>;
  let id = 0;

  beforeEach(() => {
    go = deferred();
    store = new MemoryTaskStore({ clock: new ManualClock(0), maxLivePerOwner: 2, maxLiveUnidentified: 2 });
    mcp = createMcpServer({ info: SERVER_INFO, tasks: { store } });
    tools(mcp, go.promise);
  });
  afterEach(async () => {
    go.resolve();
    await mcp.close();
    await store.close();
  });

  async function call(name: string, authInfo?: unknown): Promise<{ result?: JsonObject; error?: { code: number; message: string; data?: unknown } }> {
    const meta = { [META.protocolVersion]: '2026-07-28', [META.clientCapabilities]: { extensions: { [TASKS_EXTENSION]: {} } } };
    const a = await mcp.server.core.answer({ jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name, arguments: {}, _meta: meta } }, { notify: () => {}, authInfo });
    return a.response as never;
  }

  it('[TASK-073] an optional tool past the pool carries on and answers with its result; a required one gets -32090; an authenticated caller has its own quota', async () => {
    for (let i = 0; i < 2; i++) expect((await call('hold')).result?.resultType).to.equal('task');
    // No room: the handler is not stopped, its result answers the request once it ends.
    const pending = call('hold');
    let answeredEarly = false;
    void pending.then(() => (answeredEarly = true));
    const refused = await call('must');
    expect(refused.error?.code).to.equal(TASK_LIMIT_REACHED);
    expect(refused.error?.data).to.deep.equal({ taskLimit: { scope: 'unidentified', limit: 2 } });
    // An authenticated user is not in the anonymous pool.
    expect((await call('must', { sub: 'alice' })).result?.resultType).to.equal('task');
    expect(answeredEarly, 'answered before the handler ended').to.equal(false);
    go.resolve();
    const answered = await pending;
    expect(answered.error, JSON.stringify(answered.error)).to.equal(undefined);
    expect(answered.result?.content).to.deep.equal([{ type: 'text', text: 'held' }]);
    expect(answered.result?.resultType).to.not.equal('task');
  });

  it('an authenticated caller over its own bound is refused with scope "requestor"', async () => {
    for (let i = 0; i < 2; i++) expect((await call('hold', { sub: 'bob' })).result?.resultType).to.equal('task');
    const refused = await call('must', { sub: 'bob' });
    expect(refused.error?.code).to.equal(TASK_LIMIT_REACHED);
    expect(refused.error?.message).to.match(/for this requestor \(at most 2\)/);
    expect(refused.error?.data).to.deep.equal({ taskLimit: { scope: 'requestor', limit: 2 } });
  });
});
