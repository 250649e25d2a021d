// The tasks extension between our client and our server over Streamable HTTP (real sockets):
// every tasks/get, tasks/update and tasks/cancel names its task in the Mcp-Name header, which the
// server checks against params.taskId. The client polls on a simulated clock.
import { expect } from 'chai';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Client } from '../../lib/entries/client.js';
import { ManualClock } from '../../lib/clock.js';
import { listen, type Listening } from '../../lib/http/listen-port.js';
import { createMcpServer, type McpServer } from '../../lib/mcp-server.js';
import { startTask } from '../../lib/tasks/modern-tasks.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';
import { stepWhenQuiet } from '../helpers/quiet-steps.js';

const textOf = (r: { content?: unknown }) => ((r.content ?? []) as { text?: string }[]).map((b) => b.text).join('');

describe('client: tasks extension over Streamable HTTP (2026-07-28)', function () {
  this.timeout(20_000);
  let mcp: McpServer;
  let listening: Listening;
  /** Mcp-Method, Mcp-Name and the body's taskId of every tasks/* POST. */
  let seen: { method: string; name: string | undefined; taskId: unknown }[];
  let open: () => void;

  beforeEach(async () => {
    seen = [];
    const gate = new Promise<void>((r) => (open = r));
    mcp = createMcpServer({ info: { name: 'tasks-http', version: '1.0.0' } });
    mcp.registerTool('confirm_then_wait', { execution: { taskSupport: 'optional' } }, async (_a, ctx) => {
      await startTask(ctx);
      const answer = await ctx.elicit({ message: 'Go?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } }, { inputKey: 'go' });
      await gate;
      return `went: ${answer.action}`;
    });
    mcp.registerTool('forever', { execution: { taskSupport: 'optional' } }, async (_a, ctx) => {
      await startTask(ctx);
      await new Promise((_r, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason as Error)));
    });
    const handler = createStreamableHttpHandler(mcp.server);
    // Look at each POST's headers and body on the way in; the handler reads the same body.
    const spy = Object.assign(
      (req: IncomingMessage, res: ServerResponse) => {
        const method = req.headers['mcp-method'];
        if (typeof method === 'string' && method.startsWith('tasks/')) {
          const chunks: Buffer[] = [];
          req.on('data', (c: Buffer) => chunks.push(c));
          req.on('end', () => {
            const name = req.headers['mcp-name'];
            seen.push({ method, name: typeof name === 'string' ? name : undefined, taskId: JSON.parse(Buffer.concat(chunks).toString()).params?.taskId });
          });
        }
        handler(req, res);
      },
      { path: handler.path, close: () => handler.close() },
    );
    listening = await listen(spy, { port: 0, logger: false });
  });
  afterEach(async () => {
    open();
    await listening.close();
    await mcp.close();
  });

  it('[TASK-122] sets Mcp-Name to the taskId on tasks/get, tasks/update and tasks/cancel', async () => {
    const clock = new ManualClock(0);
    const client = new Client({ info: { name: 'c', version: '1' }, clock });
    client.onElicitation({ form: async () => ({ action: 'accept', content: { ok: true } }) });
    await client.connect(createStreamableHttpClientTransport(listening.url));
    expect(client.era).to.equal('modern');
    try {
      const handle = await client.callToolAsTask('confirm_then_wait', {});
      const result = handle.result();
      // Until the client has answered the task's question (or the task ended some other way).
      let timer: NodeJS.Timeout | undefined;
      const updated = new Promise<void>((r) => (timer = setInterval(() => seen.some((s) => s.method === 'tasks/update') && r(), 5)));
      await stepWhenQuiet(clock, client, Promise.race([updated, result.then(() => undefined, () => undefined)]));
      clearInterval(timer);
      open();
      expect(textOf(await stepWhenQuiet(clock, client, result))).to.equal('went: accept');
      const forever = await client.callToolAsTask('forever', {});
      expect((await forever.cancel()).status).to.equal('cancelled');
      const methods = new Set(seen.map((s) => s.method));
      expect([...methods].sort()).to.deep.equal(['tasks/cancel', 'tasks/get', 'tasks/update']);
      for (const s of seen) expect(s.name, s.method).to.equal(s.taskId).and.to.be.a('string');
    } finally {
      await client.close();
    }
  });
});
