// Tasks through the gateway: an upstream server of ours with task-capable tools, spoken to in
// 2025-11-25 (the tasks wire) or 2026-07-28 (the tasks extension, where the server decides per
// call and tools list no `execution`). A downstream caller of either era makes a task-augmented
// call through the gateway: the task is created, polled while the upstream works, gives its
// result, and a cancelled one cancels the upstream's work (for a 2026-07-28 upstream, its task:
// the forwarded call sends tasks/cancel).
import { expect } from 'chai';
import { Client } from '../../lib/client.js';
import { McpError } from '../../lib/errors.js';
import { ManualClock } from '../../lib/clock.js';
import { CANCEL_GRACE_MS } from '../../lib/gateway/forward-call.js';
import { createGateway, type Gateway } from '../../lib/gateway/gateway.js';
import { listen, type Listening } from '../../lib/http/listen-port.js';
import { createMcpServer, type McpServer } from '../../lib/mcp-server.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';
import { MemoryTaskStore } from '../../lib/tasks/memory-task-store.js';
import { startTask } from '../../lib/tasks/modern-tasks.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';

const textOf = (r: { content?: unknown }) => ((r.content ?? []) as { text?: string }[]).map((b) => b.text ?? '').join('\n');

/** Tasks polled every 20 ms (the default second would make each spec wait). */
const quickTasks = () => ({ store: new MemoryTaskStore({ pollInterval: 20 }) });

/**
 * An upstream whose `work` runs until `release()`, whose `forever` runs until cancelled
 * (`nextCancel()` resolves at the next cancellation), `mustForever` likewise but only as a task,
 * and whose `fails` fails as a task.
 */
function upstreamServer(revisions: string[]) {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  const waiters: (() => void)[] = [];
  const store = new MemoryTaskStore({ pollInterval: 20 });
  const mcp = createMcpServer({ info: { name: 'tasker', version: '1.0.0' }, supportedVersions: revisions, tasks: { store } });
  mcp.registerTool('work', { execution: { taskSupport: 'optional' } }, async () => {
    await released;
    return { content: [{ type: 'text', text: 'done' }] };
  });
  mcp.registerTool('must', { execution: { taskSupport: 'required' } }, async () => ({ content: [{ type: 'text', text: 'ran as a task' }] }));
  mcp.registerTool('forever', { execution: { taskSupport: 'optional' } }, (_a, ctx) =>
    new Promise((_r, reject) => ctx.signal.addEventListener('abort', () => {
      for (const w of waiters.splice(0)) w();
      reject(ctx.signal.reason as Error);
    })),
  );
  mcp.registerTool('mustForever', { execution: { taskSupport: 'required' } }, (_a, ctx) =>
    new Promise((_r, reject) => ctx.signal.addEventListener('abort', () => {
      for (const w of waiters.splice(0)) w();
      reject(ctx.signal.reason as Error);
    })),
  );
  mcp.registerTool('fails', { execution: { taskSupport: 'optional' } }, async (_a, ctx) => {
    await startTask(ctx);
    throw new McpError(-32001, 'the upstream work failed');
  });
  // Runs as a task, then (once polled) reports: a progress notification (2025-11-25) and a new
  // status message (the extension's progress description), then waits for `report()`.
  let report!: () => void;
  const reported = new Promise<void>((r) => (report = r));
  let polled: (() => void) | undefined;
  mcp.registerTool('mustReport', { execution: { taskSupport: 'required' } }, async (_a, ctx) => {
    await startTask(ctx);
    // Once the task is polled, its creating request is over: what follows is after the task was created.
    await new Promise<void>((r) => (polled = r));
    ctx.progress(1, 2, 'progress: half way');
    const taskId = (ctx as { task?: { taskId: string } }).task?.taskId;
    if (taskId !== undefined) await store.apply(taskId, { type: 'STATUS', now: Date.now(), message: 'status: half way' });
    await reported;
    return { content: [{ type: 'text', text: 'reported' }] };
  });
  const ran: string[] = [];
  mcp.registerTool('mustSecret', { execution: { taskSupport: 'required' } }, async () => {
    ran.push('mustSecret');
    return { content: [{ type: 'text', text: 'the secret' }] };
  });
  // Listed (below) with an outputSchema its results do not meet: a misbehaving upstream.
  mcp.registerTool('mustShape', { execution: { taskSupport: 'required' } }, async () => ({ content: [], structuredContent: { n: 'not a number' } }));
  mcp.server.use(async (req, next) => {
    if (req.method === 'tasks/get') polled?.();
    const answer = await next();
    if (req.method !== 'tools/list') return answer;
    const shape = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] };
    return { ...answer, tools: (answer.tools as { name: string }[]).map((t) => (t.name === 'mustShape' ? { ...t, outputSchema: shape } : t)) };
  });
  return { mcp, release, report, ran, nextCancel: () => new Promise<void>((r) => waiters.push(r)) };
}

for (const revision of ['2025-11-25', '2026-07-28']) {
  describe(`gateway: tasks through the gateway (upstream ${revision})`, function () {
    this.timeout(20_000);
    let upstream: ReturnType<typeof upstreamServer>;
    let upstreamWeb: Listening;
    let gateway: Gateway;
    let web: Listening;
    let client: Client;
    let modernClient: Client;

    before(async () => {
      upstream = upstreamServer([revision]);
      upstreamWeb = await listen(createStreamableHttpHandler(upstream.mcp.server), { port: 0, logger: false });
      gateway = createGateway({
        servers: { up: { url: upstreamWeb.url } },
        clientOptions: { era: revision === '2026-07-28' ? 'modern' : 'legacy' },
        tasks: quickTasks(),
        approveToolCall: (request) => request.tool !== 'mustSecret' || { approved: false, reason: 'not this one' },
      });
      await gateway.start();
      web = await listen(createStreamableHttpHandler(gateway.server.server), { port: 0, logger: false });
      client = new Client({ info: { name: 'downstream', version: '1.0.0' }, era: 'legacy' });
      await client.connect(createStreamableHttpClientTransport(web.url));
      modernClient = new Client({ info: { name: 'downstream-modern', version: '1.0.0' }, era: 'modern' });
      await modernClient.connect(createStreamableHttpClientTransport(web.url));
    });
    after(async () => {
      await client?.close();
      await modernClient?.close();
      await web?.close();
      await gateway?.close();
      await upstreamWeb?.close();
      await (upstream?.mcp as McpServer | undefined)?.close();
    });

    it('the upstream tool keeps its task support; a task-augmented call is created, polled, and gives the result', async () => {
      expect(gateway.host.client('up')?.era).to.equal(revision === '2026-07-28' ? 'modern' : 'legacy');
      const tool = (await client.listTools()).find((t) => t.name === 'up__work');
      expect(tool?.execution?.taskSupport).to.equal('optional');
      const handle = await client.callToolAsTask('up__work', {}, { ttl: 60_000 });
      expect(handle.taskId).to.be.a('string').and.not.equal('');
      const polled = await client.request('tasks/get', { taskId: handle.taskId });
      expect(polled.status).to.equal('working');
      upstream.release();
      expect(textOf(await handle.result())).to.equal('done');
    });

    it('a tool the upstream runs only as a task is offered as optional: a plain call works (the gateway runs the upstream task)', async () => {
      const tool = (await client.listTools()).find((t) => t.name === 'up__must');
      expect(tool?.execution?.taskSupport).to.equal('optional');
      expect(textOf(await client.callTool('up__must', {}, { task: false }))).to.equal('ran as a task');
      expect(textOf(await modernClient.callTool('up__must', {}))).to.equal('ran as a task');
    });

    it('a cancelled task cancels the upstream work', async () => {
      const cancelled = upstream.nextCancel();
      const handle = await client.callToolAsTask('up__forever', {}, { ttl: 60_000 });
      const task = await handle.cancel();
      expect(task.status).to.equal('cancelled');
      await cancelled;
    });

    it('a cancelled task of a tool the upstream runs only as a task cancels the upstream task (tasks/cancel)', async () => {
      const cancelled = upstream.nextCancel();
      const handle = await client.callToolAsTask('up__mustForever', {}, { ttl: 60_000 });
      expect((await handle.cancel()).status).to.equal('cancelled');
      await cancelled;
    });

    it('a 2026-07-28 caller with the tasks extension gets a task it can get, and cancel, reaching the upstream', async () => {
      const cancelled = upstream.nextCancel();
      const handle = await modernClient.callToolAsTask('up__forever', {});
      expect(handle.taskId).to.be.a('string').and.not.equal('');
      const polled = await modernClient.request('tasks/get', { taskId: handle.taskId });
      expect(polled.status).to.equal('working');
      expect((await handle.cancel()).status).to.equal('cancelled');
      await cancelled;
    });

    it('an upstream task\'s progress reaches the caller: its progress notifications (2025-11-25), its status messages (the extension)', async () => {
      const heard: string[] = [];
      const call = client.callTool('up__mustReport', {}, { task: false, onprogress: (p) => heard.push(p.message ?? '') });
      const expected = revision === '2026-07-28' ? 'status: half way' : 'progress: half way';
      await new Promise<void>((r) => { const poll = () => (heard.includes(expected) ? r() : setTimeout(poll, 5)); poll(); });
      upstream.report();
      expect(textOf(await call)).to.equal('reported');
    });

    it('an upstream task passes the approver first: a refused call never reaches the upstream', async () => {
      const result = await client.callTool('up__mustSecret', {}, { task: false });
      expect(result.isError).to.equal(true);
      expect(textOf(result)).to.match(/denied: not this one/);
      expect(upstream.ran).to.deep.equal([]);
    });

    it("an upstream task's result is checked against the tool's outputSchema", async () => {
      const result = await client.callTool('up__mustShape', {}, { task: false });
      expect(result.isError).to.equal(true);
      expect(textOf(result)).to.contain('does not match its outputSchema: #/n Instance type "string" is invalid');
    });

    it('an upstream call that fails tells each caller why: a tool error, or the same JSON-RPC error failing a 2026-07-28 task of a 2026-07-28 upstream', async () => {
      const plain = await client.callTool('up__fails', {});
      expect(plain.isError).to.equal(true);
      expect(textOf(plain)).to.contain('the upstream work failed');
      const handle = await modernClient.callToolAsTask('up__fails', {});
      const outcome = await handle.result().then((r) => r, (e: unknown) => e);
      if (revision === '2026-07-28') expect(outcome).to.be.instanceOf(McpError).with.property('code', -32001);
      else expect(textOf(outcome as { content?: unknown })).to.contain('the upstream work failed');
    });
  });
}

describe('gateway: a caller that gives up before a 2026-07-28 upstream with tasks answers', function () {
  this.timeout(20_000);
  it('keeps the upstream request open for the grace (a task on its way would be cancelled), then closes it, which cancels it upstream', async () => {
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    let aborted = false;
    const upstream = createMcpServer({ info: { name: 'slow', version: '1.0.0' }, supportedVersions: ['2026-07-28'], tasks: quickTasks() });
    upstream.registerTool('tasked', { execution: { taskSupport: 'optional' } }, async () => ({ content: [] }));
    // Runs on the request (no task) until the request is cancelled.
    upstream.registerTool('slow', {}, (_a, ctx) => new Promise((_r, reject) => {
      started();
      ctx.signal.addEventListener('abort', () => {
        aborted = true;
        reject(ctx.signal.reason as Error);
      });
    }));
    const upstreamWeb = await listen(createStreamableHttpHandler(upstream.server), { port: 0, logger: false });
    const clock = new ManualClock(Date.now());
    const gateway = createGateway({ servers: { up: { url: upstreamWeb.url } }, clientOptions: { era: 'modern', clock }, tasks: quickTasks() });
    const client = new Client({ info: { name: 'downstream', version: '1.0.0' }, era: 'legacy' });
    try {
      await gateway.start();
      const web = await listen(createStreamableHttpHandler(gateway.server.server), { port: 0, logger: false });
      try {
        await client.connect(createStreamableHttpClientTransport(web.url));
        const giveUp = new AbortController();
        const call = client.callTool('up__slow', {}, { signal: giveUp.signal }).then(() => 'answered', (e: unknown) => e);
        await running;
        giveUp.abort();
        expect(await call).to.be.instanceOf(Error);
        // A round trip through the gateway and upstream: the upstream request is still open.
        await client.callTool('up__tasked', {});
        expect(aborted).to.equal(false);
        clock.advance(CANCEL_GRACE_MS);
        await new Promise<void>((r) => { const poll = () => (aborted ? r() : setTimeout(poll, 5)); poll(); });
      } finally {
        await client.close();
        await web.close();
      }
    } finally {
      await gateway.close();
      await upstreamWeb.close();
      await upstream.close();
    }
  });
});
