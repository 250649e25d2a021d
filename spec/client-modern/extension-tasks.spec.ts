// The tasks extension (io.modelcontextprotocol/tasks) on the client in the modern era, against our
// McpServer: the same task API as in 2025-11-25. callToolAsTask gives a handle (status$, result),
// callTool follows a task to its result, a task's input requests are answered by the client's
// handlers through tasks/update, task(id) picks a task up again, a failed task rejects with its
// error; a quick tool answers at once (a handle already completed). Polling runs on a simulated clock.
import { expect } from 'chai';
import { Client } from '../../lib/entries/client.js';
import { ManualClock } from '../../lib/clock.js';
import { McpError } from '../../lib/errors.js';
import { createMcpServer } from '../../lib/mcp-server.js';
import { startTask } from '../../lib/tasks/modern-tasks.js';
import { createMemoryPair } from '../../streams/memory.js';

const TASKS = 'io.modelcontextprotocol/tasks';
const textOf = (r: { content?: unknown }) => ((r.content ?? []) as { text?: string }[]).map((b) => b.text).join('');

/** Settle microtasks and timers of the real event loop (the server's work) a few times. */
const turns = async (n = 10) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

async function setUp() {
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  const mcp = createMcpServer({ info: { name: 'tasks', version: '1.0.0' } });
  mcp.registerTool('build', { execution: { taskSupport: 'optional' } }, async (args) => {
    await gate;
    return `built ${String(args['target'])}`;
  });
  mcp.registerTool('quick', { execution: { taskSupport: 'optional' } }, () => 'at once');
  mcp.registerTool('confirm_in_task', { execution: { taskSupport: 'optional' } }, async (_a, ctx) => {
    await startTask(ctx);
    const answer = await ctx.elicit({ message: 'Go on?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } }, { inputKey: 'go' });
    return `answer ${answer.action} ${JSON.stringify(answer.content)}`;
  });
  mcp.registerTool('broken', { execution: { taskSupport: 'optional' } }, async () => {
    await gate;
    throw new McpError(-32603, 'the build broke');
  });
  const clock = new ManualClock(0);
  const [a, b] = createMemoryPair();
  await mcp.connect(b);
  const seen: { method?: string; params?: Record<string, any> }[] = [];
  b.inbound$.subscribe((raw) => seen.push(raw as (typeof seen)[number]));
  const client = new Client({ info: { name: 'c', version: '1' }, clock });
  client.onElicitation({ form: async () => ({ action: 'accept', content: { ok: true } }) });
  await client.connect(a);
  /** Advance the poll clock until `p` settles (bounded). */
  const poll = async <T>(p: Promise<T>): Promise<T> => {
    let done = false;
    void p.then(
      () => (done = true),
      () => (done = true),
    );
    for (let i = 0; i < 200 && !done; i++) {
      await turns();
      clock.advance(1000);
    }
    return p;
  };
  return { mcp, client, open, seen, poll };
}

describe('client: the tasks extension (2026-07-28)', () => {
  it('callToolAsTask: a handle whose status goes working -> completed, and the result; requests declare the extension', async () => {
    const { mcp, client, open, seen, poll } = await setUp();
    expect(client.era).to.equal('modern');
    const handle = await client.callToolAsTask('build', { target: 'app' });
    expect(handle.taskId).to.be.a('string').and.not.equal('');
    const statuses: string[] = [];
    handle.status$.subscribe((t) => statuses.push(t.status));
    await turns();
    open();
    expect(textOf(await poll(handle.result()))).to.equal('built app');
    expect(statuses[0]).to.equal('working');
    expect(statuses.at(-1)).to.equal('completed');
    const call = seen.find((m) => m.method === 'tools/call')!;
    expect(call.params!._meta['io.modelcontextprotocol/clientCapabilities'].extensions).to.deep.equal({ [TASKS]: {} });
    expect(seen.some((m) => m.method === 'tasks/get')).to.equal(true);
    await client.close();
    await mcp.close();
  });

  it('[TASK-085] callTool follows a task to its result; a quick tool answers at once (callToolAsTask: a completed handle)', async () => {
    const { mcp, client, open, poll } = await setUp();
    const pending = client.callTool('build', { target: 'docs' });
    await turns();
    open();
    expect(textOf(await poll(pending))).to.equal('built docs');
    const quick = await client.callToolAsTask('quick', {});
    expect(quick.current?.status).to.equal('completed');
    expect(textOf(await quick.result())).to.equal('at once');
    await client.close();
    await mcp.close();
  });

  it("a task's input request is answered by onElicitation through tasks/update", async () => {
    const { mcp, client, seen, poll } = await setUp();
    const handle = await client.callToolAsTask('confirm_in_task', {});
    expect(textOf(await poll(handle.result()))).to.equal('answer accept {"ok":true}');
    const update = seen.find((m) => m.method === 'tasks/update')!;
    expect(update.params!.taskId).to.equal(handle.taskId);
    expect(update.params!.inputResponses).to.deep.equal({ go: { action: 'accept', content: { ok: true } } });
    await client.close();
    await mcp.close();
  });

  it('task(id) picks a task up again; a failed task rejects with its JSON-RPC error', async () => {
    const { mcp, client, open, poll } = await setUp();
    const first = await client.callToolAsTask('build', { target: 'lib' });
    const again = client.task(first.taskId);
    const broken = await client.callToolAsTask('broken', {});
    await turns();
    open();
    expect(textOf(await poll(again.result()))).to.equal('built lib');
    const error = await poll(broken.result()).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(McpError);
    expect((error as McpError).code).to.equal(-32603);
    expect((error as McpError).message).to.contain('the build broke');
    await client.close();
    await mcp.close();
  });
});
