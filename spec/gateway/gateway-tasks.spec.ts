// Tasks through the gateway: an upstream server of ours with task-capable tools, spoken to in
// 2025-11-25 (the tasks wire). A downstream 2025-11-25 caller makes a task-augmented call through
// the gateway: the task is created, polled while the upstream works, gives its result, and a
// cancelled one cancels the upstream's work.
import { expect } from 'chai';
import { Client } from '../../lib/client.js';
import { createGateway, type Gateway } from '../../lib/gateway/gateway.js';
import { listen, type Listening } from '../../lib/http/listen-port.js';
import { createMcpServer, type McpServer } from '../../lib/mcp-server.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';

const textOf = (r: { content?: unknown }) => ((r.content ?? []) as { text?: string }[]).map((b) => b.text ?? '').join('\n');

/** An upstream whose `work` runs until `release()`, and whose `forever` runs until cancelled (`cancelled` resolves then). */
function upstreamServer(revisions: string[]) {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let cancelled!: () => void;
  const wasCancelled = new Promise<void>((r) => (cancelled = r));
  const mcp = createMcpServer({ info: { name: 'tasker', version: '1.0.0' }, supportedVersions: revisions });
  mcp.registerTool('work', { execution: { taskSupport: 'optional' } }, async () => {
    await released;
    return { content: [{ type: 'text', text: 'done' }] };
  });
  mcp.registerTool('must', { execution: { taskSupport: 'required' } }, async () => ({ content: [{ type: 'text', text: 'ran as a task' }] }));
  mcp.registerTool('forever', { execution: { taskSupport: 'optional' } }, (_a, ctx) =>
    new Promise((_r, reject) => ctx.signal.addEventListener('abort', () => {
      cancelled();
      reject(ctx.signal.reason as Error);
    })),
  );
  return { mcp, release, wasCancelled };
}

for (const revision of ['2025-11-25']) {
  describe(`gateway: tasks through the gateway (upstream ${revision})`, function () {
    this.timeout(60_000);
    let upstream: ReturnType<typeof upstreamServer>;
    let upstreamWeb: Listening;
    let gateway: Gateway;
    let web: Listening;
    let client: Client;

    before(async () => {
      upstream = upstreamServer([revision]);
      upstreamWeb = await listen(createStreamableHttpHandler(upstream.mcp.server), { port: 0, logger: false });
      gateway = createGateway({ servers: { up: { url: upstreamWeb.url } }, clientOptions: { era: 'legacy' } });
      await gateway.start();
      web = await listen(createStreamableHttpHandler(gateway.server.server), { port: 0, logger: false });
      client = new Client({ info: { name: 'downstream', version: '1.0.0' }, era: 'legacy' });
      await client.connect(createStreamableHttpClientTransport(web.url));
    });
    after(async () => {
      await client?.close();
      await web?.close();
      await gateway?.close();
      await upstreamWeb?.close();
      await (upstream?.mcp as McpServer | undefined)?.close();
    });

    it('the upstream tool keeps its task support; a task-augmented call is created, polled, and gives the result', async () => {
      expect(gateway.host.client('up')?.era).to.equal('legacy');
      const tool = (await client.listTools()).find((t) => t.name === 'up__work');
      expect(tool?.execution?.taskSupport).to.equal('optional');
      const handle = await client.callToolAsTask('up__work', {}, { ttl: 60_000 });
      expect(handle.taskId).to.be.a('string');
      const polled = await client.request('tasks/get', { taskId: handle.taskId });
      expect(polled.status).to.equal('working');
      upstream.release();
      expect(textOf(await handle.result())).to.equal('done');
    });

    it('a tool the upstream runs only as a task is offered as optional: a plain call works (the gateway runs the upstream task)', async () => {
      const tool = (await client.listTools()).find((t) => t.name === 'up__must');
      expect(tool?.execution?.taskSupport).to.equal('optional');
      expect(textOf(await client.callTool('up__must', {}, { task: false }))).to.equal('ran as a task');
    });

    it('a cancelled task cancels the upstream work', async () => {
      const handle = await client.callToolAsTask('up__forever', {}, { ttl: 60_000 });
      const task = await handle.cancel();
      expect(task.status).to.equal('cancelled');
      await upstream.wasCancelled;
    });
  });
}
