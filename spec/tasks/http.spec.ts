// Tasks over Streamable HTTP: our server and our client, authenticated users. The task's
// elicitation travels on the tasks/result stream; another user cannot see the task; a new
// connection of the same user resumes it.
import { expect } from 'chai';
import type { IncomingMessage } from 'node:http';
import { Client } from '../../lib/entries/client.js';
import { listen, type Listening } from '../../lib/http/listen-port.js';
import { createMcpServer } from '../../lib/mcp-server.js';
import type { AuthOutcome } from '../../streams/http-auth.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';
import { CLIENT_INFO, SERVER_INFO } from '../helpers/raw-peer.js';
import { deferred } from './helpers.js';
import { openSession, post } from '../fixtures/http-server/raw.js';

const TOKENS: Record<string, { sub: string }> = { 'alice-token': { sub: 'alice' }, 'bob-token': { sub: 'bob' } };
const authenticate = (req: IncomingMessage): AuthOutcome => {
  const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
  const claims = token === undefined ? undefined : TOKENS[token];
  return claims ? { ok: true, authInfo: { ...claims } } : { ok: false, status: 401 };
};

describe('tasks over Streamable HTTP (our server, our client)', function () {
  this.timeout(20_000);
  let listening: Listening;
  const clients: Client[] = [];
  const go = deferred();

  before(async () => {
    const mcp = createMcpServer({ info: SERVER_INFO });
    mcp.registerTool('deploy', { execution: { taskSupport: 'optional' } }, async (_a, ctx) => {
      const r = await ctx.elicit({ message: 'Region?', requestedSchema: { type: 'object', properties: { region: { type: 'string' } } } });
      await go.promise;
      return `deployed to ${(r.content as { region: string }).region}`;
    });
    mcp.registerTool('forever', { execution: { taskSupport: 'optional' } }, (_a, ctx) => new Promise((_r, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason as Error))));
    listening = await listen(createStreamableHttpHandler(mcp.server, { authenticate }), { port: 0, logger: false });
  });
  after(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    await listening.close();
  });

  async function connect(token: string): Promise<Client> {
    const client = new Client({ era: 'legacy', info: CLIENT_INFO });
    client.onElicitation({ form: () => ({ action: 'accept', content: { region: 'eu-west' } }) });
    await client.connect(createStreamableHttpClientTransport(listening.url, { headers: { authorization: `Bearer ${token}` } }));
    clients.push(client);
    return client;
  }

  it('input_required on the tasks/result stream; other users see nothing; the same user resumes from a new connection', async () => {
    const alice = await connect('alice-token');
    const handle = await alice.callToolAsTask('deploy', {}, { ttl: 60_000 });
    const statuses: string[] = [];
    handle.status$.subscribe((t) => statuses.push(t.status));
    const bob = await connect('bob-token');
    expect(((await bob.getTask(handle.taskId).catch((e: unknown) => e)) as { code: number }).code).to.equal(-32602);
    expect(await bob.listTasks()).to.deep.equal([]);
    const again = await connect('alice-token');
    const resumed = again.task(handle.taskId);
    go.resolve();
    const [first, second] = await Promise.all([handle.result(), resumed.result()]);
    expect(first.content).to.deep.equal([{ type: 'text', text: 'deployed to eu-west' }]);
    expect(second.content).to.deep.equal(first.content);
    expect(statuses[statuses.length - 1]).to.equal('completed');
    expect((await again.listTasks()).map((t) => t.taskId)).to.include(handle.taskId);
  });

  it('[TASK-025] answers tasks/get, tasks/list and tasks/cancel as plain JSON, never upgrading the poll to an SSE stream', async () => {
    const headers = { authorization: 'Bearer alice-token' };
    const sid = await openSession(listening.url, '2025-11-25', headers);
    const h = { ...headers, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' };
    const created = await post(listening.url, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'forever', arguments: {}, task: {} } }, h);
    const taskId = created.json.result.task.taskId as string;
    for (const [id, method, params] of [[2, 'tasks/get', { taskId }], [3, 'tasks/list', {}], [4, 'tasks/cancel', { taskId }]] as const) {
      const res = await post(listening.url, { jsonrpc: '2.0', id, method, params }, h);
      expect(res.status, method).to.equal(200);
      expect(res.headers['content-type'], method).to.match(/^application\/json/);
      expect(res.json.id, method).to.equal(id);
    }
  });
});
